"""The table players expect (issue 9, items 1, 2 and the table bugs of 9), in a real Chromium.

Two guests play Quartermaster General at one table, one page each: at 1440x900 and on a 390x844
touch phone. They make the opening discards by toggling cards in their hands and confirming in
the prompt bar; then, turn by turn, a Build Army card is played by clicking it and the army is
built by clicking the highlighted space (other turns discard with the Discard button on a card).
On the desktop the whole board is in view without scrolling and pieces are at least 28 px; on
the phone the map fills the width and the prompt bar is in view after every tap; the move is
highlighted on the other player's board. Seeded (WARROOM_TEST_SEED): the same deals every run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import create_table, join_by_invite

pytestmark = pytest.mark.browser

DESKTOP = {"viewport": {"width": 1440, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
BUILDS = ("t-build_army", "t-build_navy")  # cards that ask for a space on the map next: kept


def seq_of(page: Any) -> int:
    return int(page.locator("#status").get_attribute("data-seq") or 0)


def wait_past(page: Any, seq: int) -> None:
    page.wait_for_function("s => Number(document.querySelector('#status').dataset.seq) > s", arg=seq,
                           timeout=10_000)


def prompt_in_view(page: Any) -> bool:
    return bool(page.evaluate("""() => {
      const r = document.getElementById('prompt').getBoundingClientRect();
      return r.height > 0 && r.top >= 0 && r.top < innerHeight - 20;
    }"""))


def tap(page: Any, locator: Any, touch: bool) -> None:
    """A finger on a phone, a mouse on a desktop; on a phone the prompt bar stays in view."""
    if touch:
        locator.tap()
        assert prompt_in_view(page), "the prompt bar left the screen after a tap"
    else:
        locator.click()


def open_table(browser: Any, server: Any, context: dict[str, Any]) -> tuple[Any, Any, Any, Any, str]:
    """Alice opens a two-player QMG table, Bob joins from the invite link, Alice starts."""
    from playwright.sync_api import expect

    alice_ctx, bob_ctx = browser.new_context(**context), browser.new_context(**context)
    alice, bob = alice_ctx.new_page(), bob_ctx.new_page()
    create_table(alice, server.url, "qmg", 2)
    match_id = join_by_invite(alice, bob, "Bob")
    alice.locator("#start-match").click()
    expect(alice.locator("#table.playing .qmg-map")).to_be_visible()
    expect(bob.locator("#table.playing .qmg-map")).to_be_visible()  # Bob's page loads the board by itself
    return alice_ctx, bob_ctx, alice, bob, match_id


def discard_three_keeping_builds(page: Any, touch: bool) -> None:
    """The opening discards: three cards that build nothing, toggled in the hand, confirmed
    in the prompt bar; the picks survive a refused answer (only two confirmed first)."""
    from playwright.sync_api import expect

    form = page.locator("#prompt form.decision:not(.optional)")
    expect(form.locator("fieldset.multi.on-cards")).to_have_count(1)
    spare = "".join(f":not(.{kind})" for kind in BUILDS)
    cards = page.locator(f"#hand .qmg-card{spare} label.qmg-card-face")
    assert cards.count() >= 3, "a hand of ten with fewer than three cards to spare"
    tap(page, cards.nth(0), touch)
    tap(page, cards.nth(1), touch)
    expect(page.locator("#hand .qmg-card.picked")).to_have_count(2)
    expect(form.locator(".pick-n")).to_have_text("2")
    seq = seq_of(page)
    tap(page, form.locator("button.confirm-picks"), touch)  # two of three: refused
    expect(page.locator("#flash")).to_be_visible()
    assert seq_of(page) == seq
    expect(page.locator("#hand .qmg-card.picked")).to_have_count(2)  # the selection survived
    tap(page, cards.nth(2), touch)
    expect(form.locator(".pick-n")).to_have_text("3")
    tap(page, form.locator("button.confirm-picks"), touch)
    wait_past(page, seq)


def my_turn_to_discard(page: Any) -> bool:
    return page.locator("#prompt form.decision fieldset.multi.on-cards").count() > 0


def play_through_setup(pages: dict[str, Any], touch: bool) -> None:
    from playwright.sync_api import expect

    for _ in range(6):  # six countries, three each
        for _wait in range(100):
            turn = next((p for p in pages.values() if my_turn_to_discard(p)), None)
            if turn:
                break
            pages["alice"].wait_for_timeout(100)
        assert turn, "nobody is asked for the opening discards"
        other = next(p for p in pages.values() if p is not turn)
        # the other player is told whom the game waits on, and it is never themselves
        expect(other.locator("#prompt")).to_have_attribute("data-my-turn", "0")
        assert "Waiting for" in other.locator("#prompt").inner_text()
        # the turn strip names the country whose discards the game waits for (not "Turn: Germany")
        assert "opening discards" in other.locator(".qmg-turn").inner_text().lower()
        who = other.locator(".qmg-turn-who").inner_text()
        assert turn.locator("#prompt form.decision .prompt").inner_text().startswith(who + ":")
        me = "Alice" if turn is pages["alice"] else "Bob"
        # (the table's name, "Alice's game", is no "waiting on": only the status's own words count)
        said = turn.locator("#status").inner_text()
        assert me not in said, "one's own status names oneself"
        discard_three_keeping_builds(turn, touch)


def build_on_the_map(pages: dict[str, Any], touch: bool, click: bool = True) -> tuple[Any, Any, str]:
    """Play on until someone builds by clicking: a Build Army card clicked in the hand, then a
    highlighted space clicked on the map. Meanwhile a turn without such a card discards one with
    the Discard button on the card, the discard phase is confirmed with nothing picked, and any
    other question gets its first answer. Returns (builder's page, the other page, the space);
    with ``click=False`` it stops when the spaces are highlighted, before clicking one."""
    from playwright.sync_api import expect

    played = 0
    for _ in range(300):
        for page in pages.values():
            other = next(p for p in pages.values() if p is not page)
            target = page.locator(".qmg-targets .space.target[hx-post]")
            form = page.locator("#prompt form.decision:not(.optional)")
            if not form.count():
                continue
            seq = seq_of(page)
            if target.count() and played:
                space = str(target.first.get_attribute("data-space"))
                if not click:
                    return page, other, space
                if touch:  # a space to tap is a touch target of at least 44 px
                    box = target.first.bounding_box()
                    assert box and box["width"] >= 44 and box["height"] >= 44, box
                tap(page, target.first, touch)
                wait_past(page, seq)
                return page, other, space
            build = page.locator(f"#hand .qmg-card.{BUILDS[0]}.playable button.qmg-card-face")
            discard = page.locator("#hand .qmg-card.playable button.qmg-card-alt.discard")
            if build.count():
                expect(page.locator("#prompt")).to_have_attribute("data-my-turn", "1")
                tap(page, build.first, touch)
                played += 1
            elif form.locator("fieldset.multi").count():
                tap(page, form.locator("button.confirm-picks"), touch)
            elif discard.count():
                tap(page, discard.first, touch)
            elif form.locator("button[name=choice]").count():
                tap(page, form.locator("button[name=choice]").first, touch)
            else:
                tap(page, target.first, touch)
            wait_past(page, seq)
        pages["alice"].wait_for_timeout(50)
    raise AssertionError("nobody built on the map")


@pytest.mark.parametrize("context", [DESKTOP, PHONE], ids=["desktop-1440x900", "phone-390x844"])
def test_play_a_card_and_pick_its_space_by_clicking_them(server: Any, browser: Any, context: dict[str, Any]) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)
    touch = bool(context.get("has_touch"))
    alice_ctx, bob_ctx, alice, bob, match_id = open_table(browser, server, context)
    try:
        pages = {"alice": alice, "bob": bob}
        width = context["viewport"]["width"]
        frame = alice.locator("#board [data-zoomable]")
        if touch:
            box = frame.bounding_box()
            assert box and box["width"] >= width * 0.95, f"the map does not fill the phone's width: {box}"
            assert alice.evaluate("document.documentElement.scrollWidth") <= width, "nothing sticks out sideways"
        else:
            # the whole board in view, no page scroll
            assert alice.evaluate("document.documentElement.scrollHeight <= innerHeight")
            svg = alice.locator("svg.qmg-map").bounding_box()
            assert svg and svg["y"] >= 0 and svg["y"] + svg["height"] <= 900 and svg["x"] + svg["width"] <= 1440
            # a card's full text, large, while the card is hovered
            card = alice.locator("#hand .qmg-card").first
            card.hover()
            expect(alice.locator("#card-preview")).to_be_visible()
            expect(alice.locator("#card-preview")).to_contain_text(card.locator(".qmg-card-name").inner_text())
            alice.screenshot(path="/tmp/table-card-preview.png")
            pieces = alice.locator(".qmg-units .unit .piece")
            assert pieces.count() == 6
            for i in range(pieces.count()):
                piece = pieces.nth(i).bounding_box()
                assert piece and piece["width"] >= 28 and piece["height"] >= 28, f"a piece of {piece}"
        if touch:  # the prompt bar's buttons and the cards are touch targets of at least 44 px (one look:
            # a push may replace them between two calls)
            small = alice.evaluate("""() => [...document.querySelectorAll('#prompt button, #hand .qmg-card-face')]
              .filter(e => e.offsetParent).map(e => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
              .filter(([, r]) => r.height < 44 || r.width < 44).map(([t, r]) => `${t}: ${r.width}x${r.height}`)""")
            assert small == [], small
        play_through_setup(pages, touch)
        builder, watcher, space = build_on_the_map(pages, touch)
        # the other player sees the move highlighted on their board, the builder too
        expect(watcher.locator(f"#map-{space}")).to_have_class(re.compile(r"\bchanged\b"))
        expect(watcher.locator(f"#units-{space}")).to_have_class(re.compile(r"\bchanged\b"))
        expect(watcher.locator(f"#units-{space} .unit.army")).not_to_have_count(0)
        expect(builder.locator(f"#map-{space}")).to_have_class(re.compile(r"\bchanged\b"))
        if not touch:
            assert alice.evaluate("document.documentElement.scrollHeight <= innerHeight")
        name = "desktop" if not touch else "phone"
        alice.screenshot(path=f"/tmp/table-board-{name}-alice.png")
        bob.screenshot(path=f"/tmp/table-board-{name}-bob.png")
    except Exception:
        print(server.log()[-4000:])
        alice.screenshot(path="/tmp/table-board-failed-alice.png")
        bob.screenshot(path="/tmp/table-board-failed-bob.png")
        raise
    finally:
        alice_ctx.close()
        bob_ctx.close()


def test_zoom_and_pan_from_the_keyboard(server: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)
    alice_ctx, bob_ctx, alice, _bob, _match_id = open_table(browser, server, DESKTOP)
    try:
        inner = alice.locator("#board .qmg-zoom .zoom-inner")
        scale = "() => new DOMMatrix(getComputedStyle(document.querySelector('#board .zoom-inner')).transform).a"
        alice.locator("#board .qmg-zoom").focus()
        alice.keyboard.press("+")
        alice.keyboard.press("+")
        assert alice.evaluate(scale) > 1.4
        before = inner.evaluate("el => el.style.transform")
        alice.keyboard.press("ArrowRight")
        assert inner.evaluate("el => el.style.transform") != before, "an arrow pans the zoomed map"
        alice.keyboard.press("0")
        assert abs(alice.evaluate(scale) - 1) < 0.01
        alice.keyboard.press("-")  # never smaller than the whole map
        assert abs(alice.evaluate(scale) - 1) < 0.01
    finally:
        alice_ctx.close()
        bob_ctx.close()


def test_screenshots_of_the_table_in_english_and_polish(server: Any, browser: Any) -> None:
    """The table mid-turn (a Build Army card played, its spaces highlighted) at 1440x900 and on a
    390x844 phone, in English and Polish. Saved to $WARROOM_SCREENS (docs/screens for the docs)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)
    out = Path(os.environ.get("WARROOM_SCREENS") or "/tmp/warroom-screens")
    out.mkdir(parents=True, exist_ok=True)
    alice_ctx, bob_ctx, alice, bob, match_id = open_table(browser, server, DESKTOP)
    phone_ctx = browser.new_context(**PHONE)
    try:
        play_through_setup({"alice": alice, "bob": bob}, touch=False)
        builder, _watcher, _space = build_on_the_map({"alice": alice, "bob": bob}, touch=False, click=False)
        phone_ctx.add_cookies(builder.context.cookies())
        phone = phone_ctx.new_page()
        phone.goto(builder.url)
        for lang in ("en", "pl"):
            for page in (builder, phone):
                if lang != "en":
                    page.locator(f".lang-switch button[value={lang}]").click()
                    expect(page.locator("html")).to_have_attribute("lang", lang)
                expect(page.locator(".qmg-targets .space.target").first).to_be_visible()
                page.mouse.move(1, 1)  # no card under the pointer: none shown large
                page.wait_for_timeout(300)  # the highlight's animation settles
                size = page.viewport_size
                page.screenshot(path=str(out / f"table-{lang}-{size['width']}x{size['height']}.png"))
    finally:
        phone_ctx.close()
        alice_ctx.close()
        bob_ctx.close()
