"""Who is looking at which match: this process's live sockets, heartbeated into
``match_presence`` so that every worker (any process, any host) can ask."""

from __future__ import annotations

import os
import secrets
import socket
from datetime import datetime, timedelta

from sqlalchemy import delete, exists, select, tuple_
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import clock
from app.models import MatchSeat
from app.models.notifications import MatchPresence
from app.sessions.live import Hub

KEEP = timedelta(days=2)  # older rows answer no question the worker asks


def worker_id() -> str:
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


class Presence:
    def __init__(self, sessions: async_sessionmaker, hub: Hub) -> None:
        self.sessions = sessions
        self.hub = hub
        self.worker = worker_id()

    def seated_sockets(self) -> set[tuple[str, str]]:
        return {(sub.match_id, sub.seat) for subs in self.hub.subscribers.values() for sub in subs
                if sub.seat is not None}

    async def beat(self) -> None:
        """Stamp every (user, match) this process has a socket open to."""
        keys = self.seated_sockets()
        if not keys:
            return
        async with self.sessions() as db, db.begin():
            found = (await db.execute(select(MatchSeat.user_id, MatchSeat.match_id).where(
                tuple_(MatchSeat.match_id, MatchSeat.seat).in_(list(keys)), MatchSeat.user_id.is_not(None)))).all()
            if not found:
                return
            now = clock.now()
            stmt = insert(MatchPresence).values([
                {"user_id": uid, "match_id": mid, "worker_id": self.worker, "first_seen": now, "last_seen": now}
                for uid, mid in found])
            await db.execute(stmt.on_conflict_do_update(
                index_elements=["user_id", "match_id", "worker_id"], set_={"last_seen": stmt.excluded.last_seen}))

    async def forget_old(self) -> None:
        async with self.sessions() as db, db.begin():
            await db.execute(delete(MatchPresence).where(MatchPresence.last_seen < clock.now() - KEEP))


async def looked_since(db: AsyncSession, user_id: int, match_id: str, since: datetime) -> bool:
    """Has the player had the match open at any moment since ``since``?"""
    return bool(await db.scalar(select(exists().where(
        MatchPresence.user_id == user_id, MatchPresence.match_id == match_id, MatchPresence.last_seen >= since))))
