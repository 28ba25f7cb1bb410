"""Adapters to the outside: SMTP and webhooks. Blocking clients run in a thread, with
timeouts; any failure raises ``DeliveryError`` for the worker to retry later."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import smtplib
import socket
import ssl
import urllib.error
import urllib.request
from email.message import EmailMessage
from urllib.parse import urlsplit

from app.notifications.config import SmtpSettings
from app.notifications.messages import Message

log = logging.getLogger("warroom.notifications")
TIMEOUT = 15


class DeliveryError(Exception):
    pass


async def send_email(smtp: SmtpSettings | None, to: str, message: Message) -> None:
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
        await asyncio.to_thread(_smtp_send, smtp, mail)
    except (OSError, smtplib.SMTPException) as exc:
        raise DeliveryError(f"SMTP {smtp.host}:{smtp.port}: {exc}") from exc


def _smtp_send(smtp: SmtpSettings, mail: EmailMessage) -> None:
    with smtplib.SMTP(smtp.host, smtp.port, timeout=TIMEOUT) as conn:
        if smtp.starttls:
            conn.starttls(context=ssl.create_default_context())
        if smtp.user:
            conn.login(smtp.user, smtp.password or "")
        conn.send_message(mail)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect could point the server at an address the URL check never saw."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirect, urllib.request.ProxyHandler({}))


async def post_webhook(url: str, message: Message, allow_private: bool) -> None:
    try:
        await asyncio.to_thread(_post, url, json.dumps(message.webhook_payload()).encode(), allow_private)
    except (OSError, ValueError, urllib.error.URLError) as exc:
        raise DeliveryError(f"webhook {urlsplit(url).netloc}: {exc}") from exc


def _post(url: str, body: bytes, allow_private: bool) -> None:
    if not allow_private:
        _refuse_private(url)
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json", "User-Agent": "Warroom"})
    with _opener.open(request, timeout=TIMEOUT) as response:
        if response.status >= 300:
            raise DeliveryError(f"HTTP {response.status}")


def _refuse_private(url: str) -> None:
    """Any guest may set a webhook: it must not make the server poke its own network."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    for info in socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP):
        address = ipaddress.ip_address(info[4][0])
        if not address.is_global:
            raise DeliveryError(f"refusing to post to non-public address {address} "
                                "(set WARROOM_WEBHOOK_ALLOW_PRIVATE=1 to allow)")
