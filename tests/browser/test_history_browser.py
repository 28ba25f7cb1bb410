"""Issue 9: the history page in Chromium at 1440x900: the past board at the table's size, the
round scrubber, the slider and the step buttons; the end-of-game summary loading into the table.
With WARROOM_SCREENS=1 it also saves the screenshots of docs/screens/ (history and end summary,
1440x900 and 390x844, English and Polish)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import ROOT
from tests.test_history_page import finished  # noqa: F401  (the module's finished bot game)

pytestmark = pytest.mark.browser

SCREENS = ROOT / "docs" / "screens"
SIZES = {"1440x900": {"width": 1440, "height": 900}, "390x844": {"width": 390, "height": 844}}


def signed_in(browser: Any, server: Any, player: Any, size: str, lang: str = "en") -> Any:
    ctx = browser.new_context(viewport=SIZES[size], locale="pl-PL" if lang == "pl" else "en-GB",
                              has_touch=size == "390x844", is_mobile=size == "390x844")
    ctx.add_cookies([{"name": k, "value": v, "url": server.url} for k, v in player.http.cookies.items()])
    return ctx


def test_the_history_page_draws_the_past_board_full_size_with_a_round_scrubber(server: Any, browser: Any,
                                                                                finished: Any) -> None:  # noqa: F811
    axel, _alma, match_id = finished
    ctx = signed_in(browser, server, axel, "1440x900")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(f"{server.url}/matches/{match_id}/replay?seq=0")
        board = page.locator("#replay-board svg.qmg-map")
        expect(board).to_be_visible()
        box = board.bounding_box()
        assert box is not None and box["width"] >= 900, box  # the table's size, not a side-column thumbnail

        page.locator("#replay-rounds a[data-round='3']").click()
        expect(page.locator("#replay-step")).to_contain_text("Round 3: Germany")
        expect(page.locator("#replay-rounds a[data-round='3']")).to_have_attribute("aria-current", "step")
        assert re.search(r"/replay\?seq=\d+", page.url)  # the address follows the scrubber
        at = int(page.locator("#replay").get_attribute("data-seq") or "0")

        page.locator("#replay-next").click()
        expect(page.locator("#replay")).to_have_attribute("data-seq", str(at + 1))
        page.locator("#replay-prev").click()
        expect(page.locator("#replay")).to_have_attribute("data-seq", str(at))

        # the step's swap done (a key pressed on the slider it replaces would be lost with it)
        expect(page.locator("#replay.htmx-swapping, #replay.htmx-settling")).to_have_count(0)
        slider = page.locator("#replay-slider")
        slider.focus()
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay")).to_have_attribute("data-seq", str(at + 1))

        expect(page.locator("#replay.htmx-swapping, #replay.htmx-settling")).to_have_count(0)
        page.locator("#replay-turn").select_option(index=0)
        expect(page.locator("#replay-step")).to_contain_text("Round 1: Germany")
        assert not [e for e in errors if "Content Security Policy" in e], errors
    finally:
        ctx.close()


def test_the_end_summary_loads_into_the_finished_table(server: Any, browser: Any, finished: Any) -> None:  # noqa: F811
    axel, _alma, match_id = finished
    ctx = signed_in(browser, server, axel, "1440x900")
    page = ctx.new_page()
    try:
        page.goto(f"{server.url}/matches/{match_id}")
        summary = page.locator("#end-summary")
        expect(summary.locator("#end-winners")).to_be_visible()
        expect(summary.locator("#end-rounds")).to_contain_text("Axis")
        summary.locator("#end-replay").click()
        page.wait_for_url(re.compile(r"/replay\?seq=0$"))
        expect(page.locator("#replay-step")).to_contain_text("before the first move")
    finally:
        ctx.close()


@pytest.mark.skipif(not os.environ.get("WARROOM_SCREENS"), reason="WARROOM_SCREENS=1 saves docs/screens/")
def test_screenshots_of_the_history_and_the_end_summary(server: Any, browser: Any, finished: Any) -> None:  # noqa: F811
    axel, _alma, match_id = finished
    SCREENS.mkdir(parents=True, exist_ok=True)
    page_of_round = {}
    for lang in ("en", "pl"):
        for size in SIZES:
            ctx = signed_in(browser, server, axel, size, lang)
            page = ctx.new_page()
            try:
                page.goto(f"{server.url}/matches/{match_id}/replay")
                if lang not in page_of_round:
                    href = page.locator("#replay-rounds a[data-round='4']").get_attribute("href")
                    page_of_round[lang] = href
                page.goto(f"{server.url}{page_of_round[lang]}&seat=p2")
                page.wait_for_timeout(300)
                page.screenshot(path=str(SCREENS / f"history-{lang}-{size}.png"))
                page.goto(f"{server.url}/matches/{match_id}")
                summary = page.locator("#end-summary")
                expect(summary.locator("#end-winners")).to_be_visible()  # loaded: no longer swapped
                page.locator("#end-panel").screenshot(path=str(SCREENS / f"end-summary-{lang}-{size}.png"))
            finally:
                ctx.close()
    assert all(Path(SCREENS / f"history-{lang}-{size}.png").exists() for lang in ("en", "pl") for size in SIZES)
