"""Table life in the pages: undo, resign, abandon, kick, spectators, history and replay checks.

The httpx tests drive the page routes (CSRF, errors shown in the page's flash); the
browser tests watch a second player's page change without a reload."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import httpx
import pytest

from tests.browser.conftest import live_table
from tests.browser.test_pages import csrf_of
from tests.conftest import new_table
from tests.test_table_life import answer_until, play_out

HX = {"HX-Request": "true"}


def started(make_player: Any, target: str = "100", spectator_chat: bool = False) -> tuple[Any, Any, str]:
    alice, bob = make_player("Alice"), make_player("Bob")
    r = alice.http.post("/tables", data={"csrf": csrf_of(alice), "game": "cardgame", "players": "2",
                                         "opt_target": target, "mode": "live",
                                         **({"spectator_chat": "on"} if spectator_chat else {})})
    assert r.status_code == 303
    match_id = r.headers["location"].rsplit("/", 1)[1]
    assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    return alice, bob, match_id


def page_post(player: Any, path: str, form: dict[str, Any], token: str | None) -> httpx.Response:
    headers = dict(HX)
    if token:
        headers["X-CSRF-Token"] = token
    return player.http.post(path, data=form, headers=headers)


# --------------------------------------------------------------------------- undo / resign
def test_undo_button_shows_after_an_undoable_move_and_the_route_takes_it_back(server: Any, make_player: Any) -> None:
    alice, bob, match_id = started(make_player)
    mover, m = answer_until([alice, bob], match_id, "order")
    order = next(d for d in m["pending"] if d["kind"] == "order")
    assert 'id="undo"' not in mover.get(f"/matches/{match_id}").text, "nothing of hers to take back yet"
    assert mover.act(match_id, order["decision"], "sort", seq=m["seq"]).status_code == 200
    assert 'id="undo"' in mover.get(f"/matches/{match_id}").text
    other = bob if mover is alice else alice
    assert 'id="undo"' not in other.get(f"/matches/{match_id}").text

    path = f"/matches/{match_id}/undo"
    r = page_post(mover, path, {"seq": m["seq"] + 1}, None)
    assert r.status_code == 403 and "security token" in r.text
    r = page_post(mover, path, {"seq": m["seq"]}, csrf_of(mover))
    assert r.status_code == 409 and "stale undo" in r.text and 'id="flash"' in r.text
    assert mover.match(match_id)["seq"] == m["seq"] + 1, "a refused undo changes nothing"
    r = page_post(mover, path, {"seq": m["seq"] + 1}, csrf_of(mover))
    assert r.status_code == 200 and "takes back a move" in r.text and 'hx-swap-oob="true"' in r.text
    assert 'id="undo"' not in r.text
    assert mover.match(match_id)["pending"] == m["pending"]
    r = page_post(mover, path, {"seq": m["seq"] + 2}, csrf_of(mover))
    assert r.status_code == 400 and "take back" in r.text


def test_resign_route_needs_the_token_and_ends_a_two_seat_match(server: Any, make_player: Any) -> None:
    alice, bob, match_id = started(make_player)
    assert 'id="resign"' in alice.get(f"/matches/{match_id}").text
    r = page_post(alice, f"/matches/{match_id}/resign", {}, None)
    assert r.status_code == 403 and alice.match(match_id)["status"] == "active"
    with httpx.Client(base_url=server.url, timeout=10) as stranger:
        token = re.search(r'name="csrf" value="([^"]+)"', stranger.get(f"/matches/{match_id}").text).group(1)
        r = stranger.post(f"/matches/{match_id}/resign", data={"csrf": token}, headers=HX)
        assert r.status_code == 401 and "Sign in first" in r.text
    r = page_post(alice, f"/matches/{match_id}/resign", {}, csrf_of(alice))
    assert r.status_code == 200 and "resigns" in r.text
    assert bob.match(match_id)["status"] == "finished"
    r = alice.http.post(f"/matches/{match_id}/resign", data={"csrf": csrf_of(alice)})  # a plain form post
    assert r.status_code == 303
    assert "there is nothing to resign" in alice.get(f"/matches/{match_id}").text


# --------------------------------------------------------------------------- before the start
def test_host_kicks_a_seat_and_abandons_the_table_through_the_forms(server: Any, make_player: Any) -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    match_id = new_table(alice, players=3)
    bob.post(f"/api/matches/{match_id}/join")
    page = alice.get(f"/matches/{match_id}").text
    assert page.count('class="inline kick"') == 1 and 'id="abandon"' in page
    assert 'class="inline kick"' not in bob.get(f"/matches/{match_id}").text

    r = alice.http.post(f"/matches/{match_id}/kick", data={"seat": "p2"})
    assert r.status_code == 403
    r = bob.http.post(f"/matches/{match_id}/kick", data={"seat": "p1", "csrf": csrf_of(bob)})
    assert r.status_code == 303 and "only the player who created the table" in bob.get(f"/matches/{match_id}").text
    r = alice.http.post(f"/matches/{match_id}/kick", data={"seat": "p2", "csrf": csrf_of(alice)})
    assert r.status_code == 303
    assert bob.match(match_id)["you"] is None

    r = bob.http.post(f"/matches/{match_id}/abandon", data={"csrf": csrf_of(bob)})
    assert r.status_code == 303 and alice.match(match_id)["status"] == "open"
    r = alice.http.post(f"/matches/{match_id}/abandon", data={"csrf": csrf_of(alice)})
    assert r.status_code == 303
    page = alice.get(f"/matches/{match_id}").text
    assert "abandoned" in page and 'id="start-match"' not in page


# --------------------------------------------------------------------------- spectators
def test_spectators_watch_the_public_view_and_chat_only_when_the_table_allows(server: Any, make_player: Any) -> None:
    _alice, _bob, quiet = started(make_player)
    carol = make_player("Carol")
    page = carol.get(f"/matches/{quiet}").text
    assert "You are watching this match" in page and 'class="chat-form"' not in page
    assert "Only the players chat" in page
    r = carol.post(f"/api/matches/{quiet}/chat", {"text": "hello"})
    assert r.status_code == 403 and "spectators" in r.json()["error"]
    r = page_post(carol, f"/matches/{quiet}/chat", {"text": "hello"}, csrf_of(carol))
    assert r.status_code == 403 and 'id="flash"' in r.text

    _alice, _bob, chatty = started(make_player, spectator_chat=True)
    assert 'class="chat-form"' in carol.get(f"/matches/{chatty}").text
    assert carol.post(f"/api/matches/{chatty}/chat", {"text": "go team"}).status_code == 200
    lobby = carol.get("/").text
    assert f'/matches/{chatty}' in lobby and "Watch" in lobby


# --------------------------------------------------------------------------- history and replays
def test_history_steps_through_a_finished_match_from_any_seat_for_players_only(server: Any,
                                                                              make_player: Any) -> None:
    alice, bob, match_id = started(make_player, target="3")
    final = play_out([alice, bob], match_id)
    page = alice.get(f"/matches/{match_id}").text
    assert 'id="history-open"' in page and 'id="export-link"' in page

    r = alice.get(f"/matches/{match_id}/history?seq=1")
    assert r.status_code == 200 and 'data-seq="1"' in r.text and f'data-last-seq="{final["seq"]}"' in r.text
    assert 'id="history-seat"' in r.text and "<select" in r.text
    first = alice.get(f"/matches/{match_id}/history?seq=0").text
    assert 'id="history-prev"' in first and re.search(r'id="history-prev"[^>]*disabled', first)
    as_bob = alice.get(f"/matches/{match_id}/history?seq={final['seq']}&seat=p2").text
    bob_at = bob.get(f"/api/matches/{match_id}/at/{final['seq']}").json()
    for card in bob_at["view"]["hand"]:
        assert card["id"] in as_bob

    with httpx.Client(base_url=server.url, timeout=10) as guest:
        r = guest.get(f"/matches/{match_id}/history?seq=2")
        assert r.status_code == 200 and "public view" in r.text and "<select" not in r.text
        r = guest.get(f"/matches/{match_id}/history?seq=2&seat=p1")
        assert r.status_code == 403 and "only the match&#39;s players" in r.text
        assert r.headers["hx-reswap"] == "none", "an error must not wipe the open history panel"
    r = alice.get(f"/matches/{match_id}/history?seq=9999")
    assert r.status_code == 404 and "outside this match&#39;s log" in r.text
    r = alice.get(f"/matches/{match_id}/history?seq=abc")
    assert r.status_code == 422 and "seq" in r.text


def test_a_running_match_shows_history_to_its_players_but_not_to_spectators(server: Any, make_player: Any) -> None:
    alice, _bob, match_id = started(make_player)
    assert 'id="history-open"' in alice.get(f"/matches/{match_id}").text
    with httpx.Client(base_url=server.url, timeout=10) as guest:
        assert 'id="history-open"' not in guest.get(f"/matches/{match_id}").text


def test_verify_form_replays_an_uploaded_export(server: Any, make_player: Any) -> None:
    alice, bob, match_id = started(make_player, target="3")
    play_out([alice, bob], match_id)
    export = alice.get(f"/api/matches/{match_id}/export").json()

    def upload(doc: Any, token: str | None) -> httpx.Response:
        raw = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
        data = {"csrf": token} if token else {}
        return alice.http.post("/replays/verify", data=data, files={"export": ("m.json", raw, "application/json")},
                               headers=HX)

    assert upload(export, None).status_code == 403
    r = upload(export, csrf_of(alice))
    assert r.status_code == 200 and 'data-ok="true"' in r.text and "Replay matches" in r.text
    tampered = copy.deepcopy(export)
    victim = tampered["actions"][2]
    victim["state_hash"] = "0" * 64
    r = upload(tampered, csrf_of(alice))
    assert r.status_code == 200 and 'data-ok="false"' in r.text
    assert f'data-first-divergent-seq="{victim["seq"]}"' in r.text
    r = upload(b"not json at all", csrf_of(alice))
    assert r.status_code == 422 and "not a Warroom export" in r.text
    r = upload({**export, "seed": None}, csrf_of(alice))
    assert r.status_code == 422 and "seed" in r.text


# --------------------------------------------------------------------------- in real browsers
def two_pages(browser: Any, server: Any, make_player: Any) -> tuple[Any, Any, Any, Any, str]:  # noqa: F811
    """Alice and Bob (guests made through the API) each with a browser page on a started table."""
    alice, bob, match_id = started(make_player)
    contexts, pages = [], []
    for player in (alice, bob):
        ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        ctx.add_cookies([{"name": k, "value": v, "url": server.url} for k, v in player.http.cookies.items()])
        contexts.append(ctx)
        pages.append(ctx.new_page())
    for page in pages:
        page.goto(f"{server.url}/matches/{match_id}")
        live_table(page)
    return alice, bob, pages, contexts, match_id


@pytest.mark.browser
def test_undo_and_resign_clicked_in_one_page_show_up_in_the_other_without_reload(
        server: Any, make_player: Any, browser: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    expect.set_options(timeout=5_000)
    alice, bob, pages, contexts, match_id = two_pages(browser, server, make_player)
    try:
        mover, m = answer_until([alice, bob], match_id, "order")
        me, other = (pages[0], pages[1]) if mover is alice else (pages[1], pages[0])
        other.evaluate("window.__stillTheSamePage = true")
        expect(me.locator("#decisions")).to_contain_text("Sort your hand before playing?")
        me.locator("#decisions button", has_text="sort hand by value").click()
        expect(me.locator("#undo")).to_be_visible()
        expect(other.locator("#undo")).to_have_count(0)
        me.locator("#undo").click()
        expect(other.locator("#log")).to_contain_text("takes back a move")
        expect(me.locator("#decisions")).to_contain_text("Sort your hand before playing?")
        expect(me.locator("#undo")).to_have_count(0)

        me.locator("#resign summary").click()
        me.locator("#resign-yes").click()
        expect(other.locator("#status")).to_contain_text("finished")
        expect(other.locator("#status")).to_contain_text("resigns")
        assert other.evaluate("window.__stillTheSamePage") is True
    finally:
        for ctx in contexts:
            ctx.close()


@pytest.mark.browser
def test_replay_stepping_with_the_buttons_and_the_slider(server: Any, make_player: Any,
                                                        browser: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    expect.set_options(timeout=5_000)
    alice, bob, pages, contexts, match_id = two_pages(browser, server, make_player)
    try:
        answer_until([alice, bob], match_id, "play")
        last = alice.match(match_id)["seq"]
        page = pages[0]
        page.reload()
        live_table(page)  # the socket's first frame would close a panel opened before it
        page.locator("#history-open").click()
        history = page.locator("#history")
        expect(history).to_have_attribute("data-seq", str(last))
        expect(page.locator("#history-next")).to_be_disabled()
        page.locator("#history-prev").click()
        expect(history).to_have_attribute("data-seq", str(last - 1))
        page.locator("#history-first").click()
        expect(history).to_have_attribute("data-seq", "0")
        expect(page.locator("#history-prev")).to_be_disabled()
        page.locator("#history-next").click()
        expect(history).to_have_attribute("data-seq", "1")
        expect(history.locator(".history-log")).to_contain_text("You bid")
        slider = page.locator("#history-slider")
        # a control swapped in is live once htmx has settled it (a user is never that quick)
        page.wait_for_selector("#history:not(.htmx-added):not(.htmx-settling):not(.htmx-swapping)")
        slider.fill(str(last))  # a range input takes fill() and fires change
        expect(history).to_have_attribute("data-seq", str(last))
        page.locator("#history-first").click()
        expect(history).to_have_attribute("data-seq", "0")
        page.locator("#history-last").click()
        expect(history).to_have_attribute("data-seq", str(last))
    finally:
        for ctx in contexts:
            ctx.close()


@pytest.mark.browser
def test_phone_stacks_the_panels_and_the_board_pans_and_zooms(server: Any, make_player: Any,
                                                              browser: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    expect.set_options(timeout=5_000)
    alice, bob, match_id = started(make_player)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    ctx.add_cookies([{"name": k, "value": v, "url": server.url} for k, v in alice.http.cookies.items()])
    page = ctx.new_page()
    try:
        answer_until([alice, bob], match_id, "play")
        page.goto(f"{server.url}/matches/{match_id}")
        live_table(page)  # the socket's first frame re-renders the panels: measure after it
        expect(page.locator("#decisions form.decision")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, "nothing sticks out sideways"
        for _ in range(20):  # the socket's first push re-renders the panels: measure between swaps
            boxes = {pid: page.locator(f"#{pid}").bounding_box() for pid in ("decisions", "hand", "seats", "log")}
            if all(boxes.values()):
                break
            page.wait_for_timeout(100)
        assert all(boxes.values()), boxes
        assert boxes["decisions"]["y"] < boxes["hand"]["y"] < boxes["seats"]["y"] < boxes["log"]["y"]
        assert all(b["width"] > 300 for b in boxes.values()), "one full-width column"
        page.screenshot(path="/tmp/phone-table.png", full_page=True)

        # a board frame as games draw it: an SVG inside [data-zoomable] > .zoom-inner
        page.evaluate("""() => {
          const box = document.createElement('div');
          box.className = 'zoomable'; box.setAttribute('data-zoomable', ''); box.style.height = '300px';
          box.innerHTML = '<div class="zoom-inner"><svg viewBox="0 0 400 300"><rect id="area" x="10" y="10"'
            + ' width="380" height="280" fill="#8a9a5b"/></svg></div>';
          const panel = document.getElementById('board'); panel.appendChild(box);
        }""")
        frame = page.locator("#board [data-zoomable]")
        inner = frame.locator(".zoom-inner")
        frame.scroll_into_view_if_needed()
        box = frame.bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(cx, cy)
        page.mouse.wheel(0, -300)
        expect(frame).to_have_class(re.compile(r"\bzoomed\b"))
        scale = page.evaluate("() => new DOMMatrix(getComputedStyle(document.querySelector('#board .zoom-inner'))"
                              ".transform).a")
        assert scale > 1.1
        before = inner.evaluate("el => el.style.transform")
        page.mouse.move(cx, cy)
        page.mouse.down()
        page.mouse.move(cx + 40, cy + 30, steps=5)
        page.mouse.up()
        assert inner.evaluate("el => el.style.transform") != before, "a drag pans the zoomed board"
        page.screenshot(path="/tmp/phone-zoomed.png", full_page=False)
        frame.dblclick()
        expect(frame).not_to_have_class(re.compile(r"\bzoomed\b"))
    finally:
        ctx.close()
