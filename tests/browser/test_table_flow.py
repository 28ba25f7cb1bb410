"""Two players in two real browsers: lobby → table → invite → start → hidden hands → a live move."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.conftest import sign_in_as_guest
from tests.conftest import Player, new_table

pytestmark = pytest.mark.browser

SCREENSHOT = "/tmp/warroom-table.png"






def test_two_players_meet_start_and_see_each_others_moves_live(server: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=5_000)
    alice_ctx = browser.new_context(viewport={"width": 1200, "height": 900})
    bob_ctx = browser.new_context(viewport={"width": 420, "height": 900})  # a phone: panels stack
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    try:
        # Alice plays as a guest and opens a table of the fixture game for two
        alice.goto(f"{server.url}/")
        sign_in_as_guest(alice, "Alice")
        expect(alice.locator(".topbar .who")).to_contain_text("Alice")
        table_form = alice.locator("form.new-table[data-game=cardgame]")
        table_form.locator("select[name=players]").select_option("2")
        table_form.locator("button", has_text="Create table").click()
        alice.wait_for_url(re.compile(r"/matches/[\w-]+$"))
        invite = alice.locator("#invite-link").input_value()
        assert invite == alice.url
        match_id = invite.rsplit("/", 1)[1]

        # Bob follows the invite link, signs in on the spot and sits down
        bob.goto(invite)
        sign_in_as_guest(bob, "Bob")
        bob.wait_for_url(invite)
        bob.locator("#join-table").click()
        bob.wait_for_url(invite)
        expect(bob.locator("#seats tr.you")).to_contain_text("Bob")
        expect(alice.locator("#seats")).to_contain_text("Bob (guest)")  # pushed to Alice, no reload

        # Alice starts; Bob's page turns into the game by itself
        bob.evaluate("window.__stillTheSamePage = true")
        alice.locator("#start-match").click()
        expect(alice.locator("#status")).to_contain_text("in play")
        expect(bob.locator("#decisions form.decision")).to_be_visible()
        expect(bob.locator("#status")).to_contain_text("in play")

        # each page shows its own hand and nothing of the other's
        state = {who: page.request.get(f"{server.url}/api/matches/{match_id}").json()
                 for who, page in (("alice", alice), ("bob", bob))}
        hands = {who: s["view"]["hand"] for who, s in state.items()}
        assert len(hands["alice"]) == len(hands["bob"]) == 4
        html = {"alice": alice.content(), "bob": bob.content()}
        for me, other in (("alice", "bob"), ("bob", "alice")):
            for card in hands[me]:
                assert card["id"] in html[me] and card["label"] in html[me]
            for card in hands[other]:
                assert card["id"] not in html[me], f"{me}'s page leaks {other}'s {card['id']}"
                assert card["label"] not in html[me], f"{me}'s page leaks {other}'s {card['label']}"

        # Alice answers her sealed bid by clicking; Bob sees it within a second, without a reload
        bid = alice.locator("#decisions form.decision[data-decision='bid:p1:round1']")
        with alice.expect_response(f"**/matches/{match_id}/answer") as answered:
            bid.locator("button", has_text="Bid 1").click()
        assert answered.value.status == 200
        clicked = time.monotonic()
        expect(bob.locator("#log")).to_contain_text("Player 1 has bid", timeout=2_000)
        assert time.monotonic() - clicked < 1.0, "the move took over a second to reach the other page"
        assert bob.evaluate("window.__stillTheSamePage") is True
        expect(alice.locator("#log")).to_contain_text("You bid 1")  # her private log line
        assert "You bid 1" not in bob.content()
        expect(alice.locator("#decisions")).to_contain_text("Nothing to decide")

        # Bob bids: the bids are revealed on Alice's page, and her first turn begins
        bob.locator("#decisions form.decision[data-decision='bid:p2:round1'] button", has_text="Bid 2").click()
        expect(alice.locator("#log")).to_contain_text("Bids revealed: Player 1 1, Player 2 2")
        expect(alice.locator("#decisions")).to_contain_text("Sort your hand before playing?")
        expect(bob.locator("#decisions")).to_contain_text("Nothing to decide")
        alice.locator("#decisions button", has_text="keep").click()

        # she plays a card by clicking it in her hand; Bob's page shows the play
        card = alice.locator("#hand button.card.playable").first
        expect(card).to_be_visible()
        label = card.inner_text().strip()
        card.click()
        expect(bob.locator("#log")).to_contain_text(f"Player 1 plays {label}")
        expect(alice.locator("#hand")).not_to_contain_text(label)
        alice.screenshot(path=SCREENSHOT, full_page=True)
        bob.screenshot(path=SCREENSHOT.replace(".png", "-phone.png"), full_page=True)
    finally:
        alice_ctx.close()
        bob_ctx.close()


def test_a_nickname_being_typed_survives_a_push(server: Any, browser: Any) -> None:
    """The sign-in form is not in a pushed panel: someone sitting down while a visitor types
    (or the socket's first push landing late) must not wipe the nickname."""
    from playwright.sync_api import expect

    expect.set_options(timeout=5_000)
    host, other = Player(server.url, "Hana"), Player(server.url, "Olek")
    match_id = new_table(host, players=3)
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{server.url}/matches/{match_id}")
        typed = page.locator("form[action='/guest'] input[name=name]")
        typed.fill("Visitor")
        assert other.post(f"/api/matches/{match_id}/join").status_code == 200
        expect(page.locator("#seats")).to_contain_text("Olek")  # the push arrived
        expect(typed).to_have_value("Visitor")
        page.locator("form[action='/guest'] button").click()
        expect(page.locator(".topbar .who")).to_contain_text("Visitor")
        expect(page.locator("#join-table")).to_be_visible()
    finally:
        context.close()


def test_a_decision_form_stays_as_it_is_while_others_move(server: Any, browser: Any) -> None:
    """A push after another seat's move must not rebuild a form whose decision is still pending
    (ticked boxes would be lost mid-answer); a new decision still gets its new form."""
    from playwright.sync_api import expect

    expect.set_options(timeout=5_000)
    host = Player(server.url, "Hana")
    match_id = new_table(host, players=2)
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{server.url}/matches/{match_id}")
        sign_in_as_guest(page, "Bolek")
        page.locator("#join-table").click()
        expect(page.locator("#seats tr.you")).to_contain_text("Bolek")
        assert host.post(f"/api/matches/{match_id}/start").status_code == 200
        form = page.locator("#decisions form.decision[data-decision='bid:p2:round1']")
        expect(form).to_be_visible()
        form.evaluate("f => { f.dataset.touched = 'yes' }")  # what a half-filled form stands for
        seq = host.match(match_id)["seq"]
        assert host.act(match_id, "bid:p1:round1", "1", seq=seq).status_code == 200
        expect(page.locator("#status")).to_have_attribute("data-seq", str(seq + 1))  # the push arrived
        expect(form).to_have_attribute("data-touched", "yes")
        form.locator("button[name=choice]").first.click()
        expect(page.locator("#status")).to_have_attribute("data-seq", str(seq + 2))
        expect(page.locator("#decisions form.decision[data-decision='bid:p2:round1']")).to_have_count(0)
    finally:
        context.close()
