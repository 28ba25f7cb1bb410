"""Sign-in forms (guest, register, log in, log out) and the header's language switch."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api.auth import client_address, forget_session, session_id, sign_in, signed_in_uid
from app.api.deps import get_db, optional_user
from app.api.page_kit import (
    back_with,
    checked_form,
    field,
    first_error,
    local_path,
    page_error,
    page_lang,
    redirect,
    refused,
)
from app.api.schemas import GuestIn, LoginIn, RegisterIn
from app.i18n import LANGS, current_lang
from app.models import User
from app.sessions import accounts, floods
from app.sessions.errors import DomainError

router = APIRouter(include_in_schema=False, dependencies=[Depends(page_lang)])


async def signed_in(request: Request, make: Callable[[AsyncSession], Awaitable[accounts.SignIn]],
                    next_url: str) -> Response:
    async with request.app.state.sessions() as db:
        try:
            signed = await make(db)
        except DomainError as exc:
            return back_with(request, next_url, page_error(exc))
    async with request.app.state.sessions() as db:  # what notifications speak until the account picks a language
        await accounts.remember_language(db, signed.user, current_lang())
    lang = request.session.get("lang")
    sign_in(request, signed)  # a fresh session: the account's language, else the one just used
    if (signed.user.locale or lang) in LANGS:
        request.session["lang"] = signed.user.locale or lang
    return redirect(next_url)


@router.post("/lang")
async def language_form(request: Request, db: AsyncSession = Depends(get_db),
                        user: User | None = Depends(optional_user)) -> Response:
    """The header's PL/EN switch: remembered in the session and, signed in, on the account."""
    form = await checked_form(request)
    if form is None:
        return refused()
    lang = field(form, "lang")
    next_url = local_path(field(form, "next", "/"))
    if lang not in LANGS:
        return back_with(request, next_url, f"lang: must be one of {', '.join(LANGS)}")
    request.session["lang"] = lang
    if user is not None:
        await accounts.set_locale(db, user.id, lang)
    return redirect(next_url)


async def account_form(request: Request, parse: Callable[[FormData], Any],
                       act: Callable[[AsyncSession, Any], Awaitable[accounts.SignIn]]) -> Response:
    """Guest, register and log-in forms: check the token, validate with the API's own
    model, then sign in and go back where the visitor came from."""
    form = await checked_form(request)
    if form is None:
        return refused()
    next_url = local_path(field(form, "next", "/"))
    try:
        body = parse(form)
    except ValidationError as exc:
        return back_with(request, next_url, first_error(exc))
    return await signed_in(request, lambda db: act(db, body), next_url)


def password(form: FormData) -> str:
    return str(form.get("password", ""))


@router.post("/guest")
async def guest_form(request: Request) -> Response:
    async def new_guest(db: AsyncSession, body: GuestIn) -> Any:
        floods.admit_guest(request)
        return await accounts.create_guest(db, body.name, session_id(request))

    return await account_form(request, lambda f: GuestIn(name=field(f, "name")), new_guest)


@router.post("/register")
async def register_form(request: Request) -> Response:
    """A signed-in guest who registers becomes the account in place, seats and all."""
    return await account_form(request, lambda f: RegisterIn(name=field(f, "name"), password=password(f)),
                              lambda db, body: accounts.register(db, body.name, body.password,
                                                                 signed_in_uid(request), session_id(request)))


@router.post("/login")
async def login_form(request: Request) -> Response:
    return await account_form(request, lambda f: LoginIn(name=field(f, "name"), password=password(f)),
                              lambda db, body: accounts.log_in(db, body.name, body.password,
                                                               client_address(request), session_id(request)))


@router.post("/logout")
async def logout_form(request: Request) -> Response:
    if await checked_form(request) is None:
        return refused()
    async with request.app.state.sessions() as db:
        await accounts.log_out(db, session_id(request))
    forget_session(request)
    lang = request.session.get("lang")
    request.session.clear()
    if lang in LANGS:
        request.session["lang"] = lang
    return redirect("/")
