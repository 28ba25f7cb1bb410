"""Writing to the outbox. A turn's rows are written in the transaction that changed the
turn; the dedupe key makes a second write of the same turn a no-op."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app import clock
from app.models import Match, MatchSeat
from app.models.notifications import NotificationPrefs, OutboxMessage
from app.notifications.config import NotifySettings

CHANNELS = ("email", "webhook")


def turn_key(user_id: int, match_id: str, turn_seq: int, channel: str) -> str:
    return f"turn:{user_id}:{match_id}:{turn_seq}:{channel}"


def configured(prefs: NotificationPrefs) -> list[str]:
    return [c for c, value in (("email", prefs.email), ("webhook", prefs.webhook_url)) if value]


async def _insert(db: AsyncSession, rows: list[dict[str, Any]]) -> None:
    if rows:
        await db.execute(insert(OutboxMessage).values(rows).on_conflict_do_nothing(index_elements=["dedupe_key"]))


def _row(key: str, user_id: int, channel: str, kind: str, now: datetime, due: datetime,
         **extra: Any) -> dict[str, Any]:
    return {"dedupe_key": key, "user_id": user_id, "channel": channel, "kind": kind, "status": "pending",
            "attempts": 0, "created_at": now, "due_at": due, "detail": {}, **extra}


async def enqueue_turns(db: AsyncSession, match: Match, seats: set[str], settings: NotifySettings) -> None:
    """One row per channel for each opted-in human whose seat has just begun to wait."""
    found = (await db.execute(
        select(MatchSeat.seat, NotificationPrefs)
        .join(NotificationPrefs, NotificationPrefs.user_id == MatchSeat.user_id)
        .where(MatchSeat.match_id == match.id, MatchSeat.seat.in_(seats), MatchSeat.bot.is_(None),
               MatchSeat.resigned.is_(False)))).all()
    now = clock.now()
    # the heartbeat must have had a chance to see a player who is looking at the table
    due = now + timedelta(seconds=max(settings.delay_seconds, 2 * settings.presence_seconds))
    rows = [_row(turn_key(prefs.user_id, match.id, match.seq, channel), prefs.user_id, channel, "turn", now, due,
                 match_id=match.id, seat=seat, turn_seq=match.seq)
            for seat, prefs in found for channel in configured(prefs)]
    await _insert(db, rows)


async def enqueue_test(db: AsyncSession, prefs: NotificationPrefs) -> list[str]:
    """A test message through every configured channel, sent by the worker like any other."""
    now = clock.now()
    channels = configured(prefs)
    await _insert(db, [_row(f"test:{prefs.user_id}:{channel}:{secrets.token_hex(8)}", prefs.user_id, channel,
                            "test", now, now) for channel in channels])
    return channels
