"""Server-side sign-in sessions and the per-worker cache that keeps checking them cheap.

Signing in stores a random session id in the signed cookie and its sha256 in
``user_sessions``. Every request's cookie is checked against that table (see
``app.api.session_check``): a revoked or expired session signs nobody in, whatever
the cookie says. Logout revokes the session; "log out everywhere" and a password change
revoke all of a user's sessions (the change keeps the one that made it).

Checks are cached per worker for ``WARROOM_SESSION_CHECK_SECONDS`` (default 5), so the
hot path (moves) costs one dictionary lookup, not a query. The worker that revokes a
session forgets it at once; other workers notice within that many seconds. A session
lasts ``LIFETIME`` and slides forward while used (at most one write per half lifetime).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.models import UserSession

LIFETIME = timedelta(days=30)  # the cookie's own max_age (app.main)
PURGE_EVERY = 500  # new sessions between sweeps of long-dead rows
_opened = itertools.count(1)


def digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


async def open_session(db: AsyncSession, user_id: int) -> str:
    """A new session for ``user_id`` (inside the caller's transaction); returns its id."""
    session_id = secrets.token_urlsafe(32)
    db.add(UserSession(id_hash=digest(session_id), user_id=user_id, expires_at=func.now() + LIFETIME))
    if next(_opened) % PURGE_EVERY == 0:
        await db.execute(delete(UserSession).where(UserSession.expires_at < func.now() - timedelta(days=1)))
    await db.flush()
    return session_id


async def revoke(db: AsyncSession, session_id: str) -> None:
    await db.execute(update(UserSession).where(UserSession.id_hash == digest(session_id),
                                               UserSession.revoked_at.is_(None)).values(revoked_at=func.now()))


async def revoke_all(db: AsyncSession, user_id: int, keep: str | None = None) -> int:
    """Revoke every live session of ``user_id`` but ``keep``; returns how many."""
    stmt = update(UserSession).where(UserSession.user_id == user_id, UserSession.revoked_at.is_(None))
    if keep is not None:
        stmt = stmt.where(UserSession.id_hash != digest(keep))
    result = await db.execute(stmt.values(revoked_at=func.now()))
    return int(result.rowcount or 0)  # type: ignore[attr-defined]


@dataclass
class _Checked:
    user_id: int | None  # None: refused for good (revoked, expired or unknown never come back)
    at: float


class SessionChecks:
    """Which (session id, user) pairs are live, remembered for ``ttl`` seconds per worker."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], ttl: float, max_keys: int = 50_000,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.sessions = sessions
        self.ttl = ttl
        self.max_keys = max_keys
        self.now = now
        self._seen: OrderedDict[str, _Checked] = OrderedDict()

    async def holds(self, session_id: str, user_id: int) -> bool:
        key = digest(session_id)
        seen = self._seen.get(key)
        if seen is not None and (seen.user_id is None or self.now() - seen.at < self.ttl):
            self._seen.move_to_end(key)
            return seen.user_id == user_id
        owner = await self._look_up(key)
        self._remember(key, owner)
        return owner == user_id

    async def _look_up(self, key: str) -> int | None:
        async with self.sessions() as db, db.begin():
            row = (await db.execute(
                select(UserSession.user_id, UserSession.expires_at, func.now())
                .where(UserSession.id_hash == key, UserSession.revoked_at.is_(None)))).first()
            if row is None or row.expires_at <= row[2]:
                return None
            if row.expires_at - row[2] < LIFETIME / 2:  # in use: slide the expiry forward
                await db.execute(update(UserSession).where(UserSession.id_hash == key)
                                 .values(expires_at=func.now() + LIFETIME))
            return int(row.user_id)

    def _remember(self, key: str, user_id: int | None) -> None:
        self._seen[key] = _Checked(user_id, self.now())
        self._seen.move_to_end(key)
        while len(self._seen) > self.max_keys:
            self._seen.popitem(last=False)

    def forget(self, session_id: str) -> None:
        """This worker revoked it: refuse it from the next request on."""
        self._remember(digest(session_id), None)

    def forget_user(self, user_id: int, keep: str | None = None) -> None:
        kept = digest(keep) if keep else None
        for key, seen in list(self._seen.items()):
            if seen.user_id == user_id and key != kept:
                self._remember(key, None)


def check_seconds() -> float:
    return float(os.environ.get("WARROOM_SESSION_CHECK_SECONDS", "5"))
