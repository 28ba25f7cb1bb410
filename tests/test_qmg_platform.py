"""Quartermaster General through the platform: a setup discard taken back before the
other side moves, play by both sides, views free of the other side's secrets, then
resignation, export and verification."""

from __future__ import annotations

import copy

from app.games.qmg import GAME
from tests.conftest import Player
from tests.replay_helpers import states_by_seq


def answer_first(p: Player, match_id: str) -> dict:
    m = p.match(match_id)
    d = m["pending"][0]
    ids = [c["id"] for c in d["choices"]][: max(d["min"], 1)]
    body = {"seq": m["seq"], "decision": d["decision"], "choices": ids}
    r = p.post(f"/api/matches/{match_id}/actions", body)
    assert r.status_code == 200, r.text
    return r.json()


def test_qmg_runs_on_the_platform(server, database_url):
    alice, bob = Player(server.url, "Axis player"), Player(server.url, "Allied player")
    r = alice.post("/api/matches", {"game": "qmg", "players": 2, "options": {"reallocation": True}, "mode": "async"})
    assert r.status_code == 200, r.text
    match_id = r.json()["match_id"]
    assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200

    before = alice.match(match_id)
    first = before["pending"][0]
    assert first["kind"] == "setup_discard" and first["undoable"] is True and first["min"] == 3
    answer_first(alice, match_id)
    r = alice.post(f"/api/matches/{match_id}/undo", {"seq": alice.match(match_id)["seq"]})
    assert r.status_code == 200, r.text
    assert r.json()["pending"] == before["pending"] and r.json()["view"] == before["view"]

    for _ in range(40):
        for p in (alice, bob):
            if p.match(match_id)["pending"]:
                answer_first(p, match_id)
    m = alice.match(match_id)
    assert m["seq"] > 20 and any("Germany" in line["text"] for line in m["log"])

    states = states_by_seq(database_url, match_id, GAME)
    body = alice.get(f"/api/matches/{match_id}").text
    current = states[m["seq"]]
    assert not [s for s in GAME.secrets(current, "p1") if s in body], "the Allies' secrets stay theirs"
    spectator = Player(server.url, "Watcher").get(f"/api/matches/{match_id}").text
    hidden = GAME.secrets(current, "p1") | GAME.secrets(current, "p2")
    assert not [s for s in hidden if s in spectator]

    assert alice.post(f"/api/matches/{match_id}/resign").status_code == 200
    export = alice.get(f"/api/matches/{match_id}/export").json()
    assert export["game"] == "qmg" and export["seed"]
    result = alice.post("/api/replays/verify", export).json()
    assert result["ok"] is True, result
    tampered = copy.deepcopy(export)
    victim = next(a for a in tampered["actions"][5:] if "decision" in a["payload"])
    victim["state_hash"] = "f" * 64
    assert alice.post("/api/replays/verify", tampered).json()["first_divergent_seq"] == victim["seq"]
