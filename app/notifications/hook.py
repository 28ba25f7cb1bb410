"""The turn hook: a seat of an async match that begins to wait gets told (later, by the worker)."""

from __future__ import annotations

import functools
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Match
from app.notifications import config
from app.notifications.outbox import enqueue_turns
from app.sessions.hooks import on_turn_change


@functools.cache
def settings() -> config.NotifySettings:
    return config.load()


@on_turn_change
async def tell_waiting_seats(db: AsyncSession, match: Match, before: list[str], _now: datetime) -> None:
    # live tables sit together: only play-by-web needs telling
    if match.mode != "async" or match.status != "active":
        return
    newly = set(match.waiting_on or []) - set(before)
    if newly:
        await enqueue_turns(db, match, newly, settings())
