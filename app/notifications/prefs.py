"""Reading and changing a user's notification preferences."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app import clock
from app.models import User
from app.models.notifications import NotificationPrefs
from app.notifications.outbox import enqueue_test
from app.sessions.errors import ApiError


async def get_prefs(db: AsyncSession, user: User) -> NotificationPrefs:
    prefs = await db.get(NotificationPrefs, user.id)
    return prefs or NotificationPrefs(user_id=user.id, email=None, webhook_url=None, digest_hours=None)


async def set_prefs(db: AsyncSession, user: User, email: str | None, webhook_url: str | None,
                    digest_hours: int | None) -> NotificationPrefs:
    prefs = await db.get(NotificationPrefs, user.id, with_for_update=True)
    if prefs is None:
        prefs = NotificationPrefs(user_id=user.id)
        db.add(prefs)
    prefs.email, prefs.webhook_url, prefs.digest_hours = email, webhook_url, digest_hours
    prefs.updated_at = clock.now()
    await db.flush()
    return prefs


async def send_test(db: AsyncSession, user: User) -> list[str]:
    prefs = await db.get(NotificationPrefs, user.id)
    channels = await enqueue_test(db, prefs) if prefs is not None else []
    if not channels:
        raise ApiError(400, "no notification channel is set: PUT /api/me/notifications with an email or a webhook_url")
    return channels
