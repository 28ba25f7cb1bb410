"""Past views, exports, and verifying an export by replaying it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.games.protocol import GameRules, Seat, action_rng, validate_action
from app.games.registry import get as get_game
from app.models import Action as ActionRow
from app.models import Match, User
from app.sessions.errors import ApiError
from app.sessions.replay import MatchCache, state_hash
from app.sessions.service import seat_of, seat_rows
from app.sessions.views import log_lines, seat_view

EXPORT_FORMAT = "warroom-export/1"


async def view_at(db: AsyncSession, cache: MatchCache, match: Match, user: User | None, seq: int,
                  as_seat: str | None) -> dict[str, Any]:
    """The table as it stood after ``seq``, filtered exactly like a live view.

    Players see their own seat; once the match is over they may look from any seat.
    Everyone else sees the public view."""
    if match.status == "open":
        raise ApiError(400, "this match has not started: there is no history yet")
    if not 0 <= seq <= match.seq:
        raise ApiError(404, f"seq {seq} is outside this match's log (0–{match.seq})")
    seats = await seat_rows(db, match.id)
    you = seat_of(seats, user)
    seat = you
    if as_seat is not None and as_seat != you:
        if as_seat not in {s.seat for s in seats}:
            raise ApiError(422, f"seat: no seat '{as_seat}' at this table")
        if you is None or match.status != "finished":
            raise ApiError(403, "only the match's players may look from another seat, and only once it is over")
        seat = as_seat
    loaded = await cache.load(db, match, upto=seq)
    view = seat_view(loaded, seat)  # now: a writer may change a cached state at the next await
    rows = (await db.execute(select(ActionRow.seq, ActionRow.events)
                             .where(ActionRow.match_id == match.id, ActionRow.seq <= seq)
                             .order_by(ActionRow.seq))).all()
    return {"seq": seq, "last_seq": match.seq, "seat": seat, "view": view,
            "log": log_lines([(s, e) for s, e in rows], seat)}


async def export(db: AsyncSession, match: Match, user: User | None) -> dict[str, Any]:
    """The whole match as JSON. While it runs, the seed stays sealed and other seats'
    choices are withheld (they may be hidden cards); once it is over, everything."""
    if match.status == "open":
        raise ApiError(400, "this match has not started: there is nothing to export")
    seats = await seat_rows(db, match.id)
    you = seat_of(seats, user)
    over = match.status == "finished"
    rows = (await db.scalars(select(ActionRow).where(ActionRow.match_id == match.id)
                             .order_by(ActionRow.seq))).all()
    actions = []
    for row in rows:
        sealed = not over and row.seat != you and "decision" in row.payload
        payload = {"decision": row.payload["decision"], "choices": None} if sealed else row.payload
        actions.append({"seq": row.seq, "seat": row.seat, "payload": payload, "state_hash": row.state_hash,
                        "at": row.created_at.isoformat()})
    return {
        "format": EXPORT_FORMAT, "match_id": match.id, "game": match.game, "engine_version": match.engine_version,
        "options": match.options, "mode": match.mode, "status": match.status, "outcome": match.outcome,
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
    state_hash: str | None = None


class MatchExport(BaseModel):
    format: str
    game: str
    engine_version: str
    options: dict[str, Any]
    seats: list[ExportSeat]
    seed: str | None
    actions: list[ExportAction]


def verify(export: MatchExport) -> dict[str, Any]:
    """Replay the export from its seed; the first seq whose state hash differs, if any."""
    if export.format != EXPORT_FORMAT:
        raise ApiError(422, f"format: expected '{EXPORT_FORMAT}', got '{export.format}'")
    game = get_game(export.game)
    if game is None:
        raise ApiError(422, f"game: '{export.game}' is not installed here")
    if export.seed is None:
        raise ApiError(422, "seed: this export was made before the match ended; the seed is sealed until then")
    try:
        seed = bytes.fromhex(export.seed)
    except ValueError as exc:
        raise ApiError(422, "seed: not a hex string") from exc
    if [a.seq for a in export.actions] != list(range(1, len(export.actions) + 1)):
        raise ApiError(422, "actions: seqs must run 1, 2, 3… without gaps")
    if any("decision" in a.payload and a.payload.get("choices") is None for a in export.actions):
        raise ApiError(422, "actions: some moves have their choices withheld (an export of a running match)")
    seats = [Seat(id=s.seat, label=s.label, roles=tuple(s.roles)) for s in export.seats]
    result: dict[str, Any] = {"ok": True, "first_divergent_seq": None, "actions": len(export.actions),
                              "engine_version": game.version, "export_engine_version": export.engine_version}
    move = None
    try:
        for move, state in replay_states(game, export.options, seats, seed, export.actions):
            if move.state_hash != state_hash(game, state):
                return {**result, "ok": False, "first_divergent_seq": move.seq}
    except Exception as exc:  # a tampered move the rules refuse: that is where it diverges
        seq = export.actions[0].seq if move is None else _next_seq(export.actions, move)
        return {**result, "ok": False, "first_divergent_seq": seq, "error": str(exc)[:300]}
    return result


def _next_seq(moves: Sequence[LoggedMove], last_good: LoggedMove) -> int:
    return next((m.seq for m in moves if m.seq > last_good.seq), last_good.seq)


class LoggedMove(Protocol):
    seq: int
    seat: str
    payload: dict[str, Any]


M = TypeVar("M", bound=LoggedMove)


def replay_states(game: GameRules, options: dict[str, Any], seats: list[Seat], seed: bytes,
                  moves: Sequence[M]) -> Iterator[tuple[M, Any]]:
    """Replay a log from its seed, exactly as the server applied it, yielding the state
    after each row: every move must answer a pending decision legally, undos take back
    the newest standing move, table events (meta rows) leave the state alone."""

    def play(state: Any, move: M) -> None:
        if "meta" in move.payload:
            return
        decision = next((d for d in game.pending(state)
                         if d.id == move.payload["decision"] and d.seat == move.seat), None)
        if decision is None:
            raise ValueError(f"no decision '{move.payload['decision']}' was pending for seat '{move.seat}'")
        game.apply(state, move.seat, validate_action(decision, list(move.payload["choices"])),
                   action_rng(seed, move.seq))

    def replay(standing: list[M]) -> Any:
        state = game.setup(dict(options), seats, action_rng(seed, 0))
        for m in standing:
            play(state, m)
        return state

    standing: list[M] = []
    state = replay(standing)
    for move in moves:
        if "undo" in move.payload:
            if not standing or standing[-1].seq != move.payload["undo"]:
                raise ValueError("an undo that does not take back the newest standing move")
            standing.pop()
            state = replay(standing)
        else:
            play(state, move)
            standing.append(move)
        yield move, state
