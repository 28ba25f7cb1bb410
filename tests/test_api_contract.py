"""The JSON API contract: lifecycle, views per seat, stale moves, idempotent retries."""

from __future__ import annotations

from tests.conftest import new_table


def started_table(make_player, players: int = 2):
    alice, bob = make_player("Alice"), make_player("Bob")
    match_id = new_table(alice, players=players)
    assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
    for seat in range(3, players + 1):
        r = alice.post(f"/api/matches/{match_id}/bots", {"seat": f"p{seat}"})
        assert r.status_code == 200, r.text
    r = alice.post(f"/api/matches/{match_id}/start")
    assert r.status_code == 200, r.text
    return alice, bob, match_id


def test_games_lists_installed_games_with_option_schema(make_player):
    games = make_player("Gina").get("/api/games").json()
    card = next(g for g in games if g["id"] == "cardgame")
    assert card["min_players"] == 2 and card["max_players"] == 4
    assert card["options"][0]["id"] == "target"
    assert set(card["options"][0]["choices"]) >= {"3", "5", "7"}


def test_create_returns_invite_url_to_the_table_page(make_player):
    host = make_player("Hana")
    r = host.post("/api/matches", {"game": "cardgame", "players": 3, "options": {"target": "7"}, "mode": "async"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["invite_url"].endswith(f"/matches/{body['match_id']}")
    m = host.match(body["match_id"])
    assert m["status"] == "open" and m["you"] == "p1" and m["mode"] == "async"
    assert [s["seat"] for s in m["seats"]] == ["p1", "p2", "p3"]


def test_join_a_chosen_seat_and_refuse_a_taken_one(make_player):
    host, guest, third = make_player("Host"), make_player("Guest"), make_player("Third")
    match_id = new_table(host, players=3)
    r = guest.post(f"/api/matches/{match_id}/join", {"seat": "p3"})
    assert r.status_code == 200 and r.json()["you"] == "p3"
    r = third.post(f"/api/matches/{match_id}/join", {"seat": "p3"})
    assert r.status_code == 400 and "already taken" in r.json()["error"]
    r = third.post(f"/api/matches/{match_id}/join", {"seat": "p9"})
    assert r.status_code == 422 and "seat" in r.json()["error"]


def test_start_refuses_empty_seats_and_non_hosts(make_player):
    host, guest = make_player("Host"), make_player("Guest")
    match_id = new_table(host, players=3)
    guest.post(f"/api/matches/{match_id}/join")
    r = host.post(f"/api/matches/{match_id}/start")
    assert r.status_code == 400 and "p3" in r.json()["error"]
    r = guest.post(f"/api/matches/{match_id}/start")
    assert r.status_code == 403


def test_each_seat_sees_only_its_own_hand(make_player):
    alice, bob, match_id = started_table(make_player)
    a, b = alice.match(match_id), bob.match(match_id)
    a_cards = {c["id"] for c in a["view"]["hand"]}
    b_cards = {c["id"] for c in b["view"]["hand"]}
    assert a_cards and b_cards and not a_cards & b_cards
    assert not any(c in bob.get(f"/api/matches/{match_id}").text for c in a_cards)
    spectator = make_player("Spectator").match(match_id)
    assert spectator["you"] is None and spectator["pending"] == [] and "hand" not in spectator["view"]


def test_pending_lists_the_callers_decisions_with_finite_choices(make_player):
    alice, _bob, match_id = started_table(make_player)
    pending = alice.match(match_id)["pending"]
    assert pending, "round 1 starts with a simultaneous bid"
    d = pending[0]
    assert d["kind"] == "bid" and d["min"] == 1 and d["max"] == 1
    assert [c["id"] for c in d["choices"]] == ["0", "1", "2"]


def test_a_move_returns_the_new_seq_view_and_pending(make_player):
    alice, bob, match_id = started_table(make_player)
    r = alice.act(match_id, alice.match(match_id)["pending"][0]["decision"], "2", seq=0)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["seq"] == 1 and body["pending"] == [] and body["view"]["my_bid"] is not None
    # simultaneous choice: Bob's bid is still pending and Alice's stays sealed for him
    assert bob.match(match_id)["pending"][0]["kind"] == "bid"
    assert "bid:p1" not in bob.get(f"/api/matches/{match_id}").text


def test_an_answer_is_fresh_while_its_decision_is_pending(make_player):
    """Bob answers the simultaneous bid against seq 0 after Alice's bid made it seq 1: his
    decision is still pending, so it commits. Once the bids are revealed, an answer to a
    decision that is gone is stale: 409 with a resync."""
    alice, bob, match_id = started_table(make_player)
    alice_bid = alice.match(match_id)["pending"][0]["decision"]
    bob_bid = bob.match(match_id)["pending"][0]["decision"]
    assert alice.act(match_id, alice_bid, "1", seq=0).status_code == 200
    r = bob.act(match_id, bob_bid, "0", seq=0)
    assert r.status_code == 200, r.text
    r = alice.act(match_id, alice_bid, "2", seq=1)
    assert r.status_code == 409
    body = r.json()
    assert "stale" in body["error"] and body["seq"] == 2
    assert body["pending"] == alice.match(match_id)["pending"]


def test_retrying_the_same_key_returns_the_first_result_and_applies_once(make_player):
    alice, bob, match_id = started_table(make_player)
    first = alice.act(match_id, "bid:p1:round1", "1", seq=0, key="k-123")
    assert first.status_code == 200
    again = alice.act(match_id, "bid:p1:round1", "1", seq=0, key="k-123")
    assert again.status_code == 200
    assert again.json()["seq"] == first.json()["seq"] == 1
    assert again.json()["view"] == first.json()["view"]
    assert again.json()["applied"] is False
    assert alice.match(match_id)["seq"] == 1
    log = alice.get(f"/api/matches/{match_id}/log").json()
    assert [line["seq"] for line in log] == [1]  # one "has bid" line: applied once


def test_public_log_hides_private_texts(make_player):
    alice, bob, match_id = started_table(make_player)
    alice.act(match_id, "bid:p1:round1", "2")
    bob.act(match_id, "bid:p2:round1", "0")
    log = alice.get(f"/api/matches/{match_id}/log").json()
    assert any("bid" in line["text"].lower() for line in log)
    assert all(set(line) == {"seq", "text", "msg"} for line in log)
    # the message ids are the public lines' too: never a seat's private line ("You bid 2")
    assert all(line["msg"] is None or line["msg"]["id"] != "you_bid" for line in log)
    assert any(line["msg"] and line["msg"]["id"] == "has_bid" for line in log)


def test_my_matches_marks_your_move(make_player):
    alice, bob, match_id = started_table(make_player)
    mine = alice.get("/api/matches?mine=1").json()
    entry = next(m for m in mine if m["match_id"] == match_id)
    assert entry["your_move"] is True and entry["you"] == "p1"
    alice.act(match_id, "bid:p1:round1", "2")
    entry = next(m for m in alice.get("/api/matches?mine=1").json() if m["match_id"] == match_id)
    assert entry["your_move"] is False


def test_openapi_documents_the_contract(make_player):
    spec = make_player("Doc").get("/openapi.json").json()
    for path in ("/api/guests", "/api/register", "/api/login", "/api/logout", "/api/games", "/api/matches",
                 "/api/matches/{match_id}", "/api/matches/{match_id}/join", "/api/matches/{match_id}/bots",
                 "/api/matches/{match_id}/start", "/api/matches/{match_id}/actions",
                 "/api/matches/{match_id}/log"):
        assert path in spec["paths"], path


def test_spectators_chat_only_where_the_host_allows(make_player):
    host, guest, watcher = make_player("Host"), make_player("Guest"), make_player("Watcher")
    closed = new_table(host)
    r = host.post("/api/matches", {"game": "cardgame", "players": 2, "spectator_chat": True})
    open_table = r.json()["match_id"]
    for match_id in (closed, open_table):
        guest.post(f"/api/matches/{match_id}/join")
    assert watcher.post(f"/api/matches/{closed}/chat", {"text": "hello"}).status_code == 403
    assert guest.post(f"/api/matches/{closed}/chat", {"text": "hello"}).status_code == 200
    assert watcher.post(f"/api/matches/{open_table}/chat", {"text": "hello"}).status_code == 200
