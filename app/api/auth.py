"""Accounts: guests, registration, login, logout. The session is a signed HttpOnly cookie."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import get_db, require_user
from app.api.schemas import ErrorOut, GuestIn, LoginIn, RegisterIn, UserOut
from app.models import User
from app.sessions import accounts, floods

router = APIRouter(prefix="/api", tags=["accounts"])
ERRORS = {400: {"model": ErrorOut}, 401: {"model": ErrorOut}, 409: {"model": ErrorOut}, 422: {"model": ErrorOut}}


def sign_in(request: Request, user: User) -> UserOut:
    request.session.clear()
    request.session["uid"] = user.id
    request.session["csrf"] = secrets.token_urlsafe(24)
    return user_out(request, user)


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if token is None:
        token = request.session["csrf"] = secrets.token_urlsafe(24)
    return token


def user_out(request: Request, user: User) -> UserOut:
    return UserOut(id=user.id, name=user.name, guest=user.is_guest, csrf_token=csrf_token(request))


@router.post("/guests", response_model=UserOut, responses=ERRORS, summary="Play as a guest under a nickname")
async def create_guest(body: GuestIn, request: Request, db: AsyncSession = Depends(get_db)) -> UserOut:
    floods.admit_guest(request)
    async with db.begin():
        user = await accounts.create_guest(db, body.name)
    return sign_in(request, user)


@router.post("/register", response_model=UserOut, responses=ERRORS, summary="Register an account")
async def register(body: RegisterIn, request: Request, db: AsyncSession = Depends(get_db)) -> UserOut:
    async with db.begin():
        user = await accounts.register(db, body.name, body.password)
    return sign_in(request, user)


@router.post("/login", response_model=UserOut, responses=ERRORS, summary="Log in")
async def login(body: LoginIn, request: Request, db: AsyncSession = Depends(get_db)) -> UserOut:
    user = await accounts.authenticate(db, body.name, body.password)
    return sign_in(request, user)


@router.post("/logout", summary="Log out")
async def logout(request: Request) -> dict[str, bool]:
    request.session.clear()
    return {"ok": True}


@router.get("/me", response_model=UserOut, responses=ERRORS, summary="Who am I")
async def me(request: Request, user: User = Depends(require_user)) -> UserOut:
    return user_out(request, user)
