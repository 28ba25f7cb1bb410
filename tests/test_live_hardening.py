"""The live path under the conditions issue 7 found from outside: a socket whose seat is
taken from it, two spectators watching a busy table, binary frames, bots whose database
calls fail, lock entries for ids nobody has."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets as token
from typing import Any

import pytest
import websockets
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.games.secrets import leaks
from app.sessions.bots import BotDriver
from app.sessions.errors import NotFound, Refused
from app.sessions.replay import MatchCache
from tests.conftest import Player, new_table
from tests.fixtures.cardgame import GAME
from tests.live_client import LiveSeat
from tests.replay_helpers import states_by_seq


def play_until(players: list[Player], match_id: str, moves: int) -> int:
    """Humans answer their first choice until ``moves`` answers were given or the match ended."""
    given = 0
    for _ in range(moves * 4):
        for p in players:
            m = p.match(match_id)
            if m["status"] != "active":
                return m["seq"]
            if m["pending"]:
                d = m["pending"][0]
                r = p.act(match_id, d["decision"], d["choices"][-1]["id"], seq=m["seq"])
                assert r.status_code in (200, 409), r.text
                given += r.status_code == 200
        if given >= moves:
            break
    return players[0].match(match_id)["seq"]


def assert_no_secrets(frames: list[tuple[int, str]], states: dict[int, Any], seats: list[str], who: str) -> None:
    for seq, text in frames:
        hidden = set().union(*(GAME.secrets(states[seq], s) for s in seats))
        leaked = leaks(text, hidden)
        assert not leaked, f"{who} received {leaked} at seq {seq}"


@pytest.mark.asyncio
async def test_a_kicked_players_socket_loses_the_seat(server, database_url):
    host, zed, wen = Player(server.url, "Host"), Player(server.url, "Zed"), Player(server.url, "Wen")
    match_id = new_table(host, players=2)
    assert zed.post(f"/api/matches/{match_id}/join").json()["you"] == "p2"
    async with LiveSeat(server.ws_url, match_id, zed.cookie) as zed_socket:
        assert host.post(f"/api/matches/{match_id}/kick", {"seat": "p2"}).status_code == 200
        assert wen.post(f"/api/matches/{match_id}/join").json()["you"] == "p2"
        assert host.post(f"/api/matches/{match_id}/start").status_code == 200
        final = play_until([host, wen], match_id, 6)
        await zed_socket.wait_seq(final)
        assert zed.match(match_id)["you"] is None
        spectator = Player(server.url, "Spectator").match(match_id)
        assert zed_socket.message["view"] == spectator["view"] and zed_socket.message["pending"] == []
        seen = len(zed_socket.frames)
        await zed_socket.send({"seq": -1})  # a resync is a full message: for the seat Zed holds now, none
        await zed_socket.wait_for(lambda _m: len(zed_socket.frames) > seen)
        frames = zed_socket.frames
    states = states_by_seq(database_url, match_id, GAME)
    assert_no_secrets(frames, states, ["p1", "p2"], "the kicked player's socket")


@pytest.mark.asyncio
async def test_a_socket_shows_what_get_shows_after_every_change_of_seat(server):
    """Resign (a bot takes the seat), hand-over and reclaim: the socket's message is the
    one GET gives the same user, whatever happened to the seat."""
    host, bea, cal = Player(server.url, "Host3"), Player(server.url, "Bea"), Player(server.url, "Cal")
    match_id = new_table(host, players=3)
    bea.post(f"/api/matches/{match_id}/join")
    cal.post(f"/api/matches/{match_id}/join")
    assert host.post(f"/api/matches/{match_id}/start").status_code == 200
    async with LiveSeat(server.ws_url, match_id, bea.cookie) as bea_socket:
        play_until([host, bea, cal], match_id, 3)
        assert bea.post(f"/api/matches/{match_id}/resign").status_code == 200
        for _ in range(50):
            got = bea.match(match_id)
            message = await bea_socket.wait_seq(got["seq"])
            if message["seq"] == got["seq"] and bea.match(match_id)["seq"] == got["seq"]:
                break
            await asyncio.sleep(0.1)
        assert message["view"] == got["view"] and message["pending"] == got["pending"]


@pytest.mark.asyncio
async def test_spectators_get_the_same_messages_as_get(server):
    """Busy all-bot tables, polled by GETs, watched by two spectator sockets and two page
    sockets each: every frame applies, and after every frame a socket holds exactly the
    public view of that seq."""
    await asyncio.gather(*(watch_busy_table(server, n) for n in range(3)))


async def watch_busy_table(server: Any, n: int) -> None:
    host = Player(server.url, f"Busy host {n}")
    match_id = new_table(host, players=4, options={"target": "7"})
    for seat in (2, 3, 4):
        host.post(f"/api/matches/{match_id}/bots", {"seat": f"p{seat}", "bot": "random"})
    watchers = [Player(server.url, f"Watcher {n}.{w}") for w in range(2)]
    sockets = [LiveSeat(server.ws_url, match_id, w.cookie) for w in watchers]
    for s in sockets:
        await s.__aenter__()
    stop = asyncio.Event()

    async def poll() -> None:
        while not stop.is_set():
            await asyncio.to_thread(watchers[0].get, f"/api/matches/{match_id}")

    async def watch_page() -> None:  # page sockets render with database reads between messages
        async with websockets.connect(f"{server.ws_url}/matches/{match_id}/live",
                                      additional_headers={"Cookie": watchers[1].cookie}) as page:
            while not stop.is_set():
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(page.recv(), 0.5)

    pollers = [asyncio.create_task(poll()) for _ in range(2)] + [asyncio.create_task(watch_page()) for _ in range(2)]
    try:
        assert host.post(f"/api/matches/{match_id}/start").status_code == 200
        assert host.post(f"/api/matches/{match_id}/resign").status_code == 200  # bots play every seat now
        for _ in range(300):
            final = host.match(match_id)
            if final["status"] == "finished":
                break
            await asyncio.sleep(0.1)
        assert final["status"] == "finished"
        for s in sockets:
            await s.wait_for(lambda m: m["seq"] == final["seq"] and m["status"] == "finished", timeout=15)
    finally:
        stop.set()
        await asyncio.gather(*pollers)
        for s in sockets:
            await s.__aexit__()
    public: dict[int, Any] = {}
    for s in sockets:
        for message in s.messages:
            if message["status"] == "open":
                continue  # before the start nobody sees anything
            seq = message["seq"]
            if seq not in public:
                public[seq] = watchers[1].get(f"/api/matches/{match_id}/at/{seq}").json()["view"]
            assert message["view"] == public[seq], f"a spectator socket's view at seq {seq} is not the public view"


@pytest.mark.asyncio
async def test_a_binary_frame_closes_the_socket_with_1003(server):
    host = Player(server.url, "Binary")
    match_id = new_table(host)
    async with websockets.connect(f"{server.ws_url}/api/matches/{match_id}/ws",
                                  additional_headers={"Cookie": host.cookie}) as ws:
        await ws.recv()  # the full message
        await ws.send(b"\x00\x01binary")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), 5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003
    assert host.get(f"/api/matches/{match_id}").status_code == 200, "the server is fine"


@pytest.mark.asyncio
async def test_locks_for_ids_nobody_has_are_not_kept():
    cache = MatchCache()
    for _ in range(2500):
        with pytest.raises(NotFound):
            async with cache.writing(token.token_urlsafe(6000)):
                raise NotFound("match not found")
    assert cache.lock_count() == 0


@pytest.mark.asyncio
async def test_a_held_lock_is_shared_and_released():
    cache = MatchCache()
    order: list[str] = []

    async def hold(name: str) -> None:
        async with cache.lock("m"):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(hold("a"), hold("b"))
    assert order == ["a in", "a out", "b in", "b out"] and cache.lock_count() == 0


class FailingSessions:
    """A session factory whose pool is exhausted the first ``failures`` times."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    def __call__(self) -> FailingSessions:
        return self

    async def __aenter__(self) -> Any:
        self.calls += 1
        if self.calls <= self.failures:
            raise PoolTimeout("QueuePool limit of size 10 overflow 20 reached")
        raise Refused("this match is finished")  # then the table says there is nothing to do

    async def __aexit__(self, *exc: object) -> None:
        return None


@pytest.mark.asyncio
async def test_the_bot_driver_survives_a_busy_pool(monkeypatch):
    monkeypatch.setattr("app.sessions.bots.BACKOFF_FIRST", 0.001, raising=False)
    sessions = FailingSessions(failures=3)
    driver = BotDriver(sessions, MatchCache())  # type: ignore[arg-type]
    driver.kick("m1")
    task = driver.running["m1"]
    await asyncio.wait_for(task, 5)
    assert sessions.calls == 4, "three failures retried, then the refusal ended the run"
    assert "m1" not in driver.running


def test_a_match_message_is_json_all_the_way_down(server):
    """What GET returns is what the socket sends: plain JSON, no shared objects."""
    host = Player(server.url, "Json")
    match_id = new_table(host, players=2)
    host.post(f"/api/matches/{match_id}/bots", {"seat": "p2"})
    host.post(f"/api/matches/{match_id}/start")
    body = host.match(match_id)
    assert json.loads(json.dumps(body)) == body
