"""Total Domination's board in a real Chromium.

- Clicks: the board rendered for a seat with a pending decision (a staged board, the template and
  board.js exactly as the table page links them) answers "a unit, then a space" with the move's
  choice and "a unit, then an enemy unit" with the attack's, posted like the prompt bar's buttons.
- The table: a real server, a two-player table (a guest and a bot); the board is drawn from
  board.css / board.js (no inline style or script), and a 390 px phone shows it with no
  horizontal scroll (docs/screens/td-table-*.png come from test_td_playthrough.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from tests.browser.conftest import sign_in_as_guest

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "app" / "games" / "total_domination" / "templates"
SCREENS = ROOT / "docs" / "screens"
DESKTOP = {"viewport": {"width": 1440, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
ORIGIN = "http://td.test"


def staged_page(monkeypatch: pytest.MonkeyPatch, choices: list[str]) -> str:
    """The board of Germany's seat with ``choices`` pending, as a whole page linking the board's assets."""
    from tests.games.total_domination.test_page import render, table

    html = render(table(monkeypatch, choices=choices), "germany")
    return ('<!doctype html><html><head><meta name="viewport" content="width=device-width">'
            '<link rel="stylesheet" href="/games/total_domination/board.css">'
            '<script src="/games/total_domination/board.js" defer></script></head>'
            f'<body><main id="board">{html}</main></body></html>')


def serve(page: Any, html: str, posted: list[dict[str, list[str]]]) -> None:
    def handle(route: Any) -> None:
        url = route.request.url
        if url.endswith("/answer"):
            posted.append(parse_qs(route.request.post_data or ""))
            route.fulfill(status=204, body="")
        elif url.endswith(".css") or url.endswith(".js"):
            name = url.rsplit("/", 1)[1]
            route.fulfill(status=200, body=(ASSETS / name).read_text(encoding="utf-8"),
                          content_type="text/css" if name.endswith(".css") else "text/javascript")
        else:
            route.fulfill(status=200, body=html, content_type="text/html")

    page.route(f"{ORIGIN}/**", handle)
    page.goto(f"{ORIGIN}/table")


@pytest.mark.parametrize("context", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_clicking_a_unit_then_a_space_sends_the_move(browser: Any, monkeypatch: pytest.MonkeyPatch,
                                                     context: dict[str, Any]) -> None:
    choices = ["move:u4:ukraine", "move:u1:poland", "attack:u4:u5", "build:germany:army:germany",
               "build:germany:fleet:germany", "pass"]
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    posted: list[dict[str, list[str]]] = []
    try:
        serve(page, staged_page(monkeypatch, choices), posted)
        page.wait_for_function("() => getComputedStyle(document.querySelector('.td-map')).display === 'block'")
        unit = page.locator(".td-piece.actor[data-units='u4']")
        unit.dispatch_event("click")
        assert "selected" in (unit.get_attribute("class") or "")
        assert page.locator(".td-space.dest").evaluate_all("els => els.map(e => e.dataset.space)") == ["ukraine"]
        assert page.locator(".td-piece.prey").evaluate_all("els => els.map(e => e.dataset.units)") == ["u5"]
        page.locator(".td-space[data-space='ukraine']").dispatch_event("click")
        page.wait_for_function("() => true")
        page.wait_for_timeout(200)
        assert posted and posted[-1]["choice"] == ["move:u4:ukraine"] and posted[-1]["decision"] == ["q0"]
        assert posted[-1]["csrf"] == ["csrf-token-123"]

        serve(page, staged_page(monkeypatch, choices), posted)
        page.locator(".td-piece.actor[data-units='u4']").dispatch_event("click")
        page.locator(".td-piece[data-units='u5']").dispatch_event("click")
        page.wait_for_timeout(200)
        assert posted[-1]["choice"] == ["attack:u4:u5"]

        # an enemy piece alone: the attack on it, from whichever origin the rules offer (a capital here)
        serve(page, staged_page(monkeypatch, ["attack:germany:u5", "pass"]), posted)
        page.locator(".td-piece.target[data-units='u5']").dispatch_event("click")
        page.wait_for_timeout(200)
        assert posted[-1]["choice"] == ["attack:germany:u5"]

        # a space with one build answers at once; Germany has two builds (army, fleet): nothing is sent
        serve(page, staged_page(monkeypatch, ["build:germany:army:germany", "pass"]), posted)
        page.locator(".td-space[data-space='germany']").dispatch_event("click")
        page.wait_for_timeout(200)
        assert posted[-1]["choice"] == ["build:germany:army:germany"]
        n = len(posted)
        serve(page, staged_page(monkeypatch, choices), posted)
        page.locator(".td-space[data-space='germany']").dispatch_event("click")
        page.wait_for_timeout(200)
        assert len(posted) == n
    finally:
        ctx.close()


def open_table(page: Any, server: Any) -> None:
    from playwright.sync_api import expect

    page.goto(f"{server.url}/")
    sign_in_as_guest(page, "Alice")
    form = page.locator("form.new-table[data-game=total_domination]")
    form.locator("select[name=players]").select_option("2")
    form.locator("button", has_text="Create table").click()
    page.wait_for_url(re.compile(r"/matches/[\w-]+$"))
    table = page.url
    page.locator("#seats form[action$='/bot'] button").first.click()
    page.wait_for_url(table)
    page.locator("#start-match").click()
    expect(page.locator("#table.playing .td-map")).to_be_visible(timeout=15_000)


def test_the_table_draws_the_board_from_its_assets_and_fits_a_phone(server: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    for name, context in (("1440x900", DESKTOP), ("390x844", PHONE)):
        ctx = browser.new_context(**context)
        page = ctx.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        try:
            open_table(page, server)
            expect(page.locator(".td-space").first).to_be_visible()
            assert page.locator(".td-space").count() == 49
            # board.css is linked (the page allows no inline style): the map's ocean is filled by it
            assert page.evaluate("getComputedStyle(document.querySelector('.td-ocean')).fill") != "rgb(0, 0, 0)"
            assert page.locator(".td-vp").count() == 1 and page.locator(".td-track").count() == 2
            page.wait_for_timeout(300)
            wide = page.evaluate("() => document.scrollingElement.scrollWidth - window.innerWidth")
            assert wide <= 0, f"{name}: the page scrolls sideways by {wide} px"
            if name == "390x844":
                box = page.locator(".td-zoom").bounding_box()
                assert box and box["width"] >= 0.9 * 390 - 40, "the map does not fill the phone's width"
        finally:
            ctx.close()
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
