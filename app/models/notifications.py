"""Tables of the turn notifications: who wants them, what is waiting to go out, who is looking."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, ForeignKey, Index, Integer, String, Text, func
from sqlalchemy.orm import Mapped, mapped_column

from app.models.tables import Base, Json


class NotificationPrefs(Base):
    """A user's opt-in: no row, or every channel empty, means no notifications."""

    __tablename__ = "notification_prefs"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    email: Mapped[str | None] = mapped_column(String(254))
    webhook_url: Mapped[str | None] = mapped_column(String(2000))
    # None: one email per turn; N: at most one email every N hours (several turns make a digest)
    digest_hours: Mapped[int | None] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class OutboxMessage(Base):
    """One message to send through one channel. Rows survive restarts; the unique
    dedupe key (user/match/turn/channel) is what makes a turn notify at most once."""

    __tablename__ = "notification_outbox"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    dedupe_key: Mapped[str] = mapped_column(String(200), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    channel: Mapped[str] = mapped_column(String(12))  # email | webhook
    kind: Mapped[str] = mapped_column(String(12))  # turn | test
    match_id: Mapped[str | None] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[str | None] = mapped_column(String(40))
    turn_seq: Mapped[int | None] = mapped_column(Integer)  # the match's seq when the seat began to wait
    # pending | sending (claimed, in flight) | sent | skipped (no longer needed) | failed (gave up)
    status: Mapped[str] = mapped_column(String(10), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # what happened: the digest it went out in, why it was skipped, the last error
    detail: Mapped[dict[str, Any]] = mapped_column(Json, default=dict)
    last_error: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (
        Index("ix_outbox_pending", "due_at", postgresql_where="status = 'pending'"),
        Index("ix_outbox_user_channel", "user_id", "channel", "sent_at"),
    )


class MatchPresence(Base):
    """Who has a live socket open to which match, heartbeated by the worker process
    serving it. Rows are not deleted when the socket closes: ``last_seen`` then says
    when the player last looked, which decides whether a turn still needs telling."""

    __tablename__ = "match_presence"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    worker_id: Mapped[str] = mapped_column(String(80), primary_key=True)
    first_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
