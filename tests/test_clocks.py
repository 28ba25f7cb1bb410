"""Pace and clocks through the real server, with time moved by a fake-now file.

The server reads "now" from WARROOM_FAKE_NOW_FILE; each test sets absolute times, so
nothing sleeps and every number below is exact.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Player, Server

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
S = 1000
DAY = 24 * 3600 * S


@pytest.fixture(scope="module")
def server(timed_server: Server) -> Server:
    return timed_server


@pytest.fixture
def at(now_file: Path):
    def set_time(when: datetime) -> None:
        now_file.write_text(when.isoformat())

    set_time(T0)
    return set_time


def timed_table(host: Player, guest: Player, clock: dict[str, Any] | None, mode: str = "live",
                start: bool = True) -> str:
    r = host.post("/api/matches", {"game": "cardgame", "players": 2, "options": {"target": "100"},
                                   "mode": mode, "clock": clock})
    assert r.status_code == 200, r.text
    match_id = r.json()["match_id"]
    assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
    if start:
        assert host.post(f"/api/matches/{match_id}/start").status_code == 200
    return match_id


def clocks(p: Player, match_id: str) -> dict[str, dict[str, Any]]:
    return p.match(match_id)["clocks"]


def left(p: Player, match_id: str) -> dict[str, int]:
    return {seat: c["remaining_ms"] for seat, c in clocks(p, match_id).items()}


def answer(p: Player, match_id: str, kind: str, choice: str | None = None) -> dict[str, Any]:
    m = p.match(match_id)
    d = next(d for d in m["pending"] if d["kind"] == kind)
    r = p.act(match_id, d["decision"], choice or d["choices"][0]["id"], seq=m["seq"])
    assert r.status_code == 200, r.text
    return p.match(match_id)


def wait_not_waiting_on(p: Player, match_id: str, seat: str) -> dict[str, Any]:
    for _ in range(300):
        m = p.match(match_id)
        if m["status"] != "active" or seat not in m["waiting_on"]:
            return m
        time.sleep(0.02)
    raise AssertionError(f"the table kept waiting on {seat}")


# ------------------------------------------------------------------ setting the pace

def test_untimed_tables_have_no_clocks(make_player, at):
    alice, bob = make_player("Una"), make_player("Ned")
    match_id = timed_table(alice, bob, None)
    assert clocks(alice, match_id) == {}


def test_each_mode_has_its_default_pace(make_player, at):
    alice, bob = make_player("Dee"), make_player("Fay")
    live = timed_table(alice, bob, {}, start=False)
    assert clocks(alice, live) == {s: {"remaining_ms": 1200 * S, "running": False, "timed_out": False,
                                       "on_vacation_until": None} for s in ("p1", "p2")}
    carol, dan = make_player("Cara"), make_player("Dan")
    slow = timed_table(carol, dan, {}, mode="async", start=False)
    assert left(carol, slow) == {"p1": 3 * DAY, "p2": 3 * DAY}


@pytest.mark.parametrize(("mode", "clock", "field"), [
    ("live", {"initial_days": 3}, "clock.initial_days"),
    ("async", {"increment_seconds": 30}, "clock.increment_seconds"),
    ("live", {"initial_seconds": 5}, "clock.initial_seconds"),
    ("async", {"initial_days": 5, "max_days": 4}, "clock.max_days"),
    ("live", {"initial_seconds": "soon"}, "clock.initial_seconds"),
    ("live", {"running_since": "2020-01-01T00:00:00Z"}, "clock.running_since"),
    ("live", {"remaining_ms": 99999999}, "clock.remaining_ms"),
])
def test_bad_clock_settings_are_refused_naming_the_field(make_player, mode, clock, field):
    alice = make_player("Bad")
    before = alice.get("/api/matches?mine=1").json()
    r = alice.post("/api/matches", {"game": "cardgame", "players": 2, "mode": mode, "clock": clock})
    assert r.status_code == 422, r.text
    assert field in r.json()["error"]
    assert alice.get("/api/matches?mine=1").json() == before, "a refused table is not created"


# ------------------------------------------------------------------ running clocks

def test_simultaneous_bids_run_both_clocks_and_each_move_earns_the_increment(make_player, at):
    alice, bob = make_player("Ann"), make_player("Bo")
    match_id = timed_table(alice, bob, {"initial_seconds": 1200, "increment_seconds": 30})
    c = clocks(alice, match_id)
    assert c["p1"]["running"] and c["p2"]["running"], "both seats bid at once: both clocks run"
    at(T0 + timedelta(seconds=60))
    assert left(alice, match_id) == {"p1": 1140 * S, "p2": 1140 * S}
    answer(alice, match_id, "bid", "0")
    at(T0 + timedelta(seconds=70))
    c = clocks(bob, match_id)
    assert c["p1"] == {"remaining_ms": 1170 * S, "running": False, "timed_out": False, "on_vacation_until": None}
    assert c["p2"]["remaining_ms"] == 1130 * S and c["p2"]["running"]
    answer(bob, match_id, "bid", "1")  # round 1 then opens with Player 1's turn
    at(T0 + timedelta(seconds=100))
    c = clocks(alice, match_id)
    assert (c["p1"]["remaining_ms"], c["p1"]["running"]) == (1140 * S, True)
    assert (c["p2"]["remaining_ms"], c["p2"]["running"]) == (1160 * S, False)
    assert clocks(make_player("Spec"), match_id) == c, "spectators see the same clocks"


def test_a_turn_of_several_decisions_earns_one_increment_and_undo_earns_none(make_player, at):
    alice, bob = make_player("Abe"), make_player("Bea")
    match_id = timed_table(alice, bob, {"initial_seconds": 600, "increment_seconds": 10})
    answer(alice, match_id, "bid")
    answer(bob, match_id, "bid")  # both at 610 s; Player 1's turn starts at T0
    at(T0 + timedelta(seconds=20))
    m = answer(alice, match_id, "order", "keep")
    assert alice.post(f"/api/matches/{match_id}/undo", {"seq": m["seq"]}).status_code == 200
    at(T0 + timedelta(seconds=30))
    assert left(alice, match_id)["p1"] == 580 * S, "the clock ran on through the move and its undo"
    answer(alice, match_id, "order", "keep")
    m = answer(alice, match_id, "play", "pass")
    assert "p1" not in m["waiting_on"]
    at(T0 + timedelta(seconds=45))
    assert left(alice, match_id) == {"p1": 590 * S, "p2": 595 * S}


def test_async_credit_is_capped(make_player, at):
    alice, bob = make_player("Cap"), make_player("Cop")
    match_id = timed_table(alice, bob, {"initial_days": 3, "per_move_days": 2, "max_days": 4}, mode="async")
    at(T0 + timedelta(hours=12))
    answer(alice, match_id, "bid")  # 2.5 days + 2 = 4.5, capped at 4
    assert left(alice, match_id)["p1"] == 4 * DAY


def test_resigning_stops_every_clock_without_credit(make_player, at):
    alice, bob = make_player("Rex"), make_player("Roy")
    match_id = timed_table(alice, bob, {"initial_seconds": 300, "increment_seconds": 60})
    at(T0 + timedelta(seconds=40))
    assert alice.post(f"/api/matches/{match_id}/resign").status_code == 200
    at(T0 + timedelta(hours=2))
    c = clocks(bob, match_id)
    assert {s: (v["remaining_ms"], v["running"]) for s, v in c.items()} == {
        "p1": (260 * S, False), "p2": (260 * S, False)}


def test_client_sent_times_are_refused(make_player, at):
    alice, bob = make_player("Tia"), make_player("Tom")
    match_id = timed_table(alice, bob, {"initial_seconds": 300, "increment_seconds": 0})
    m = alice.match(match_id)
    d = m["pending"][0]
    for extra in ({"elapsed_ms": 1}, {"remaining_ms": 999999}, {"now": "2020-01-01T00:00:00Z"}):
        r = alice.post(f"/api/matches/{match_id}/actions",
                       {"seq": m["seq"], "decision": d["decision"], "choice": "0", **extra})
        assert r.status_code == 422 and next(iter(extra)) in r.json()["error"]
    assert alice.match(match_id)["seq"] == m["seq"], "refused moves change nothing"
    r = alice.post("/api/me/vacation", {"days": 2, "starts_at": "2020-01-01T00:00:00Z"})
    assert r.status_code == 422 and "starts_at" in r.json()["error"]


# ------------------------------------------------------------------ timeouts

def test_a_seat_out_of_time_can_be_skipped_once_by_the_others(make_player, at):
    alice, bob, eve = make_player("Sam"), make_player("Sid"), make_player("Eve")
    match_id = timed_table(alice, bob, {"initial_seconds": 60, "increment_seconds": 0})
    r = alice.post(f"/api/matches/{match_id}/timeouts/skip", {"seat": "p2"})
    assert r.status_code == 400 and "has not run out of time" in r.json()["error"]
    at(T0 + timedelta(seconds=61))
    c = clocks(alice, match_id)
    assert c["p2"]["timed_out"] and c["p2"]["remaining_ms"] == 0
    r = eve.post(f"/api/matches/{match_id}/timeouts/skip", {"seat": "p2"})
    assert r.status_code == 403 and "spectators" in r.json()["error"]
    r = bob.post(f"/api/matches/{match_id}/timeouts/skip", {"seat": "p2"})
    assert r.status_code == 403 and "your own seat" in r.json()["error"]
    r = alice.post(f"/api/matches/{match_id}/timeouts/skip", {"seat": "p9"})
    assert r.status_code == 422 and "seat" in r.json()["error"]
    assert alice.match(match_id)["seq"] == 0, "refusals change nothing"

    answer(alice, match_id, "bid")  # late, but nobody skipped her
    r = alice.post(f"/api/matches/{match_id}/timeouts/skip", {"seat": "p2"})
    assert r.status_code == 200, r.text
    m = r.json()
    assert "p2" not in m["waiting_on"] and m["seq"] == 2
    assert next(s for s in m["seats"] if s["seat"] == "p2")["bot"] is None, "Bob keeps his seat"
    assert "Player 2 has bid" in " ".join(line["text"] for line in m["log"])
    assert not any(line["text"].startswith("You bid") for line in m["log"] if line["seq"] == 2), \
        "the bot's sealed bid for Bob reaches Alice only as the public line"


def test_handover_then_reclaim(make_player, at):
    alice, bob, eve = make_player("Hal"), make_player("Hob"), make_player("Hex")
    match_id = timed_table(alice, bob, {"initial_seconds": 60, "increment_seconds": 5})
    answer(alice, match_id, "bid")  # 65 s for Alice; Bob keeps thinking
    r = alice.post(f"/api/matches/{match_id}/timeouts/handover", {"seat": "p2"})
    assert r.status_code == 400 and "has not run out of time" in r.json()["error"]
    at(T0 + timedelta(seconds=90))
    assert eve.post(f"/api/matches/{match_id}/timeouts/handover", {"seat": "p2"}).status_code == 403
    r = alice.post(f"/api/matches/{match_id}/timeouts/handover", {"seat": "p2"})
    assert r.status_code == 200, r.text
    assert next(s for s in r.json()["seats"] if s["seat"] == "p2")["bot"] == "rules"
    wait_not_waiting_on(alice, match_id, "p2")  # the bot bid for Bob
    m = bob.match(match_id)
    r = bob.act(match_id, "bid:p2:round1", "0", seq=m["seq"])
    assert r.status_code in (400, 403)
    r = alice.post(f"/api/matches/{match_id}/timeouts/handover", {"seat": "p2"})
    assert r.status_code == 400 and "already plays" in r.json()["error"]

    assert eve.post(f"/api/matches/{match_id}/reclaim").status_code == 403
    r = alice.post(f"/api/matches/{match_id}/reclaim")
    assert r.status_code == 400 and "nothing to reclaim" in r.json()["error"]
    r = bob.post(f"/api/matches/{match_id}/reclaim")
    assert r.status_code == 200, r.text
    assert next(s for s in r.json()["seats"] if s["seat"] == "p2")["bot"] is None
    c = r.json()["clocks"]["p2"]
    assert c["remaining_ms"] == 60 * S and not c["timed_out"], "a reclaimed empty bank gets one move's credit"
    assert bob.post(f"/api/matches/{match_id}/reclaim").status_code == 400


def test_resigned_seats_cannot_be_reclaimed(make_player, at):
    alice, bob = make_player("Ida"), make_player("Ivo")
    r = alice.post("/api/matches", {"game": "cardgame", "players": 3, "options": {"target": "100"},
                                    "mode": "live", "clock": {}})
    match_id = r.json()["match_id"]
    bob.post(f"/api/matches/{match_id}/join")
    alice.post(f"/api/matches/{match_id}/bots", {"seat": "p3"})
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    assert bob.post(f"/api/matches/{match_id}/resign").status_code == 200
    r = bob.post(f"/api/matches/{match_id}/reclaim")
    assert r.status_code == 400 and "nothing to reclaim" in r.json()["error"]
    r = bob.post(f"/api/matches/{match_id}/timeouts/skip", {"seat": "p1"})
    assert r.status_code == 403


# ------------------------------------------------------------------ vacations

def test_vacation_pauses_clocks_and_counts_against_the_year(make_player, at):
    alice, bob = make_player("Val"), make_player("Vic")
    match_id = timed_table(alice, bob, {}, mode="async")
    answer(alice, match_id, "bid")
    answer(bob, match_id, "bid")  # both at 4 days; Alice's turn
    at(T0 + timedelta(days=1))
    assert left(bob, match_id)["p1"] == 3 * DAY
    r = alice.post("/api/me/vacation", {"days": 5})
    assert r.status_code == 200, r.text
    until = (T0 + timedelta(days=6)).isoformat()
    assert r.json()["on_vacation_until"] == until and r.json()["days_used"] == 5
    c = clocks(bob, match_id)["p1"]
    assert c["on_vacation_until"] == until and not c["running"]
    at(T0 + timedelta(days=3))
    assert left(bob, match_id)["p1"] == 3 * DAY, "paused"
    r = alice.post("/api/me/vacation", {"days": 1})
    assert r.status_code == 400 and "already on vacation" in r.json()["error"]
    r = alice.post("/api/me/vacation/end")
    assert r.status_code == 200 and r.json()["days_used"] == 2 and r.json()["on_vacation_until"] is None
    assert alice.post("/api/me/vacation/end").status_code == 400
    at(T0 + timedelta(days=4))
    c = clocks(bob, match_id)["p1"]
    assert (c["remaining_ms"], c["running"], c["on_vacation_until"]) == (2 * DAY, True, None)
    answer(alice, match_id, "order")
    answer(alice, match_id, "play", "pass")
    assert left(bob, match_id)["p1"] == 3 * DAY, "2 days left plus a day's credit"

    r = alice.post("/api/me/vacation", {"days": 20})
    assert r.status_code == 400
    assert "days:" in r.json()["error"] and "21" in r.json()["error"] and "2 already used" in r.json()["error"]
    assert alice.get("/api/me/vacation").json()["days_used"] == 2, "a refused vacation is not counted"
    assert alice.post("/api/me/vacation", {"days": 19}).status_code == 200
    at(T0 + timedelta(days=30))
    status = alice.get("/api/me/vacation").json()
    assert status["on_vacation_until"] is None and status["days_left"] == 0
    assert alice.post("/api/me/vacation", {"days": 1}).status_code == 400
    at(datetime(2027, 1, 2, tzinfo=UTC))
    assert alice.get("/api/me/vacation").json() == {"on_vacation_until": None, "year": 2027, "days_used": 0,
                                                    "days_left": 21, "allowance": 21}


def test_vacation_needs_a_signed_in_user_and_sane_days(make_player, server):
    alice = make_player("Wes")
    assert alice.post("/api/me/vacation", {"days": 0}).status_code == 422
    assert alice.post("/api/me/vacation", {"days": "many"}).status_code == 422
    assert httpx.post(f"{server.url}/api/me/vacation", json={"days": 1}).status_code == 401


# ------------------------------------------------------------------ durability

def test_a_killed_server_keeps_every_clock(database_url, now_file, at):
    srv = Server(database_url, extra_env={"WARROOM_FAKE_NOW_FILE": str(now_file)}).start()
    try:
        alice, bob = Player(srv.url, "Kim"), Player(srv.url, "Kit")
        match_id = timed_table(alice, bob, {"initial_seconds": 600, "increment_seconds": 15})
        at(T0 + timedelta(seconds=100))
        answer(alice, match_id, "bid")
        at(T0 + timedelta(seconds=130))
        before = clocks(alice, match_id)
        assert before["p1"]["remaining_ms"] == 515 * S and before["p2"]["remaining_ms"] == 470 * S
        srv.kill()
        srv = Server(database_url, extra_env={"WARROOM_FAKE_NOW_FILE": str(now_file)}, port=srv.port).start()
        assert clocks(alice, match_id) == before
        at(T0 + timedelta(seconds=200))
        assert left(alice, match_id) == {"p1": 515 * S, "p2": 400 * S}, "Bob's clock ran on across the restart"
    finally:
        srv.stop()


# ------------------------------------------------------------------ undo across a turn

def test_undoing_a_move_that_passed_the_turn_restores_both_clocks(make_player, at, database_url):
    """The fixture game has no undoable move that passes the turn, so this drives the
    turn hook directly, in a transaction rolled back at the end, on a real table."""
    import asyncio

    from sqlalchemy import select

    from app.db import make_engine, make_sessionmaker
    from app.models import Action as ActionRow
    from app.models import Match
    from app.sessions.clocks import clock_states, turn_moved
    from app.sessions.service import seat_rows

    alice, bob = make_player("Uma"), make_player("Uli")
    match_id = timed_table(alice, bob, {"initial_seconds": 600, "increment_seconds": 10})
    answer(alice, match_id, "bid")
    answer(bob, match_id, "bid")  # both at 610 s; Player 1's turn from T0

    async def scenario() -> list[dict[str, Any]]:
        engine = make_engine(database_url, pool_size=1)
        try:
            async with make_sessionmaker(engine)() as db, db.begin():
                match = await db.scalar(select(Match).where(Match.id == match_id).with_for_update())
                seats = await seat_rows(db, match_id)
                seen = []
                moved = match.seq + 1
                db.add(ActionRow(match_id=match_id, seq=moved, seat="p1", user_id=alice.id,
                                 payload={"decision": "d", "choices": [], "undoable": True}, events=[]))
                match.seq, match.waiting_on = moved, ["p2"]
                await turn_moved(db, match, ["p1"], T0 + timedelta(seconds=20))
                seen.append(await clock_states(db, match, seats, T0 + timedelta(seconds=50)))
                db.add(ActionRow(match_id=match_id, seq=moved + 1, seat="p1", user_id=alice.id,
                                 payload={"undo": moved}, events=[]))
                match.seq, match.waiting_on = moved + 1, ["p1"]
                await turn_moved(db, match, ["p2"], T0 + timedelta(seconds=50))
                seen.append(await clock_states(db, match, seats, T0 + timedelta(seconds=50)))
                await db.rollback()
                return seen
        finally:
            await engine.dispose()

    moved, undone = asyncio.run(scenario())
    assert {s: (c["remaining_ms"], c["running"]) for s, c in moved.items()} == {
        "p1": (600 * S, False), "p2": (580 * S, True)}
    # as if the move never happened: Alice's clock ran all along without the credit, Bob's never ran
    assert {s: (c["remaining_ms"], c["running"]) for s, c in undone.items()} == {
        "p1": (560 * S, True), "p2": (610 * S, False)}
    assert left(alice, match_id) == {"p1": 610 * S, "p2": 610 * S}, "rolled back: the table is untouched"
