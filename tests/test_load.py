"""A small, bounded load test on loopback (issue 7, item 2): concurrent stale moves by one
seat and a storm of anonymous GETs on running bot matches. Nothing answers 5xx, an
unrelated request answers within a second afterwards, and every bot match still finishes."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest

from tests.conftest import Player, Server, new_table

STALE_MOVES = 90
GET_STORM = 120
STORM_SECONDS = 4.0


@pytest.fixture(scope="module")
def loaded_server(database_url):
    srv = Server(database_url).start()
    yield srv
    srv.stop()


def bot_match(host: Player) -> str:
    """A 4-seat table whose every seat a bot plays (the host resigns at once)."""
    match_id = new_table(host, players=4, options={"target": "7"})
    for n in (2, 3, 4):
        assert host.post(f"/api/matches/{match_id}/bots", {"seat": f"p{n}", "bot": "random"}).status_code == 200
    assert host.post(f"/api/matches/{match_id}/start").status_code == 200
    assert host.post(f"/api/matches/{match_id}/resign").status_code == 200
    return match_id


@pytest.mark.asyncio
async def test_stale_moves_and_a_get_storm_leave_the_server_answering(loaded_server):
    srv = loaded_server
    alice, bob = Player(srv.url, "Load A"), Player(srv.url, "Load B")
    match_id = new_table(alice)
    bob.post(f"/api/matches/{match_id}/join")
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    bots = [bot_match(Player(srv.url, f"Bot host {n}")) for n in range(4)]
    m = alice.match(match_id)
    decision = m["pending"][0]
    statuses: list[int] = []
    dropped: list[str] = []  # requests the server closed the connection on
    # idle connections are let go well before the server's keep-alive timeout: reusing one the
    # server is closing that very moment is a client race, not the server dropping a request
    limits = httpx.Limits(max_connections=400, max_keepalive_connections=400, keepalive_expiry=1.0)

    async with httpx.AsyncClient(base_url=srv.url, timeout=60, cookies=alice.http.cookies, limits=limits) as seated, \
            httpx.AsyncClient(base_url=srv.url, timeout=60, limits=limits) as anonymous:

        async def stale_move(i: int) -> None:
            body = {"seq": m["seq"], "decision": decision["decision"], "choice": decision["choices"][i % 2]["id"]}
            try:
                statuses.append((await seated.post(f"/api/matches/{match_id}/actions", json=body)).status_code)
            except httpx.TransportError as exc:
                dropped.append(f"POST {type(exc).__name__} {exc}")

        async def storm(worker: int) -> None:
            deadline = time.monotonic() + STORM_SECONDS
            while time.monotonic() < deadline:
                try:
                    r = await anonymous.get(f"/api/matches/{bots[worker % len(bots)]}")
                except httpx.TransportError as exc:
                    dropped.append(f"GET {type(exc).__name__} {exc}")
                    continue
                statuses.append(r.status_code)

        await asyncio.gather(*(stale_move(i) for i in range(STALE_MOVES)), *(storm(w) for w in range(GET_STORM)))

        started = time.monotonic()
        r = await anonymous.post("/api/guests", json={"name": "Latecomer"})
        took = time.monotonic() - started
    assert r.status_code == 200 and took < 1.0, f"an unrelated request took {took:.2f} s after the storm"
    assert not dropped, f"{len(dropped)} requests dropped: {dropped[:3]}\n{srv.log()[-3000:]}"
    errors = sorted(s for s in statuses if s >= 500)
    assert not errors, f"{len(errors)} of {len(statuses)} requests answered 5xx: {errors[:5]}"
    assert statuses.count(200) >= GET_STORM, "the storm was served"

    watcher = Player(srv.url, "Load watcher")
    for match in bots:  # no bot driver died in the storm: every match plays on to its end
        for _ in range(600):
            if watcher.match(match)["status"] == "finished":
                break
            await asyncio.sleep(0.1)
        else:
            pytest.fail(f"bot match {match} stalled after the storm:\n{srv.log()[-2000:]}")
