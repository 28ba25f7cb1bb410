"""Bots answer their seats' decisions as soon as the table waits on them, and so does a player's
auto-pass setting (app/sessions/autopass.py) for the reaction windows it passes."""

from __future__ import annotations

import asyncio
import logging

from sqlalchemy import and_, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.models import Match, MatchSeat
from app.sessions.errors import DomainError
from app.sessions.replay import MatchCache
from app.sessions.service import bot_step

log = logging.getLogger("warroom.bots")

MAX_STEPS_PER_RUN = 20_000  # a runaway game stops here instead of spinning forever
BACKOFF_FIRST, BACKOFF_CAP = 0.2, 10.0  # seconds between retries after a failure


class BotDriver:
    def __init__(self, sessions: async_sessionmaker, cache: MatchCache) -> None:
        self.sessions = sessions
        self.cache = cache
        self.running: dict[str, asyncio.Task[None]] = {}
        self.again: set[str] = set()

    def kick(self, match_id: str) -> None:
        if match_id in self.running:
            self.again.add(match_id)
            return
        self.running[match_id] = asyncio.get_running_loop().create_task(self._run(match_id))

    def kick_if_known(self, match_id: str) -> None:
        """A commit seen on another worker: only wake bots already known to be here."""
        if match_id in self.running:
            self.again.add(match_id)

    async def _run(self, match_id: str) -> None:
        try:
            steps = failures = 0
            while steps < MAX_STEPS_PER_RUN:
                try:
                    moved = await self._step(match_id)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # a busy pool, a lost connection...: never give up on a match
                    failures += 1
                    delay = min(BACKOFF_CAP, BACKOFF_FIRST * 2 ** min(failures - 1, 10))
                    log.warning("bot move in match %s failed (%s: %s); retrying in %.1f s",
                                match_id, type(exc).__name__, exc, delay)
                    await asyncio.sleep(delay)
                    continue
                failures = 0
                if not moved:
                    if match_id in self.again:
                        self.again.discard(match_id)
                        continue
                    break
                steps += 1
                await asyncio.sleep(0)  # let humans' requests in between bot moves
        finally:
            self.running.pop(match_id, None)

    async def _step(self, match_id: str) -> bool:
        for _attempt in range(3):
            try:
                # the lock spans the commit, so this worker never reads a state it may roll back
                async with self.cache.writing(match_id), self.sessions() as db, db.begin():
                    return await bot_step(db, self.cache, match_id)
            except IntegrityError:
                continue  # another worker wrote that seq first: catch up, retry
            except DomainError as exc:  # the table refused: nothing a retry would change
                log.warning("bot move in match %s refused: %s", match_id, exc)
                return False
        return False

    async def resume_all(self) -> None:
        """After a restart: wake the bots of every match that waits on one, and the auto-pass of
        every player it waits on (the server may have stopped between a move and the pass)."""
        async with self.sessions() as db:
            rows = (await db.execute(
                select(Match.id, Match.waiting_on, MatchSeat.seat)
                .join(MatchSeat, MatchSeat.match_id == Match.id)
                .where(Match.status == "active",
                       or_(MatchSeat.bot.is_not(None),
                           and_(MatchSeat.user_id.is_not(None), MatchSeat.autopass != "ask"))))).all()
        for match_id, waiting, seat in rows:
            if seat in (waiting or []) and match_id not in self.running:
                self.kick(match_id)
