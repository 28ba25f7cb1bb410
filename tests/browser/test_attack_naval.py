"""Attack! in real browsers: two guests set up by clicking the map (claims and capitals on the
regions, placements from the prompt bar the region points at), then fight for the seas: the first
player takes the seas unopposed, the second challenges, the first fights, and both lay their naval
lines face down at once by clicking their ships in order. One page is English at 1440x900, the other
Polish on a 390x844 phone.

Checked: nothing is refused under the Content-Security-Policy; a line laid is shown to the other
page only as face-down cards (no ship named) until both are laid; then both pages show the same
duels pair by pair with both pairs of blue dice, the modifiers and the totals, in the order the
lines were laid.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import create_table, join_by_invite
from tests.browser.test_csp import WATCH, refusals

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1440, "height": 900}, "locale": "en-US"}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "locale": "pl-PL"}
SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"
SETUP_SECONDS = 150


def seq_of(page: Any) -> int:
    return int(page.locator("#status").get_attribute("data-seq") or 0)


def api(page: Any, base: str, match_id: str) -> dict[str, Any]:
    return dict(page.request.get(f"{base}/api/matches/{match_id}").json())


def wait_moved(page: Any, seq: int) -> None:
    page.wait_for_function("s => Number(document.querySelector('#status').dataset.seq) > s", arg=seq, timeout=10_000)


def click_setup(page: Any) -> str:
    """One setup answer: a claim or a capital on the map, else the prompt bar's first button (a
    placement, pointed at by its region)."""
    page.set_default_timeout(3000)
    region = page.locator("#board svg.at-map.acting .at-region.target")
    for i in range(region.count()):
        ids = (region.nth(i).get_attribute("data-choices") or "").split()
        if len(ids) == 1:
            region.nth(i).dispatch_event("click")
            return f"region:{ids[0]}"
    if region.count():  # a placement: the region points at its buttons in the bar
        region.first.dispatch_event("click")
        pointed = page.locator("#prompt button.at-pointed")
        if pointed.count():
            value = pointed.first.get_attribute("value")
            pointed.first.click()
            return f"pointed:{value}"
    button = page.locator("#prompt form.decision:not(.optional) button[name=choice]").first
    value = button.get_attribute("value")
    button.click()
    return f"button:{value}"


def set_up(pages: dict[str, Any], base: str, match_id: str) -> list[str]:
    from playwright.sync_api import Error as PlaywrightError

    clicks: list[str] = []
    misses = 0
    deadline = time.monotonic() + SETUP_SECONDS
    first = next(iter(pages.values()))
    while time.monotonic() < deadline:
        m = api(first, base, match_id)
        if m["view"]["phase"] == "play":
            return clicks
        turn = next(((n, p) for n, p in pages.items() if p.locator("#prompt form.decision:not(.optional)").count()),
                    None)
        if turn is None:
            first.wait_for_timeout(150)
            continue
        name, page = turn
        seq = seq_of(page)
        try:
            clicks.append(f"{name}:{click_setup(page)}")
            wait_moved(page, seq)
        except PlaywrightError:
            misses += 1
            assert misses < 20, f"the setup clicks are not taken: {clicks[-5:]}"
    raise AssertionError(f"setup did not end in {SETUP_SECONDS} s: {len(clicks)} clicks, last {clicks[-5:]}")


def answer_button(page: Any, value: str) -> None:
    seq = seq_of(page)
    page.locator(f"#prompt form.decision button[name=choice][value='{value}']").first.click()
    wait_moved(page, seq)


def lay_line(page: Any, ships: list[str]) -> list[str]:
    """Click ships of these types in order (head first), then lay the line; returns the choice ids."""
    form = page.locator("form.at-lineup-form")
    n = int(page.locator(".at-lineup").get_attribute("data-n") or 0)
    chosen: list[str] = []
    for kind in ships[:n]:
        button = form.locator(f".at-lineup-ship[data-ship='{kind}']:not([disabled])").first
        chosen.append(button.get_attribute("data-choice") or "")
        button.click()
    while len(chosen) < n:  # a smaller fleet than asked for: whatever is left
        button = form.locator(".at-lineup-ship:not([disabled])").first
        chosen.append(button.get_attribute("data-choice") or "")
        button.click()
    assert form.locator(".at-slot .at-ship").count() == n
    with page.expect_response(lambda r: r.url.endswith("/answer"), timeout=5000):
        form.locator(".at-lineup-lay").click()
    return chosen


def start_two(alice: Any, bob: Any, base: str) -> str:
    """Alice opens a two-player table, Bob joins by the invite, Alice starts: the match id."""
    from playwright.sync_api import expect

    create_table(alice, base, "attack", 2)
    match_id = join_by_invite(alice, bob, "Bob")
    alice.locator("#start-match").click()
    for page in (alice, bob):
        expect(page.locator("#table.playing svg.at-map")).to_be_visible()
    return match_id


def test_two_guests_set_up_by_clicking_and_lay_naval_lines_face_down(server: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    actx, bctx = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
    console: list[str] = []  # the board's stylesheet and script under the strict CSP: nothing refused
    actx.add_init_script(WATCH)
    alice, bob = actx.new_page(), bctx.new_page()
    alice.on("console", lambda msg: console.append(msg.text) if "Refused to" in msg.text
             or "Content Security Policy" in msg.text else None)
    base = server.url
    try:
        match_id = start_two(alice, bob, base)
        clicks = set_up({"alice": alice, "bob": bob}, base, match_id)
        assert any(":region:" in c for c in clicks), "the claims were made on the map"
        view = api(alice, base, match_id)["view"]
        assert len(view["capitals"]) == 2 and sum(s["regions"] for s in view["seats"]) == 8

        pages = {"alice": alice, "bob": bob}
        mine = {n: api(p, base, match_id)["view"]["hand"] for n, p in pages.items()}
        first_name = next(n for n, p in pages.items() if p.locator("#prompt button[value=NAVAL]").count())
        second_name = "bob" if first_name == "alice" else "alice"
        first, second = pages[first_name], pages[second_name]
        # the first player's fleet goes to sea unopposed, and the turn ends
        answer_button(first, "NAVAL")
        expect(first.locator(".at-atlantic.held")).to_be_visible()
        answer_button(first, "end")
        # the second challenges; the first fights
        expect(second.locator("#prompt button[value=NAVAL]")).to_be_visible()
        answer_button(second, "NAVAL")
        expect(first.locator("#prompt button[value=fight]")).to_be_visible()
        answer_button(first, "fight")
        for page in (first, second):
            expect(page.locator(".at-lineup")).to_be_visible()
        # both start with BB, DD, DD, SS, SS: a line of five, laid head first
        laid_first = lay_line(second, ["SS", "BB", "DD"])  # the challenger lays first
        n = len(laid_first)
        assert n == 5
        # the other page: five face-down cards, no ship named, until it has laid its own
        expect(first.locator(".at-line[data-role=attacker] .at-ship.face-down")).to_have_count(n)
        assert first.locator(".at-line[data-role=attacker] [data-ship]").count() == 0
        own = second.locator(".at-line[data-role=attacker] .at-line-ships [data-ship]")
        expect(own).to_have_count(n)
        assert [own.nth(i).get_attribute("data-ship") for i in range(n)] == [c.split("#")[0] for c in laid_first]
        laid_second = lay_line(first, ["DD", "BB", "SS"])
        for page in (first, second):
            expect(page.locator(".at-naval .at-duel")).to_have_count(n)
            rows = page.locator(".at-naval .at-duel")
            att = [rows.nth(i).locator(".at-duel-side[data-role=attacker] .at-ship").get_attribute("data-ship")
                   for i in range(n)]
            dfn = [rows.nth(i).locator(".at-duel-side[data-role=defender] .at-ship").get_attribute("data-ship")
                   for i in range(n)]
            assert att == [c.split("#")[0] for c in laid_first] and dfn == [c.split("#")[0] for c in laid_second]
            assert page.locator(".at-naval .at-blue").count() == 4 * n  # two blue dice a side in every pair
            assert page.locator(".at-naval .at-total").count() == 2 * n
        # no page shows the other seat's Economics cards
        for name, page in pages.items():
            others = {c for n, cs in mine.items() if n != name for c in cs}
            shown = set(re.findall(r"\bec-\d{3}\b", page.content()))
            assert not shown & others, f"{name} sees {sorted(shown & others)}"
        assert "Bitwa morska" in bob.content() and "Naval battle" in alice.content()
        assert refusals(alice, console) == []
        if os.environ.get("WARROOM_SCREENS"):  # docs/screens/attack-table-*.png
            SCREENS.mkdir(parents=True, exist_ok=True)
            for page, lang, sizes in ((alice, "en", ((1440, 900), (390, 844))), (bob, "pl", ((390, 844), (1440, 900)))):
                for w, h in sizes:
                    page.set_viewport_size({"width": w, "height": h})
                    page.wait_for_timeout(400)
                    page.screenshot(path=str(SCREENS / f"attack-table-{lang}-{w}x{h}.png"))
    finally:
        actx.close()
        bctx.close()
