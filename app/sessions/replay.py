"""Rebuilding a match's state from its seed and action log.

The log is the truth; snapshots only shorten the walk. Every worker keeps the
newest state of the matches it serves in memory and catches up from the log
when another worker has moved on.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import json
import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.games.protocol import GameRules, Seat, State
from app.games.registry import get as get_game
from app.models import Action as ActionRow
from app.models import Match, MatchSeat, Snapshot
from app.sessions.errors import DomainError, Unavailable
from app.sessions.log_walk import SETUP_SEQ, is_undo, setup, walk, walk_to_end

LOG_TAIL = 30


@dataclass(frozen=True)
class MatchHead:
    """The match row's fields a per-seat message shows, as of the cached seq."""

    status: str
    waiting_on: list[str]
    outcome: dict[str, Any] | None

    @classmethod
    def of(cls, match: Match) -> MatchHead:
        return cls(match.status, list(match.waiting_on or []), match.outcome)


@dataclass(frozen=True)
class SeatsSeen:
    """The table as the last move through the ORM read it, for the next moves' one round trip
    (``service.submit``): who plays which seat, and whether the table's moves may take it at
    all (live and untimed: no turn hook has work to do). Only a guess: ``warroom_move`` checks
    the seat under the match's row lock, and the cached state is dropped when it was wrong."""

    players: dict[int, str]
    one_trip: bool


@dataclass
class LoadedMatch:
    match_id: str
    game: GameRules
    seed: bytes
    seq: int
    state: State
    seats: list[Seat]
    views: dict[tuple[int, str | None], dict[str, Any]] = field(default_factory=dict)
    # the newest log entries as (seq, events), so live updates carry the log without a query
    tail: list[tuple[int, list[dict[str, Any]]]] = field(default_factory=list)
    head: MatchHead | None = None  # None: not known for this seq, read the match row
    seen: SeatsSeen | None = None  # None: no move went through the ORM since this was loaded
    # what app.sessions.views built and encoded for ``encoded_seq`` (the POST reply and sockets share it)
    encoded: dict[Any, Any] = field(default_factory=dict)
    encoded_seq: int = -1
    # parts of views shared by seats and seqs (app.sessions.views.share): this seq's, the one before's
    shared_now: dict[Any, Any] = field(default_factory=dict)
    shared_before: dict[Any, Any] = field(default_factory=dict)
    # each tail entry's log lines per seat, built once while the entry stays in the tail
    lines: dict[tuple[int, str | None], list[dict[str, Any]]] = field(default_factory=dict)

    def remember(self, seq: int, events: list[dict[str, Any]]) -> None:
        self.tail.append((seq, events))
        del self.tail[:-LOG_TAIL]


def seats_of(rows: list[MatchSeat]) -> list[Seat]:
    return [Seat(id=r.seat, label=r.label, roles=tuple(r.roles)) for r in sorted(rows, key=lambda r: r.position)]


def game_of(match: Match) -> GameRules:
    game = get_game(match.game)
    if game is None:
        raise Unavailable(f"game '{match.game}' is not installed on this server")
    return game


def initial_state(game: GameRules, match: Match, seats: list[Seat]) -> State:
    return setup(game, dict(match.options), seats, match.seed)


async def rows_between(db: AsyncSession, match_id: str, after: int, upto: int) -> Sequence[ActionRow]:
    return (await db.scalars(
        select(ActionRow)
        .where(ActionRow.match_id == match_id, ActionRow.seq > after, ActionRow.seq <= upto)
        .order_by(ActionRow.seq))).all()


def state_hash(game: GameRules, state: State) -> str:
    """sha256 of the state's dump as sorted, compact, ASCII JSON: what every stored hash is.

    orjson writes those very bytes for the dumps games make (ASCII strings, integers, string
    keys) ten times faster than ``json``; whatever it could write differently (other text,
    floats, number keys, a type it refuses) is hashed exactly as before, so every log
    already stored verifies as it did and the hashes prove the same."""
    dump = game.dump(state)
    try:
        blob = orjson.dumps(dump, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # number keys, big integers...: json's own words for them
        return legacy_state_hash(dump)
    if not blob.isascii() or _MAYBE_FLOAT.search(blob):
        return legacy_state_hash(dump)
    return hashlib.sha256(blob).hexdigest()


# a number with a fraction or an exponent (or text that looks like one): json and orjson may
# spell it differently. (NaN and Infinity, which they spell differently too, are no JSON: a
# dump holding one could never be kept as a snapshot in the first place.)
_MAYBE_FLOAT = re.compile(rb"[0-9][.eE]")


def legacy_state_hash(dump: Any) -> str:
    blob = json.dumps(dump, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()


class _MatchLock:
    """A match's lock and how many tasks hold it or wait for it."""

    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class MatchCache:
    """Per-worker cache of the newest known state of the most recently used matches.

    Writers hold the match's lock across their whole transaction and change the cached
    state in place; readers never wait for that lock (a reader holds a pooled
    connection, a writer waits for one while holding the lock: the two orders together
    deadlock the pool). The cache only ever moves forward: a reader with an older match
    row gets a private older state, never a replacement of the newer one."""

    def __init__(self, capacity: int = 2000) -> None:
        self.capacity = capacity
        self._matches: OrderedDict[str, LoadedMatch] = OrderedDict()
        # only while some task holds or waits for a lock: ids nobody asks about leave no trace
        self._locks: dict[str, _MatchLock] = {}

    @contextlib.asynccontextmanager
    async def lock(self, match_id: str) -> AsyncIterator[None]:
        entry = self._locks.get(match_id)
        if entry is None:
            entry = self._locks[match_id] = _MatchLock()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._locks[match_id]

    def busy(self, match_id: str) -> bool:
        """Whether a writer holds (or waits for) the match: its cached state may be uncommitted."""
        return match_id in self._locks

    def lock_count(self) -> int:
        return len(self._locks)

    @contextlib.asynccontextmanager
    async def writing(self, match_id: str) -> AsyncIterator[None]:
        """Hold the match's lock across a whole write transaction (commit included);
        if anything fails, drop the cached state: it may hold an action that never committed."""
        async with self.lock(match_id):
            try:
                yield
            except DomainError as refusal:
                if refusal.state_touched:  # refusals before any change leave a good cache behind
                    self.forget(match_id)
                raise
            except BaseException:
                self.forget(match_id)
                raise

    def forget(self, match_id: str) -> None:
        self._matches.pop(match_id, None)

    def peek(self, match_id: str) -> LoadedMatch | None:
        return self._matches.get(match_id)

    def _keep(self, loaded: LoadedMatch) -> None:
        self._matches[loaded.match_id] = loaded
        self._matches.move_to_end(loaded.match_id)
        while len(self._matches) > self.capacity:
            self._matches.popitem(last=False)

    async def read(self, db: AsyncSession, match: Match) -> LoadedMatch:
        """The state at ``match.seq`` (or newer) for a reader, without waiting for the lock.

        Use what it returns before the next ``await``: a writer may change a cached state
        in place as soon as the reader yields."""
        target = match.seq
        for _ in range(3):
            cached = self._matches.get(match.id)
            if cached is None or cached.head is None or cached.seq < target:
                break  # behind the caller's row: build it
            if cached.seq == target or not self.busy(match.id):
                return cached  # at that seq, or newer and committed (no writer at work)
            # ahead of the caller's row while a writer is at work: has that move committed since?
            fresh = await db.scalar(select(Match.seq).where(Match.id == match.id))
            if fresh is None:
                break
            target = fresh
        loaded = await self.load(db, match, upto=match.seq)
        current = self._matches.get(match.id)
        if not self.busy(match.id) and (current is None or current.seq < loaded.seq):
            loaded.head = MatchHead.of(match)  # newer than the cache and committed: keep it
            self._keep(loaded)
        return loaded

    async def load(self, db: AsyncSession, match: Match, upto: int | None = None) -> LoadedMatch:
        """The state after ``upto`` (default: the match's newest seq).

        Writers call this under the match's lock with a locked match row and get the
        cached state itself, caught up from the log. Any other target gets a private
        state: the cached one is never replaced by an older one.
        """
        target = match.seq if upto is None else upto
        cached = self._matches.get(match.id)
        if cached is not None and cached.seq == target:
            self._matches.move_to_end(match.id)
            if upto is None:
                cached.head = MatchHead.of(match)
            return cached
        game = game_of(match)
        keep = upto is None and (cached is None or cached.seq < target)
        if cached is not None and cached.seq < target and keep:
            rows = await rows_between(db, match.id, cached.seq, target)
            if not any(is_undo(row) for row in rows):  # an undo may reach behind the cached state
                for row, _state in walk(game, cached.state, match.seed, rows, check=False, every_row=False):
                    cached.remember(row.seq, row.events)
                cached.seq = target
                cached.views.clear()
                cached.head = MatchHead.of(match)
                self._keep(cached)
                return cached
        loaded = await self._from_snapshot(db, match, game, target)
        rows = await rows_between(db, match.id, loaded.seq, target)
        loaded.state = walk_to_end(game, loaded.state, match.seed, rows)
        loaded.seq = target
        recent = (await db.execute(
            select(ActionRow.seq, ActionRow.events)
            .where(ActionRow.match_id == match.id, ActionRow.seq <= target)
            .order_by(ActionRow.seq.desc()).limit(LOG_TAIL))).all()
        loaded.tail = [(seq, events) for seq, events in reversed(recent)]
        if keep:
            current = self._matches.get(match.id)
            if current is None or current.seq < target:  # another task may have moved it on meanwhile
                loaded.head = MatchHead.of(match)
                self._keep(loaded)
        return loaded

    async def _from_snapshot(self, db: AsyncSession, match: Match, game: GameRules, target: int) -> LoadedMatch:
        seat_rows = (await db.scalars(select(MatchSeat).where(MatchSeat.match_id == match.id))).all()
        seats = seats_of(list(seat_rows))
        snap = await db.scalar(
            select(Snapshot)
            .where(Snapshot.match_id == match.id, Snapshot.seq <= target)
            .order_by(Snapshot.seq.desc())
            .limit(1)
        )
        if snap is not None:
            state = game.load(copy.deepcopy(snap.state))
            return LoadedMatch(match.id, game, match.seed, snap.seq, state, seats)
        return LoadedMatch(match.id, game, match.seed, SETUP_SEQ, initial_state(game, match, seats), seats)
