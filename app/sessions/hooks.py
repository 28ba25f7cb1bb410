"""Observers of the table's turn: whoever must act changed (notifications, clocks...).

Hooks run inside the committing transaction, after the match row is settled, so what
they write commits (or rolls back) with the move itself: nothing is lost on a crash.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from app.models import Match

# (db, match after the change, who was waiting before, now) -> None
TurnHook = Callable[[AsyncSession, Match, list[str], datetime], Awaitable[None]]

TURN_HOOKS: list[TurnHook] = []


def on_turn_change(hook: TurnHook) -> TurnHook:
    if hook not in TURN_HOOKS:
        TURN_HOOKS.append(hook)
    return hook


async def turn_changed(db: AsyncSession, match: Match, before: list[str], now: datetime) -> None:
    for hook in TURN_HOOKS:
        await hook(db, match, before, now)
