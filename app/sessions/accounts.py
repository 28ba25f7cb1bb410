"""Guests, registered players and their passwords (argon2)."""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import User
from app.sessions.errors import ApiError

_hasher = PasswordHasher()


async def create_guest(db: AsyncSession, name: str) -> User:
    user = User(name=name.strip(), is_guest=True)
    db.add(user)
    await db.flush()
    return user


async def register(db: AsyncSession, name: str, password: str) -> User:
    login = name.strip().lower()
    if await db.scalar(select(User.id).where(func.lower(User.login) == login)) is not None:
        raise ApiError(409, f"the name '{name}' is already registered; log in or pick another")
    user = User(name=name.strip(), login=login, password_hash=_hasher.hash(password), is_guest=False)
    db.add(user)
    await db.flush()
    return user


async def authenticate(db: AsyncSession, name: str, password: str) -> User:
    user = await db.scalar(select(User).where(User.login == name.strip().lower()))
    failure = ApiError(401, "wrong name or password")
    if user is None or user.password_hash is None:
        _hasher.hash(password)  # same work either way: no timing hint about which names exist
        raise failure
    try:
        _hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError) as exc:
        raise failure from exc
    return user
