"""Pace and clocks: a timed table's settings, each seat's clock, players' vacations."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.models.tables import Base


class MatchPace(Base):
    """A timed table's pace; an untimed table has no row."""

    __tablename__ = "match_paces"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # live | async
    initial_ms: Mapped[int] = mapped_column(BigInteger)
    credit_ms: Mapped[int] = mapped_column(BigInteger)  # increment (live) or per-move days (async)
    cap_ms: Mapped[int | None] = mapped_column(BigInteger)  # async only: the bank never exceeds it


class MatchClock(Base):
    """One seat's clock. ``remaining_ms`` is the bank when the clock last stopped or
    started; while it runs, what is left is remaining_ms minus the time since
    ``running_since`` (less its player's vacations), computed from server time."""

    __tablename__ = "match_clocks"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(40), primary_key=True)
    remaining_ms: Mapped[int] = mapped_column(BigInteger)
    running_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    timed_out: Mapped[bool] = mapped_column(Boolean, default=False)  # ran out when it last stopped
    handed_over: Mapped[bool] = mapped_column(Boolean, default=False)  # a bot holds the seat after a timeout
    # what the seat's last start and stop did, so an undo can take them back exactly
    started_seq: Mapped[int | None] = mapped_column(Integer)
    stopped_seq: Mapped[int | None] = mapped_column(Integer)
    stopped_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_charge_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    last_credit_ms: Mapped[int] = mapped_column(BigInteger, default=0)


class Vacation(Base):
    """A player's pause of all their clocks; the days count against the year it began."""

    __tablename__ = "vacations"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    year: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    until: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # planned end, or the early end
    days: Mapped[int] = mapped_column(Integer)  # charged against the year's allowance

    __table_args__ = (Index("ix_vacations_user", "user_id", "year"),)
