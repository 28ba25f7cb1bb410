"""Past views, exports, and verifying an export by replaying it."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.games.protocol import GameRules, Seat
from app.games.registry import get as get_game
from app.games.registry import package
from app.i18n import t
from app.models import Action as ActionRow
from app.models import Match, User, started
from app.sessions import replay_jobs
from app.sessions.errors import Forbidden, Invalid, NotFound, Refused
from app.sessions.log_walk import CHECKPOINT_EVERY, LoggedMove, M, setup, standing, walk
from app.sessions.replay import MatchCache, state_hash
from app.sessions.service import get_match, seat_of, seat_rows
from app.sessions.table_view import player_names
from app.sessions.views import event_msg, event_text, log_lines, seat_view

EXPORT_FORMAT = "warroom-export/1"
log = logging.getLogger("warroom.history")


async def view_at(db: AsyncSession, cache: MatchCache, match: Match, user: User | None, seq: int,
                  as_seat: str | None) -> dict[str, Any]:
    """The table as it stood after ``seq``, filtered exactly like a live view.

    Players see their own seat; once the match is over they may look from any seat.
    Everyone else sees the public view."""
    if not started(match.status):
        raise Refused(f"this match never started ({match.status}): there is no history").said("err_no_history_yet")
    if not 0 <= seq <= match.seq:
        raise NotFound(f"seq {seq} is outside this match's log (0–{match.seq})")
    seats = await seat_rows(db, match.id)
    you = seat_of(seats, user)
    seat = you
    if as_seat is not None and as_seat != you:
        if as_seat not in {s.seat for s in seats}:
            raise Invalid(f"seat: no seat '{as_seat}' at this table")
        if you is None or match.status != "finished":
            raise Forbidden("only the match's players may look from another seat, and only once it is over").said(
            "err_other_seat_view")
        seat = as_seat
    loaded = await cache.load(db, match, upto=seq)
    view = seat_view(loaded, seat)  # now: a writer may change a cached state at the next await
    rows = (await db.execute(select(ActionRow.seq, ActionRow.events)
                             .where(ActionRow.match_id == match.id, ActionRow.seq <= seq)
                             .order_by(ActionRow.seq))).all()
    return {"seq": seq, "last_seq": match.seq, "seat": seat, "view": view,
            "log": log_lines([(s, e) for s, e in rows], seat)}


@dataclass(frozen=True)
class SummarySeat:
    seat: str
    label: str
    roles: list[str]
    player: str | None  # the player's name (None: a bot or nobody)
    bot: str | None
    resigned: bool
    won: bool
    score: int | None


@dataclass(frozen=True)
class EndSummary:
    """What the end-of-game summary shows: the winners by name (never a seat that resigned),
    each seat's score, and the game's own figures read from the public log (VP by round and
    by country, cards played: ``GamePackage.summary``)."""

    match_id: str
    game: str
    outcome: dict[str, Any]
    seats: list[SummarySeat]
    figures: dict[str, Any]
    last_seq: int

    @property
    def winners(self) -> list[SummarySeat]:
        return [s for s in self.seats if s.won]


def winners_standing(winners: Sequence[str], seats: Sequence[Any]) -> list[str]:
    """An outcome's winners less the seats whose player resigned: a bot finished the game for
    them, and a resignation is never a win."""
    resigned = {s.seat for s in seats if s.resigned}
    return [w for w in winners if w not in resigned]


async def end_summary(db: AsyncSession, match: Match) -> EndSummary:
    """The finished match's summary; only public facts (the public log), so anyone may read it."""
    if match.status != "finished" or not match.outcome:
        raise Refused(t("end_summary_not_yet"))
    seats = await seat_rows(db, match.id)
    names = await player_names(db, seats)
    outcome = dict(match.outcome)
    won = set(winners_standing(outcome.get("winners") or [], seats))
    scores = outcome.get("scores") or {}
    rows = (await db.execute(select(ActionRow.seq, ActionRow.payload, ActionRow.events)
                             .where(ActionRow.match_id == match.id).order_by(ActionRow.seq))).all()
    events = {r.seq: r.events for r in rows}
    lines = [msg for row in standing([LogMove(r.seq, "", r.payload) for r in rows])
             for msg in _public_msgs(events[row.seq])]
    summarize = package(match.game).summary
    figures = summarize(lines) if summarize is not None else {}
    return EndSummary(
        match_id=match.id, game=match.game, outcome=outcome, figures=figures, last_seq=match.seq,
        seats=[SummarySeat(seat=s.seat, label=s.label, roles=list(s.roles or []), player=names.get(s.user_id),
                           bot=s.bot, resigned=bool(s.resigned), won=s.seat in won, score=scores.get(s.seat))
               for s in seats])


def _public_msgs(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game's own public lines of a row (table lines such as a resignation are the UI's)."""
    return [m for m in (event_msg(e, None) for e in events) if isinstance(m, dict) and not m.get("ui")]


@dataclass(frozen=True)
class TurnMark:
    """A public log line that starts a turn (it carries a ``round`` parameter): where the
    history's scrubber jumps to. ``seq``: the row whose state shows that turn begun."""

    seq: int
    round: int
    line: dict[str, Any]  # {seq, text, msg}, as log_lines gives it


async def turn_marks(db: AsyncSession, match_id: str) -> list[TurnMark]:
    """Every turn start of the match's public log, in order (none for a game whose lines name no round)."""
    rows = (await db.execute(select(ActionRow.seq, ActionRow.payload, ActionRow.events)
                             .where(ActionRow.match_id == match_id).order_by(ActionRow.seq))).all()
    events = {r.seq: r.events for r in rows}
    kept = standing([LogMove(r.seq, "", r.payload) for r in rows])  # an undone row started nothing
    marks = []
    for line in log_lines([(m.seq, events[m.seq]) for m in kept], None):
        params = (line.get("msg") or {}).get("params") or {}
        if isinstance(params.get("round"), int) and not isinstance(params.get("round"), bool):
            marks.append(TurnMark(seq=line["seq"], round=params["round"], line=line))
    return marks


async def public_log(db: AsyncSession, match_id: str) -> list[tuple[int, str, dict[str, Any] | None]]:
    """The public event log: (seq, text, message id) for every event anyone watching was told."""
    await get_match(db, match_id)
    rows = (await db.execute(select(ActionRow.seq, ActionRow.events).where(ActionRow.match_id == match_id)
                             .order_by(ActionRow.seq))).all()
    return [(seq, event_text(e, None), event_msg(e, None)) for seq, events in rows for e in events]


async def export(db: AsyncSession, match: Match, user: User | None) -> dict[str, Any]:
    """The whole match as JSON. While it runs, the seed stays sealed, other seats' choices are
    withheld (they may be hidden cards), and each seq carries only the hash of its public view:
    the full state holds hands and deck order, and a hash of a small state space gives it away.
    Once it is over, everything: the seed, every choice, and the full-state hash too."""
    if not started(match.status):
        raise Refused(f"this match never started ({match.status}): there is nothing to export").said(
            "err_no_history_yet")
    seats = await seat_rows(db, match.id)
    you = seat_of(seats, user)
    over = match.status == "finished"
    rows = (await db.scalars(select(ActionRow).where(ActionRow.match_id == match.id)
                             .order_by(ActionRow.seq))).all()
    job = ReplayJob(match.game, dict(match.options), [_seat_fields(s.seat, s.label, s.roles) for s in seats],
                    bytes(match.seed), [LogMove(r.seq, r.seat, r.payload) for r in rows])
    await db.commit()  # end the read: no pooled connection waits on the replay (rows stay loaded)
    public = await replay_jobs.pool.run(public_hashes, job)
    actions = []
    for row in rows:
        sealed = not over and row.seat != you and "decision" in row.payload
        payload = {"decision": row.payload["decision"], "choices": None} if sealed else row.payload
        actions.append({"seq": row.seq, "seat": row.seat, "payload": payload,
                        "state_hash": row.state_hash if over else None, "public_hash": public.get(row.seq),
                        "at": row.created_at.isoformat()})
    return {
        "format": EXPORT_FORMAT, "match_id": match.id, "game": match.game, "engine_version": match.engine_version,
        "options": match.options, "mode": match.mode, "status": match.status,
        # a resigned seat is no winner, even in a match finished before that was enforced at the finish
        "outcome": None if match.outcome is None else {
            **match.outcome, "winners": winners_standing(match.outcome.get("winners") or [], seats)},
        "seats": [{"seat": s.seat, "label": s.label, "roles": s.roles} for s in seats],
        "seed": match.seed.hex() if over else None,
        "actions": actions,
    }


class ExportSeat(BaseModel):
    seat: str
    label: str
    roles: list[str] = Field(default_factory=list)


class ExportAction(BaseModel):
    seq: int
    seat: str
    payload: dict[str, Any]
    state_hash: str | None = None  # of the whole state: only in exports of finished matches
    public_hash: str | None = None  # of the spectators' view


class MatchExport(BaseModel):
    format: str
    game: str
    engine_version: str
    options: dict[str, Any]
    seats: list[ExportSeat]
    seed: str | None
    actions: list[ExportAction]


@dataclass(frozen=True)
class LogMove:
    """One row of a log, as the replay processes receive it (plain data: it is pickled)."""

    seq: int
    seat: str
    payload: dict[str, Any]
    state_hash: str | None = None
    public_hash: str | None = None


@dataclass(frozen=True)
class ReplayJob:
    """Everything a replay needs, for a worker process that has no database."""

    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: bytes
    moves: list[LogMove]

    def rules(self) -> GameRules:
        game = get_game(self.game)
        if game is None:  # checked before the job was sent: not a DomainError (it is pickled back)
            raise LookupError(f"game '{self.game}' is not installed here")
        return game

    def table(self) -> list[Seat]:
        return [Seat(id=s["seat"], label=s["label"], roles=tuple(s["roles"])) for s in self.seats]


def _seat_fields(seat: str, label: str, roles: Sequence[str]) -> dict[str, Any]:
    return {"seat": seat, "label": label, "roles": list(roles)}


def public_hash(game: GameRules, state: Any) -> str:
    """sha256 of the spectators' view (canonical JSON): what anyone watching saw at that seq."""
    blob = json.dumps(game.view(state, None), sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()


def public_hashes(job: ReplayJob) -> dict[int, str]:
    """seq -> the public-view hash after it, replaying the server's own log (runs in a worker
    process). A log that no longer replays stops the hashes there rather than failing the export."""
    game = job.rules()
    out: dict[int, str] = {}
    try:
        for move, state in walk(game, setup(game, job.options, job.table(), job.seed), job.seed, job.moves):
            out[move.seq] = public_hash(game, state)
    except Exception:  # the log's own fault (see verify): report what replayed
        log.warning("match log of %s stops replaying after seq %s", job.game, max(out, default=0), exc_info=True)
    return out


def verify_job(export: MatchExport) -> ReplayJob:
    """Check what can be checked without replaying; the replay itself is ``check_replay``."""
    if export.format != EXPORT_FORMAT:
        raise Invalid(f"format: expected '{EXPORT_FORMAT}', got '{export.format}'")
    if get_game(export.game) is None:
        raise Invalid(f"game: '{export.game}' is not installed here")
    if export.seed is None:
        raise Invalid("seed: this export was made before the match ended; the seed is sealed until then")
    try:
        seed = bytes.fromhex(export.seed)
    except ValueError as exc:
        raise Invalid("seed: not a hex string") from exc
    if [a.seq for a in export.actions] != list(range(1, len(export.actions) + 1)):
        raise Invalid("actions: seqs must run 1, 2, 3… without gaps")
    if any("decision" in a.payload and a.payload.get("choices") is None for a in export.actions):
        raise Invalid("actions: some moves have their choices withheld (an export of a running match)")
    seats = [_seat_fields(s.seat, s.label, s.roles) for s in export.seats]
    moves = [LogMove(a.seq, a.seat, a.payload, a.state_hash, a.public_hash) for a in export.actions]
    return ReplayJob(export.game, dict(export.options), seats, seed, moves)


def verify(export: MatchExport) -> dict[str, Any]:
    """Replay the export from its seed; the first seq whose recorded hashes differ, if any."""
    return {**check_replay(verify_job(export)), "export_engine_version": export.engine_version}


def check_replay(job: ReplayJob) -> dict[str, Any]:
    """Replay a checked export (runs in a worker process). Every seq must carry a hash, and
    each hash it carries (full state, public view, or both) must match the replayed state."""
    game = job.rules()
    result: dict[str, Any] = {"ok": True, "first_divergent_seq": None, "actions": len(job.moves),
                              "engine_version": game.version}
    move = None
    try:
        for move, state in walk(game, setup(game, job.options, job.table(), job.seed), job.seed, job.moves):
            if not _hashes_match(game, state, move):
                return {**result, "ok": False, "first_divergent_seq": move.seq}
    except Exception as exc:  # a tampered move the rules refuse: that is where it diverges
        seq = job.moves[0].seq if move is None else _next_seq(job.moves, move)
        return {**result, "ok": False, "first_divergent_seq": seq, "error": str(exc)[:300]}
    return result


def _hashes_match(game: GameRules, state: Any, move: LogMove) -> bool:
    if move.state_hash is None and move.public_hash is None:
        return False  # nothing vouches for this seq
    if move.state_hash is not None and move.state_hash != state_hash(game, state):
        return False
    return move.public_hash is None or move.public_hash == public_hash(game, state)


def _next_seq(moves: Sequence[LoggedMove], last_good: LoggedMove) -> int:
    return next((m.seq for m in moves if m.seq > last_good.seq), last_good.seq)


def replay_states(game: GameRules, options: dict[str, Any], seats: list[Seat], seed: bytes,
                  moves: Sequence[M], checkpoint_every: int = CHECKPOINT_EVERY) -> Iterator[tuple[M, Any]]:
    """Replay a log from its seed, checking every move, yielding the state after each row
    (the log walk from the setup; see ``app.sessions.log_walk.walk``)."""
    return walk(game, setup(game, options, seats, seed), seed, moves, checkpoint_every=checkpoint_every)
