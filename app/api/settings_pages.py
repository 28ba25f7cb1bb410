"""The signed-in user's settings page: turn notifications, vacations, signing out everywhere.

The page is a face on the JSON API's own pieces: its forms are validated by the same
Pydantic models (``NotificationsIn``, ``VacationIn``) and change things through the same
service functions (``app.notifications.prefs``, ``app.sessions.clocks``) that
/api/me/notifications and /api/me/vacation use, one transaction each. Every post checks
the session's CSRF token and comes back to /settings with the outcome in the flash.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api.auth import log_out_everywhere
from app.api.clocks import VacationIn
from app.api.deps import get_db, optional_user
from app.api.errors import ApiError, status_of
from app.api.me import NotificationsIn
from app.api.page_kit import (
    back_with,
    base_context,
    checked_form,
    field,
    first_error,
    page_error,
    page_lang,
    refused,
    whole_number,
)
from app.api.templating import templates
from app.i18n import t
from app.models import User
from app.notifications import prefs as notify_prefs
from app.notifications.webhooks import explain as explain_refusal
from app.sessions import clocks
from app.sessions.errors import DomainError

router = APIRouter(include_in_schema=False, dependencies=[Depends(page_lang)])
HERE = "/settings"
DRAFT = "settings_draft"  # the rejected notification form, shown again so nothing typed is lost


def shown_time(iso: str | None) -> str | None:
    """A vacation's end as people read it (the API's ISO string, in UTC, to the minute)."""
    return datetime.fromisoformat(iso).strftime("%Y-%m-%d %H:%M UTC") if iso else None


def channel_names(channels: list[str]) -> list[str]:
    """The outbox's channel ids ("email", "webhook") in the page's language."""
    names = {"email": t("channel_email"), "webhook": t("channel_webhook")}
    return [names.get(c, c) for c in channels]


def form_error(exc: ValidationError) -> str:
    """The first problem, naming its field as the JSON API does (without pydantic's prefix)."""
    return first_error(exc).replace("Value error, ", "")


def notifications_in(form: FormData) -> NotificationsIn:
    """The form's strings as the API's body: an empty digest is "one message per turn"."""
    hours = field(form, "digest_hours")
    digest = whole_number(hours, "digest_hours", 1, 168) if hours else None
    try:
        return NotificationsIn(email=field(form, "email") or None, webhook_url=field(form, "webhook_url") or None,
                               digest_hours=digest)
    except ValidationError as exc:
        raise ApiError(422, form_error(exc)) from exc


async def settings_action(request: Request, user: User | None, do: Any) -> Response:
    """A settings form post: CSRF checked, signed in, then ``do(form)`` -> the flash message."""
    form = await checked_form(request)
    if form is None:
        return refused()
    if user is None:
        return back_with(request, HERE, t("sign_in_first"))
    try:
        message = await do(form)
    except DomainError as exc:
        return back_with(request, HERE, page_error(exc))
    return back_with(request, HERE, message)


@router.get("/settings", response_class=HTMLResponse)
async def settings_page(request: Request, db: AsyncSession = Depends(get_db),
                        user: User | None = Depends(optional_user)) -> Response:
    ctx = await base_context(request, db, user)
    draft = request.session.pop(DRAFT, None)
    if user is not None:
        prefs = await notify_prefs.get_prefs(db, user)
        saved = {"email": prefs.email or "", "webhook_url": prefs.webhook_url or "",
                 "digest_hours": "" if prefs.digest_hours is None else str(prefs.digest_hours)}
        vacation = await clocks.vacation_status(db, user)
        ctx.update(notify=draft if isinstance(draft, dict) else saved,
                   channels=channel_names([name for name, on in (("email", prefs.email),
                                                                  ("webhook", prefs.webhook_url)) if on]),
                   vacation=vacation, vacation_until=shown_time(vacation["on_vacation_until"]))
    return templates.TemplateResponse(request, "settings.html", ctx)


@router.post("/settings/notifications")
async def notifications_form(request: Request, db: AsyncSession = Depends(get_db),
                             user: User | None = Depends(optional_user)) -> Response:
    async def do(form: FormData) -> str:
        assert user is not None
        try:
            body = notifications_in(form)
            await notify_prefs.set_prefs(db, user, body.email, body.webhook_url, body.digest_hours)
        except DomainError as exc:
            request.session[DRAFT] = {k: field(form, k) for k in ("email", "webhook_url", "digest_hours")}
            if isinstance(exc, notify_prefs.WebhookRefused):  # told in the page's language
                raise ApiError(status_of(exc), explain_refusal(exc.refusal)) from exc
            raise
        return t("notify_saved")

    return await settings_action(request, user, do)


@router.post("/settings/notifications/test")
async def notifications_test_form(request: Request, db: AsyncSession = Depends(get_db),
                                  user: User | None = Depends(optional_user)) -> Response:
    async def do(_form: FormData) -> str:
        assert user is not None
        try:
            queued = await notify_prefs.send_test(db, user)
        except DomainError as exc:
            # its one refusal (no channel set) tells API callers which request to make; say it for the page
            raise ApiError(status_of(exc), t("notify_test_none")) from exc
        return t("notify_test_queued", channels=", ".join(channel_names(queued)))

    return await settings_action(request, user, do)


@router.post("/settings/vacation")
async def vacation_form(request: Request, db: AsyncSession = Depends(get_db),
                        user: User | None = Depends(optional_user)) -> Response:
    async def do(form: FormData) -> str:
        assert user is not None
        try:
            body = VacationIn.model_validate({"days": field(form, "days")})
        except ValidationError as exc:
            raise ApiError(422, form_error(exc)) from exc
        status = await clocks.start_vacation(db, user, body.days)
        return t("vacation_started", until=shown_time(status["on_vacation_until"]) or "—")

    return await settings_action(request, user, do)


@router.post("/settings/vacation/end")
async def vacation_end_form(request: Request, db: AsyncSession = Depends(get_db),
                            user: User | None = Depends(optional_user)) -> Response:
    async def do(_form: FormData) -> str:
        assert user is not None
        await clocks.end_vacation(db, user)
        return t("vacation_ended")

    return await settings_action(request, user, do)


@router.post("/settings/logout-everywhere")
async def logout_everywhere_form(request: Request, db: AsyncSession = Depends(get_db),
                                 user: User | None = Depends(optional_user)) -> Response:
    """POST /api/logout-everywhere for the page: every session ends, this one too."""
    async def do(_form: FormData) -> str:
        assert user is not None
        await log_out_everywhere(request, db, user)
        return t("logged_out_everywhere")

    return await settings_action(request, user, do)
