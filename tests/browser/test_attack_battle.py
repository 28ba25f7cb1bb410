"""Attack! in real browsers: a land battle round by round. Two guests set up by clicking (as in
test_attack_naval), then the first player takes Move, picks a group on the map (its region, then a
neutral region that lights up), sends it in and fights: the neutral defenders drawn from the
Economics deck, commanded or not, the opening picks and reinforcements in the prompt bar. All the
while both pages (English desktop, Polish phone) show the battle: after every answer each page's
half-rounds match the server's record so far, die for die, with the hits by unit type and the
casualties, the defender first in every round.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from tests.browser.test_attack_naval import (
    DESKTOP,
    PHONE,
    SCREENS,
    api,
    seq_of,
    set_up,
    start_two,
    wait_moved,
)

pytestmark = pytest.mark.browser

BATTLE_SECONDS = 120


def declare_attack(page: Any) -> str | None:
    """On the map: a region a move starts from, then a neutral region among its destinations."""
    for origin in page.locator("#board svg.at-map.acting .at-region.origin").all():
        for move in (origin.get_attribute("data-moves") or "").split():
            dest = move.replace("~", ">").split(">")[1]
            target = page.locator(f"#board .at-region[data-region='{dest}']")
            if target.get_attribute("data-owner"):
                continue  # an own region: no battle
            origin.dispatch_event("click")
            target.dispatch_event("click")
            return move
    return None


def tick_and_confirm(page: Any, decision: str, most: int) -> None:
    form = page.locator(f'#prompt form.decision[data-decision="{decision}"]')
    boxes = form.locator("input[type=checkbox]")
    for i in range(min(most, boxes.count())):
        boxes.nth(i).check(force=True)
    with page.expect_response(lambda r: r.url.endswith("/answer"), timeout=5000):
        form.locator("button.confirm-picks").click()


def click_choice(page: Any, decision: str, value: str | None = None) -> None:
    form = page.locator(f'#prompt form.decision[data-decision="{decision}"]')
    button = form.locator(f"button[name=choice][value='{value}']" if value else "button[name=choice]").first
    button.click()


def shown_halves(page: Any) -> list[tuple[str, str]]:
    return [(h.get_attribute("data-role") or "", h.locator(".at-dice").get_attribute("data-faces") or "")
            for h in page.locator(".at-battle .at-half").all()]


def test_a_land_battle_is_shown_round_by_round_with_its_dice_on_both_pages(server: Any, browser: Any) -> None:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)
    actx, bctx = browser.new_context(**DESKTOP), browser.new_context(**PHONE)
    alice, bob = actx.new_page(), bctx.new_page()
    base = server.url
    try:
        match_id = start_two(alice, bob, base)
        pages = {"alice": alice, "bob": bob}
        set_up(pages, base, match_id)

        declared: str | None = None
        done: list[str] = []
        checked_rounds = 0
        misses = 0
        deadline = time.monotonic() + BATTLE_SECONDS
        while time.monotonic() < deadline:
            view = api(alice, base, match_id)["view"]
            battle = view.get("land_battle")
            if battle:  # both pages show every half-round so far, die for die, the defender first
                want = [({"A": "attacker", "D": "defender"}[h["side"]], " ".join(h["dice"])) for h in battle["halves"]]
                for page in pages.values():
                    page.wait_for_function(
                        "n => document.querySelectorAll('.at-battle .at-half').length >= n", arg=len(want))
                    assert shown_halves(page)[:len(want)] == want
                checked_rounds = max(checked_rounds, len(want))
                if battle["over"]:
                    break
            turn = next(((n, p) for n, p in pages.items() if p.locator("#prompt form.decision:not(.optional)").count()),
                        None)
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
                if d["kind"] == "action":
                    click_choice(page, d["decision"], "MOVE" if declared is None else "end")
                elif d["kind"] == "move" and declared is None:
                    declared = declare_attack(page)
                    assert declared, "no neutral region within reach on the map"
                elif d["kind"] == "move":
                    click_choice(page, d["decision"], "done")
                elif d["kind"] == "battle_order":  # the region to fight for, on the map
                    region = next(c["id"] for c in d["choices"] if c["id"].startswith("battle:")).split(":")[1]
                    page.locator(f"#board .at-region.target[data-region='{region}']").dispatch_event("click")
                elif d["max"] > 1 or d["min"] != 1:
                    tick_and_confirm(page, d["decision"], d["max"])
                else:
                    click_choice(page, d["decision"])
                done.append(f"{name}:{d['kind']}")
                wait_moved(page, seq)
            except PlaywrightError:
                misses += 1
                assert misses < 20, f"the answers are not taken: {done[-5:]}"
        view = api(alice, base, match_id)["view"]
        battle = view.get("land_battle")
        assert battle and battle["over"], f"no land battle fought in {BATTLE_SECONDS} s: {done[-8:]}"
        assert checked_rounds == len(battle["halves"]) >= 1
        for page in pages.values():  # the result: who won, each half-round's hits and losses
            expect(page.locator(".at-battle.over")).to_be_visible()
            assert page.locator(".at-battle .at-die").count() == sum(len(h["dice"]) for h in battle["halves"])
            assert page.locator(".at-battle .at-hits").count() == len(battle["halves"])
        assert "przeciwnik traci" in bob.content() and "the enemy loses" in alice.content()
        if os.environ.get("WARROOM_SCREENS"):  # docs/screens/attack-battle-*.png: the battle fought
            SCREENS.mkdir(parents=True, exist_ok=True)
            for page, name in ((alice, "attack-battle-en-1440x900"), (bob, "attack-battle-pl-390x844")):
                page.locator(".at-battle").scroll_into_view_if_needed()
                page.wait_for_timeout(300)
                page.screenshot(path=str(SCREENS / f"{name}.png"))
    finally:
        actx.close()
        bctx.close()
