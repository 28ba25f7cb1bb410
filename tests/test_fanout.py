"""Two real uvicorn worker processes serving clients of one match both push every
update: the fan-out goes through Postgres LISTEN/NOTIFY, not process memory."""

from __future__ import annotations

import asyncio

import pytest

from tests.conftest import Player, Server, new_table
from tests.live_client import LiveSeat


@pytest.fixture(scope="module")
def two_workers(database_url):
    # the safety-net poll is pushed far out, so only NOTIFY can deliver in time
    srv = Server(database_url, workers=2, extra_env={"WARROOM_LIVE_POLL_SECONDS": "600"}).start()
    yield srv
    srv.stop()


async def sockets_on_both_workers(srv: Server, match_id: str, players: list[Player | None]) -> list[LiveSeat]:
    opened: list[LiveSeat] = []
    for _ in range(40):
        for p in players:
            s = LiveSeat(srv.ws_url, match_id, p.cookie if p else None)
            await s.__aenter__()
            opened.append(s)
        if len({s.worker for s in opened}) == 2 and len(opened) >= 6:
            return opened
    raise AssertionError(f"the kernel never spread sockets over both workers: {[s.worker for s in opened]}")


@pytest.mark.asyncio
async def test_every_worker_pushes_every_update(two_workers):
    srv = two_workers
    alice, bob = Player(srv.url, "Alice"), Player(srv.url, "Bob")
    match_id = new_table(alice)
    bob.post(f"/api/matches/{match_id}/join")
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    sockets = await sockets_on_both_workers(srv, match_id, [alice, bob, None])
    try:
        for round_trip in range(6):
            m = alice.match(match_id) if round_trip % 2 == 0 else bob.match(match_id)
            mover = alice if round_trip % 2 == 0 else bob
            if not m["pending"]:
                mover, m = (bob, bob.match(match_id)) if mover is alice else (alice, alice.match(match_id))
            if m["status"] != "active" or not m["pending"]:
                break
            d = m["pending"][0]
            r = mover.act(match_id, d["decision"], d["choices"][0]["id"], seq=m["seq"])
            assert r.status_code == 200, r.text
            seq = r.json()["seq"]
            await asyncio.gather(*(s.wait_seq(seq, timeout=2) for s in sockets))
        by_worker: dict[str | None, set[int]] = {}
        for s in sockets:
            by_worker.setdefault(s.worker, set()).update(seq for seq, _ in s.frames)
        assert len(by_worker) == 2
        assert all(max(seqs) >= 3 for seqs in by_worker.values()), by_worker
    finally:
        for s in sockets:
            await s.__aexit__()


@pytest.mark.asyncio
async def test_a_reconnecting_client_gets_the_full_view_first(two_workers):
    srv = two_workers
    alice, bob = Player(srv.url, "Ann"), Player(srv.url, "Ben")
    match_id = new_table(alice)
    bob.post(f"/api/matches/{match_id}/join")
    alice.post(f"/api/matches/{match_id}/start")
    async with LiveSeat(srv.ws_url, match_id, alice.cookie) as first:
        assert first.frames and "patch" not in first.frames[0][1]
        assert alice.act(match_id, "bid:p1:round1", "2", seq=0).status_code == 200
        await first.wait_seq(1)
        assert '"patch"' in first.frames[-1][1]
    assert bob.act(match_id, "bid:p2:round1", "1", seq=1).status_code == 200
    async with LiveSeat(srv.ws_url, match_id, alice.cookie) as again:
        message = again.message
        assert message is not None and message["seq"] >= 2 and "view" in message
        current = alice.match(match_id)
        for key in ("seq", "view", "pending", "log", "status"):
            assert message[key] == current[key], key


@pytest.mark.asyncio
async def test_sockets_opened_before_the_start_learn_of_it_and_see_no_hand_early(two_workers):
    srv = two_workers
    alice, bob = Player(srv.url, "Ada"), Player(srv.url, "Bo")
    match_id = new_table(alice)
    async with LiveSeat(srv.ws_url, match_id, alice.cookie) as early:
        assert early.message is not None and early.message["status"] == "open" and early.message["view"] == {}
        bob.post(f"/api/matches/{match_id}/join")
        assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
        started = await early.wait_for(lambda m: m["status"] == "active", timeout=2)
        assert started["view"]["hand"] and started["pending"][0]["kind"] == "bid"


@pytest.mark.asyncio
async def test_a_socket_opened_from_another_site_is_refused(two_workers):
    import websockets
    from websockets.exceptions import InvalidStatus

    srv = two_workers
    alice = Player(srv.url, "Victim")
    match_id = new_table(alice)
    with pytest.raises(InvalidStatus) as refused:
        async with websockets.connect(f"{srv.ws_url}/api/matches/{match_id}/ws", origin="https://evil.example",
                                      additional_headers={"Cookie": alice.cookie}) as ws:
            await ws.recv()
    assert refused.value.response.status_code == 403
