"""What the lobby and the header read: the tables listed, and how many wait on a player."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_, exists, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.games.registry import installed
from app.models import Match, MatchSeat, User
from app.sessions import service


@dataclass(frozen=True)
class FreeSeat:
    seat: str
    label: str


@dataclass(frozen=True)
class TableSummary:
    match_id: str
    game: str
    title: str
    name: str  # the table's own name, or its host's game in the reader's language
    free_seats: list[FreeSeat]  # in seat order; empty once the match has started
    mode: str
    status: str
    players: int
    seated: int
    you: str | None
    your_move: bool


async def summaries(db: AsyncSession, user: User | None, mine: bool) -> list[TableSummary]:
    games = installed()
    stmt = select(Match).order_by(Match.updated_at.desc()).limit(200)
    if mine:
        if user is None:
            return []
        stmt = stmt.where(exists().where(and_(MatchSeat.match_id == Match.id, MatchSeat.user_id == user.id)))
    else:
        stmt = stmt.where(or_(Match.status == "open", Match.status == "active"), listed_for(user))
    matches = [m for m in (await db.scalars(stmt)).all() if m.game in games]
    seats_by_match: dict[str, list[MatchSeat]] = {}
    if matches:
        rows = (await db.scalars(select(MatchSeat).where(MatchSeat.match_id.in_([m.id for m in matches])))).all()
        for row in rows:
            seats_by_match.setdefault(row.match_id, []).append(row)
    hosts: dict[int, str] = {}
    if ids := {m.created_by for m in matches if not m.name}:
        hosts = dict((await db.execute(select(User.id, User.name).where(User.id.in_(ids)))).tuples().all())
    out = []
    for m in matches:
        seats = seats_by_match.get(m.id, [])
        you = service.seat_of(seats, user)
        out.append(TableSummary(
            match_id=m.id, game=m.game, title=games[m.game].title,
            name=service.shown_table_name(m.name, hosts.get(m.created_by), games[m.game].title),
            free_seats=[FreeSeat(s.seat, s.label) for s in sorted(seats, key=lambda s: s.position)
                        if m.status == "open" and s.user_id is None and s.bot is None],
            mode=m.mode, status=m.status,
            players=m.players, seated=sum(1 for s in seats if s.user_id or s.bot), you=you,
            your_move=m.status == "active" and you is not None and you in (m.waiting_on or [])
            and not next(s.bot for s in seats if s.seat == you)))  # a bot plays a resigned or handed-over seat
    return out


def listed_for(user: User | None) -> ColumnElement[bool]:
    """Public tables, and private ones to their host and seated players (others need the link)."""
    if user is None:
        return Match.private.is_(False)
    return or_(Match.private.is_(False), Match.created_by == user.id,
               exists().where(and_(MatchSeat.match_id == Match.id, MatchSeat.user_id == user.id)))


async def moves_waiting(db: AsyncSession, user: User | None) -> int:
    """How many running matches wait on this user's own (not bot-played) seat."""
    if user is None:
        return 0
    rows = (await db.execute(select(Match.waiting_on, MatchSeat.seat)
                             .join(MatchSeat, MatchSeat.match_id == Match.id)
                             .where(MatchSeat.user_id == user.id, MatchSeat.bot.is_(None),
                                    Match.status == "active"))).all()
    return sum(1 for waiting, seat in rows if seat in (waiting or []))


async def moves_waiting_for(db: AsyncSession, users: set[int]) -> dict[int, int]:
    """``moves_waiting`` for many users in one query (a table's watchers, once per push)."""
    if not users:
        return {}
    rows = (await db.execute(select(MatchSeat.user_id, Match.waiting_on, MatchSeat.seat)
                             .join(MatchSeat, MatchSeat.match_id == Match.id)
                             .where(MatchSeat.user_id.in_(sorted(users)), MatchSeat.bot.is_(None),
                                    Match.status == "active"))).all()
    counts = dict.fromkeys(users, 0)
    for uid, waiting, seat in rows:
        counts[uid] += seat in (waiting or [])
    return counts
