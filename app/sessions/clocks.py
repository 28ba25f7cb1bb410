"""Clocks of timed tables: started, stopped and credited as the table's turn moves,
out-of-time seats skipped or handed to a bot, reclaimed, and players' vacations.

Only server time counts (``service.utcnow``). A seat's clock runs while the table waits
on that seat, so simultaneous decisions run several clocks at once. Everything lives in
the database and changes inside the transaction that moved the turn: a restart loses
nothing, and what is left on a running clock is worked out when someone asks.
"""

from __future__ import annotations

import os
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.games.protocol import action_rng, validate_action
from app.models import Action as ActionRow
from app.models import Match, MatchClock, MatchPace, MatchSeat, User, Vacation
from app.sessions import clock_rules as rules
from app.sessions.errors import Forbidden, Invalid, Refused
from app.sessions.hooks import on_turn_change
from app.sessions.replay import MatchCache
from app.sessions.service import commit_action, get_match, notify, seat_of, seat_rows, seated, utcnow

TIMEOUT_RULE = "a seat may be skipped or handed to a bot only once its clock has run out"
MAX_SKIPPED_ANSWERS = 100  # one skipped turn is a handful of decisions; this only stops a runaway


def vacation_allowance() -> int:
    return max(0, int(os.environ.get("WARROOM_VACATION_DAYS", "21")))


def pace_of(row: MatchPace) -> rules.Pace:
    return rules.Pace(row.kind, row.initial_ms, row.credit_ms, row.cap_ms)


async def _clocks(db: AsyncSession, match_id: str, lock: bool = False) -> dict[str, MatchClock]:
    stmt = select(MatchClock).where(MatchClock.match_id == match_id)
    if lock:
        stmt = stmt.with_for_update()
    return {c.seat: c for c in (await db.scalars(stmt)).all()}


async def _pauses(db: AsyncSession, user_ids: set[int], since: datetime,
                  now: datetime) -> dict[int, list[rules.Interval]]:
    """Each user's vacations that overlap [since, now]."""
    out: dict[int, list[rules.Interval]] = defaultdict(list)
    if not user_ids:
        return out
    rows = (await db.execute(select(Vacation.user_id, Vacation.starts_at, Vacation.until).where(
        Vacation.user_id.in_(user_ids), Vacation.until > since, Vacation.starts_at <= now))).all()
    for uid, start, until in rows:
        out[uid].append((start, until))
    return out


# ------------------------------------------------------------------ the turn hook

_PACES: dict[str, rules.Pace | None] = {}  # a table's pace never changes once created


async def _pace(db: AsyncSession, match_id: str) -> rules.Pace | None:
    """The table's pace, asked of the database once per match and worker: every move
    of every table, timed or not, passes through the hook."""
    if match_id not in _PACES:
        row = await db.get(MatchPace, match_id)
        if len(_PACES) > 10_000:
            _PACES.clear()
        _PACES[match_id] = pace_of(row) if row is not None else None
    return _PACES[match_id]


@on_turn_change
async def turn_moved(db: AsyncSession, match: Match, before: list[str], now: datetime) -> None:
    """Stop the clocks of seats no longer waited on (charging their time and, for a
    player's own move, crediting the increment); start those newly waited on."""
    pace = await _pace(db, match.id)
    if pace is None:
        return
    clocks = await _clocks(db, match.id)
    seats = {s.seat: s for s in await seat_rows(db, match.id)}
    for seat in seats.keys() - clocks.keys():  # first turn: every seat gets a full bank
        clocks[seat] = MatchClock(match_id=match.id, seat=seat, remaining_ms=pace.initial_ms, timed_out=False,
                                  handed_over=False, last_charge_ms=0, last_credit_ms=0)
        db.add(clocks[seat])
    after = set(match.waiting_on or [])
    stopping = [s for s in sorted(set(before) - after) if s in clocks]
    starting = [s for s in sorted(after - set(before)) if s in clocks]
    if not stopping and not starting:
        return
    last = await db.scalar(select(ActionRow).where(ActionRow.match_id == match.id, ActionRow.seq == match.seq))
    payload = last.payload if last is not None else {}
    undone = payload.get("undo")
    # only a player's own move earns credit: not a bot's answer, an undo, a resignation
    mover = last.seat if last is not None and last.user_id is not None and "decision" in payload else None
    users = {seats[s].user_id for s in stopping if seats[s].user_id is not None}
    since = min((clocks[s].running_since for s in stopping if clocks[s].running_since), default=now)
    pauses = await _pauses(db, {u for u in users if u is not None}, since, now)
    for seat in stopping:
        clock = clocks[seat]
        if clock.running_since is None:
            continue
        if undone is not None and clock.started_seq == undone:
            charge = 0  # it only ran because of the move now taken back
        else:
            charge = rules.charged_ms(clock.running_since, now, pauses.get(seats[seat].user_id or -1, []))
        bank = clock.remaining_ms - charge
        clock.timed_out = bank <= 0
        credit = 0
        if seat == mover:
            bank, credit = rules.credited(pace, max(0, bank))
        clock.remaining_ms = max(0, bank)
        clock.running_since = None
        clock.stopped_seq, clock.stopped_at = match.seq, now
        clock.last_charge_ms, clock.last_credit_ms = charge, credit
    for seat in starting:
        clock = clocks[seat]
        if undone is not None and clock.stopped_seq == undone and clock.stopped_at is not None:
            # the move that stopped it is taken back: as if it had never stopped, credit and all
            clock.remaining_ms = max(0, clock.remaining_ms - clock.last_credit_ms)
            clock.running_since = clock.stopped_at
        else:
            clock.running_since = now
        clock.started_seq = match.seq


# ------------------------------------------------------------------ reading clocks

async def clock_states(db: AsyncSession, match: Match, seats: list[MatchSeat],
                       now: datetime) -> dict[str, dict[str, Any]]:
    """Every seat's clock as of ``now``: {seat: {remaining_ms, running, timed_out, on_vacation_until}}."""
    pace_row = await db.get(MatchPace, match.id)
    if pace_row is None:
        return {}
    clocks = await _clocks(db, match.id)
    user_ids = {s.user_id for s in seats if s.user_id is not None}
    since = min((c.running_since for c in clocks.values() if c.running_since), default=now)
    pauses = await _pauses(db, user_ids, min(since, now), now)
    out: dict[str, dict[str, Any]] = {}
    for s in seats:
        clock = clocks.get(s.seat)
        mine = pauses.get(s.user_id or -1, [])
        away = next((until for start, until in mine if start <= now < until), None)
        if clock is None:
            remaining, running = pace_row.initial_ms, False
        else:
            remaining = rules.remaining_at(clock.remaining_ms, clock.running_since, now, mine)
            running = clock.running_since is not None and match.status == "active"
        out[s.seat] = {"remaining_ms": remaining, "running": running and away is None,
                       "timed_out": clock is not None and remaining <= 0,
                       "on_vacation_until": away.isoformat() if away else None}
    return out


# ------------------------------------------------------------------ timeouts

async def _out_of_time(db: AsyncSession, match: Match, seats: list[MatchSeat], user: User,
                       seat: str, what: str) -> tuple[MatchSeat, MatchClock]:
    """Check that ``user`` may skip or replace ``seat``: another seated player, a clock run out."""
    mine = seat_of(seats, user)
    if mine is None:
        raise Forbidden(f"only the players seated at this table may {what} a seat; spectators cannot")
    if mine == seat:
        raise Forbidden(f"you cannot {what} your own seat; just make your move")
    if next(s for s in seats if s.seat == mine).resigned:
        raise Forbidden(f"you resigned from this table; you can no longer {what} a seat")
    target = next((s for s in seats if s.seat == seat), None)
    if target is None:
        raise Invalid(f"seat: no seat '{seat}' at this table (seats: {', '.join(s.seat for s in seats)})")
    if match.status != "active":
        raise Refused(f"this match is {match.status}: no clock is running")
    if await db.get(MatchPace, match.id) is None:
        raise Refused(f"this table is untimed: no clock can run out ({TIMEOUT_RULE})")
    if target.bot is not None:
        raise Refused(f"a bot already plays seat '{seat}'")
    clock = (await _clocks(db, match.id, lock=True)).get(seat)
    now = utcnow()
    left = 0 if clock is None else rules.remaining_at(clock.remaining_ms, clock.running_since, now, (
        await _pauses(db, {target.user_id} if target.user_id else set(), clock.running_since or now, now)
    ).get(target.user_id or -1, []))
    if clock is None or left > 0:
        shown = f"{left // 1000} s left" if clock is not None else "the match has no clock for it"
        raise Refused(f"seat '{seat}' has not run out of time ({shown}): {TIMEOUT_RULE}")
    return target, clock


async def skip(db: AsyncSession, cache: MatchCache, user: User, match_id: str, seat: str) -> Match:
    """The seat's bot answers the seat's pending decisions this once; the player keeps the seat."""
    match = await get_match(db, match_id, lock=True)
    seats = await seat_rows(db, match_id)
    await _out_of_time(db, match, seats, user, seat, "skip")
    if seat not in (match.waiting_on or []):
        raise Refused(f"nothing is waiting on seat '{seat}' now: there is no decision to skip")
    loaded = await cache.load(db, match)
    for _ in range(MAX_SKIPPED_ANSWERS):
        decision = next((d for d in loaded.game.pending(loaded.state) if d.seat == seat), None)
        if decision is None:
            break
        rng = action_rng(match.seed, -(match.seq + 1))  # the bot's own dice, as in service.bot_step
        action = validate_action(decision, list(loaded.game.bot(loaded.state, decision, rng).choices))
        await commit_action(db, match, loaded, seat, decision, action, None, None)
        if match.status != "active" or seat not in (match.waiting_on or []):
            break
    return match


async def handover(db: AsyncSession, user: User, match_id: str, seat: str) -> Match:
    """A bot plays the out-of-time seat from now on, until its player reclaims it."""
    match = await get_match(db, match_id, lock=True)
    seats = await seat_rows(db, match_id)
    target, clock = await _out_of_time(db, match, seats, user, seat, "hand over")
    target.bot = "rules"
    clock.handed_over = True
    await notify(db, match)
    return match


async def reclaim(db: AsyncSession, user: User, match_id: str) -> Match:
    """The player takes back a seat handed to a bot after a timeout."""
    match, seats, seat = await seated(db, user, match_id, "reclaim")
    row = next(s for s in seats if s.seat == seat)
    clock = (await _clocks(db, match_id, lock=True)).get(seat)
    if row.bot is None or clock is None or not clock.handed_over:
        raise Refused("your seat was not handed to a bot after a timeout: there is nothing to reclaim")
    pace = await db.get(MatchPace, match_id)
    assert pace is not None
    now = utcnow()
    # settle what the bot's turns left on the clock, then restart it if the table waits on the seat
    left = rules.remaining_at(clock.remaining_ms, clock.running_since, now)
    clock.remaining_ms = rules.reclaim_bank(pace_of(pace), left)
    clock.running_since = now if clock.running_since is not None else None
    clock.timed_out, clock.handed_over = False, False
    row.bot = None
    await notify(db, match)
    return match


# ------------------------------------------------------------------ vacations

async def current_vacation(db: AsyncSession, user_id: int, now: datetime) -> Vacation | None:
    return await db.scalar(select(Vacation).where(Vacation.user_id == user_id, Vacation.starts_at <= now,
                                                  Vacation.until > now).limit(1))


async def vacation_status(db: AsyncSession, user: User) -> dict[str, Any]:
    now = utcnow()
    used = await db.scalar(select(func.coalesce(func.sum(Vacation.days), 0)).where(
        Vacation.user_id == user.id, Vacation.year == now.year))
    away = await current_vacation(db, user.id, now)
    allowance = vacation_allowance()
    return {"on_vacation_until": away.until.isoformat() if away else None, "year": now.year,
            "days_used": int(used or 0), "days_left": max(0, allowance - int(used or 0)), "allowance": allowance}


async def start_vacation(db: AsyncSession, user: User, days: int) -> dict[str, Any]:
    """``_start_vacation`` in its own transaction."""
    async with db.begin():
        return await _start_vacation(db, user, days)


async def _start_vacation(db: AsyncSession, user: User, days: int) -> dict[str, Any]:
    """Pause all the user's clocks for ``days``, charged against this calendar year."""
    await db.execute(select(User.id).where(User.id == user.id).with_for_update())  # one request at a time
    now = utcnow()
    away = await current_vacation(db, user.id, now)
    if away is not None:
        raise Refused(f"you are already on vacation until {away.until.isoformat()}; end it first")
    status = await vacation_status(db, user)
    if days > status["days_left"]:
        raise Refused(f"days: {days} days would exceed the yearly vacation allowance of "
                      f"{status['allowance']} days ({status['days_used']} already used in {now.year})")
    db.add(Vacation(user_id=user.id, year=now.year, starts_at=now, until=now + timedelta(days=days), days=days))
    await db.flush()
    await _notify_tables(db, user)
    return await vacation_status(db, user)


async def end_vacation(db: AsyncSession, user: User) -> dict[str, Any]:
    """``_end_vacation`` in its own transaction."""
    async with db.begin():
        return await _end_vacation(db, user)


async def _end_vacation(db: AsyncSession, user: User) -> dict[str, Any]:
    """Back early: clocks count again from now, and only the begun days are charged."""
    await db.execute(select(User.id).where(User.id == user.id).with_for_update())
    now = utcnow()
    away = await current_vacation(db, user.id, now)
    if away is None:
        raise Refused("you are not on vacation")
    away.until = now
    away.days = min(away.days, rules.vacation_days_charged(away.starts_at, now))
    await db.flush()
    await _notify_tables(db, user)
    return await vacation_status(db, user)


async def _notify_tables(db: AsyncSession, user: User) -> None:
    """Wake the live views of the user's running tables: their clocks changed pace."""
    rows = (await db.scalars(select(Match).join(MatchSeat, MatchSeat.match_id == Match.id).where(
        MatchSeat.user_id == user.id, Match.status == "active"))).all()
    for match in rows:
        await notify(db, match)
