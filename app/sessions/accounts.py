"""Guests, registered players, signing in and out, and the limits on guessing passwords.

Every function here that signs someone in returns a ``SignIn``: the user and the id of the
new server-side session (``app.sessions.signins``) the caller puts in the cookie. The
session the browser held before (``replacing``) is revoked in the same transaction.

No transaction is open, and so no pooled connection held, while a password is hashed.

Failed logins are limited per address and per account (``LoginLimits``): an account
under attack keeps admitting its owner from any address that has signed in to it before
on this worker, and refuses everyone else until the account's budget refills.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import User
from app.sessions import passwords, signins
from app.sessions.errors import Conflict, DomainError, Forbidden, Invalid, Unauthenticated
from app.sessions.limits import RateLimit
from app.sessions.names import login_of, skeleton


class AccountRefused(DomainError):
    """A refusal whose page text is the catalogue entry ``key`` (the JSON API gets ``error``)."""

    def __init__(self, error: str, key: str, **args: Any) -> None:
        super().__init__(error)
        self.key = key
        self.args_for_page = args


class NameTaken(AccountRefused, Conflict):
    pass


class AccountFieldInvalid(AccountRefused, Invalid):
    pass


class WrongOldPassword(AccountRefused, Forbidden):
    pass


@dataclass(frozen=True)
class SignIn:
    user: User
    session_id: str


def _env(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


@dataclass
class LoginLimits:
    per_address: RateLimit
    per_account: RateLimit
    max_known: int = 50_000
    known: OrderedDict[tuple[str, str], None] = field(default_factory=OrderedDict)

    @classmethod
    def from_env(cls) -> LoginLimits:
        return cls(
            RateLimit("login attempts from this address", _env("WARROOM_LOGIN_ADDRESS_PER_MINUTE", 6) / 60,
                      int(_env("WARROOM_LOGIN_ADDRESS_BURST", 30)), page_key="too_many_attempts"),
            RateLimit("login attempts for this account", _env("WARROOM_LOGIN_ACCOUNT_PER_MINUTE", 1) / 60,
                      int(_env("WARROOM_LOGIN_ACCOUNT_BURST", 10)), page_key="too_many_attempts"))

    def attempt(self, login: str, address: str) -> None:
        """Spend one attempt, before any hashing (so a burst cannot all be verified), or 429."""
        self.per_address.check(address)
        if (login, address) not in self.known:
            self.per_account.check(login)

    def succeeded(self, login: str, address: str) -> None:
        self.known[(login, address)] = None
        self.known.move_to_end((login, address))
        while len(self.known) > self.max_known:
            self.known.popitem(last=False)


@cache
def login_limits() -> LoginLimits:
    return LoginLimits.from_env()


def name_taken(name: str) -> AccountRefused:
    return NameTaken(f"name: '{name}' is already registered (or looks like a registered name); "
                     "log in or pick another", "name_taken", name=name)


async def remember_language(db: AsyncSession, user: User, lang: str) -> None:
    """The UI language an account last signed in with (its notifications' language until it chooses one)."""
    if user.last_lang != lang:
        async with db.begin():
            await db.execute(update(User).where(User.id == user.id).values(last_lang=lang))


async def create_guest(db: AsyncSession, name: str, replacing: str | None) -> SignIn:
    """A guest borrows ``name`` (already normalised by the schema) unless an account reads the same."""
    async with db.begin():
        if await db.scalar(select(User.id).where(User.name_skeleton == skeleton(name))) is not None:
            raise AccountFieldInvalid(f"name: '{name}' is a registered player's name (or looks like one); "
                                      "log in, or pick another", "name_reserved", name=name)
        user = User(name=name, is_guest=True)
        db.add(user)
        await db.flush()
        return SignIn(user, await _switch_session(db, user.id, replacing))


async def register(db: AsyncSession, name: str, password: str, current: int | None,
                   replacing: str | None) -> SignIn:
    """Register ``name``; a signed-in guest (``current``) becomes the account in place, seats and all."""
    login, key = login_of(name), skeleton(name)
    async with db.begin():  # cheap refusal before the costly hash; the unique keys decide races
        if await _taken(db, login, key):
            raise name_taken(name)
    password_hash = await passwords.hash_password(password)
    try:
        async with db.begin():
            if await _taken(db, login, key):
                raise name_taken(name)
            guest = await db.get(User, current, with_for_update=True) if current is not None else None
            user = guest if guest is not None and guest.is_guest else User()
            user.name, user.login, user.name_skeleton = name, login, key
            user.password_hash, user.is_guest = password_hash, False
            db.add(user)
            await db.flush()
            if user is guest:  # the guest's cookie (and any copy of it) now names an account: renew it
                await signins.revoke_all(db, user.id)
            return SignIn(user, await _switch_session(db, user.id, replacing))
    except IntegrityError as exc:  # a concurrent registration of the same name won
        raise name_taken(name) from exc


async def _taken(db: AsyncSession, login: str, key: str) -> bool:
    found = await db.scalar(select(User.id).where(or_(User.login == login, User.name_skeleton == key)).limit(1))
    return found is not None


async def log_in(db: AsyncSession, name: str, password: str, address: str, replacing: str | None) -> SignIn:
    login = login_of(name)
    limits = login_limits()
    limits.attempt(login, address)
    async with db.begin():
        # accounts registered before names were normalised log in with their name as stored
        user = await db.scalar(select(User).where(User.login.in_({login, name.strip().lower()})).limit(1))
    if not await passwords.verify(user.password_hash if user is not None else None, password) or user is None:
        raise Unauthenticated("wrong name or password")
    limits.succeeded(login, address)
    async with db.begin():
        return SignIn(user, await _switch_session(db, user.id, replacing))


async def change_password(db: AsyncSession, user_id: int, old: str, new: str, address: str,
                          keep: str | None) -> int:
    """Set a new password and revoke every other session of the account; returns how many."""
    async with db.begin():
        user = await db.get(User, user_id)
    if user is None or user.is_guest or user.login is None:
        raise Forbidden("a guest has no password: register first (POST /api/register)")
    login_limits().attempt(user.login, address)
    try:
        passwords.check(new, user.name)
    except passwords.PasswordRefused as exc:
        raise AccountFieldInvalid(f"new: {exc.message}", exc.kind) from exc
    if not await passwords.verify(user.password_hash, old):
        raise WrongOldPassword("old: that is not your current password", "old_password_wrong")
    new_hash = await passwords.hash_password(new)
    async with db.begin():
        row = await db.get(User, user_id, with_for_update=True, populate_existing=True)
        assert row is not None
        row.password_hash = new_hash
        return await signins.revoke_all(db, user_id, keep=keep)


async def log_out(db: AsyncSession, session_id: str | None) -> None:
    if session_id:
        async with db.begin():
            await signins.revoke(db, session_id)


async def log_out_everywhere(db: AsyncSession, user_id: int) -> int:
    async with db.begin():
        return await signins.revoke_all(db, user_id)


async def _switch_session(db: AsyncSession, user_id: int, replacing: str | None) -> str:
    if replacing:
        await signins.revoke(db, replacing)
    return await signins.open_session(db, user_id)


async def find_user(db: AsyncSession, user_id: Any) -> User | None:
    return await db.get(User, user_id)


async def set_locale(db: AsyncSession, user_id: int, lang: str) -> None:
    """Remember the account's language (its own transaction)."""
    async with db.begin():
        row = await db.get(User, user_id)
        if row is not None:
            row.locale = lang
