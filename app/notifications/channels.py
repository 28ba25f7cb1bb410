"""Adapters to the outside: SMTP and webhooks, each bounded by the configured timeouts;
any failure raises ``DeliveryError`` for the worker to retry later. smtplib blocks, so it
runs in threads of its own: a hanging mail server must not take the threads the rest of
the server shares (password hashing, ...)."""

from __future__ import annotations

import asyncio
import functools
import logging
import smtplib
import ssl
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage
from urllib.parse import urlsplit

import httpx

from app.notifications import webhooks
from app.notifications.config import NotifySettings, SmtpSettings
from app.notifications.messages import Message

log = logging.getLogger("warroom.notifications")


class DeliveryError(Exception):
    pass


async def send_email(settings: NotifySettings, to: str, message: Message) -> None:
    smtp = settings.smtp
    if smtp is None:
        # no mail server configured: the operator can still read (and forward) what was meant
        log.warning("email not sent (no WARROOM_SMTP_HOST configured) to=%s subject=%r body=%r",
                    to, message.subject, message.text)
        return
    mail = EmailMessage()
    mail["From"] = smtp.sender
    mail["To"] = to
    mail["Subject"] = message.subject
    mail.set_content(message.text)
    try:
        await asyncio.get_running_loop().run_in_executor(
            _mail_threads(settings.concurrency), _smtp_send, smtp, mail, settings)
    except (OSError, smtplib.SMTPException) as exc:
        raise DeliveryError(f"SMTP {smtp.host}:{smtp.port}: {exc}") from exc


@functools.cache
def _mail_threads(size: int) -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=size, thread_name_prefix="warroom-smtp")


def _smtp_send(smtp: SmtpSettings, mail: EmailMessage, settings: NotifySettings) -> None:
    # smtplib knows one timeout per socket step: short to connect, then the longer one for each
    # step (a deadline for the whole exchange would leave a thread sending what was given up on)
    with smtplib.SMTP(smtp.host, smtp.port, timeout=settings.connect_timeout) as conn:
        if conn.sock is not None:
            conn.sock.settimeout(settings.send_timeout)
        conn.timeout = settings.send_timeout
        if smtp.starttls:
            conn.starttls(context=ssl.create_default_context())
        if smtp.user:
            conn.login(smtp.user, smtp.password or "")
        conn.send_message(mail)


async def post_webhook(url: str, message: Message, settings: NotifySettings) -> None:
    try:
        await webhooks.post_json(url, message.webhook_payload(), allow_private=settings.allow_private_webhooks,
                                 connect_timeout=settings.connect_timeout, total_timeout=settings.send_timeout)
    except webhooks.NotPublic as exc:
        raise DeliveryError(f"webhook {exc.host}: not sent, {webhooks.explain(exc, 'en')} "
                            "(WARROOM_WEBHOOK_ALLOW_PRIVATE=1 allows others)") from exc
    except TimeoutError as exc:
        raise DeliveryError(f"webhook {_netloc(url)}: no answer within {settings.send_timeout:g} s") from exc
    except (webhooks.Refused, httpx.HTTPError, OSError, ValueError) as exc:
        raise DeliveryError(f"webhook {_netloc(url)}: {str(exc) or type(exc).__name__}") from exc


def _netloc(url: str) -> str:
    return urlsplit(url).hostname or "?"
