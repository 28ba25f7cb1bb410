"""`python -m app replay`: bring running matches under a new rules engine, or flag them.

A rules fix changes what the engine does with a logged answer. Every row of a match's log
stores the hash of the state it led to, so replaying the log under the current engine shows
whether the fix changes that match: where every hash agrees, the snapshots (dumps written by
the old engine) are rebuilt under the new one; where one differs, the match keeps its log and
state as they are and carries a warning for its players (``engine_warning``) instead.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import db as database
from app.games.protocol import GameRules, Seat
from app.games.registry import get as get_game
from app.models import Action as ActionRow
from app.models import Match, MatchSeat, Snapshot
from app.sessions.history import LogMove
from app.sessions.log_walk import setup, walk
from app.sessions.replay import seats_of, state_hash
from app.sessions.service import notify

# a move committed between reading a log and writing its verdict sends the replay round again;
# the last try holds the match's row throughout, so its writers wait for one replay at most
TRIES = 3


class ReplayRefused(Exception):
    """The command cannot run as asked (an unknown game or match): nothing was touched."""


def engine_warning(match: Match) -> dict[str, Any] | None:
    """What a match's players are told when its log no longer replays under the current engine."""
    if match.replay_diverged_at is None:
        return None
    return {"seq": match.replay_diverged_at, "engine_version": match.replay_engine}


@dataclass(frozen=True)
class MatchLog:
    """Everything a replay of one match needs, read in one go (plain data: no open session)."""

    match_id: str
    recorded_engine: str
    seq: int
    options: dict[str, Any]
    seed: bytes
    seats: list[Seat]
    moves: list[LogMove]
    snapshot_seqs: frozenset[int]
    warned: bool


@dataclass
class Replayed:
    """How a log replayed: ``diverged_at`` is None when every stored hash agreed."""

    checked: int = 0  # rows whose stored state hash was compared
    diverged_at: int | None = None
    reason: str | None = None  # the rules' refusal, when a logged move no longer applies
    dumps: dict[int, dict[str, Any]] = field(default_factory=dict)  # seq -> state, where a snapshot stood


def replay_log(game: GameRules, log: MatchLog) -> Replayed:
    """Replay ``log`` under ``game``, comparing each row's stored hash; keep the states the
    match's snapshots hold (same seqs: those already respect the undos that came after them)."""
    out = Replayed()
    last: LogMove | None = None
    try:
        for move, state in walk(game, setup(game, log.options, log.seats, log.seed), log.seed, log.moves):
            last = move
            if move.state_hash is not None:
                out.checked += 1
                if move.state_hash != state_hash(game, state):
                    return Replayed(out.checked, move.seq)
            if move.seq in log.snapshot_seqs:
                out.dumps[move.seq] = copy.deepcopy(game.dump(state))  # the replay goes on changing it
    except Exception as exc:  # the new rules refuse a logged move: that is where it diverges
        return Replayed(out.checked, _next_seq(log.moves, last), str(exc)[:200] or type(exc).__name__)
    return out


def _next_seq(moves: Sequence[LogMove], last_good: LogMove | None) -> int:
    if last_good is None:
        return moves[0].seq if moves else 0
    return next((m.seq for m in moves if m.seq > last_good.seq), last_good.seq)


@dataclass(frozen=True)
class Verdict:
    match_id: str
    recorded_engine: str
    engine: str
    rows: int
    replayed: Replayed
    dry_run: bool

    @property
    def agrees(self) -> bool:
        return self.replayed.diverged_at is None

    def line(self) -> str:
        r = self.replayed
        head = f"match {self.match_id}: engine {self.recorded_engine}, {r.checked} of {self.rows} rows checked, "
        if self.agrees:
            done = (f"would rebuild {len(r.dumps)} snapshot(s)" if self.dry_run
                    else f"{len(r.dumps)} snapshot(s) rebuilt under engine {self.engine}")
            return head + f"agrees; {done}"
        why = f" ({r.reason})" if r.reason else ""
        done = "dry run, not flagged" if self.dry_run else "flagged for its players, log and state left as they were"
        return head + f"diverges at seq {r.diverged_at}{why}; {done}"


async def read_log(db: AsyncSession, match_id: str, lock: bool) -> MatchLog:
    stmt = select(Match).where(Match.id == match_id)
    match = await db.scalar(stmt.with_for_update() if lock else stmt)
    if match is None:
        raise ReplayRefused(f"match '{match_id}' is gone")
    seats = (await db.scalars(select(MatchSeat).where(MatchSeat.match_id == match_id))).all()
    rows = (await db.scalars(select(ActionRow).where(ActionRow.match_id == match_id, ActionRow.seq <= match.seq)
                             .order_by(ActionRow.seq))).all()
    snapshots = (await db.scalars(select(Snapshot.seq).where(Snapshot.match_id == match_id))).all()
    return MatchLog(match.id, match.engine_version, match.seq, dict(match.options), bytes(match.seed),
                    seats_of(list(seats)), [LogMove(r.seq, r.seat, r.payload, r.state_hash) for r in rows],
                    frozenset(snapshots), match.replay_diverged_at is not None)


async def record(db: AsyncSession, game: GameRules, log: MatchLog, replayed: Replayed) -> None:
    """Write the verdict under the match's row lock. The log is never touched; nor, on a
    divergence, the snapshots. ``updated_at`` stays: maintenance is not activity at the table."""
    same_time = {"updated_at": Match.updated_at}
    if replayed.diverged_at is None:
        await db.execute(delete(Snapshot).where(Snapshot.match_id == log.match_id))
        db.add_all([Snapshot(match_id=log.match_id, seq=seq, state=state, engine_version=game.version)
                    for seq, state in sorted(replayed.dumps.items())])
        await db.execute(update(Match).where(Match.id == log.match_id).values(
            engine_version=game.version, replay_diverged_at=None, replay_engine=None, **same_time))
    else:
        await db.execute(update(Match).where(Match.id == log.match_id).values(
            replay_diverged_at=replayed.diverged_at, replay_engine=game.version, **same_time))
    if log.warned or replayed.diverged_at is not None:  # the warning appears or goes: tables re-render
        match = await db.get(Match, log.match_id, populate_existing=True)
        assert match is not None  # locked above
        await notify(db, match)


async def replay_match(sessions: async_sessionmaker[AsyncSession], game: GameRules, match_id: str,
                       dry_run: bool) -> Verdict:
    for attempt in range(1, TRIES + 1):
        locked = attempt == TRIES
        async with sessions() as db:
            log = await read_log(db, match_id, lock=locked)
            if not locked:
                await db.commit()  # hold no transaction open while the rules replay
            replayed = replay_log(game, log)
            verdict = Verdict(match_id, log.recorded_engine, game.version, len(log.moves), replayed, dry_run)
            if dry_run:
                return verdict
            if not locked:
                seq = await db.scalar(select(Match.seq).where(Match.id == match_id).with_for_update())
                if seq != log.seq:
                    await db.rollback()
                    continue  # a move landed meanwhile: replay the longer log
            await record(db, game, log, replayed)
            await db.commit()
            return verdict
    raise AssertionError("unreachable: the last try holds the lock")


async def matches_to_replay(db: AsyncSession, game: GameRules, match_id: str | None) -> list[str]:
    if match_id is None:
        return list((await db.scalars(select(Match.id).where(Match.game == game.id, Match.status == "active")
                                      .order_by(Match.created_at, Match.id))).all())
    match = await db.get(Match, match_id)
    if match is None:
        raise ReplayRefused(f"--match: no match '{match_id}'")
    if match.game != game.id:
        raise ReplayRefused(f"--match: match '{match_id}' is a game of '{match.game}', not '{game.id}'")
    if match.status not in ("active", "finished"):
        raise ReplayRefused(f"--match: match '{match_id}' is {match.status}: it has no log to replay")
    return [match.id]


async def replay(url: str, game_id: str, match_id: str | None, dry_run: bool,
                 say: Callable[[str], None] = print) -> list[Verdict]:
    """Replay the running matches of ``game_id`` (or the one ``match_id``) under the installed
    engine, saying one line per match; returns the verdicts."""
    game = get_game(game_id)
    if game is None:
        raise ReplayRefused(f"--game: '{game_id}' is not installed here")
    engine = database.make_engine(url, pool_size=1)
    sessions = database.make_sessionmaker(engine)
    try:
        async with sessions() as db:
            ids = await matches_to_replay(db, game, match_id)
        say(f"replaying {len(ids)} match(es) of {game.id} under engine {game.version}"
            + (" (dry run: nothing is changed)" if dry_run else ""))
        verdicts = []
        for one in ids:
            verdict = await replay_match(sessions, game, one, dry_run)
            say(verdict.line())
            verdicts.append(verdict)
    finally:
        await engine.dispose()
    diverged = sum(not v.agrees for v in verdicts)
    say(f"{len(verdicts) - diverged} agree, {diverged} diverge")
    return verdicts
