"""The one read of a table: its seats, who the caller is there, clocks, and the caller's seat's
message (view, pending decisions, log). The JSON API (``MatchOut``) and the table page (its
panels, the page socket) both build on it; neither reads the database itself.

A reader never waits on the match's lock while it holds a pooled connection, and gives the
connection back before the CPU work of building a message (it comes back only on a miss)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Action as ActionRow
from app.models import Match, MatchSeat, User, started
from app.sessions import chat, lobby, service
from app.sessions.clocks import clock_states
from app.sessions.log_walk import undoable_move
from app.sessions.replay import MatchCache
from app.sessions.views import pending_for, seat_message, seat_view

CHAT_LINES = 100  # the page shows the newest lines
UNDO_LOOKBACK = 64  # log rows searched for the caller's newest standing move


@dataclass
class TableRead:
    match: Match
    seats: list[MatchSeat]
    you: str | None
    names: dict[int | None, str]
    clocks: dict[str, dict[str, Any]]
    message: dict[str, Any] | None  # None: not read (a page of a table that never started)
    # what only the page shows
    chat: list[chat.ChatLine] | None = None  # None: kept to the players
    can_undo: bool = False
    moves_waiting: int = 0

    @property
    def mine(self) -> MatchSeat | None:
        return next((r for r in self.seats if r.seat == self.you), None)


async def find_match(db: AsyncSession, match_id: str, fresh: bool = False) -> Match | None:
    """The match row, or None; ``fresh``: read again even if this session already holds it."""
    return await db.get(Match, match_id, populate_existing=fresh)


async def read_table(db: AsyncSession, cache: MatchCache, match: Match, user: service.Player | None) -> TableRead:
    """What the JSON API shows of a match to ``user``."""
    seats = await service.seat_rows(db, match.id)
    you = service.seat_of(seats, user)
    names = await player_names(db, seats)
    clocks = await clock_states(db, match, seats, service.utcnow())
    await db.commit()  # the connection goes back to the pool before the CPU work (it comes back only on a miss)
    return TableRead(match, seats, you, names, clocks, await read_message(db, cache, match, you))


async def read_table_page(db: AsyncSession, cache: MatchCache, match: Match, user: User | None) -> TableRead:
    """What the table page shows of a match to ``user``: the API's read, plus the chat, whether
    the caller may take a move back, and how many matches wait on them. (The page socket reads
    the same once per push for all its sockets: ``read_table_facts``.)"""
    seats = await service.seat_rows(db, match.id)
    you = service.seat_of(seats, user)
    names = await player_names(db, seats)
    clocks = await clock_states(db, match, seats, service.utcnow()) if match.status == "active" else {}
    read = TableRead(match, seats, you, names, clocks, None)
    if started(match.status):
        read.message = await read_message(db, cache, match, you)
    mine = read.mine
    playing = match.status == "active" and mine is not None and not mine.bot
    if chat.chat_open_to(match, you):
        read.chat = await chat.lines(db, match.id, CHAT_LINES, newest=True)
    read.can_undo = playing and you is not None and await last_move_undoable(db, match.id, you)
    read.moves_waiting = await lobby.moves_waiting(db, user)
    return read


async def read_chat(db: AsyncSession, match_id: str, user: User | None) -> list[chat.ChatLine] | None:
    """The page's chat after a line was said: None when the table is gone or keeps it to the players."""
    match = await find_match(db, match_id)
    if match is None or not chat.chat_open_to(match, service.seat_of(await service.seat_rows(db, match_id), user)):
        return None
    return await chat.lines(db, match.id, CHAT_LINES, newest=True)


async def read_message(db: AsyncSession, cache: MatchCache, match: Match, seat: str | None) -> dict[str, Any]:
    """The seat's message as of ``match`` (or newer), for a reader: never waits on the
    match's lock while holding a connection, and builds it before anything else runs."""
    if not started(match.status):
        return seat_message(None, match, seat)
    loaded = await cache.read(db, match)
    return seat_message(loaded, loaded.head if loaded.seq != match.seq and loaded.head else match, seat)


async def read_answered(db: AsyncSession, cache: MatchCache, done: service.Submitted) -> dict[str, Any]:
    """What the answering seat sees right after its answer: the state at the answer's seq."""
    loaded = cache.peek(done.match.id)
    if loaded is None or loaded.seq != done.seq:  # a retried key, or the table moved on meanwhile
        loaded = await cache.load(db, done.match, upto=done.seq)
    return {"seq": loaded.seq, "view": seat_view(loaded, done.seat),
            "pending": pending_for(loaded, done.seat, done.match.status), "applied": done.applied}


async def player_names(db: AsyncSession, seats: list[MatchSeat]) -> dict[int | None, str]:
    ids = [s.user_id for s in seats if s.user_id is not None]
    if not ids:
        return {}
    rows = (await db.execute(select(User.id, User.name, User.is_guest).where(User.id.in_(ids)))).all()
    return {uid: f"{name} (guest)" if guest else name for uid, name, guest in rows}


async def last_move_undoable(db: AsyncSession, match_id: str, seat: str) -> bool:
    """Whether the caller has a move it may take back now (the server checks again on undo):
    the newest moves of the log, less the ones undone, judged by the undo rule itself."""
    return undoable_move(await standing_moves(db, match_id), seat) is not None


def history_allowed(match: Match, you: str | None) -> bool:
    """Players step through their own seat while it runs; everyone once it is over."""
    return match.status == "finished" or (match.status == "active" and you is not None)


@dataclass
class TableFacts:
    """What every page socket of a match shows besides its seat's message, read once per push
    (never per socket): the seats, names, clocks, chat, who may take a move back, and how many
    matches wait on each watching user."""

    match: Match
    seats: list[MatchSeat]
    names: dict[int | None, str]
    clocks: dict[str, dict[str, Any]]
    chat: list[chat.ChatLine] | None  # None: no watcher may read it
    undoable: dict[str, bool]
    waiting: dict[int, int]

    def read_for(self, user: User | None, you: str | None, message: dict[str, Any] | None) -> TableRead:
        """One socket's ``TableRead``, from the facts alone: ``you`` and ``message`` are the
        hub's (the seat it read and the message it built for that seat)."""
        match = self.match
        read = TableRead(match, self.seats, you, self.names, self.clocks,
                         message if match.status not in ("open", "abandoned") else None)
        mine = read.mine
        playing = match.status == "active" and mine is not None and not mine.bot
        read.chat = self.chat if chat.chat_open_to(match, you) else None
        read.can_undo = playing and you is not None and self.undoable.get(you, False)
        read.moves_waiting = self.waiting.get(user.id, 0) if user is not None else 0
        return read


async def read_table_facts(db: AsyncSession, match: Match, users: set[int], seated: set[str]) -> TableFacts:
    """The facts for a push to the page sockets of ``users`` (their seats ``seated``)."""
    seats = await service.seat_rows(db, match.id)
    names = await player_names(db, seats)
    clocks = await clock_states(db, match, seats, service.utcnow()) if match.status == "active" else {}
    by_seat = {s.seat: s for s in seats}
    readers = match.spectator_chat or any(s.user_id in users for s in seats)
    lines = await chat.lines(db, match.id, CHAT_LINES, newest=True) if readers else None
    undoable: dict[str, bool] = {}
    players = sorted(s for s in seated if s in by_seat and not by_seat[s].bot)
    if match.status == "active" and players:
        standing = await standing_moves(db, match.id)
        undoable = {seat: undoable_move(standing, seat) is not None for seat in players}
    waiting = await lobby.moves_waiting_for(db, users)
    return TableFacts(match, seats, names, clocks, lines, undoable, waiting)


async def standing_moves(db: AsyncSession, match_id: str) -> list[Any]:
    """The newest moves of the log, less the ones undone (what the undo rule judges)."""
    rows = list(reversed((await db.execute(select(ActionRow.seq, ActionRow.seat, ActionRow.payload)
                                           .where(ActionRow.match_id == match_id)
                                           .order_by(ActionRow.seq.desc()).limit(UNDO_LOOKBACK))).all()))
    undone = {int(r.payload["undo"]) for r in rows if "undo" in r.payload}
    return [r for r in rows if "undo" not in r.payload and r.seq not in undone]
