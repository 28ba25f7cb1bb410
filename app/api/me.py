"""The signed-in user's own settings: turn notifications (guests and accounts alike), the password."""

from __future__ import annotations

import re

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, Field, field_validator
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.auth import client_address, session_checks, session_id
from app.api.deps import get_db, require_user
from app.api.schemas import ErrorOut, PasswordChangeIn, Strict
from app.models import User
from app.notifications import prefs as notify_prefs
from app.notifications import webhooks
from app.sessions import accounts

router = APIRouter(prefix="/api/me", tags=["me"])
ERRORS = {code: {"model": ErrorOut} for code in (400, 401, 403, 422, 429)}
EMAIL = re.compile(r"^[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;.]+$")


class NotificationsIn(Strict):
    email: str | None = Field(default=None, max_length=254)
    webhook_url: str | None = Field(default=None, max_length=2000)
    digest_hours: int | None = Field(default=None, ge=1, le=168, strict=True)

    @field_validator("email")
    @classmethod
    def email_shape(cls, value: str | None) -> str | None:
        value = (value or "").strip() or None
        if value is not None and not EMAIL.match(value):
            raise ValueError("must look like name@example.org")
        return value

    @field_validator("webhook_url")
    @classmethod
    def http_url(cls, value: str | None) -> str | None:
        value = (value or "").strip() or None
        if value is None:
            return None
        if any(c.isspace() for c in value):
            raise ValueError("must be an http:// or https:// URL")
        webhooks.target(value)  # parsed as deliveries parse it: one reading of the host everywhere
        return value


class NotificationsOut(BaseModel):
    email: str | None
    webhook_url: str | None
    digest_hours: int | None


class TestOut(BaseModel):
    queued: list[str]


@router.get("/notifications", response_model=NotificationsOut, responses=ERRORS,
            summary="Your turn notifications (empty channels are off)")
async def get_notifications(user: User = Depends(require_user),
                            db: AsyncSession = Depends(get_db)) -> NotificationsOut:
    p = await notify_prefs.get_prefs(db, user)
    return NotificationsOut(email=p.email, webhook_url=p.webhook_url, digest_hours=p.digest_hours)


@router.put("/notifications", response_model=NotificationsOut, responses=ERRORS,
            summary="Opt in or out: an email, a Discord/Slack-compatible webhook, a digest period in hours",
            description="A webhook URL must be http(s) and its host must be, and resolve to, public addresses "
                        "only (422 names the address otherwise).")
async def put_notifications(body: NotificationsIn, user: User = Depends(require_user),
                            db: AsyncSession = Depends(get_db)) -> NotificationsOut:
    p = await notify_prefs.set_prefs(db, user, body.email, body.webhook_url, body.digest_hours)
    return NotificationsOut(email=p.email, webhook_url=p.webhook_url, digest_hours=p.digest_hours)


@router.post("/notifications/test", response_model=TestOut, responses=ERRORS,
             summary="Send a test message through each configured channel")
async def test_notifications(user: User = Depends(require_user), db: AsyncSession = Depends(get_db)) -> TestOut:
    return TestOut(queued=await notify_prefs.send_test(db, user))


class PasswordChangedOut(BaseModel):
    ok: bool
    other_sessions_revoked: int


@router.post("/password", response_model=PasswordChangedOut, responses=ERRORS,
             summary="Change the password {old, new}: every other session of the account is logged out")
async def change_password(body: PasswordChangeIn, request: Request, user: User = Depends(require_user),
                          db: AsyncSession = Depends(get_db)) -> PasswordChangedOut:
    keep = session_id(request)
    revoked = await accounts.change_password(db, user.id, body.old, body.new, client_address(request), keep)
    session_checks(request).forget_user(user.id, keep=keep)
    return PasswordChangedOut(ok=True, other_sessions_revoked=revoked)
