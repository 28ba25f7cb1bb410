from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

Json = JSON().with_variant(JSONB(), "postgresql")


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(40))
    # Registered accounts own their name (case-insensitive); guests only borrow one.
    login: Mapped[str | None] = mapped_column(String(40), unique=True)
    # the name's look-alike skeleton (app.sessions.names.skeleton), registered accounts only:
    # no second account and no guest may take a name that reads the same
    name_skeleton: Mapped[str | None] = mapped_column(String(160), unique=True)
    password_hash: Mapped[str | None] = mapped_column(Text)
    is_guest: Mapped[bool] = mapped_column(Boolean, default=False)
    locale: Mapped[str | None] = mapped_column(String(8))  # the UI language the user chose (en, pl)
    # the UI language the user last signed in with: what notifications speak until ``locale`` is chosen
    last_lang: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


def started(status: str) -> bool:
    """Whether play ever began at a table of this status. Only an open table can be abandoned,
    so an abandoned one never started either: it has no state, no board and no history."""
    return status in ("active", "finished")


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    # what the lobby calls the table (None: a table from before names, shown as its game's title)
    name: Mapped[str | None] = mapped_column(String(60))
    engine_version: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(Json)
    mode: Mapped[str] = mapped_column(String(8))  # live | async
    players: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12), default="open")  # open | active | finished | abandoned
    seq: Mapped[int] = mapped_column(Integer, default=0)
    seed: Mapped[bytes] = mapped_column(LargeBinary)  # secret: never leaves the server while playing
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    outcome: Mapped[dict[str, Any] | None] = mapped_column(Json)
    # who must act now (seat ids), kept in step with the log so lobbies need no rules engine
    waiting_on: Mapped[list[str]] = mapped_column(Json, default=list)
    spectator_chat: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    # unlisted: only the invite link (the unguessable id) leads others to the table
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    # set by `python -m app replay` when the log no longer replays under the current engine:
    # the first seq whose state differs, and the engine that replayed it (None: no warning)
    replay_diverged_at: Mapped[int | None] = mapped_column(Integer)
    replay_engine: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )

    __table_args__ = (Index("ix_matches_status", "status"),)


class MatchSeat(Base):
    __tablename__ = "match_seats"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(40), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    label: Mapped[str] = mapped_column(String(80))
    roles: Mapped[list[str]] = mapped_column(Json, default=list)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    bot: Mapped[str | None] = mapped_column(String(40))
    resigned: Mapped[bool] = mapped_column(Boolean, default=False, server_default="false")
    # how the seat's reaction windows are answered (app/sessions/autopass.py): idle | ask | round;
    # "round" passes while the game's round is still ``autopass_round``
    autopass: Mapped[str] = mapped_column(String(8), default="idle", server_default="idle")
    autopass_round: Mapped[str | None] = mapped_column(String(40))

    __table_args__ = (
        UniqueConstraint("match_id", "user_id", name="uq_one_seat_per_user"),
        Index("ix_match_seats_user", "user_id"),
    )


class Action(Base):
    """The append-only log: the source of truth for every match."""

    __tablename__ = "actions"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(Json)
    events: Mapped[list[dict[str, Any]]] = mapped_column(Json, default=list)
    idempotency_key: Mapped[str | None] = mapped_column(String(80))
    # sha256 of the whole state after this seq: replays and exports are checked against it
    state_hash: Mapped[str | None] = mapped_column(String(64))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"))
    # the game's engine version that applied it (None: written before versions were recorded)
    engine_version: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())

    __table_args__ = (UniqueConstraint("match_id", "idempotency_key", name="uq_action_idempotency"),)


class Snapshot(Base):
    """A cache of the state after ``seq``; rebuildable from the log at any time."""

    __tablename__ = "snapshots"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    state: Mapped[dict[str, Any]] = mapped_column(Json)
    # the engine whose dump this is (None: written before versions were recorded)
    engine_version: Mapped[str | None] = mapped_column(String(40))


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    text: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
