"""Decisions that don't wait in line (issue 8, section 1): a simultaneous step answered
by every seat at once, hidden until the reveal, revisable by each seat until the last
answer; and any-time decisions that keep nobody waiting."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import psycopg
import pytest

from app.sessions.replay import state_hash
from tests.conftest import Player, new_table
from tests.fixtures.cardgame import GAME, bid_token
from tests.replay_helpers import conninfo, states_by_seq


def seated_table(server: Any, players: int, options: dict[str, Any] | None = None) -> tuple[list[Player], str]:
    people = [Player(server.url, f"Sim {n}") for n in range(players)]
    match_id = new_table(people[0], players=players, options=options)
    for p in people[1:]:
        assert p.post(f"/api/matches/{match_id}/join").status_code == 200
    assert people[0].post(f"/api/matches/{match_id}/start").status_code == 200
    return people, match_id


@pytest.mark.asyncio
async def test_four_seats_answer_one_simultaneous_step_at_once(server):
    people, match_id = seated_table(server, 4)
    asked = [p.match(match_id) for p in people]
    assert all(m["seq"] == 0 and m["pending"][0]["group"] == "bids:round1" for m in asked)

    async def bid(p: Player, m: dict[str, Any], value: str) -> httpx.Response:
        async with httpx.AsyncClient(base_url=server.url, cookies=p.http.cookies, timeout=30) as client:
            body = {"seq": m["seq"], "decision": m["pending"][0]["decision"], "choice": value}
            return await client.post(f"/api/matches/{match_id}/actions", json=body)

    answers = await asyncio.gather(*(bid(p, m, str(n % 3)) for n, (p, m) in enumerate(zip(people, asked, strict=True))))
    assert [r.status_code for r in answers] == [200] * 4, [r.text for r in answers]
    final = people[0].match(match_id)
    assert final["seq"] == 4
    revealed = [line for line in final["log"] if line["text"].startswith("Bids revealed")]
    assert len(revealed) == 1 and revealed[0]["seq"] == 4, "the reveal is one committed action: the last answer"


def test_answers_stay_hidden_until_the_reveal_and_may_be_revised(server, database_url):
    (ann, ben, cat), match_id = seated_table(server, 3)
    m = ann.match(match_id)
    assert ann.act(match_id, m["pending"][0]["decision"], "2", seq=0).status_code == 200
    assert m["pending"][0]["undoable"] is True
    seen = ben.match(match_id)
    assert seen["waiting_on"] == ["p2", "p3"], "the others see who is still to answer"
    assert bid_token("p1", 1, 2) not in ben.get(f"/api/matches/{match_id}").text
    assert ben.act(match_id, seen["pending"][0]["decision"], "1", seq=seen["seq"]).status_code == 200

    # Ann takes her bid back although Ben answered after her: both are answers of one step
    r = ann.post(f"/api/matches/{match_id}/undo", {"seq": 2})
    assert r.status_code == 200, r.text
    again = ann.match(match_id)
    assert again["pending"][0]["kind"] == "bid" and "p2" not in again["waiting_on"], "Ben's bid still stands"
    assert ann.act(match_id, again["pending"][0]["decision"], "0", seq=again["seq"]).status_code == 200

    last = cat.match(match_id)
    assert last["pending"][0]["undoable"] is False, "the answer that completes the step reveals"
    assert cat.act(match_id, last["pending"][0]["decision"], "2", seq=last["seq"]).status_code == 200
    after = ann.match(match_id)
    assert after["view"]["last_bids"] == {"p1": 0, "p2": 1, "p3": 2}, "the revised bid is the one revealed"
    r = ben.post(f"/api/matches/{match_id}/undo", {"seq": after["seq"]})
    assert r.status_code == 400 and "another seat has acted" in r.json()["error"], "no undo past the reveal"

    # the server's state at every seq is what a replay of the log gives, the middle undo included
    states = states_by_seq(database_url, match_id, GAME)
    with psycopg.connect(conninfo(database_url)) as conn:
        recorded = dict(conn.execute("SELECT seq, state_hash FROM actions WHERE match_id = %s", (match_id,)))
    assert all(h == state_hash(GAME, states[seq]) for seq, h in recorded.items())


def test_an_exported_match_with_a_revised_answer_verifies(server):
    (ann, ben), match_id = seated_table(server, 2, options={"target": "3"})
    # a 2-seat step: Ann bids, takes it back, bids again; then the rest of the match
    m = ann.match(match_id)
    ann.act(match_id, m["pending"][0]["decision"], "1", seq=0)
    assert ann.post(f"/api/matches/{match_id}/undo", {"seq": 1}).status_code == 200
    for _ in range(400):
        moved = False
        for p in (ann, ben):
            m = p.match(match_id)
            if m["status"] != "active":
                break
            required = [d for d in m["pending"] if not d["optional"]]
            if required:
                d = required[0]
                p.act(match_id, d["decision"], d["choices"][-1]["id"], seq=m["seq"])
                moved = True
        if not moved:
            break
    if ann.match(match_id)["status"] == "active":
        assert ann.post(f"/api/matches/{match_id}/resign").status_code == 200
    export = ann.get(f"/api/matches/{match_id}/export").json()
    assert ann.post("/api/replays/verify", export).json()["ok"] is True


def test_any_time_decisions_keep_nobody_waiting(server):
    (ann, ben), match_id = seated_table(server, 2, options={"anytime": True})
    for p in (ann, ben):
        m = p.match(match_id)
        bid = next(d for d in m["pending"] if d["kind"] == "bid")
        assert p.act(match_id, bid["decision"], "1", seq=m["seq"]).status_code == 200
    m = ben.match(match_id)
    assert m["waiting_on"] == ["p1"], "Ann's turn: Ben's any-time decision does not make the table wait on him"
    arrange = next(d for d in m["pending"] if d["kind"] == "arrange")
    assert arrange["optional"] is True
    before = [c["id"] for c in m["view"]["hand"]]
    r = ben.act(match_id, arrange["decision"], "reverse", seq=m["seq"])
    assert r.status_code == 200, r.text
    after = ben.match(match_id)
    assert [c["id"] for c in after["view"]["hand"]] == before[::-1]
    assert after["waiting_on"] == ["p1"], "still Ann's turn"
    # an answer sent against an older seq is still fresh: the any-time decision is still on offer
    assert ben.act(match_id, arrange["decision"], "sort", seq=m["seq"]).status_code == 200


def test_bots_never_take_any_time_decisions(server):
    import time

    host = Player(server.url, "Anytime host")
    match_id = new_table(host, players=3, options={"anytime": True, "target": "3"})
    for seat in ("p2", "p3"):
        host.post(f"/api/matches/{match_id}/bots", {"seat": seat, "bot": "random"})
    host.post(f"/api/matches/{match_id}/start")
    assert host.post(f"/api/matches/{match_id}/resign").status_code == 200  # bots everywhere
    for _ in range(300):
        m = host.match(match_id)
        if m["status"] == "finished":
            break
        time.sleep(0.1)
    assert m["status"] == "finished"
    log = host.get(f"/api/matches/{match_id}/log").json()
    assert len(log) < 2000, "no bot spun on the any-time decision"


def test_qmg_units_come_off_the_board_in_another_players_turn(server):
    axis, allies = Player(server.url, "Axis any-time"), Player(server.url, "Allies any-time")
    r = axis.post("/api/matches", {"game": "qmg", "players": 2, "options": {}, "mode": "live"})
    match_id = r.json()["match_id"]
    assert allies.post(f"/api/matches/{match_id}/join").status_code == 200
    assert axis.post(f"/api/matches/{match_id}/start").status_code == 200
    for _ in range(40):  # the opening discards, up to Germany's first action prompt
        m = axis.match(match_id)
        if m["pending"] and m["pending"][0]["kind"] == "action":
            break
        for p in (axis, allies):
            m = p.match(match_id)
            required = [d for d in m["pending"] if not d["optional"]]
            if required:
                d = required[0]
                ids = [c["id"] for c in d["choices"]][: max(d["min"], 1)]
                assert p.post(f"/api/matches/{match_id}/actions",
                              {"seq": m["seq"], "decision": d["decision"], "choices": ids}).status_code == 200
    m = allies.match(match_id)
    assert m["waiting_on"] == ["p1"]
    page = allies.get(f"/matches/{match_id}").text
    assert "anytime-remove:p2" in page, "the table page offers the any-time decision"
    assert '<strong class="badge move">' not in page, "but it is not the Allies' move"
    offer = next(d for d in m["pending"] if d["kind"] == "remove_any_time")
    assert offer["optional"] is True
    r = allies.act(match_id, offer["decision"], "uk:united_kingdom", seq=m["seq"])
    assert r.status_code == 200, r.text
    after = axis.match(match_id)
    assert after["waiting_on"] == ["p1"] and after["pending"][0]["kind"] == "action"
    assert "united_kingdom" not in after["view"]["board"] or all(
        u["country"] != "uk" for u in after["view"]["board"]["united_kingdom"])
