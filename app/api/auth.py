"""Accounts: guests, registration, login, logout.

The session is a signed HttpOnly cookie naming the user and a server-side session
(``app.sessions.signins``); only a live session signs a request in (``app.api.session_check``).
"""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.requests import HTTPConnection

from app.api.deps import get_db, require_user
from app.api.schemas import ErrorOut, GuestIn, LoginIn, RegisterIn, UserOut
from app.i18n import negotiate
from app.models import User
from app.sessions import accounts, floods
from app.sessions.signins import SessionChecks

router = APIRouter(prefix="/api", tags=["accounts"])
ERRORS = {code: {"model": ErrorOut} for code in (400, 401, 409, 422, 429)}


class LoggedOutOut(BaseModel):
    ok: bool
    revoked: int


def session_id(conn: HTTPConnection) -> str | None:
    """This request's server-side session (SessionCheck has already dropped a dead one)."""
    sid = conn.session.get("sid")
    return sid if isinstance(sid, str) else None


def signed_in_uid(conn: HTTPConnection) -> int | None:
    uid = conn.session.get("uid")
    return uid if isinstance(uid, int) else None


def client_address(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client else "unknown"


def session_checks(conn: HTTPConnection) -> SessionChecks:
    return conn.app.state.session_checks


def sign_in(request: Request, signed: accounts.SignIn) -> UserOut:
    """Put the new session in a fresh cookie (the previous session was revoked with it)."""
    if (old := session_id(request)) is not None:
        session_checks(request).forget(old)
    request.session.clear()
    request.session["uid"] = signed.user.id
    request.session["sid"] = signed.session_id
    request.session["csrf"] = secrets.token_urlsafe(24)
    return user_out(request, signed.user)


def forget_session(request: Request) -> None:
    """After this session was revoked: this worker refuses it at once; the cookie is cleared."""
    if (sid := session_id(request)) is not None:
        session_checks(request).forget(sid)
    request.session.pop("uid", None)
    request.session.pop("sid", None)


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if token is None:
        token = request.session["csrf"] = secrets.token_urlsafe(24)
    return token


def user_out(request: Request, user: User) -> UserOut:
    return UserOut(id=user.id, name=user.name, guest=user.is_guest, csrf_token=csrf_token(request))


async def remember_language(request: Request, signed: accounts.SignIn) -> accounts.SignIn:
    """An API client that names its languages: notifications speak the best of them."""
    header = request.headers.get("accept-language")
    if header:
        async with request.app.state.sessions() as db:
            await accounts.remember_language(db, signed.user, negotiate(header))
    return signed


@router.post("/guests", response_model=UserOut, responses=ERRORS, summary="Play as a guest under a nickname")
async def create_guest(body: GuestIn, request: Request, db: AsyncSession = Depends(get_db)) -> UserOut:
    floods.admit_guest(request)
    return sign_in(request, await remember_language(request, await accounts.create_guest(db, body.name,
                                                                                         session_id(request))))


@router.post("/register", response_model=UserOut, responses=ERRORS,
             summary="Register an account (a signed-in guest becomes it, keeping its seats)")
async def register(body: RegisterIn, request: Request, db: AsyncSession = Depends(get_db)) -> UserOut:
    signed = await accounts.register(db, body.name, body.password, signed_in_uid(request), session_id(request))
    return sign_in(request, await remember_language(request, signed))


@router.post("/login", response_model=UserOut, responses=ERRORS, summary="Log in")
async def login(body: LoginIn, request: Request, db: AsyncSession = Depends(get_db)) -> UserOut:
    signed = await accounts.log_in(db, body.name, body.password, client_address(request), session_id(request))
    return sign_in(request, await remember_language(request, signed))


@router.post("/logout", summary="Log out: this session's cookie, and every copy of it, stops working")
async def logout(request: Request, db: AsyncSession = Depends(get_db)) -> dict[str, bool]:
    await accounts.log_out(db, session_id(request))
    forget_session(request)
    request.session.clear()
    return {"ok": True}


@router.post("/logout-everywhere", response_model=LoggedOutOut, responses=ERRORS,
             summary="Log out every session of this account, this one included")
async def logout_everywhere(request: Request, user: User = Depends(require_user),
                            db: AsyncSession = Depends(get_db)) -> LoggedOutOut:
    revoked = await log_out_everywhere(request, db, user)
    request.session.clear()
    return LoggedOutOut(ok=True, revoked=revoked)


async def log_out_everywhere(request: Request, db: AsyncSession, user: User) -> int:
    revoked = await accounts.log_out_everywhere(db, user.id)
    session_checks(request).forget_user(user.id)
    forget_session(request)
    return revoked


@router.get("/me", response_model=UserOut, responses=ERRORS, summary="Who am I")
async def me(request: Request, user: User = Depends(require_user)) -> UserOut:
    return user_out(request, user)
