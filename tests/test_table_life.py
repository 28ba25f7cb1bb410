"""Undo, resign, abandon, kick, past views, export and replay verification."""

from __future__ import annotations

import copy
import hashlib
import json

import httpx
import psycopg

from tests.conftest import new_table
from tests.fixtures.cardgame import GAME
from tests.replay_helpers import conninfo, undo_heavy_export


def started(make_player, players: int = 2, names=("Alice", "Bob"), target: str = "100"):
    """A started table; the default target is out of reach, so the match runs on."""
    alice, bob = make_player(names[0]), make_player(names[1])
    match_id = new_table(alice, players=players, options={"target": target})
    bob.post(f"/api/matches/{match_id}/join")
    for n in range(3, players + 1):
        alice.post(f"/api/matches/{match_id}/bots", {"seat": f"p{n}"})
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    return alice, bob, match_id


def answer_until(players, match_id, kind, limit=60):
    """Play first choices until one of ``players`` faces a decision of ``kind``."""
    for _ in range(limit):
        for p in players:
            m = p.match(match_id)
            if m["status"] != "active":
                return None, None
            for d in m["pending"]:
                if d["kind"] == kind:
                    return p, m
            if m["pending"]:
                d = m["pending"][0]
                p.act(match_id, d["decision"], d["choices"][0]["id"], seq=m["seq"])
    raise AssertionError(f"never reached a {kind} decision")


def play_out(players, match_id, limit=300):
    for _ in range(limit):
        progressed = False
        for p in players:
            m = p.match(match_id)
            if m["status"] == "finished":
                return m
            if m["pending"]:
                d = m["pending"][0]
                p.act(match_id, d["decision"], d["choices"][-1]["id"], seq=m["seq"])
                progressed = True
        if not progressed:
            import time

            time.sleep(0.02)
    raise AssertionError("the match did not finish")


def test_undo_takes_back_an_undoable_move_as_a_log_operation(make_player):
    alice, bob, match_id = started(make_player)
    mover, m = answer_until([alice, bob], match_id, "order")
    order = next(d for d in m["pending"] if d["kind"] == "order")
    assert order["undoable"] is True
    before = mover.match(match_id)
    r = mover.act(match_id, order["decision"], "sort", seq=m["seq"])
    assert r.status_code == 200
    r = mover.post(f"/api/matches/{match_id}/undo", {"seq": m["seq"] + 1})
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["seq"] == m["seq"] + 2, "the undo is a new row of the log"
    assert after["view"] == before["view"] and after["pending"] == before["pending"]
    assert "takes back a move" in after["log"][-1]["text"]
    other = bob if mover is alice else alice
    assert "takes back a move" in other.match(match_id)["log"][-1]["text"]


def test_undo_refuses_to_cross_a_draw_or_another_players_move(make_player):
    alice, bob, match_id = started(make_player)
    mover, m = answer_until([alice, bob], match_id, "play")
    play = next(d for d in m["pending"] if d["kind"] == "play")
    assert play["undoable"] is False
    card = next(c["id"] for c in play["choices"] if c["id"] != "pass")
    assert mover.act(match_id, play["decision"], card, seq=m["seq"]).status_code == 200
    seq = mover.match(match_id)["seq"]
    r = mover.post(f"/api/matches/{match_id}/undo", {"seq": seq})
    assert r.status_code == 400 and "cannot be taken back" in r.json()["error"]
    other = bob if mover is alice else alice
    r = other.post(f"/api/matches/{match_id}/undo", {"seq": seq})
    assert r.status_code == 400 and "another seat has acted" in r.json()["error"]
    assert mover.match(match_id)["seq"] == seq, "refused undos change nothing"


def test_undo_with_a_stale_seq_is_409(make_player):
    alice, bob, match_id = started(make_player)
    r = alice.post(f"/api/matches/{match_id}/undo", {"seq": 99})
    assert r.status_code == 409


def test_resigning_a_two_seat_match_hands_the_win_to_the_other_side(make_player):
    alice, bob, match_id = started(make_player)
    r = bob.post(f"/api/matches/{match_id}/resign")
    assert r.status_code == 200, r.text
    m = alice.match(match_id)
    assert m["status"] == "finished" and m["outcome"]["winners"] == ["p1"]
    assert "resigns" in m["log"][-1]["text"]
    assert bob.post(f"/api/matches/{match_id}/resign").status_code == 400


def test_resigning_a_larger_match_hands_the_seat_to_a_bot(make_player):
    alice, bob, match_id = started(make_player, players=3, names=("Ana", "Bea"), target="5")
    assert bob.post(f"/api/matches/{match_id}/resign").status_code == 200
    m = alice.match(match_id)
    assert m["status"] == "active"
    assert next(s for s in m["seats"] if s["seat"] == "p2")["bot"] == "rules"
    final = play_out([alice], match_id)
    assert final["status"] == "finished"


def test_abandon_and_kick_before_the_start(make_player):
    host, guest = make_player("Host"), make_player("Guest")
    match_id = new_table(host, players=3)
    guest.post(f"/api/matches/{match_id}/join")
    host.post(f"/api/matches/{match_id}/bots", {"seat": "p3"})
    assert guest.post(f"/api/matches/{match_id}/kick", {"seat": "p1"}).status_code == 403
    r = host.post(f"/api/matches/{match_id}/kick", {"seat": "p2"})
    assert r.status_code == 200
    seats = {s["seat"]: s for s in r.json()["seats"]}
    assert seats["p2"]["player"] is None and seats["p3"]["bot"] == "rules"
    assert host.post(f"/api/matches/{match_id}/abandon").status_code == 200
    assert host.match(match_id)["status"] == "abandoned"
    assert guest.post(f"/api/matches/{match_id}/join").status_code == 400


def test_past_views_are_filtered_like_live_views(make_player):
    alice, bob, match_id = started(make_player)
    seen = {}
    for _ in range(6):
        for p in (alice, bob):
            m = p.match(match_id)
            seen[(p.name, m["seq"])] = m["view"]
            if m["pending"] and m["status"] == "active":
                d = m["pending"][0]
                p.act(match_id, d["decision"], d["choices"][0]["id"], seq=m["seq"])
    for (name, seq), view in seen.items():
        p = alice if name == "Alice" else bob
        r = p.get(f"/api/matches/{match_id}/at/{seq}")
        assert r.status_code == 200, r.text
        assert r.json()["view"] == view
    spectator = make_player("Sam")
    r = spectator.get(f"/api/matches/{match_id}/at/1")
    assert r.status_code == 200 and "hand" not in r.json()["view"]
    assert spectator.get(f"/api/matches/{match_id}/at/1?seat=p1").status_code == 403
    assert alice.get(f"/api/matches/{match_id}/at/1?seat=p2").status_code == 403, "not before the end"
    assert alice.get(f"/api/matches/{match_id}/at/9999").status_code == 404


def test_after_the_end_players_step_through_from_any_seat(make_player):
    alice, bob, match_id = started(make_player, target="5")
    final = play_out([alice, bob], match_id)
    r = alice.get(f"/api/matches/{match_id}/at/{final['seq']}?seat=p2")
    assert r.status_code == 200 and r.json()["view"] == bob.match(match_id)["view"]


def test_export_and_verify_catch_tampering(make_player, server):
    alice, bob, match_id = started(make_player, target="7")
    mover, m = answer_until([alice, bob], match_id, "order")
    d = next(x for x in m["pending"] if x["kind"] == "order")
    mover.act(match_id, d["decision"], "sort", seq=m["seq"])
    mover.post(f"/api/matches/{match_id}/undo", {"seq": m["seq"] + 1})
    running = alice.get(f"/api/matches/{match_id}/export").json()
    assert running["seed"] is None
    assert any(a["payload"].get("choices") is None for a in running["actions"] if a["seat"] == "p2"), \
        "a running match's export withholds other seats' choices"
    r = alice.post("/api/replays/verify", running)
    assert r.status_code == 422 and "seed" in r.json()["error"]

    play_out([alice, bob], match_id)
    export = alice.get(f"/api/matches/{match_id}/export").json()
    assert export["seed"] and all(a["state_hash"] for a in export["actions"])
    assert any("undo" in a["payload"] for a in export["actions"])
    r = alice.post("/api/replays/verify", export)
    assert r.status_code == 200 and r.json()["ok"] is True, r.text

    moves = [a for a in export["actions"] if "decision" in a["payload"]]
    victim = moves[len(moves) // 2]
    tampered = copy.deepcopy(export)
    for a in tampered["actions"]:
        if a["seq"] == victim["seq"]:
            a["state_hash"] = "0" * 64
    assert alice.post("/api/replays/verify", tampered).json() == {**r.json(), "ok": False,
                                                                  "first_divergent_seq": victim["seq"]}
    tampered = copy.deepcopy(export)
    tampered["seed"] = "ff" * 32
    assert alice.post("/api/replays/verify", tampered).json()["first_divergent_seq"] == 1


def stored_state_hashes(database_url: str, match_id: str) -> dict[int, str]:
    with psycopg.connect(conninfo(database_url)) as conn:
        return dict(conn.execute("SELECT seq, state_hash FROM actions WHERE match_id = %s", (match_id,)).fetchall())


def view_hash(view: dict) -> str:
    return hashlib.sha256(json.dumps(view, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def test_a_running_export_publishes_only_public_view_hashes(make_player, server, database_url):
    """The full state holds hands and deck order: while the match runs its hash must not be
    published (a small state space gives it away). Each seq carries the hash of what a
    spectator saw instead."""
    alice, bob, match_id = started(make_player)
    mover, m = answer_until([alice, bob], match_id, "order")
    order = next(d for d in m["pending"] if d["kind"] == "order")
    mover.act(match_id, order["decision"], "sort", seq=m["seq"])
    while alice.match(match_id)["seq"] < 10:
        for p in (alice, bob):
            if (mine := p.match(match_id))["pending"]:
                d = mine["pending"][0]
                p.act(match_id, d["decision"], d["choices"][0]["id"], seq=mine["seq"])
    running = alice.get(f"/api/matches/{match_id}/export")
    assert running.status_code == 200, running.text
    actions = running.json()["actions"]
    stored = stored_state_hashes(database_url, match_id)
    assert len(actions) == len(stored) >= 5
    assert all(a["state_hash"] is None and a["public_hash"] for a in actions)
    assert not [h for h in stored.values() if h in running.text], "no full-state hash leaves the server"
    with httpx.Client(base_url=server.url, timeout=10) as spectator:
        for a in (actions[0], actions[len(actions) // 2], actions[-1]):
            seen = spectator.get(f"/api/matches/{match_id}/at/{a['seq']}").json()["view"]
            assert view_hash(seen) == a["public_hash"], f"seq {a['seq']}: the hash of the spectators' view"


def test_a_finished_export_carries_both_hashes_and_verify_checks_each(make_player):
    alice, bob, match_id = started(make_player, target="3")
    play_out([alice, bob], match_id)
    export = alice.get(f"/api/matches/{match_id}/export").json()
    assert all(a["state_hash"] and a["public_hash"] for a in export["actions"])
    ok = alice.post("/api/replays/verify", export).json()
    assert ok["ok"] is True, ok

    tampered = copy.deepcopy(export)
    victim = tampered["actions"][len(tampered["actions"]) // 2]
    victim["public_hash"] = "0" * 64
    result = alice.post("/api/replays/verify", tampered).json()
    assert (result["ok"], result["first_divergent_seq"]) == (False, victim["seq"])

    public_only = copy.deepcopy(export)
    for a in public_only["actions"]:
        a["state_hash"] = None
    assert alice.post("/api/replays/verify", public_only).json()["ok"] is True, "either hash is checked alone"
    for a in public_only["actions"][3:]:
        a["public_hash"] = None
    result = alice.post("/api/replays/verify", public_only).json()
    assert (result["ok"], result["first_divergent_seq"]) == (False, 4), "a seq with no hash vouches for nothing"


def test_verify_needs_a_signed_in_player(make_player, server):
    export = undo_heavy_export(GAME, bytes(32), moves=20, pairs=1, options={"target": "100"})
    with httpx.Client(base_url=server.url, timeout=10) as anonymous:
        r = anonymous.post("/api/replays/verify", json=export)
        assert r.status_code == 401 and "sign in" in r.json()["error"]
        r = anonymous.post("/replays/verify", files={"export": ("m.json", json.dumps(export), "application/json")})
        assert r.status_code == 401 and "Sign in to check a replay" in r.text
    r = make_player("Vera").post("/api/replays/verify", export)
    assert r.status_code == 200 and r.json()["ok"] is True, r.text


def test_an_export_full_of_undo_redo_pairs_verifies(make_player):
    """The log shape that cost 15 s of CPU: each undo used to replay the game from setup
    (tests/unit/test_replay_incremental.py counts the moves replayed)."""
    export = undo_heavy_export(GAME, bytes(range(32)), moves=200, pairs=15, options={"target": "100"})
    undos = sum("undo" in a["payload"] for a in export["actions"])
    assert undos >= 150
    r = make_player("Fidget").post("/api/replays/verify", export)
    assert r.status_code == 200 and r.json() == {**r.json(), "ok": True, "actions": len(export["actions"])}, r.text
