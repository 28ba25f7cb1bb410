"""The table's chat: who may read and write it, its lines, and a new line."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import ChatMessage, Match, User
from app.sessions import floods, service
from app.sessions.errors import Forbidden

CHAT_CLOSED = "only the players chat at this table: the host did not let spectators chat"


class ChatLine(NamedTuple):
    id: int
    name: str
    is_guest: bool
    text: str
    at: datetime


def chat_open_to(match: Match, seat: str | None) -> bool:
    """Spectators read and write the chat only where the host let them; players always do."""
    return seat is not None or match.spectator_chat


async def lines(db: AsyncSession, match_id: str, limit: int, newest: bool = False) -> list[ChatLine]:
    """The chat's lines in order: the first ``limit``, or (``newest``) the last ``limit``."""
    stmt = (select(ChatMessage.id, User.name, User.is_guest, ChatMessage.text, ChatMessage.created_at)
            .join(User, User.id == ChatMessage.user_id).where(ChatMessage.match_id == match_id))
    if newest:
        rows = (await db.execute(stmt.order_by(ChatMessage.id.desc()).limit(limit))).all()
        return [ChatLine(*row) for row in reversed(rows)]
    return [ChatLine(*row) for row in (await db.execute(stmt.order_by(ChatMessage.id).limit(limit))).all()]


async def readable_lines(db: AsyncSession, user: User | None, match_id: str, limit: int) -> list[ChatLine]:
    """The chat for the JSON API: refused to a spectator where the host keeps it to the players."""
    match = await service.get_match(db, match_id)
    if not chat_open_to(match, service.seat_of(await service.seat_rows(db, match_id), user)):
        raise Forbidden(CHAT_CLOSED)
    return await lines(db, match_id, limit)


async def add_line(db: AsyncSession, user: User, match_id: str, text: str) -> None:
    """Say something at the table, in the caller's transaction; every worker hears of it at commit."""
    match = await service.get_match(db, match_id)
    if not chat_open_to(match, service.seat_of(await service.seat_rows(db, match_id), user)):
        raise Forbidden(CHAT_CLOSED)
    floods.admit_chat_line(user.id, match_id)
    db.add(ChatMessage(match_id=match_id, user_id=user.id, text=text))
    await service.notify(db, match)
