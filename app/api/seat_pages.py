"""The table page's plain forms about seats: join, add a bot, start, kick, abandon, and the
answers to a seat whose clock ran out (skip, hand over, reclaim); each comes back to the table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api.deps import get_db, get_work, optional_user
from app.api.errors import ApiError
from app.api.page_kit import (
    back_with,
    checked_form,
    field,
    page_error,
    page_lang,
    redirect,
    refused,
)
from app.i18n import t
from app.models import User
from app.sessions import work
from app.sessions.errors import DomainError
from app.sessions.work import MatchWork

router = APIRouter(include_in_schema=False, dependencies=[Depends(page_lang)])


async def seat_action(request: Request, match_id: str, user: User | None, do: Any) -> Response:
    """Join / add a bot / start / kick / abandon: a plain form post, then back to the table."""
    target = f"/matches/{match_id}"
    form = await checked_form(request)
    if form is None:
        return refused()
    if user is None:
        return back_with(request, target, t("sign_in_to_join"))
    try:
        await do(form)
    except DomainError as exc:
        return back_with(request, target, page_error(exc))
    return redirect(target)


@router.post("/matches/{match_id}/join")
async def join_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                    tables: MatchWork = Depends(get_work), user: User | None = Depends(optional_user)) -> Response:
    async def do(form: FormData) -> None:
        await work.take_seat(tables, db, user, match_id, field(form, "seat") or None)

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/timeouts/{what}")
async def timeout_form(match_id: str, what: str, request: Request, db: AsyncSession = Depends(get_db),
                       tables: MatchWork = Depends(get_work), user: User | None = Depends(optional_user)) -> Response:
    """The others' answer to a seat whose clock ran out: skip it once, or hand it to a bot."""
    async def do(form: FormData) -> None:
        if what == "skip":
            await work.skip(tables, db, user, match_id, field(form, "seat"))
        elif what == "handover":
            await work.handover(tables, db, user, match_id, field(form, "seat"))
        else:
            raise ApiError(404, f"no timeout action '{what}'")

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/reclaim")
async def reclaim_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                       tables: MatchWork = Depends(get_work), user: User | None = Depends(optional_user)) -> Response:
    async def do(_form: FormData) -> None:
        await work.reclaim(tables, db, user, match_id)

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/bot")
async def bot_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                   tables: MatchWork = Depends(get_work), user: User | None = Depends(optional_user)) -> Response:
    async def do(form: FormData) -> None:
        await work.seat_bot(tables, db, user, match_id, field(form, "seat"), field(form, "bot", "rules"))

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/start")
async def start_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                     tables: MatchWork = Depends(get_work), user: User | None = Depends(optional_user)) -> Response:
    async def do(_form: FormData) -> None:
        await work.start(tables, db, user, match_id)

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/kick")
async def kick_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                    tables: MatchWork = Depends(get_work), user: User | None = Depends(optional_user)) -> Response:
    async def do(form: FormData) -> None:
        await work.free_seat(tables, db, user, match_id, field(form, "seat"))

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/abandon")
async def abandon_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                       tables: MatchWork = Depends(get_work), user: User | None = Depends(optional_user)) -> Response:
    async def do(_form: FormData) -> None:
        await work.abandon(tables, db, user, match_id)

    return await seat_action(request, match_id, user, do)
