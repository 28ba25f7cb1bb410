"""Live per-seat updates: every worker LISTENs on Postgres and pushes to its own sockets.

A commit anywhere (any worker, any host) ends with ``pg_notify('match_events',
'<match>:<seq>')``. Each worker's single listener marks the match dirty; one
pusher task catches the cached state up from the log and sends every local
socket its own seat's message, as an RFC 6902 patch against what that socket
last received. NOTIFY is lost while the listener is down, so after reconnecting
(and every few seconds anyway) every local match is checked against the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import asyncpg
from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.models import Match
from app.sessions.patch import make_patch
from app.sessions.replay import LoadedMatch, MatchCache, MatchHead
from app.sessions.service import NOTIFY_CHANNEL
from app.sessions.views import seat_message

log = logging.getLogger("warroom.live")

# renders a page's HTML fragments for one seat; ``LoadedMatch`` is None before the start
Render = Callable[[LoadedMatch | None, Match, str | None], Awaitable[str]]


def seq_of(loaded: LoadedMatch | None) -> int:
    return 0 if loaded is None else loaded.seq


@dataclass(eq=False)
class Subscriber:
    """One open socket: which match, which seat, and what it last received."""

    match_id: str
    seat: str | None
    render: Render | None = None  # None: JSON messages; else HTML fragments (htmx pages)
    last: dict[str, Any] | None = None
    last_seq: int = -1
    last_status: str = ""
    # the socket's own writer drains this; a client too slow to keep up is dropped and resyncs
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(maxsize=256))


def encode(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Hub:
    def __init__(self, sessions: async_sessionmaker, cache: MatchCache, dsn: str, poll_seconds: float = 3.0):
        self.sessions = sessions
        self.cache = cache
        self.dsn = dsn
        self.poll_seconds = poll_seconds
        self.subscribers: dict[str, set[Subscriber]] = {}
        self.dirty: dict[str, int | None] = {}  # match -> newest notified seq (None: unknown)
        self.wake = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.listening = asyncio.Event()
        self.on_commit: list[Callable[[str], None]] = []  # e.g. the bot driver

    # --- lifecycle -------------------------------------------------------
    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._listen(), name="live-listen"),
                      asyncio.create_task(self._push_loop(), name="live-push"),
                      asyncio.create_task(self._poll(), name="live-poll")]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # --- subscriptions ---------------------------------------------------
    async def subscribe(self, sub: Subscriber) -> None:
        """Register a socket (or resync one) and send it the full message for its seat now:
        whatever seq the client last saw, the full message is what it missed."""
        self.subscribers.setdefault(sub.match_id, set()).add(sub)
        await self._send_full(sub)

    def unsubscribe(self, sub: Subscriber) -> None:
        subs = self.subscribers.get(sub.match_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.subscribers[sub.match_id]

    def mark(self, match_id: str, seq: int | None = None) -> None:
        """Push ``match_id`` soon; ``seq`` when known lets a current cache skip the database."""
        if match_id in self.subscribers:
            known = self.dirty.get(match_id, seq)
            self.dirty[match_id] = None if known is None or seq is None else max(known, seq)
            self.wake.set()

    # --- the listener ----------------------------------------------------
    def _notified(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        match_id, _, seq = payload.rpartition(":")
        for hook in self.on_commit:
            hook(match_id)
        self.mark(match_id, int(seq) if seq.isdigit() else None)

    async def _listen(self) -> None:
        while True:
            conn: asyncpg.Connection | None = None
            try:
                conn = await asyncpg.connect(self.dsn)
                await conn.add_listener(NOTIFY_CHANNEL, self._notified)
                self.listening.set()
                # anything committed while we were not listening: resync every local match
                for match_id in list(self.subscribers):
                    self.mark(match_id)
                while not conn.is_closed():
                    await asyncio.sleep(1)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # database restarting: retry, never die
                log.warning("listener lost its connection (%s); reconnecting", exc)
            finally:
                self.listening.clear()
                if conn is not None and not conn.is_closed():
                    with contextlib.suppress(Exception):
                        await conn.close(timeout=2)
            await asyncio.sleep(0.5)

    async def _poll(self) -> None:
        """The safety net: cheap check that no local socket is behind the table."""
        while True:
            await asyncio.sleep(self.poll_seconds)
            if not self.subscribers:
                continue
            try:
                async with self.sessions() as db:
                    rows = (await db.execute(select(Match.id, Match.seq)
                                             .where(Match.id.in_(list(self.subscribers))))).all()
                for match_id, seq in rows:
                    if any(s.last_seq != seq for s in self.subscribers.get(match_id, ())):
                        self.mark(match_id)
            except Exception as exc:
                log.warning("live poll failed: %s", exc)

    # --- pushing ---------------------------------------------------------
    async def _push_loop(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch, self.dirty = self.dirty, {}
            # matches are independent: one slow table must not hold up the others
            await asyncio.gather(*(self._push_match(m, seq) for m, seq in batch.items()))

    async def _push_match(self, match_id: str, seq: int | None) -> None:
        try:
            subs = list(self.subscribers.get(match_id, ()))
            loaded = self.cache.peek(match_id)
            if (seq is not None and loaded is not None and loaded.seq == seq and loaded.head is not None
                    and loaded.head.status != "open"):
                # this worker already holds that seq (it committed it, most often): no query at all
                head, patches = loaded.head, {}
                for sub in [s for s in subs if s.render is None]:
                    await self._deliver(sub, loaded, head, patches)
                subs = [s for s in subs if s.render is not None]  # pages also show seats and chat
            if not subs:
                return
            found = await self._load(match_id)
            if found is None:
                return
            match, loaded = found
            patches = {}
            for sub in subs:
                # rendered pages also show seats, the start and chat, which change without a new seq
                if sub.render is None and (sub.last_seq, sub.last_status) == (seq_of(loaded), match.status):
                    continue
                await self._deliver(sub, loaded, match, patches)
        except Exception:
            log.exception("pushing match %s failed", match_id)

    async def _load(self, match_id: str) -> tuple[Match, LoadedMatch | None] | None:
        """The match row and, once it has started, its newest state (None before the start).

        The match lock is taken before a pooled connection, in the same order as every
        writer: the other order deadlocks the pool under load."""
        async with self.cache.lock(match_id), self.sessions() as db:
            match = await db.get(Match, match_id, populate_existing=True)
            if match is None:
                return None
            if match.status == "open":
                return match, None
            return match, await self.cache.load(db, match)

    async def _send_full(self, sub: Subscriber) -> None:
        found = await self._load(sub.match_id)
        if found is None:
            return
        match, loaded = found
        sub.last = None
        await self._deliver(sub, loaded, match, {})

    async def _deliver(self, sub: Subscriber, loaded: LoadedMatch | None, match: Match | MatchHead,
                       patches: dict[tuple[str | None, int, str], str]) -> None:
        if sub.render is not None:
            assert isinstance(match, Match)
            text = await sub.render(loaded, match, sub.seat)
            sub.last_seq = seq_of(loaded)
            await self._send(sub, text)
            return
        if sub.render is None and (sub.last_seq, sub.last_status) == (seq_of(loaded), match.status) and sub.last:
            return  # already has it (a notification and a poll can race)
        message = seat_message(loaded, match, sub.seat)
        if sub.last is None:
            text = encode(message)
        else:
            # sockets of one seat that last saw the same message get the very same patch
            key = (sub.seat, sub.last_seq, sub.last_status)
            text = patches.get(key) or ""
            if not text:
                text = patches[key] = encode({"seq": seq_of(loaded), "patch": make_patch(sub.last, message)})
        sub.last = message
        sub.last_seq = seq_of(loaded)
        sub.last_status = match.status
        await self._send(sub, text)

    async def _send(self, sub: Subscriber, text: str) -> None:
        try:
            sub.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.unsubscribe(sub)
            sub.queue = asyncio.Queue(maxsize=1)
            sub.queue.put_nowait(None)  # tells the writer to close the socket
