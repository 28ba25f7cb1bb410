"""Idle sockets cost little (issue 10): sockets that were sent the same thing share it.

A socket keeps what it was last sent (the next push is a patch or a diff against it). Sockets of
one seat opened one after another would each hold a message or a whole page render of their own
until the table's next push; they hold the very same object instead. The hub runs in this process
(no listener), its sockets are plain subscribers. Memory figures are scripts/bench_idle_sockets.py's."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from app.cli import socket_deflate
from app.db import asyncpg_dsn, make_engine, make_sessionmaker
from app.sessions.live import Hub, Subscriber
from app.sessions.replay import MatchCache
from tests.conftest import Player, Server
from tests.test_page_push import drain, move, page_of, qmg_table


@pytest.fixture
async def hub(database_url: str) -> AsyncIterator[Hub]:
    engine = make_engine(database_url, pool_size=2)
    yield Hub(make_sessionmaker(engine), MatchCache(), asyncpg_dsn(database_url))
    await engine.dispose()


async def json_of(hub: Hub, match_id: str, player: Player | None) -> Subscriber:
    sub = Subscriber(match_id=match_id, user_id=player.id if player else None)
    await hub.subscribe(sub)
    return sub


@pytest.mark.asyncio
async def test_json_sockets_of_one_seat_hold_one_message(server: Server, hub: Hub) -> None:
    alice, bob, match_id = qmg_table(server, "Idle json")
    tabs = [await json_of(hub, match_id, alice) for _ in range(3)]
    watchers = [await json_of(hub, match_id, None) for _ in range(2)]
    bobs = await json_of(hub, match_id, bob)
    assert all(s.last is not None for s in [*tabs, *watchers, bobs])
    assert tabs[0].last is tabs[1].last is tabs[2].last
    assert watchers[0].last is watchers[1].last
    assert bobs.last is not tabs[0].last and bobs.last != tabs[0].last  # another seat: its own
    assert drain(tabs[0]) == drain(tabs[2])  # each was still sent the whole message
    move([alice, bob], match_id)
    late = await json_of(hub, match_id, alice)  # after a move the old message is no one's to share
    assert late.last is not tabs[0].last and late.last != tabs[0].last
    await hub.push_now(match_id)
    assert tabs[0].last is tabs[1].last is late.last


@pytest.mark.asyncio
async def test_page_sockets_of_one_seat_hold_one_render(server: Server, hub: Hub) -> None:
    alice, bob, match_id = qmg_table(server, "Idle page")
    watcher = Player(server.url, "Idle page watcher")
    tabs = [await page_of(hub, match_id, alice, csrf=f"token-{i}") for i in range(3)]
    watchers = [await page_of(hub, match_id, watcher), await page_of(hub, match_id, None)]
    polish = await page_of(hub, match_id, alice, lang="pl")
    assert all(s.sent is not None for s in [*tabs, *watchers, polish])
    assert tabs[0].sent is tabs[1].sent is tabs[2].sent
    assert polish.sent is not tabs[0].sent  # another language: another text
    first = [drain(s) for s in tabs]
    assert all(frames and "token-0" not in frames[0] for frames in first[1:])  # each its own CSRF token
    move([alice, bob], match_id)
    await hub.push_now(match_id)
    assert tabs[0].sent is tabs[1].sent is tabs[2].sent
    again = await page_of(hub, match_id, alice)  # a reconnecting tab takes the render its seat holds now
    assert again.sent is tabs[0].sent


def test_per_message_deflate_is_off_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WARROOM_WS_DEFLATE", raising=False)
    assert socket_deflate() is False
    monkeypatch.setenv("WARROOM_WS_DEFLATE", "1")
    assert socket_deflate() is True
    monkeypatch.setenv("WARROOM_WS_DEFLATE", "yes")
    with pytest.raises(SystemExit) as refused:
        socket_deflate()
    assert refused.value.code == 2
