"""Bad input of every shape gets a clear error naming the field or rule, changes nothing,
and is never a 500."""

from __future__ import annotations

import random

import httpx
import pytest

from tests.conftest import new_table


@pytest.fixture
def table(make_player):
    alice, bob = make_player("Alice"), make_player("Bob")
    match_id = new_table(alice)
    bob.post(f"/api/matches/{match_id}/join")
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    return alice, bob, match_id


def snapshot(player, match_id):
    m = player.match(match_id)
    return m["seq"], player.get(f"/api/matches/{match_id}/log").json()


GARBAGE_BODIES = [
    None, [], "x", 1, 1.5, True, {}, {"seq": "one", "decision": "bid:p1:round1", "choice": "1"},
    {"seq": -1, "decision": "bid:p1:round1", "choice": "1"}, {"seq": 0}, {"decision": "bid:p1:round1", "choice": "1"},
    {"seq": 0, "decision": "bid:p1:round1"}, {"seq": 0, "decision": "bid:p1:round1", "choice": "1", "choices": ["1"]},
    {"seq": 0, "decision": "bid:p1:round1", "choice": 1}, {"seq": 0, "decision": "bid:p1:round1", "choices": "1"},
    {"seq": 0, "decision": "bid:p1:round1", "choices": [1, 2]}, {"seq": 0, "decision": "", "choice": "1"},
    {"seq": 0, "decision": "bid:p1:round1", "choice": "1", "seat": "p2"},
    {"seq": 10**30, "decision": "bid:p1:round1", "choice": "1"}, {"seq": 0, "decision": "x" * 10_000, "choice": "1"},
    {"seq": 0, "decision": {"$ne": 1}, "choice": "1"}, {"seq": None, "decision": None, "choice": None},
]


def test_garbage_payloads_are_422_naming_the_field_and_change_nothing(table):
    alice, _bob, match_id = table
    before = snapshot(alice, match_id)
    for body in GARBAGE_BODIES:
        r = alice.http.post(f"/api/matches/{match_id}/actions", json=body)
        assert r.status_code == 422, (body, r.status_code, r.text)
        assert r.json()["error"], body
    assert snapshot(alice, match_id) == before


def test_malformed_json_is_422(table):
    alice, _bob, match_id = table
    before = snapshot(alice, match_id)
    for raw in (b"{", b"{'seq': 0}", b"\xff\xfe", b"null", b'{"seq": 0, "decision": "bid:p1:round1", "choice": "1"'):
        r = alice.http.post(f"/api/matches/{match_id}/actions", content=raw,
                            headers={"Content-Type": "application/json"})
        assert r.status_code == 422, (raw, r.text)
        assert "error" in r.json()
    assert snapshot(alice, match_id) == before


def test_random_fuzzed_bodies_never_500(table):
    alice, _bob, match_id = table
    rng = random.Random(20261125)
    atoms = [None, True, 0, -5, 2**70, 3.14, "", "bid:p1:round1", "1", "card-c01", [], {}, ["1"], {"a": 1}]
    keys = ["seq", "decision", "choice", "choices", "key", "seat", "x"]
    before = snapshot(alice, match_id)
    for _ in range(150):
        body = {rng.choice(keys): rng.choice(atoms) for _ in range(rng.randint(0, 5))}
        r = alice.http.post(f"/api/matches/{match_id}/actions", json=body)
        assert r.status_code < 500, (body, r.text)
        assert "error" in r.json() or r.status_code == 200
    # a fuzzed body may have been a legal bid; everything else changed nothing
    seq, log = snapshot(alice, match_id)
    assert seq - before[0] == len(log) - len(before[1]) <= 1


def test_illegal_choice_is_400_naming_the_legal_choices(table):
    alice, _bob, match_id = table
    before = snapshot(alice, match_id)
    r = alice.act(match_id, "bid:p1:round1", "7", seq=0)
    assert r.status_code == 400
    assert "not a legal choice" in r.json()["error"] and "0, 1, 2" in r.json()["error"]
    assert snapshot(alice, match_id) == before


def test_answering_another_seats_decision_is_403(table):
    alice, _bob, match_id = table
    before = snapshot(alice, match_id)
    r = alice.act(match_id, "bid:p2:round1", "1", seq=0)
    assert r.status_code == 403 and "not yours" in r.json()["error"]
    assert snapshot(alice, match_id) == before


def test_acting_on_the_seat_whose_turn_it_is_is_403(table):
    alice, bob, match_id = table
    alice.act(match_id, "bid:p1:round1", "2")
    bob.act(match_id, "bid:p2:round1", "0")
    m_alice, m_bob = alice.match(match_id), bob.match(match_id)
    idle, busy = (alice, m_bob) if not m_alice["pending"] else (bob, m_alice)
    before = snapshot(alice, match_id)
    r = idle.act(match_id, busy["pending"][0]["decision"], busy["pending"][0]["choices"][0]["id"])
    assert r.status_code == 403, r.text
    assert snapshot(alice, match_id) == before


def test_spectator_acting_is_403_and_unknown_match_404(table, make_player):
    alice, _bob, match_id = table
    spectator = make_player("Eve")
    before = snapshot(alice, match_id)
    r = spectator.act(match_id, "bid:p1:round1", "1", seq=0)
    assert r.status_code == 403 and "seat" in r.json()["error"]
    assert spectator.act("nope", "bid:p1:round1", "1", seq=0).status_code == 404
    assert spectator.get("/api/matches/nope").status_code == 404
    assert spectator.get("/api/matches/nope/log").status_code == 404
    assert snapshot(alice, match_id) == before


def test_signed_out_requests_are_401_and_forged_cookies_ignored(table, server):
    alice, _bob, match_id = table
    before = snapshot(alice, match_id)
    with httpx.Client(base_url=server.url) as anon:
        r = anon.post(f"/api/matches/{match_id}/actions", json={"seq": 0, "decision": "bid:p1:round1", "choice": "1"})
        assert r.status_code == 401
        anon.cookies.set("warroom_session", "eyJ1aWQiOiAxfQ==.forged.signature")
        r = anon.post(f"/api/matches/{match_id}/actions", json={"seq": 0, "decision": "bid:p1:round1", "choice": "1"})
        assert r.status_code == 401
    assert snapshot(alice, match_id) == before


def test_cross_site_and_non_json_posts_are_refused(table):
    alice, _bob, match_id = table
    before = snapshot(alice, match_id)
    body = '{"seq": 0, "decision": "bid:p1:round1", "choice": "1"}'
    r = alice.http.post(f"/api/matches/{match_id}/actions", content=body, headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    r = alice.http.post(f"/api/matches/{match_id}/actions", content=body,
                        headers={"Content-Type": "application/json", "Origin": "https://evil.example"})
    assert r.status_code == 403 and "cross-site" in r.json()["error"]
    assert snapshot(alice, match_id) == before


BODILESS_FORGERIES = [
    ({"Origin": "null", "Content-Type": "application/x-www-form-urlencoded"}, 403),
    ({"Origin": "null"}, 403),
    ({"Origin": "null", "Content-Type": "application/json"}, 403),
    ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
    ({"Content-Type": "multipart/form-data; boundary=x"}, 415),
    ({"Content-Type": "text/plain"}, 415),
]


@pytest.mark.parametrize(("headers", "status"), BODILESS_FORGERIES)
def test_bodiless_cross_site_posts_are_refused(table, headers, status):
    alice, _bob, match_id = table
    r = alice.http.post(f"/api/matches/{match_id}/resign", headers=headers)
    assert r.status_code == status, (headers, r.text)
    assert alice.match(match_id)["status"] == "active", "a refused resign changes nothing"


def test_origin_null_is_refused_on_page_forms_too(table):
    alice, _bob, match_id = table
    token = alice.get("/api/me").json()["csrf_token"]
    r = alice.http.post(f"/matches/{match_id}/resign", data={"csrf": token}, headers={"Origin": "null"})
    assert r.status_code == 403 and "cross-site" in r.json()["error"]
    assert alice.match(match_id)["status"] == "active"


def test_bodiless_same_origin_posts_still_work(table, server):
    alice, bob, match_id = table
    host = server.url.removeprefix("http://")
    r = bob.http.post(f"/api/matches/{match_id}/resign", headers={"Origin": f"http://{host}"})
    assert r.status_code == 200, r.text
    assert alice.match(match_id)["status"] == "finished"


def test_bad_table_requests_name_the_field(make_player):
    host = make_player("Host")
    cases = [
        ({"game": "chess", "players": 2}, "game"),
        ({"game": "cardgame", "players": 9}, "players"),
        ({"game": "cardgame", "players": 2, "options": {"speed": "fast"}}, "options.speed"),
        ({"game": "cardgame", "players": 2, "options": {"target": "999"}}, "options.target"),
        ({"game": "cardgame", "players": 2, "mode": "blitz"}, "mode"),
    ]
    for body, field in cases:
        r = host.post("/api/matches", body)
        assert r.status_code == 422, (body, r.text)
        assert field in r.json()["error"], (field, r.json())


def test_account_errors(make_player, server):
    with httpx.Client(base_url=server.url) as c:
        assert c.post("/api/register", json={"name": "Zofia", "password": "short"}).status_code == 422
        assert c.post("/api/register", json={"name": "Zofia", "password": "long enough"}).status_code == 200
        r = c.post("/api/register", json={"name": "zofia", "password": "long enough"})
        assert r.status_code == 409 and "already registered" in r.json()["error"]
        assert c.post("/api/login", json={"name": "Zofia", "password": "wrong password"}).status_code == 401
        assert c.post("/api/login", json={"name": "ZOFIA", "password": "long enough"}).status_code == 200
        assert c.post("/api/guests", json={"name": "<script>"}).status_code == 422
