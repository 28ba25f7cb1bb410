"""Reading and changing a user's notification preferences."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from app import clock
from app.models import User
from app.models.notifications import NotificationPrefs
from app.notifications import hook, webhooks
from app.notifications.outbox import enqueue_test
from app.sessions.errors import Invalid, Refused


class WebhookRefused(Invalid):
    """A webhook URL whose host is, or resolves to, an address webhooks must not reach."""

    def __init__(self, refusal: webhooks.NotPublic) -> None:
        super().__init__(webhooks.explain(refusal, "en"))
        self.refusal = refusal


async def check_webhook_url(url: str | None) -> None:
    """Refuse a private target when it is saved, not silently at every delivery; each
    delivery still checks (and pins) again, as DNS answers may change after today."""
    settings = hook.settings()
    if url is None or settings.allow_private_webhooks:
        return
    try:
        await webhooks.check_url(url, settings.connect_timeout)
    except webhooks.NotPublic as exc:
        raise WebhookRefused(exc) from exc
    except ValueError as exc:
        raise Invalid(f"webhook_url: {exc}") from exc


async def get_prefs(db: AsyncSession, user: User) -> NotificationPrefs:
    prefs = await db.get(NotificationPrefs, user.id)
    return prefs or NotificationPrefs(user_id=user.id, email=None, webhook_url=None, digest_hours=None)


async def set_prefs(db: AsyncSession, user: User, email: str | None, webhook_url: str | None,
                    digest_hours: int | None) -> NotificationPrefs:
    """``_set_prefs`` in its own transaction."""
    async with db.begin():
        return await _set_prefs(db, user, email, webhook_url, digest_hours)


async def _set_prefs(db: AsyncSession, user: User, email: str | None, webhook_url: str | None,
                    digest_hours: int | None) -> NotificationPrefs:
    # before the first query: no pooled connection is held while DNS answers
    await check_webhook_url(webhook_url)
    prefs = await db.get(NotificationPrefs, user.id, with_for_update=True)
    if prefs is None:
        prefs = NotificationPrefs(user_id=user.id)
        db.add(prefs)
    prefs.email, prefs.webhook_url, prefs.digest_hours = email, webhook_url, digest_hours
    prefs.updated_at = clock.now()
    await db.flush()
    return prefs


async def send_test(db: AsyncSession, user: User) -> list[str]:
    """``_send_test`` in its own transaction."""
    async with db.begin():
        return await _send_test(db, user)


async def _send_test(db: AsyncSession, user: User) -> list[str]:
    prefs = await db.get(NotificationPrefs, user.id)
    channels = await enqueue_test(db, prefs) if prefs is not None else []
    if not channels:
        raise Refused("no notification channel is set: PUT /api/me/notifications with an email or a webhook_url")
    return channels
