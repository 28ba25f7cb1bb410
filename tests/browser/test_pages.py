"""The page routes over plain HTTP: CSRF, sign-in forms, answers (stale, illegal), hidden hands."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.conftest import new_table

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def csrf_of(player: Any) -> str:
    return str(player.get("/api/me").json()["csrf_token"])


def started_table(make_player: Any) -> tuple[Any, Any, str]:
    alice, bob = make_player("Alice"), make_player("Bob")
    match_id = new_table(alice)
    assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    return alice, bob, match_id


def answer(player: Any, match_id: str, form: dict[str, Any], token: str | None = None) -> httpx.Response:
    headers = {"HX-Request": "true"}
    if token:
        headers["X-CSRF-Token"] = token
    return player.http.post(f"/matches/{match_id}/answer", data=form, headers=headers)


def test_guest_form_needs_the_session_token_and_signs_in(server: Any) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as web:
        lobby = web.get("/")
        assert lobby.status_code == 200 and 'action="/guest"' in lobby.text
        token = CSRF.search(lobby.text).group(1)
        assert web.post("/guest", data={"name": "Mallory"}).status_code == 403
        assert web.post("/guest", data={"name": "Mallory", "csrf": "forged"}).status_code == 403
        assert web.get("/api/me").status_code == 401
        r = web.post("/guest", data={"name": "Carol", "csrf": token, "next": "//evil.example/"})
        assert r.status_code == 303 and r.headers["location"] == "/"
        assert web.get("/api/me").json()["name"] == "Carol"
        lobby = web.get("/")
        assert "Signed in as Carol" in lobby.text
        assert 'data-game="cardgame"' in lobby.text  # the fixture game is installed in tests


def test_create_table_form_opens_a_table_with_the_games_options(server: Any, make_player: Any) -> None:
    host = make_player("Host")
    r = host.http.post("/tables", data={"csrf": csrf_of(host), "game": "cardgame", "players": "3",
                                        "opt_target": "7", "mode": "async"})
    assert r.status_code == 303
    match_id = r.headers["location"].rsplit("/", 1)[1]
    state = host.match(match_id)
    assert state["you"] == "p1" and state["mode"] == "async" and len(state["seats"]) == 3
    page = host.get(f"/matches/{match_id}").text
    assert 'id="invite-link"' in page and f"/matches/{match_id}" in page
    assert 'id="start-match"' in page


def test_each_seat_page_shows_its_own_hand_only(server: Any, make_player: Any) -> None:
    alice, bob, match_id = started_table(make_player)
    hands = {p.name: p.match(match_id)["view"]["hand"] for p in (alice, bob)}
    pages = {p.name: p.get(f"/matches/{match_id}").text for p in (alice, bob)}
    with httpx.Client(base_url=server.url, timeout=10) as spectator:
        pages["spectator"] = spectator.get(f"/matches/{match_id}").text
    for viewer, html in pages.items():
        for owner, hand in hands.items():
            for card in hand:
                assert (card["id"] in html) == (owner == viewer), (viewer, owner, card)


def test_answer_refuses_a_missing_token_a_stale_seq_and_an_illegal_choice(server: Any, make_player: Any) -> None:
    alice, _bob, match_id = started_table(make_player)
    token = csrf_of(alice)
    seq = alice.match(match_id)["seq"]

    r = answer(alice, match_id, {"seq": seq, "decision": "bid:p1:round1", "choice": "1"})
    assert r.status_code == 403 and "security token" in r.text
    r = answer(alice, match_id, {"seq": seq, "decision": "bid:p1:round1", "choice": "9"}, token)
    assert r.status_code == 400
    assert "is not a legal choice for bid" in r.text and "legal choices: 0, 1, 2" in r.text
    assert 'id="decisions"' not in r.text  # the refusal alone: the form stays as the player left it
    assert alice.match(match_id)["seq"] == seq  # nothing changed

    r = answer(alice, match_id, {"seq": seq, "decision": "bid:p1:round1", "choice": "1"}, token)
    assert r.status_code == 200
    assert 'hx-swap-oob="true"' in r.text and "You bid 1" in r.text
    r = answer(alice, match_id, {"seq": seq, "decision": "bid:p1:round1", "choice": "2"}, token)
    assert r.status_code == 409 and "The table moved on" in r.text
    assert 'id="log"' in r.text and "You bid 1" in r.text
    assert alice.match(match_id)["seq"] == seq + 1


def test_plain_form_answer_without_htmx_redirects_back(server: Any, make_player: Any) -> None:
    alice, _bob, match_id = started_table(make_player)
    seq = alice.match(match_id)["seq"]
    r = alice.http.post(f"/matches/{match_id}/answer",
                        data={"csrf": csrf_of(alice), "seq": seq, "decision": "bid:p1:round1", "choice": "0"})
    assert r.status_code == 303 and r.headers["location"] == f"/matches/{match_id}"
    assert "You bid 0" in alice.get(f"/matches/{match_id}").text


def test_chat_form_posts_and_lists(server: Any, make_player: Any) -> None:
    alice, bob, match_id = started_table(make_player)
    r = alice.http.post(f"/matches/{match_id}/chat", data={"text": "good luck <b>all</b>"},
                        headers={"HX-Request": "true", "X-CSRF-Token": csrf_of(alice)})
    assert r.status_code == 200 and 'id="chat-lines"' in r.text
    assert "good luck &lt;b&gt;all&lt;/b&gt;" in r.text
    assert "good luck &lt;b&gt;all&lt;/b&gt;" in bob.get(f"/matches/{match_id}").text


def test_unknown_table_is_a_page_not_json(server: Any) -> None:
    r = httpx.get(f"{server.url}/matches/nope", timeout=10)
    assert r.status_code == 404 and "There is no such table" in r.text


def test_register_logout_and_log_in_again_through_the_forms(server: Any) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as web:
        token = CSRF.search(web.get("/").text).group(1)
        r = web.post("/register", data={"name": "Dora", "password": "short", "csrf": token})
        assert r.status_code == 303 and "at least 8 characters" in web.get("/").text
        token = CSRF.search(web.get("/").text).group(1)
        r = web.post("/register", data={"name": "Dora", "password": "long enough pw", "csrf": token})
        assert r.status_code == 303 and web.get("/api/me").json()["guest"] is False
        token = CSRF.search(web.get("/").text).group(1)
        assert web.post("/logout", data={"csrf": token}).status_code == 303
        assert web.get("/api/me").status_code == 401
        token = CSRF.search(web.get("/").text).group(1)
        web.post("/login", data={"name": "dora", "password": "wrong password", "csrf": token})
        assert "wrong name or password" in web.get("/").text
        token = CSRF.search(web.get("/").text).group(1)
        assert web.post("/login", data={"name": "dora", "password": "long enough pw", "csrf": token}).status_code == 303
        assert web.get("/api/me").json()["name"] == "Dora"
