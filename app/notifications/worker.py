"""The sender: polls the outbox, claims due rows with FOR UPDATE SKIP LOCKED, sends, marks.

Any number of processes run one each. Rows of one user are handled by one worker at
a time (a transaction-scoped advisory lock, and no new claim while one of the user's
messages is in flight), which keeps "at most one email every N hours" true across
processes.

Never twice: a row is marked ``sending`` and committed *before* the message leaves,
and ``sent`` after. A crash in between leaves it ``sending``; nobody can know whether
the mail server or webhook got it, so such a row is never retried: after the lease it
is recorded as ``failed`` (interrupted) and logged. A clean failure (the server said
no, timed out, refused the connection) is retried with exponential backoff.

Concurrently: each user due a message is served by a task of their own, and at most
``concurrency`` deliveries are in flight at once (a slot is taken before a claim, so a
claimed row never waits for one). A webhook that hangs holds one slot until the send
timeout ends it, and everyone else's messages go through the other slots meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app import clock
from app.games.registry import get as get_game
from app.models import Action, Match, MatchSeat, User
from app.models.notifications import NotificationPrefs, OutboxMessage
from app.notifications.channels import DeliveryError, post_webhook, send_email
from app.notifications.config import NotifySettings
from app.notifications.messages import Message, Turn, digest_message, test_message, turn_message
from app.notifications.presence import Presence, looked_since
from app.sessions.live import Hub

log = logging.getLogger("warroom.notifications")
LOCK_SPACE = 0x5752  # advisory-lock namespace of the notification worker ("WR")
MAX_BACKOFF = timedelta(hours=6)
LEASE = timedelta(minutes=2)  # far longer than a send may take (WARROOM_NOTIFY_TIMEOUT, 10 s by default)
UNITS_PER_USER = 20  # per turn of a user's task: a flood for one user must not starve the others
USERS_QUEUED_PER_SLOT = 4  # users with a task waiting for a slot, per slot: bounds the tasks of a backlog
CLEANUP_SECONDS = 600  # how often old presence rows are swept away


@dataclass
class Unit:
    """Rows that go out as one message (several turn emails make one digest)."""

    channel: str
    rows: list[OutboxMessage]
    message: Message
    address: str = ""


class Notifier:
    def __init__(self, sessions: async_sessionmaker, hub: Hub, settings: NotifySettings) -> None:
        self.sessions = sessions
        self.settings = settings
        self.presence = Presence(sessions, hub)
        self.tasks: list[asyncio.Task[None]] = []
        self.swept = 0.0
        self.slots = asyncio.Semaphore(settings.concurrency)
        self.serving: dict[int, asyncio.Task[None]] = {}  # user id -> the task delivering their messages
        # a row in flight longer than this was interrupted (the send timeout ends every live one sooner)
        self.lease = max(LEASE, timedelta(seconds=4 * (settings.send_timeout + settings.connect_timeout)))

    def start(self) -> Notifier:
        self.tasks = [asyncio.create_task(self._every(self.settings.poll_seconds, self.tick), name="notify-send"),
                      asyncio.create_task(self._every(self.settings.presence_seconds, self.presence.beat),
                                          name="notify-presence")]
        return self

    async def stop(self) -> None:
        tasks = [*self.tasks, *self.serving.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _every(self, seconds: float, job: Callable[[], Awaitable[None]]) -> None:
        while True:
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception:  # a database hiccup must never take the server down
                log.exception("notification job %s failed; trying again", getattr(job, "__name__", job))
            await asyncio.sleep(seconds)

    # --- one round -------------------------------------------------------
    async def tick(self) -> None:
        await self._sweep_interrupted()
        room = USERS_QUEUED_PER_SLOT * self.settings.concurrency - len(self.serving)
        if room > 0:
            for user_id in await self._due_users(room):
                self._serve(user_id)
        if time.monotonic() - self.swept > CLEANUP_SECONDS:
            self.swept = time.monotonic()
            await self.presence.forget_old()

    async def _due_users(self, limit: int) -> list[int]:
        """Users with a message due and no task here yet, longest waiting first."""
        query = (select(OutboxMessage.user_id)
                 .where(OutboxMessage.status == "pending", OutboxMessage.due_at <= clock.now())
                 .group_by(OutboxMessage.user_id).order_by(func.min(OutboxMessage.due_at)).limit(limit))
        if self.serving:
            query = query.where(OutboxMessage.user_id.not_in(list(self.serving)))
        async with self.sessions() as db:
            return list((await db.scalars(query)).all())

    def _serve(self, user_id: int) -> None:
        task = asyncio.create_task(self._deliver_to(user_id), name=f"notify-user-{user_id}")
        self.serving[user_id] = task
        task.add_done_callback(lambda _: self.serving.pop(user_id, None))

    async def _deliver_to(self, user_id: int) -> None:
        """One user's due messages, one after another (their order and digest window hold),
        each in a slot of its own so that the others' users get turns in between."""
        try:
            for _ in range(UNITS_PER_USER):
                async with self.slots:
                    if not await self._one_unit(user_id):
                        return
        except asyncio.CancelledError:
            raise
        except Exception:  # a database hiccup: the rows stay due and the next tick tries again
            log.exception("notifications for user %s failed; trying again", user_id)

    async def _one_unit(self, user_id: int) -> bool:
        """Send (or drop) the next due message of one user. False when nothing is left."""
        unit = await self._claim(user_id)
        if unit is None:
            return False
        if unit.rows:
            error = await self._send(unit)
            await self._record(unit, error)
        return True

    async def _claim(self, user_id: int) -> Unit | None:
        """In one transaction: drop what is no longer worth sending, hold what waits for a
        digest window, and mark the next message ``sending``. None: nothing (more) to do;
        a unit without rows: something was dropped or held, look again."""
        async with self.sessions() as db, db.begin():
            got = await db.scalar(text("SELECT pg_try_advisory_xact_lock(:space, CAST(:uid % 2147483647 AS int))"),
                                  {"space": LOCK_SPACE, "uid": user_id})
            if not got:
                return None  # another worker is serving this user right now
            now = clock.now()
            in_flight = await db.scalar(select(OutboxMessage.id).where(
                OutboxMessage.user_id == user_id, OutboxMessage.status == "sending").limit(1))
            if in_flight is not None:
                return None
            rows = list((await db.scalars(
                select(OutboxMessage).where(OutboxMessage.user_id == user_id, OutboxMessage.status == "pending",
                                            OutboxMessage.due_at <= now)
                .order_by(OutboxMessage.id).limit(50).with_for_update(skip_locked=True))).all())
            if not rows:
                return None
            prefs = await db.get(NotificationPrefs, user_id)
            unit = await self._plan(db, prefs, rows, now)
            if unit is None:
                return Unit("", [], Message("", ""))
            assert prefs is not None
            unit.address = (prefs.email if unit.channel == "email" else prefs.webhook_url) or ""
            for row in unit.rows:
                row.status = "sending"
                row.claimed_at = now
                row.attempts += 1
            return unit

    async def _send(self, unit: Unit) -> str | None:
        """Deliver outside any transaction. Returns the error, or None when it went out."""
        try:
            if unit.channel == "email":
                await send_email(self.settings, unit.address, unit.message)
            else:
                await post_webhook(unit.address, unit.message, self.settings)
        except DeliveryError as exc:
            return str(exc)
        except Exception as exc:  # a bug in an adapter: counted as a failed attempt, never a crash
            log.exception("sending notification %s failed unexpectedly", [r.id for r in unit.rows])
            return f"{type(exc).__name__}: {exc}"
        return None

    async def _record(self, unit: Unit, error: str | None) -> None:
        async with self.sessions() as db, db.begin():
            now = clock.now()
            rows = list((await db.scalars(select(OutboxMessage).where(
                OutboxMessage.id.in_([r.id for r in unit.rows])).with_for_update())).all())
            if error is not None:
                self._failed(rows, now, error)
                return
            detail: dict[str, object] = {"digest": len(rows)} if len(rows) > 1 else {}
            for row in rows:
                self._mark_sent(row, now, detail)

    async def _sweep_interrupted(self) -> None:
        async with self.sessions() as db, db.begin():
            gone = (await db.execute(
                update(OutboxMessage)
                .where(OutboxMessage.status == "sending", OutboxMessage.claimed_at < clock.now() - self.lease)
                .values(status="failed", last_error="interrupted while sending (server stopped?); "
                                                   "not retried, so that it can never arrive twice")
                .returning(OutboxMessage.id))).scalars().all()
        if gone:
            log.error("notifications %s were interrupted while sending; not retried", list(gone))

    async def _plan(self, db: AsyncSession, prefs: NotificationPrefs | None, rows: list[OutboxMessage],
                    now: datetime) -> Unit | None:
        """Drop rows no longer worth sending; return the next message to send, if any."""
        head = rows[0]
        address = None if prefs is None else (prefs.email if head.channel == "email" else prefs.webhook_url)
        if not address:
            self._skip(head, now, "channel turned off")
            return None
        # in the recipient's language: the one the account chose or last signed in with
        langs = (await db.execute(select(User.locale, User.last_lang).where(User.id == head.user_id))).first()
        lang = (langs[0] or langs[1]) if langs else None
        if head.kind == "test":
            return Unit(head.channel, [head], test_message(self.settings.public_url, lang))
        turn = await self._still_waiting(db, head)
        if turn is None:
            self._skip(head, now, "no longer the player's move, or they have seen it")
            return None
        assert prefs is not None
        if head.channel == "webhook" or prefs.digest_hours is None:
            return Unit(head.channel, [head], turn_message(turn, lang))
        return await self._digest(db, prefs, [r for r in rows if r.channel == "email" and r.kind == "turn"], now,
                                  lang)

    async def _digest(self, db: AsyncSession, prefs: NotificationPrefs, rows: list[OutboxMessage],
                      now: datetime, lang: str | None = None) -> Unit | None:
        """At most one email every ``digest_hours``: hold turns until the window ends, then
        send what is still waiting, as one message (a digest when there are several)."""
        last = await db.scalar(select(OutboxMessage.sent_at).where(
            OutboxMessage.user_id == prefs.user_id, OutboxMessage.channel == "email", OutboxMessage.kind == "turn",
            OutboxMessage.status == "sent").order_by(OutboxMessage.sent_at.desc()).limit(1))
        opens = None if last is None else last + timedelta(hours=prefs.digest_hours or 0)
        if opens is not None and opens > now:
            for row in rows:
                row.due_at = opens
            return None
        turns: dict[str, Turn] = {}  # two turns of one match make one line
        going: list[OutboxMessage] = []
        for row in rows:
            turn = await self._still_waiting(db, row)
            if turn is None:
                self._skip(row, now, "no longer the player's move, or they have seen it")
            else:
                turns.setdefault(turn.match_id, turn)
                going.append(row)
        if not going:
            return None
        listed = list(turns.values())
        return Unit("email", going,
                    turn_message(listed[0], lang) if len(listed) == 1 else digest_message(listed, lang))

    async def _still_waiting(self, db: AsyncSession, row: OutboxMessage) -> Turn | None:
        """The turn, if the player still has to move and has not looked at the match since."""
        if row.match_id is None or row.seat is None or row.turn_seq is None:
            return None
        match = await db.get(Match, row.match_id, populate_existing=True)
        seat = await db.get(MatchSeat, (row.match_id, row.seat))
        if match is None or seat is None or match.status != "active" or row.seat not in (match.waiting_on or []):
            return None
        if seat.user_id != row.user_id or seat.bot is not None:
            return None
        acted = await db.scalar(select(Action.seq).where(Action.match_id == row.match_id, Action.seat == row.seat,
                                                         Action.seq > row.turn_seq).limit(1))
        if acted is not None or await looked_since(db, row.user_id, row.match_id, row.created_at):
            return None
        game = get_game(match.game)
        title = game.title if game is not None else match.game
        return Turn(match_id=match.id, title=title, seat_label=seat.label,
                    link=f"{self.settings.public_url}/matches/{match.id}", game=match.game)

    # --- outcomes --------------------------------------------------------
    def _failed(self, rows: list[OutboxMessage], now: datetime, error: str) -> None:
        for row in rows:
            row.last_error = error[:1000]
            if row.attempts >= self.settings.max_attempts:
                row.status = "failed"
                log.error("notification %s (%s to user %s) failed for good after %d attempts: %s",
                          row.id, row.channel, row.user_id, row.attempts, error)
            else:
                row.status = "pending"
                wait = min(timedelta(seconds=self.settings.retry_seconds * 2 ** (row.attempts - 1)), MAX_BACKOFF)
                row.due_at = now + wait
                log.warning("notification %s (%s to user %s) failed, attempt %d, retrying in %ss: %s",
                            row.id, row.channel, row.user_id, row.attempts, wait.total_seconds(), error)

    @staticmethod
    def _mark_sent(row: OutboxMessage, now: datetime, detail: dict[str, object]) -> None:
        row.status = "sent"
        row.sent_at = now
        row.detail = detail

    @staticmethod
    def _skip(row: OutboxMessage, now: datetime, why: str) -> None:
        row.status = "skipped"
        row.sent_at = now
        row.detail = {"skipped": why}
