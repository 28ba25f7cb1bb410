"""What players do to a table besides moving: take back, resign, abandon, kick, set auto-pass."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.games.protocol import AutoPasses
from app.i18n import N_
from app.models import Action as ActionRow
from app.models import Match, Snapshot, User
from app.sessions import autopass
from app.sessions.errors import Forbidden, Invalid, Refused, Stale
from app.sessions.hooks import turn_changed
from app.sessions.log_walk import is_meta, standing, undoable_move
from app.sessions.replay import MatchCache, MatchHead, game_of, state_hash
from app.sessions.service import finish, get_match, notify, seat_rows, seated, settle, utcnow

UNDO_RULE = ("undo never crosses another player's action, a reveal, a shuffle or a die roll; inside a "
             "simultaneous step each seat may take back its own answer until the last one is in")


def table_msg(key: str, label: str) -> dict[str, Any]:
    """A table event's line as a key of the UI catalogue (``ui``), not of the game's."""
    return {"id": key, "params": {"seat": label}, "ui": True}


async def _append(db: AsyncSession, match: Match, seat: str, payload: dict, text: str, user: User,
                  msg: dict[str, Any] | None = None) -> ActionRow:
    match.seq += 1
    row = ActionRow(match_id=match.id, seq=match.seq, seat=seat, user_id=user.id, payload=payload,
                    events=[{"text": text, "private": {}, "msg": msg}], engine_version=game_of(match).version)
    db.add(row)
    await db.flush()
    return row


async def undo(db: AsyncSession, cache: MatchCache, user: User, match_id: str, seq: int) -> Match:
    """Take back the caller's newest standing move, as a new row of the log."""
    match, seats, seat = await seated(db, user, match_id, "take back")
    if seq != match.seq:
        raise Stale(f"stale undo: it was asked at seq {seq} but the table is at seq {match.seq}").said(
            "err_stale_move", seq=seq, now=match.seq)
    rows = (await db.scalars(select(ActionRow).where(ActionRow.match_id == match_id)
                             .order_by(ActionRow.seq))).all()
    standing_rows = standing(rows)
    if not standing_rows:
        raise Refused("there is no move to take back").said("err_nothing_to_undo")
    target = undoable_move(standing_rows, seat)
    if target is None:
        if standing_rows[-1].seat == seat and not is_meta(standing_rows[-1]):
            raise Refused(f"your last move cannot be taken back ({UNDO_RULE})").said("err_cannot_undo")
        raise Refused(f"you can only take back your own last move; another seat has acted since ({UNDO_RULE})").said(
            "err_undo_others_moved")
    label = next(s.label for s in seats if s.seat == seat)
    row = await _append(db, match, seat, {"undo": target.seq}, f"{label} takes back a move", user,
                        table_msg(N_("log_takes_back"), label))
    # snapshots from the undone move on describe a state that no longer happened
    await db.execute(delete(Snapshot).where(Snapshot.match_id == match_id, Snapshot.seq >= target.seq))
    loaded = await cache.load(db, match)
    row.state_hash = state_hash(loaded.game, loaded.state)
    before = list(match.waiting_on or [])
    settle(match, loaded)
    await turn_changed(db, match, before, utcnow())
    await notify(db, match)
    return match


async def resign(db: AsyncSession, cache: MatchCache, user: User, match_id: str) -> Match:
    """Two seats: the other side wins. More: a bot takes the seat over and play goes on."""
    match, seats, seat = await seated(db, user, match_id, "resign")
    mine = next(s for s in seats if s.seat == seat)
    mine.resigned = True
    loaded = await cache.load(db, match)
    before = list(match.waiting_on or [])
    if len(seats) == 2:
        text, msg = f"{mine.label} resigns", table_msg(N_("log_resigns"), mine.label)
        row = await _append(db, match, seat, {"meta": "resign"}, text, user, msg)
        others = [s.seat for s in seats if s.seat != seat]
        finish(match, {"winners": others, "summary": text, "scores": {}, "summary_msg": msg})
        loaded.head = MatchHead.of(match)
    else:
        mine.bot = "rules"
        text = f"{mine.label} resigns; a bot plays the seat from here"
        row = await _append(db, match, seat, {"meta": "resign"}, text, user,
                            table_msg(N_("log_resigns_to_bot"), mine.label))
        settle(match, loaded)
    row.state_hash = state_hash(loaded.game, loaded.state)
    loaded.seq = match.seq
    loaded.remember(row.seq, row.events)
    loaded.views.clear()
    await turn_changed(db, match, before, utcnow())
    await notify(db, match)
    return match


async def abandon(db: AsyncSession, user: User, match_id: str) -> Match:
    match = await get_match(db, match_id, lock=True)
    if match.created_by != user.id:
        raise Forbidden("only the player who created the table may abandon it").said("err_host_abandons")
    if match.status != "open":
        raise Refused(f"only a table that has not started can be abandoned; this one is {match.status}").said(
            "err_abandon_started")
    match.status = "abandoned"
    await notify(db, match)
    return match


async def kick(db: AsyncSession, user: User, match_id: str, seat: str) -> Match:
    """Before the start the host may free a seat: a player who never showed, or a bot."""
    match = await get_match(db, match_id, lock=True)
    if match.created_by != user.id:
        raise Forbidden("only the player who created the table may free a seat").said("err_host_kicks")
    if match.status != "open":
        raise Refused("seats can only be freed before the match starts").said("err_kick_started")
    row = next((s for s in await seat_rows(db, match_id) if s.seat == seat), None)
    if row is None:
        raise Invalid(f"seat: no seat '{seat}' at this table")
    if row.user_id == user.id:
        raise Refused("you cannot kick yourself; abandon the table instead").said("err_kick_yourself")
    if row.user_id is None and row.bot is None:
        raise Refused(f"seat '{seat}' is already empty")
    row.user_id, row.bot = None, None
    await notify(db, match)
    return match


async def set_autopass(db: AsyncSession, cache: MatchCache, user: User, match_id: str, mode: str) -> Match:
    """The caller's seat's setting for this match; "round" runs to the end of the round now."""
    if mode not in autopass.MODES:
        raise Invalid(f"mode: one of {', '.join(autopass.MODES)}")
    match, seats, you = await seated(db, user, match_id, "set auto-pass for")
    loaded = await cache.load(db, match)
    game = loaded.game
    if not isinstance(game, AutoPasses):
        raise Refused(f"{game.title} asks no reactions that could be passed for you")
    mine = next(s for s in seats if s.seat == you)
    mine.autopass = mode
    mine.autopass_round = game.round_mark(loaded.state) if mode == "round" else None
    await db.flush()
    return match
