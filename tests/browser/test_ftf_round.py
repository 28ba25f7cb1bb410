"""First to Fight in real browsers: a full round from two seats. Alice (English, 1440x900) and Bob
(Polish phone, 390x844) keep their red missions in the prompt bar, then play the Orders Phase on the
board: the chooser clicks an order tile, a soldier card or a region where a decision names them, a
card drawn for a recruit where it is offered, and Maneuvers ends the phase. Each answers only their
own decisions in their own page; after every answer the other page shows the result (the tile turned
inactive, the soldier placed); then the Ending Phase's steps appear in both logs, each in its
language, and the second round begins. Nothing is refused under the Content-Security-Policy; a
seat's missions are never in the other page.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from tests.browser.conftest import create_table, join_by_invite, live_table
from tests.browser.test_attack_naval import DESKTOP, PHONE, SCREENS, api, seq_of, wait_moved
from tests.browser.test_csp import WATCH, refusals

pytestmark = pytest.mark.browser

ROUND_SECONDS = 150
# the orders taken in turn: a Recruitment (a region, then a drawn card), a Training (a soldier),
# then Maneuvers ends the Orders Phase
PLAN = ("RECRUITMENT", "TRAINING", "MANEUVERS")


def start_two(alice: Any, bob: Any, base: str) -> str:
    from playwright.sync_api import expect

    create_table(alice, base, "first_to_fight", 2)
    match_id = join_by_invite(alice, bob, "Bob")
    alice.locator("#start-match").click()
    for page in (alice, bob):
        expect(page.locator("#table.playing svg.ftf-map")).to_be_visible()
    return match_id


def answer_on_the_page(page: Any, d: dict[str, Any]) -> str:
    """One answer, where the page offers it: a tile, a card or a region on the board, else the
    prompt bar (ticked boxes for a several-answer decision, else its first button)."""
    page.set_default_timeout(4000)
    ids = [c["id"] for c in d["choices"]]
    form = page.locator(f'#prompt form.decision[data-decision="{d["decision"]}"]')
    if d["max"] > 1 or d["min"] != 1:
        boxes = form.locator("input[type=checkbox]")
        for i in range(min(d["max"], boxes.count())):
            boxes.nth(i).check(force=True)
        with page.expect_response(lambda r: r.url.endswith("/answer"), timeout=5000):
            form.locator("button.confirm-picks").click()
        return f"picked {d['max']}"
    if d["kind"] in ("order", "choose_order"):
        order = next(o for o in PLAN if o in ids)
        page.locator(f"#board .ftf-tile[data-choice='{order}']").click()
        return f"tile {order}"
    for where in ("#board .ftf-offered [data-choice]", "#board .ftf-soldier[data-choice]",
                  "#board .ftf-region.target[data-choice]", "#board .ftf-mission[data-choice]"):
        target = page.locator(where)
        if target.count():
            choice = target.first.get_attribute("data-choice")
            target.first.dispatch_event("click")
            return f"board {choice}"
    button = form.locator("button[name=choice]").first
    value = button.get_attribute("value")
    button.click()
    return f"button {value}"


def test_a_full_round_from_two_seats(server: Any, browser: Any) -> None:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    actx, bctx = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
    console: list[str] = []
    for ctx in (actx, bctx):
        ctx.add_init_script(WATCH)
    alice, bob = actx.new_page(), bctx.new_page()
    for page in (alice, bob):
        page.on("console", lambda msg: console.append(msg.text) if "Refused to" in msg.text
                or "Content Security Policy" in msg.text else None)
    base = server.url
    try:
        match_id = start_two(alice, bob, base)
        pages = {"alice": alice, "bob": bob}
        seats = {n: api(p, base, match_id)["you"] for n, p in pages.items()}
        assert sorted(seats.values()) == ["p1", "p2"]
        done: list[str] = []
        kinds: set[str] = set()
        misses = 0
        deadline = time.monotonic() + ROUND_SECONDS
        while time.monotonic() < deadline:
            m = api(alice, base, match_id)
            if m["view"]["round"] >= 2 or m["status"] != "active":
                break
            turn = next(((n, p) for n, p in pages.items()
                         if p.locator("#prompt form.decision:not(.optional)").count()), None)
            if turn is None:
                alice.wait_for_timeout(150)
                continue
            name, page = turn
            pending = api(page, base, match_id)["pending"]
            if not pending:
                page.wait_for_timeout(100)
                continue
            d = pending[0]
            seq = seq_of(page)
            try:
                how = answer_on_the_page(page, d)
                done.append(f"{name}:{d['kind']}:{how}")
                kinds.add(d["kind"])
                wait_moved(page, seq)
                other = bob if page is alice else alice
                wait_moved(other, seq)  # the other seat's page shows the answer's result
                view = api(other, base, match_id)["view"]
                for o, tile in view["tiles"].items():  # the tiles as the server has them, on the other page
                    side = "active" if tile["active"] else "inactive"
                    expect(other.locator(f"#board .ftf-tile.{side}[data-order='{o}']")).to_have_count(1)
                on_board = sorted(view["soldiers"])
                shown = sorted(set(other.locator("#board .ftf-region-cards .ftf-soldier").evaluate_all(
                    "els => els.map(e => e.dataset.soldier)")))
                assert shown == on_board
            except PlaywrightError:
                misses += 1
                assert misses < 20, f"the answers are not taken: {done[-5:]}"
        m = api(alice, base, match_id)
        assert m["view"]["round"] >= 2, f"the first round did not end in {ROUND_SECONDS} s: {done[-8:]}"
        assert any(":tile RECRUITMENT" in x for x in done) and any(":tile MANEUVERS" in x for x in done), done
        assert any(":board " in x for x in done), done  # a card or a region answered on the board
        assert "keep_missions" in kinds
        # the Ending Phase in both logs, each in its page's language
        expect(alice.locator("#log")).to_contain_text("Actions of the Axis")
        expect(alice.locator("#log")).to_contain_text("The time marker moves")
        expect(bob.locator("#log")).to_contain_text("Działania Państw Osi")
        expect(bob.locator("#log")).to_contain_text("Znacznik upływu czasu")
        expect(bob.locator("#board .ftf-phase")).to_contain_text("Faza")
        # the missions: one's own on the board, the other's never in the page
        for name, page in pages.items():
            mine = api(page, base, match_id)["view"]["hand"]
            theirs = api(bob if page is alice else alice, base, match_id)["view"]["hand"]
            html = page.content()
            assert all(f'data-mission="{x}"' in html for x in mine)
            assert not [x for x in theirs if x in html], f"{name} sees the other seat's missions"
        assert refusals(alice, console) == [] and refusals(bob, []) == []
        if os.environ.get("WARROOM_SCREENS"):  # docs/screens/ftf-table-{en,pl}-*.png
            SCREENS.mkdir(parents=True, exist_ok=True)
            for page, lang, size, other in ((alice, "en", "1440x900", "pl"), (bob, "pl", "390x844", "en")):
                page.locator("#board").scroll_into_view_if_needed()
                page.wait_for_timeout(300)
                page.screenshot(path=str(SCREENS / f"ftf-table-{lang}-{size}.png"))
                with page.expect_navigation():  # the other language, same screen
                    page.locator(f"form.lang-switch button[value='{other}']").click()
                live_table(page)
                page.locator("#board").scroll_into_view_if_needed()
                page.wait_for_timeout(300)
                page.screenshot(path=str(SCREENS / f"ftf-table-{other}-{size}.png"))
    finally:
        actx.close()
        bctx.close()
