"""Autarcha in real browsers: a Skirmish table opened from both seats. Alice (English, 1440x900) and
Bob (Polish phone, 390x844) each see the board as SVG with their own side at the bottom: the grid with
its crossing numbers, the terrain, every unit as an oriented token of its side; the zoom buttons change
the view box of the printed board and of the live layers together; nothing is refused under the
Content-Security-Policy.

Then the game itself, as far as the merged rule modules carry it:
* deployment behind the lid (``deploy_behind_the_lid``): each seat places its own units by clicking
  squares while the other half is covered; it runs when the table asks for a "deploy" decision (the
  hidden deployment module); with the provisional deployment there is none;
* one turn (``play_a_turn``): the active seat clicks a unit on the board, chooses Movement in the
  prompt bar, clicks a lit square (and a facing arrow when the square offers several), and the other
  page shows the token on its new square; then it ends the turn. It runs once the movement module has
  registered the "walk" half (``flow.HALF_READY``); until then the skeleton has no move to make and its
  game ends at once.
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

DEPLOY_SECONDS = 120


def start_two(alice: Any, bob: Any, base: str) -> str:
    from playwright.sync_api import expect

    create_table(alice, base, "autarcha", 2)
    match_id = join_by_invite(alice, bob, "Bob")
    alice.locator("#start-match").click()
    for page in (alice, bob):
        expect(page.locator("#table.playing svg.au-map")).to_be_visible()
    return match_id


def view_box(page: Any, selector: str) -> str:
    return str(page.locator(selector).first.get_attribute("viewBox"))


def check_the_board(page: Any, view: dict[str, Any]) -> None:
    """The printed board and every unit the view has, each turned to its facing."""
    from playwright.sync_api import expect

    expect(page.locator("#board .au-lat")).to_have_count(40)  # both edges
    expect(page.locator("#board .au-lon")).to_have_count(30)
    units = view["units"]
    expect(page.locator("#board .au-unit")).to_have_count(len(units))
    for uid, d in list(units.items())[:6]:
        token = page.locator(f"#board .au-unit[data-unit='{uid}']")
        expect(token).to_have_attribute("data-facing", d["facing"])
        expect(token).to_have_attribute("data-square", d["sq"])


def check_zoom(page: Any) -> None:
    """+ narrows the view box of the map and of the pieces alike; ⤢ brings the whole board back."""
    whole = view_box(page, "#board svg.au-map")
    page.locator("#board .au-zoom[data-zoom='in']").click()
    page.wait_for_function("w => document.querySelector('#board svg.au-map').getAttribute('viewBox') !== w", arg=whole)
    zoomed = view_box(page, "#board svg.au-map")
    assert zoomed != whole and view_box(page, "#au-pieces") == zoomed
    page.locator("#board .au-zoom[data-zoom='fit']").click()
    page.wait_for_function("w => document.querySelector('#board svg.au-map').getAttribute('viewBox') === w", arg=whole)


def deploy_behind_the_lid(pages: dict[str, Any], base: str, match_id: str) -> bool:
    """Each seat answers its own "deploy" questions on the board (a lit square, or a facing arrow) while
    the other's half is covered; False when the table never asks (the provisional deployment)."""
    deadline = time.monotonic() + DEPLOY_SECONDS
    asked = False
    while time.monotonic() < deadline:
        turns = [(n, p) for n, p in pages.items()
                 if any(d["kind"] == "deploy" for d in api(p, base, match_id)["pending"])]
        if not turns:
            return asked
        asked = True
        for name, page in turns:
            assert page.locator("#board .au-lid").count() >= 1, f"{name}: the other half is not covered"
            seq = seq_of(page)
            click_a_square(page)
            wait_moved(page, seq)
    raise AssertionError(f"the deployment did not end in {DEPLOY_SECONDS} s")


def choose_who_starts(pages: dict[str, Any], base: str, match_id: str) -> None:
    """The higher roller answers "who starts" in the prompt bar (itself); then the lid comes off and both
    boards show every unit."""
    for page in pages.values():
        pending = [d for d in api(page, base, match_id)["pending"] if d["kind"] == "first"]
        if pending:
            me = api(page, base, match_id)["you"]
            seq = seq_of(page)
            page.locator(f"#prompt form.decision button[value='{me}']").click()
            wait_moved(page, seq)
            break
    else:
        raise AssertionError("nobody was asked who starts")
    for page in pages.values():
        m = api(page, base, match_id)
        assert m["view"]["phase"] == "play" and "lid" not in m["view"], m["view"]["phase"]


def click_a_square(page: Any) -> str:
    """The first lit square; where it offers several facings, the first arrow."""
    square = page.locator("#board .au-square.target").first
    choices = str(square.get_attribute("data-choices")).split()
    square.dispatch_event("click")
    if len(choices) > 1:
        arrow = page.locator("#board .au-facing[data-choice]").first
        choice = str(arrow.get_attribute("data-choice"))
        arrow.dispatch_event("click")
        return choice
    return choices[0]


def play_a_turn(pages: dict[str, Any], seats: dict[str, str], base: str, match_id: str) -> list[str]:
    """The active seat moves one unit by clicking on the board, then ends its turn."""
    from playwright.sync_api import expect

    m = api(pages["alice"], base, match_id)
    active = m["view"]["active"]
    name = next(n for n, s in seats.items() if s == active)
    page, other = pages[name], pages["bob" if name == "alice" else "alice"]
    done: list[str] = []
    d = api(page, base, match_id)["pending"][0]
    assert d["kind"] == "move", d
    unit = next(c["id"] for c in d["choices"] if c["id"].startswith("unit:"))
    seq = seq_of(page)
    page.locator(f"#board .au-unit-pick[data-choice='{unit}']").dispatch_event("click")
    wait_moved(page, seq)
    done.append(unit)
    seq = seq_of(page)
    page.locator("#prompt form.decision button[value='move']").click()
    wait_moved(page, seq)
    uid = unit.split(":")[1]
    seq = seq_of(page)
    choice = click_a_square(page)
    done.append(choice)
    wait_moved(other, seq)
    square, _, facing = choice.partition("@")
    token = other.locator(f"#board .au-unit[data-unit='{uid}']")
    expect(token).to_have_attribute("data-square", square)
    if facing:
        expect(token).to_have_attribute("data-facing", facing)
    seq = seq_of(page)
    page.locator("#prompt form.decision button[value='end']").click()
    wait_moved(other, seq)
    return done


def test_a_skirmish_table_from_both_seats(server: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    from app.games.autarcha import flow

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
        assert sorted(seats.values()) == ["red", "white"]
        assert deploy_behind_the_lid(pages, base, match_id)
        choose_who_starts(pages, base, match_id)
        for name, page in pages.items():
            live_table(page)
            m = api(page, base, match_id)
            check_the_board(page, m["view"])
            # each seat's own side at the bottom: red's board is turned half a circle
            flipped = page.locator("#board .au.flipped").count() == 1
            assert flipped == (seats[name] == "red")
        check_zoom(alice)
        check_zoom(bob)
        if "walk" in flow.HALF_READY:  # the movement module is merged: a turn is played on the board
            assert play_a_turn(pages, seats, base, match_id)
        assert refusals(alice, console) == [] and refusals(bob, []) == []
        if os.environ.get("WARROOM_SCREENS"):  # docs/screens/autarcha-table-{en,pl}-*.png
            SCREENS.mkdir(parents=True, exist_ok=True)
            for page, lang, size in ((alice, "en", "1440x900"), (bob, "pl", "390x844")):
                page.locator("#board").scroll_into_view_if_needed()
                page.wait_for_timeout(300)
                page.screenshot(path=str(SCREENS / f"autarcha-table-{lang}-{size}.png"))
    finally:
        actx.close()
        bctx.close()
