"""Quartermaster General in real browsers: two humans and a bot play whole rounds by clicking.

Alice opens a three-player QMG table from the lobby, Bob joins through the invite link, Alice
seats the rules bot and starts. Then whoever has a decision clicks the first legal answer the
board offers: a highlighted map space, a card's button in the hand, or else the first button
(or the first boxes) in the Decisions panel. Each page must only ever show its own hand.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.conftest import create_table, join_by_invite

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/qmg-board.png"
TARGET_ROUND = 3
PLAY_SECONDS = 90
LEAK_CHECK_EVERY = 8  # moves






def m_seq(page: Any, base: str, match_id: str) -> Any:
    m = page.request.get(f"{base}/api/matches/{match_id}").json()
    return {"seq": m.get("seq"), "waiting_on": m.get("waiting_on"), "pending": [d["decision"] for d in m["pending"]]}


def seq_of(page: Any) -> int:
    return int(page.locator("#status").get_attribute("data-seq") or 0)


def answer_first_choice(page: Any) -> str:
    """Click the first legal answer the page offers; returns what was clicked (for the failure message)."""
    target = page.locator(".qmg-targets .space.target[hx-post]")
    if target.count():
        space = target.first.get_attribute("data-space")
        target.first.click()
        return f"map:{space}"
    card_button = page.locator("#hand button[name=choice]")
    if card_button.count():
        value = card_button.first.get_attribute("value")
        card_button.first.click()
        return f"hand:{value}"
    form = page.locator("#decisions form.decision:not(.optional)").first
    buttons = form.locator("button[name=choice]")
    if buttons.count():
        value = buttons.first.get_attribute("value")
        buttons.first.click()
        return f"button:{value}"
    # this very question from here on: a push may put another seat's question (another country
    # the player holds) first meanwhile, and ".first" would slide to it
    decision = form.get_attribute("data-decision")
    form = page.locator(f'#decisions form.decision[data-decision="{decision}"]')
    legend = form.locator("legend").inner_text()
    least = int(re.findall(r"\d+", legend)[0])  # "Pick between {min} and {max}"
    boxes = form.locator("input[type=checkbox]")
    for i in range(least):
        # a pick of cards from one's hand is made on the cards (labels of the prompt bar's boxes)
        card = page.locator(f"#hand label[for='{boxes.nth(i).get_attribute('id')}']")
        if card.count():
            card.click()
        else:
            boxes.nth(i).check()
        assert boxes.nth(i).is_checked()
    form.locator("button").last.click()
    return f"boxes:{least}"


def own_hand_ids(page: Any, base: str, match_id: str) -> set[str]:
    view = page.request.get(f"{base}/api/matches/{match_id}").json()["view"]
    return {card["id"] for c in view["countries"].values() for card in c.get("hand") or []}


def assert_pages_show_only_their_own_hands(pages: dict[str, Any], base: str, match_id: str) -> None:
    hands = {who: own_hand_ids(page, base, match_id) for who, page in pages.items()}
    html = {who: page.content() for who, page in pages.items()}
    for me in pages:
        for card in hands[me]:
            assert f'data-card="{card}"' in html[me], f"{me}'s own {card} is not on their page"
        for other in pages:
            if other != me:
                shown = sorted(c for c in hands[other] if re.search(rf"\b{c}\b", html[me]))
                assert not shown, f"{me}'s page shows {other}'s hand cards {shown}"


def test_two_humans_and_a_bot_play_qmg_rounds_by_clicking(server: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)
    alice_ctx = browser.new_context(viewport={"width": 1500, "height": 1000})
    bob_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    try:
        # the table: lobby form, invite link, a bot, start
        invite = create_table(alice, server.url, "qmg", 3)
        match_id = join_by_invite(alice, bob, "Bob")
        expect(alice.locator("#seats")).to_contain_text("Bob (guest)")
        alice.locator("#seats form[action$='/bot'] button").first.click()
        alice.wait_for_url(invite)
        alice.locator("#start-match").click()
        expect(alice.locator("#status")).to_contain_text("in play")
        expect(alice.locator(".qmg-map")).to_be_visible()
        expect(bob.locator(".qmg-map")).to_be_visible()
        assert alice.locator(".qmg-map .space").count() == 52
        pages = {"alice": alice, "bob": bob}
        assert_pages_show_only_their_own_hands(pages, server.url, match_id)

        # play: whoever must decide clicks the first legal answer
        moves: list[str] = []
        deadline = time.monotonic() + PLAY_SECONDS
        round_no = 1
        while time.monotonic() < deadline and round_no < TARGET_ROUND:
            acted = False
            for who, page in pages.items():
                if page.locator("#decisions form.decision:not(.optional)").count() == 0:
                    continue
                before = seq_of(page)
                moves.append(f"{who} {answer_first_choice(page)}")
                try:
                    page.wait_for_function(
                        "s => Number(document.querySelector('#status').dataset.seq) > s", arg=before, timeout=10_000)
                except Exception as exc:
                    flash = page.locator("#flash").all_inner_texts() if page.locator("#flash").count() else []
                    raise AssertionError(f"{who}'s answer was not taken: last moves {moves[-6:]}, "
                                         f"flash {flash}, server at {m_seq(page, server.url, match_id)}") from exc
                acted = True
                if len(moves) % LEAK_CHECK_EVERY == 0:
                    assert_pages_show_only_their_own_hands(pages, server.url, match_id)
            if not acted:
                alice.wait_for_timeout(100)  # the bot is thinking, or a push is on its way
            round_no = int(alice.locator(".qmg-round-no").inner_text())
            if alice.locator("#status.status-finished").count():
                break
        assert round_no >= TARGET_ROUND or alice.locator("#status.status-finished").count(), \
            f"stuck in round {round_no} after {len(moves)} moves; last: {moves[-5:]}"
        assert any(m.split()[1].startswith("map:") for m in moves), "no move was made on the map"
        assert any(m.split()[1].startswith("hand:") for m in moves), "no card was played from the hand"

        # the log carries the engine's own lines, and both pages agree on the board
        expect(alice.locator("#log")).to_contain_text("plays")
        assert_pages_show_only_their_own_hands(pages, server.url, match_id)
        expect(bob.locator(".qmg-round-no")).to_have_text(str(round_no))
        alice.screenshot(path=SCREENSHOT, full_page=True)
        bob.screenshot(path=SCREENSHOT.replace(".png", "-bob.png"), full_page=True)
    except Exception:
        print(server.log()[-6000:])  # the server's side of a failure
        for who, page in (("alice", alice), ("bob", bob)):
            page.screenshot(path=SCREENSHOT.replace(".png", f"-failed-{who}.png"), full_page=True)
        raise
    finally:
        alice_ctx.close()
        bob_ctx.close()
