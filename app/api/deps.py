"""Request-scoped dependencies: the database session and the signed-in user."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from fastapi import Request
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.api.errors import ApiError
from app.models import User
from app.sessions import accounts
from app.sessions.replay import MatchCache
from app.sessions.work import MatchWork


async def get_db(request: Request) -> AsyncIterator[AsyncSession]:
    async with request.app.state.sessions() as db:
        yield db


async def get_cache(conn: HTTPConnection) -> MatchCache:  # async: no thread-pool hop per request
    return conn.app.state.cache


async def current_user(conn: HTTPConnection, db: AsyncSession) -> User | None:
    uid = conn.session.get("uid")
    if uid is None:
        return None
    return await accounts.find_user(db, uid)


async def optional_user(request: Request) -> User | None:
    async with request.app.state.sessions() as db:
        return await current_user(request, db)


@dataclass(frozen=True)
class SignedIn:
    """The player a signed session cookie names, without a database round trip of its own:
    SessionCheck has already found the cookie's server-side session live (cached per
    worker for a few seconds), and users are never deleted. For hot endpoints."""

    id: int


async def require_signed_in(request: Request) -> SignedIn:
    uid = request.session.get("uid")
    if not isinstance(uid, int):
        raise ApiError(401, "sign in first: POST /api/guests {name} or /api/login")
    return SignedIn(uid)


async def require_user(request: Request) -> User:
    user = await optional_user(request)
    if user is None:
        raise ApiError(401, "sign in first: POST /api/guests {name} or /api/login")
    return user


async def get_work(conn: HTTPConnection) -> MatchWork:
    """The unit of work every change at a table goes through: this worker's cache and bots."""
    return MatchWork(conn.app.state.cache, conn.app.state.bots.kick)
