"""The one unit of work for every change at a table: lock the match, apply, commit, notify,
wake the bots. The JSON API and the pages both call these; routers own no transaction.

Lock order (see ``MatchCache``): the match's lock is taken before the transaction checks a
connection out of the pool, the order every writer and the live hub keep, so a writer never
holds a pooled connection while it waits for the lock.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.models import Match, User
from app.sessions import chat, clocks, floods, service, table_life
from app.sessions.replay import MatchCache

T = TypeVar("T")


@dataclass(frozen=True)
class MatchWork:
    """Where a change at a table runs: the worker's match cache and its bot driver's wake-up."""

    cache: MatchCache
    wake: Callable[[str], None]

    async def change(self, db: AsyncSession, match_id: str, act: Callable[[], Awaitable[T]], *,
                     notify: bool = False, wake_bots: Callable[[T], bool] | bool = False) -> T:
        """Run ``act`` holding the match's lock, in one transaction that commits before the lock
        is let go (a reader never sees a cached state that may still roll back). ``notify``: tell
        every worker at commit, for acts that do not say so themselves. ``wake_bots``: whether a
        bot may be due to answer now."""
        async with self.cache.writing(match_id), db.begin():
            result = await act()
            if notify:
                await service.notify(db, await service.get_match(db, match_id))
        if wake_bots is True or (callable(wake_bots) and wake_bots(result)):
            self.wake(match_id)
        return result


# --------------------------------------------------------------------------- before the start
async def open_table(db: AsyncSession, user: User, conn: HTTPConnection, game: str, players: int,
                     options: dict[str, Any], mode: str, clock: dict[str, Any] | None, *, spectator_chat: bool,
                     private: bool, name: str | None = None, seat: str | None = None) -> Match:
    """Create a table and seat its host in the seat they chose (None: the first), in one
    transaction (no lock: nobody knows its id yet)."""
    async with db.begin():
        await floods.admit_table(db, user, conn)
        match = await service.create_match(db, user, game, players, options, mode, clock, name)
        match.spectator_chat = spectator_chat
        match.private = private
        await service.join(db, user, match.id, seat)
    return match


async def take_seat(work: MatchWork, db: AsyncSession, user: User, match_id: str, seat: str | None) -> Match:
    async def act() -> Match:
        await service.join(db, user, match_id, seat)
        return await service.get_match(db, match_id)

    return await work.change(db, match_id, act, notify=True)


async def seat_bot(work: MatchWork, db: AsyncSession, user: User, match_id: str, seat: str, bot: str) -> Match:
    async def act() -> Match:
        await service.add_bot(db, user, match_id, seat, bot)
        return await service.get_match(db, match_id)

    return await work.change(db, match_id, act, notify=True)


async def free_seat(work: MatchWork, db: AsyncSession, user: User, match_id: str, seat: str) -> Match:
    return await work.change(db, match_id, lambda: table_life.kick(db, user, match_id, seat))


async def abandon(work: MatchWork, db: AsyncSession, user: User, match_id: str) -> Match:
    return await work.change(db, match_id, lambda: table_life.abandon(db, user, match_id))


async def start(work: MatchWork, db: AsyncSession, user: User, match_id: str) -> Match:
    return await work.change(db, match_id, lambda: service.start(db, work.cache, user, match_id), wake_bots=True)


# --------------------------------------------------------------------------- play
async def submit(work: MatchWork, db: AsyncSession, user: service.Player, match_id: str, seq: int, decision: str,
                 choices: list[str], key: str | None) -> service.Submitted:
    """The one way a human's answer enters the log."""
    return await work.change(
        db, match_id, lambda: service.submit(db, work.cache, user, match_id, seq, decision, choices, key),
        wake_bots=lambda done: done.applied and done.has_bots)


async def undo(work: MatchWork, db: AsyncSession, user: User, match_id: str, seq: int) -> Match:
    """The one way an undo enters the log."""
    return await work.change(db, match_id, lambda: table_life.undo(db, work.cache, user, match_id, seq),
                             wake_bots=True)


async def resign(work: MatchWork, db: AsyncSession, user: User, match_id: str) -> Match:
    return await work.change(db, match_id, lambda: table_life.resign(db, work.cache, user, match_id), wake_bots=True)


async def set_autopass(work: MatchWork, db: AsyncSession, user: User, match_id: str, mode: str) -> Match:
    """The caller's auto-pass setting; a window already waiting on the seat may pass at once."""
    return await work.change(db, match_id, lambda: table_life.set_autopass(db, work.cache, user, match_id, mode),
                             wake_bots=True)


async def say(work: MatchWork, db: AsyncSession, user: User, match_id: str, text: str) -> None:
    """A chat line at the table."""
    await work.change(db, match_id, lambda: chat.add_line(db, user, match_id, text))


# --------------------------------------------------------------------------- clocks
async def skip(work: MatchWork, db: AsyncSession, user: User, match_id: str, seat: str) -> Match:
    return await work.change(db, match_id, lambda: clocks.skip(db, work.cache, user, match_id, seat), wake_bots=True)


async def handover(work: MatchWork, db: AsyncSession, user: User, match_id: str, seat: str) -> Match:
    return await work.change(db, match_id, lambda: clocks.handover(db, user, match_id, seat), wake_bots=True)


async def reclaim(work: MatchWork, db: AsyncSession, user: User, match_id: str) -> Match:
    # the match's row lock orders this after any bot move in flight: the bot never moves for a reclaimed seat
    return await work.change(db, match_id, lambda: clocks.reclaim(db, user, match_id))
