"""No HTTP body or WebSocket frame sent to seat X contains anything in secrets(state, X);
spectators receive none of anyone's secrets. Many seeded matches of the fixture game,
humans and bots mixed, checked against the states rebuilt from the log."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from app.games.secrets import leaks
from tests.fixtures.cardgame import GAME
from tests.live_client import LiveSeat
from tests.replay_helpers import states_by_seq

MATCHES = 12


class AsyncPlayer:
    def __init__(self, base: str, name: str) -> None:
        self.http = httpx.AsyncClient(base_url=base, timeout=10)
        self.name = name
        self.bodies: list[tuple[int, str]] = []  # (seq, raw body) of every match-bearing response

    async def sign_in(self) -> None:
        r = await self.http.post("/api/guests", json={"name": self.name})
        assert r.status_code == 200

    @property
    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    async def record(self, r: httpx.Response) -> dict[str, Any]:
        body = r.json()
        if isinstance(body, dict) and "seq" in body:
            self.bodies.append((body["seq"], r.text))
        return body


async def play_match(server, database_url: str, seed: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    humans = [AsyncPlayer(server.url, f"H{seed}-{i}") for i in range(2)]
    watcher = AsyncPlayer(server.url, f"W{seed}")
    for p in (*humans, watcher):
        await p.sign_in()
    r = await humans[0].http.post("/api/matches", json={"game": "cardgame", "players": players,
                                                         "options": {"target": rng.choice(["5", "7"])}})
    match_id = r.json()["match_id"]
    assert (await humans[1].http.post(f"/api/matches/{match_id}/join")).status_code == 200
    for n in range(3, players + 1):
        r = await humans[0].http.post(f"/api/matches/{match_id}/bots",
                                      json={"seat": f"p{n}", "bot": rng.choice(["rules", "random"])})
        assert r.status_code == 200, r.text
    r = await humans[0].http.post(f"/api/matches/{match_id}/start")
    assert r.status_code == 200, r.text
    sockets = [LiveSeat(server.ws_url, match_id, p.cookie) for p in (*humans, watcher)]
    for s in sockets:
        await s.__aenter__()
    try:
        for _ in range(400):
            moved = False
            for p in humans:
                body = await p.record(await p.http.get(f"/api/matches/{match_id}"))
                if body["status"] == "finished":
                    break
                if body["pending"]:
                    d = body["pending"][0]
                    choice = rng.choice(d["choices"])["id"]
                    r = await p.http.post(f"/api/matches/{match_id}/actions",
                                          json={"seq": body["seq"], "decision": d["decision"], "choice": choice})
                    assert r.status_code in (200, 409), r.text
                    await p.record(r)
                    moved = True
            else:
                if not moved:
                    await asyncio.sleep(0.02)  # the bots are thinking
                continue
            break
        else:
            last = (await humans[0].http.get(f"/api/matches/{match_id}")).json()
            pytest.fail(f"match {match_id} did not finish: {last['waiting_on']} {last['seq']}\n{server.log()[-3000:]}")
        final = (await humans[0].http.get(f"/api/matches/{match_id}")).json()["seq"]
        for s in sockets:
            await s.wait_seq(final)
    finally:
        for s in sockets:
            await s.__aexit__()
    states = states_by_seq(database_url, match_id, GAME)
    seats = ["p1", "p2", None]
    for who, player, sock in zip(seats, (*humans, watcher), sockets, strict=True):
        received = player.bodies + sock.frames
        assert sock.frames, "the socket received updates"
        for seq, text in received:
            state = states[seq]
            if who is None:  # a spectator: nothing hidden from anyone
                hidden = set().union(*(GAME.secrets(state, f"p{n}") for n in range(1, players + 1)))
            else:
                hidden = GAME.secrets(state, who)
            leaked = leaks(text, hidden)
            assert not leaked, f"seat {who} received {leaked} at seq {seq} in match {match_id}"
    for p in (*humans, watcher):
        await p.http.aclose()


@pytest.mark.asyncio
async def test_no_seat_ever_receives_another_seats_secrets(server, database_url):
    for seed in range(MATCHES):
        await play_match(server, database_url, 1000 + seed)
