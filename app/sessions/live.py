"""Live per-seat updates: every worker LISTENs on Postgres and pushes to its own sockets.

A commit anywhere (any worker, any host) ends with ``pg_notify('match_events',
'<match>:<seq>:<kind>')``. Each worker's single listener marks the match dirty; one
pusher task catches the cached state up from the log and sends every local
socket its own seat's message, as an RFC 6902 patch against what that socket
last received. Each socket's seat is read from the seat table, not fixed when it
connected. The messages of one push are built while the state stands at that seq
and are never changed after, so patches are always computed between two messages
that really were sent. NOTIFY is lost while the listener is down, so after
reconnecting (and every few seconds anyway) every local match is checked against the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol

import asyncpg
import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.models import Match, MatchSeat, started
from app.sessions.fragments import Rendered, diff, split
from app.sessions.patch import Memo, make_patch
from app.sessions.replay import LoadedMatch, MatchCache, MatchHead
from app.sessions.service import NOTIFY_CHANNEL
from app.sessions.table_view import TableFacts, TableRead, read_table_facts
from app.sessions.views import seat_message

log = logging.getLogger("warroom.live")


class Page(Protocol):
    """A page socket's side of a push (the web layer's): what its HTML depends on besides the
    table (``key``: equal keys render the very same HTML), the render itself, and the frame
    as this socket sends it. Called after the hub let go of the state, never given it."""

    user: Any  # the signed-in User, or None

    def key(self, read: TableRead) -> Hashable: ...

    def render(self, read: TableRead) -> str: ...

    def frame(self, text: str, seq: int) -> str: ...


@dataclass
class PushStats:
    """Counters a benchmark or a test reads: page pushes, renders, and fragments' bytes."""

    page_pushes: int = 0  # pushes (of one match) that reached at least one page socket
    renders: int = 0
    page_frames: int = 0
    page_bytes: int = 0


class Outbox:
    """What one socket has yet to send, drained by its one writer: asyncio.Queue's put_nowait,
    get, get_nowait and empty, without the four deques and the Event a Queue holds for its whole
    life (~3 KiB an idle socket kept for nothing): the items' deque is made by a put and let go
    once emptied."""

    __slots__ = ("maxsize", "_items", "_waiter")

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._items: deque[str | None] | None = None
        self._waiter: asyncio.Future[None] | None = None  # the writer waiting for an item

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items) if self._items else 0

    def put_nowait(self, item: str | None) -> None:
        if self.qsize() >= self.maxsize:
            raise asyncio.QueueFull
        if self._items is None:
            self._items = deque()
        self._items.append(item)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def get_nowait(self) -> str | None:
        if not self._items:
            raise asyncio.QueueEmpty
        item = self._items.popleft()
        if not self._items:
            self._items = None
        return item

    async def get(self) -> str | None:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self.get_nowait()


@dataclass(eq=False)
class Subscriber:
    """One open socket: which match, whose, and what it last received.

    ``seat`` is not fixed at connect: every push reads it again from the seat table
    (kick, leave, resign, hand-over and reclaim all change who sits where)."""

    match_id: str
    user_id: int | None
    seat: str | None = None
    page: Page | None = None  # None: JSON messages; else HTML fragments (htmx pages)
    last: dict[str, Any] | None = None  # never changed once sent: patches are computed against it
    sent: Rendered | None = None  # a page's last render as sent (never changed): the next is a diff
    last_key: tuple[int, str, str | None] | None = None  # (seq, status, seat) of ``last``
    # the socket's own writer drains this; a client too slow to keep up is dropped and resyncs
    queue: Outbox = field(default_factory=lambda: Outbox(maxsize=256))


@dataclass
class Frame:
    """One seq of one match as every local socket will see it: the messages are built
    while the state is at that seq and never change after."""

    match: Match | None  # the row as of this seq (None on the fast path: no query was made)
    seq: int
    status: str
    seat_of_user: dict[int, str]
    messages: dict[str | None, dict[str, Any]]
    # each seat's whole message, encoded once for every socket that needs it whole
    whole: dict[str | None, str] = field(default_factory=dict)


def seq_of(loaded: LoadedMatch | None) -> int:
    return 0 if loaded is None else loaded.seq


def encode(message: dict[str, Any]) -> str:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class Hub:
    def __init__(self, sessions: async_sessionmaker, cache: MatchCache, dsn: str, poll_seconds: float = 3.0):
        self.sessions = sessions
        self.cache = cache
        self.dsn = dsn
        self.poll_seconds = poll_seconds
        self.subscribers: dict[str, set[Subscriber]] = {}
        self.dirty: dict[str, int | None] = {}  # match -> newest notified seq (None: unknown)
        # user -> seat per match with local sockets, as of the last read of the seat table;
        # dropped whenever the table (not a move) changes, so the next push reads it again
        self.seating: dict[str, dict[int, str]] = {}
        self.wake = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.listening = asyncio.Event()
        self.on_commit: list[Callable[[str], None]] = []  # e.g. the bot driver
        self.stats = PushStats()

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
        sub.last, sub.last_key, sub.sent = None, None, None
        frame = await self._frame(sub.match_id, [sub])
        if frame is not None:
            for seat, message in frame.messages.items():
                frame.messages[seat] = self._held_message(sub, (frame.seq, frame.status, seat), message)
            await self._deliver_all([sub], frame)

    def _held_message(self, sub: Subscriber, key: tuple[int, str, str | None],
                      message: dict[str, Any]) -> dict[str, Any]:
        """The very message another JSON socket of the match holds when it is equal to ``message``:
        an idle socket then costs a reference, not a message of its own (it is never changed)."""
        seen: set[int] = set()
        for other in self.subscribers.get(sub.match_id, ()):
            held = other.last
            if other is sub or held is None or other.last_key != key or id(held) in seen:
                continue
            if held == message:
                return held
            seen.add(id(held))
        return message

    def _held_render(self, subs: list[Subscriber], text: str) -> Rendered:
        """The very render another page socket of the match holds when its text is ``text`` (a
        socket that just subscribed, mostly), else ``text`` read anew: sockets that were sent the
        same page share one render, never changed, instead of holding one each."""
        seen: set[int] = set()
        for other in self.subscribers.get(subs[0].match_id, ()):
            held = other.sent
            if held is None or id(held) in seen:
                continue
            if held.text == text:
                return held
            seen.add(id(held))
        return split(text)

    def unsubscribe(self, sub: Subscriber) -> None:
        subs = self.subscribers.get(sub.match_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self.subscribers[sub.match_id]
                self.seating.pop(sub.match_id, None)

    async def push_now(self, match_id: str) -> None:
        """Push ``match_id`` to its local sockets now, as after a commit (tests, benchmarks)."""
        await self._push_match(match_id, None)

    def mark(self, match_id: str, seq: int | None = None, table: bool = True) -> None:
        """Push ``match_id`` soon. ``seq`` of a move (``table`` False) lets a current cache
        skip the database; anything else at the table may have changed the seats."""
        if match_id in self.subscribers:
            if table:
                self.seating.pop(match_id, None)
            known = self.dirty.get(match_id, seq)
            self.dirty[match_id] = None if known is None or seq is None else max(known, seq)
            self.wake.set()

    # --- the listener ----------------------------------------------------
    def _notified(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        match_id, seq, kind = parse_notice(payload)
        for hook in self.on_commit:
            hook(match_id)
        self.mark(match_id, seq, table=kind != MOVE)

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
                    if any(s.last_key is None or s.last_key[0] != seq for s in self.subscribers.get(match_id, ())):
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
            if not subs:
                return
            frame = self._current_frame(match_id, seq, subs) if seq is not None else None
            if frame is None or any(s.page is not None for s in subs):  # pages also show seats and chat
                frame = await self._frame(match_id, subs)
            if frame is None:
                return
            await self._deliver_all(subs, frame)
        except Exception:
            log.exception("pushing match %s failed", match_id)

    async def _deliver_all(self, subs: list[Subscriber], frame: Frame) -> None:
        patches: dict[tuple[str | None, int], str] = {}
        memo: Memo = {}  # parts several seats' messages share are diffed once
        for sub in subs:
            if sub.page is None:
                await self._deliver(sub, frame, patches, memo)
        pages = [s for s in subs if s.page is not None]
        if pages:
            await self._deliver_pages(pages, frame)

    async def _deliver_pages(self, subs: list[Subscriber], frame: Frame) -> None:
        """One read of the table for all page sockets, one render per key, one diff per key and
        last render sent: sockets of one key that hold the same render get the same frame."""
        assert frame.match is not None
        for sub in subs:
            sub.seat = frame.seat_of_user.get(sub.user_id) if sub.user_id is not None else None
        users = {s.user_id for s in subs if s.user_id is not None}
        async with self.sessions() as db:
            facts = await read_table_facts(db, frame.match, users, {s.seat for s in subs if s.seat is not None})
        self.stats.page_pushes += 1
        renders: dict[Hashable, Rendered] = {}
        diffs: dict[tuple[int, Hashable], str] = {}  # by id() of the render a socket holds: kept alive below
        held = [s.sent for s in subs]  # noqa: F841 - no id() is reused while the diffs are keyed by it
        for sub in subs:
            page = sub.page
            assert page is not None
            read = self._page_read(facts, frame, sub)
            key = page.key(read)
            rendered = renders.get(key)
            if rendered is None:
                rendered = renders[key] = self._held_render(subs, page.render(read))
                self.stats.renders += 1
            shared = (id(sub.sent), key)
            text = diffs.get(shared)
            if text is None:
                text = diffs[shared] = diff(sub.sent, rendered)
            sub.sent, sub.last_key = rendered, (frame.seq, frame.status, sub.seat)
            if text:  # nothing changed for this socket: nothing is sent
                out = page.frame(text, frame.seq)
                self.stats.page_frames += 1
                self.stats.page_bytes += len(out.encode())
                await self._send(sub, out)

    @staticmethod
    def _page_read(facts: TableFacts, frame: Frame, sub: Subscriber) -> TableRead:
        message = frame.messages[sub.seat] if started(frame.status) else None
        return facts.read_for(sub.page.user if sub.page else None, sub.seat, message)

    def page_sent(self, match_id: str, user_id: int, same: Callable[[Page], bool]) -> Rendered | None:
        """The render this worker's page socket of ``user_id`` (``same``: that very browser)
        was last sent, when all such sockets hold the same one: what the page shows, or is
        about to, so a post's reply need carry only what differs from it."""
        held = {id(s.sent): s.sent for s in self.subscribers.get(match_id, ())
                if s.page is not None and s.user_id == user_id and same(s.page)}
        return next(iter(held.values())) if len(held) == 1 else None

    def _current_frame(self, match_id: str, seq: int, subs: list[Subscriber]) -> Frame | None:
        """This worker already holds that committed seq (it made the move, most often) and
        knows the seats: the frame needs no query at all."""
        loaded = self.cache.peek(match_id)
        seating = self.seating.get(match_id)
        # a writer that has applied the next move has moved ``loaded.seq`` past ``seq`` too
        if seating is None or loaded is None or loaded.seq != seq:
            return None
        if loaded.head is None or not started(loaded.head.status):
            return None
        return build_frame(None, loaded, loaded.head, seating, subs)

    async def _frame(self, match_id: str, subs: list[Subscriber]) -> Frame | None:
        """Read the match, its seats and its newest state, and build every message the
        sockets need, all under the match's lock (taken before a pooled connection, in
        the same order as every writer)."""
        async with self.cache.lock(match_id), self.sessions() as db:
            match = await db.get(Match, match_id, populate_existing=True)
            if match is None:
                return None
            rows = (await db.execute(select(MatchSeat.user_id, MatchSeat.seat)
                                     .where(MatchSeat.match_id == match_id, MatchSeat.user_id.is_not(None)))).all()
            seating = {uid: seat for uid, seat in rows}
            if match_id in self.subscribers:
                self.seating[match_id] = seating
            loaded = await self.cache.load(db, match) if started(match.status) else None
            return build_frame(match, loaded, match, seating, subs)

    async def _deliver(self, sub: Subscriber, frame: Frame,
                       patches: dict[tuple[str | None, int], str], memo: Memo | None = None) -> None:
        sub.seat = frame.seat_of_user.get(sub.user_id) if sub.user_id is not None else None
        message = frame.messages[sub.seat]
        key = (frame.seq, frame.status, sub.seat)
        if sub.last is not None and sub.last_key == key:
            sub.last = message  # already has it (a notification and a poll can race): holds the shared copy
            return
        if sub.last is None:
            text = frame.whole.get(sub.seat) or frame.whole.setdefault(sub.seat, encode(message))
        else:
            # sockets of one seat that last got the very same message get the very same patch
            shared = (sub.seat, id(sub.last))
            text = patches.get(shared) or ""
            if not text:
                text = patches[shared] = encode({"seq": frame.seq, "patch": make_patch(sub.last, message, memo=memo)})
        sub.last, sub.last_key = message, key
        await self._send(sub, text)

    async def _send(self, sub: Subscriber, text: str) -> None:
        try:
            sub.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.unsubscribe(sub)
            sub.queue = Outbox(maxsize=1)
            sub.queue.put_nowait(None)  # tells the writer to close the socket


def build_frame(match: Match | None, loaded: LoadedMatch | None, head: Match | MatchHead,
                seating: dict[int, str], subs: list[Subscriber]) -> Frame:
    """Every message the given sockets need, built now, before anything else can run."""
    seats = {seating.get(s.user_id) if s.user_id is not None else None for s in subs}
    messages = {seat: seat_message(loaded, head, seat) for seat in seats}
    return Frame(match, seq_of(loaded), head.status, seating, messages)


MOVE = "move"


def parse_notice(payload: str) -> tuple[str, int | None, str]:
    """'<match>:<seq>[:<kind>]' -> (match, seq, kind); kind is 'move' for a committed
    action and 'table' for anything else (seats, start, chat, resignations...)."""
    parts = payload.split(":")
    match_id = parts[0]
    seq = int(parts[1]) if len(parts) > 1 and parts[1].isascii() and parts[1].isdigit() else None
    kind = parts[2] if len(parts) > 2 else "table"
    return match_id, seq, kind
