"""Notification settings, read from the environment once per process."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    user: str | None
    password: str | None
    sender: str
    starttls: bool


@dataclass(frozen=True)
class NotifySettings:
    smtp: SmtpSettings | None  # None: emails are written to the server log instead
    public_url: str  # links in messages point here
    poll_seconds: float  # how often the worker looks at the outbox
    delay_seconds: float  # a turn is told only after this long (a player looking at it needs nothing)
    presence_seconds: float  # heartbeat of who is looking at which match
    retry_seconds: float  # first retry after a failure; doubles each time
    max_attempts: int
    allow_private_webhooks: bool  # webhooks to loopback/private addresses (tests, LAN installs)
    concurrency: int  # deliveries in flight at once per process: a hanging webhook holds one slot only
    connect_timeout: float  # seconds to open a connection to a mail server or webhook
    send_timeout: float  # seconds a webhook delivery may take in all; an SMTP exchange per step


def _flag(name: str, default: str = "0") -> bool:
    return os.environ.get(name, default).strip().lower() in ("1", "true", "yes", "on")


def _positive(name: str, default: str, kind: type[int] | type[float] = float) -> float:
    value = kind(os.environ.get(name, default))
    if value <= 0:
        raise ValueError(f"{name} must be positive, not {value}")
    return value


def load() -> NotifySettings:
    env = os.environ
    smtp = None
    if host := env.get("WARROOM_SMTP_HOST"):
        smtp = SmtpSettings(host=host, port=int(env.get("WARROOM_SMTP_PORT", "587")),
                            user=env.get("WARROOM_SMTP_USER") or None,
                            password=env.get("WARROOM_SMTP_PASSWORD") or None,
                            sender=env.get("WARROOM_SMTP_FROM", "warroom@localhost"),
                            starttls=_flag("WARROOM_SMTP_STARTTLS", "0"))
    public = env.get("WARROOM_PUBLIC_URL") or f"http://{env.get('HOST', '127.0.0.1')}:{env.get('PORT', '8000')}"
    return NotifySettings(
        smtp=smtp,
        public_url=public.rstrip("/"),
        poll_seconds=float(env.get("WARROOM_NOTIFY_POLL_SECONDS", "5")),
        delay_seconds=float(env.get("WARROOM_NOTIFY_DELAY_SECONDS", "60")),
        presence_seconds=float(env.get("WARROOM_PRESENCE_SECONDS", "10")),
        retry_seconds=float(env.get("WARROOM_NOTIFY_RETRY_SECONDS", "30")),
        max_attempts=int(env.get("WARROOM_NOTIFY_MAX_ATTEMPTS", "8")),
        allow_private_webhooks=_flag("WARROOM_WEBHOOK_ALLOW_PRIVATE"),
        concurrency=int(_positive("WARROOM_NOTIFY_CONCURRENCY", "8", int)),
        connect_timeout=_positive("WARROOM_NOTIFY_CONNECT_TIMEOUT", "5"),
        send_timeout=_positive("WARROOM_NOTIFY_TIMEOUT", "10"),
    )
