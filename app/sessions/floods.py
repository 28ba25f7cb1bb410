"""Flood limits: how many tables, guests, sockets and chat lines one player or address may make.

Every limit reads its ``WARROOM_*`` variable once, at import (README lists them; ``0`` turns
one off). Rates are token buckets (``limits.RateLimit``) holding N that refill N per window,
so a burst of N passes and then one more per window/N. The open-table and socket caps count
what is held now. Like the buckets, the socket count is per worker process.

An address is the client's as uvicorn reports it: behind a reverse proxy on the same host,
uvicorn takes it from X-Forwarded-For (``FORWARDED_ALLOW_IPS`` names the trusted proxies);
without that every visitor shares the proxy's address and its budget.
"""

from __future__ import annotations

import os
import weakref

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.models import Match, User
from app.sessions.errors import RateLimited
from app.sessions.limits import RateLimit

MINUTE = 60.0
HOUR = 3600.0


def env_count(name: str, default: int) -> int:
    raw = os.environ.get(name, str(default)).strip()
    if not raw.isascii() or not raw.isdigit():
        raise ValueError(f"{name}: a whole number ≥ 0, please (0 turns the limit off), not {raw!r}")
    return int(raw)


def budget(what: str, name: str, default: int, window: float) -> RateLimit | None:
    """``default`` per ``window`` (the variable ``name`` overrides it), or None when set to 0."""
    count = env_count(name, default)
    return RateLimit(what, per_second=count / window, burst=count) if count else None


TABLES_BY_PLAYER = budget("tables created by this player", "WARROOM_TABLES_PER_USER_HOUR", 60, HOUR)
TABLES_BY_ADDRESS = budget("tables created from this address", "WARROOM_TABLES_PER_ADDRESS_HOUR", 300, HOUR)
OPEN_TABLES_PER_PLAYER = env_count("WARROOM_OPEN_TABLES_PER_USER", 10)
GUESTS_BY_ADDRESS = budget("guests created from this address", "WARROOM_GUESTS_PER_ADDRESS_HOUR", 300, HOUR)
CHAT_AT_ONE_TABLE = budget("chat lines from you at this table", "WARROOM_CHAT_PER_TABLE_MINUTE", 20, MINUTE)
CHAT_BY_PLAYER = budget("chat lines from you", "WARROOM_CHAT_PER_USER_MINUTE", 60, MINUTE)


def spend(limit: RateLimit | None, key: str) -> None:
    if limit is not None:
        limit.check(key)


def address(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client else "unknown"


def admit_guest(conn: HTTPConnection) -> None:
    """Refuse another guest from an address that made too many lately (429)."""
    spend(GUESTS_BY_ADDRESS, address(conn))


async def admit_table(db: AsyncSession, user: User, conn: HTTPConnection) -> None:
    """Refuse a new table past its creator's or its address's rate, or while the creator
    already hosts the most tables that have not started (429). Call it inside the
    transaction that creates the table: it holds the creator's row until the commit, so
    concurrent creations by one player count each other."""
    spend(TABLES_BY_PLAYER, f"user:{user.id}")
    spend(TABLES_BY_ADDRESS, address(conn))
    if not OPEN_TABLES_PER_PLAYER:
        return
    # NO KEY UPDATE: serialises one player's creations without blocking rows that merely
    # reference the player (their moves and chat lines go on meanwhile)
    await db.execute(select(User.id).where(User.id == user.id).with_for_update(key_share=True))
    held = await db.scalar(select(func.count()).select_from(Match)
                           .where(Match.created_by == user.id, Match.status == "open"))
    if (held or 0) >= OPEN_TABLES_PER_PLAYER:
        raise RateLimited(f"too many open tables: you host {held} tables that have not started "
                          f"(at most {OPEN_TABLES_PER_PLAYER}); start or abandon one first")


def admit_chat_line(user_id: int, match_id: str) -> None:
    """Refuse a chat line past the player's rate at this table or across all tables (429)."""
    spend(CHAT_AT_ONE_TABLE, f"{user_id}:{match_id}")
    spend(CHAT_BY_PLAYER, str(user_id))


class SocketQuota:
    """Live sockets held open now in this worker: per signed-in player, and per address for
    anonymous spectators. Sockets are held weakly, so one whose handler died without
    ``release`` still frees its place once it is gone."""

    def __init__(self, per_player: int, per_address: int) -> None:
        self.per_player = per_player
        self.per_address = per_address
        self._held: dict[str, weakref.WeakSet[HTTPConnection]] = {}
        self._holder: weakref.WeakKeyDictionary[HTTPConnection, str] = weakref.WeakKeyDictionary()

    def acquire(self, socket: HTTPConnection, user: User | None) -> str | None:
        """Count ``socket`` against its holder: None when admitted, else why not (a close reason)."""
        if user is not None:
            holder, cap, who = f"user:{user.id}", self.per_player, "this player"
        else:
            holder, cap, who = f"addr:{address(socket)}", self.per_address, "anonymous visitors at this address"
        held = self._held.setdefault(holder, weakref.WeakSet())
        if cap and len(held) >= cap:
            return f"too many open sockets for {who} (at most {cap}): close some tabs"
        held.add(socket)
        self._holder[socket] = holder
        return None

    def release(self, socket: HTTPConnection) -> None:
        holder = self._holder.pop(socket, None)
        if holder is None:
            return
        held = self._held.get(holder)
        if held is not None:
            held.discard(socket)
            if not held:
                del self._held[holder]

    def holding(self, holder: str) -> int:
        return len(self._held.get(holder, ()))


SOCKETS = SocketQuota(per_player=env_count("WARROOM_SOCKETS_PER_USER", 50),
                      per_address=env_count("WARROOM_SOCKETS_PER_ADDRESS", 200))
SOCKET_REFUSED = 4429  # the close code of a socket over its holder's cap
