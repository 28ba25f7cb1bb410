"""uvicorn's HTTP protocol with a deadline on the request head.

uvicorn closes a connection left idle *between* requests (``timeout_keep_alive``) but has no
deadline for the request line and headers: a client that opens a socket and sends nothing, or
drips a byte of header every few seconds, holds the connection (and its memory) for ever, and
a few thousand such sockets starve everyone else. Here the head (request line + headers) must
be complete within ``WARROOM_HEADER_TIMEOUT`` seconds of the connection opening, or of the
request's first byte on a kept-alive connection; otherwise the connection is closed, with a
408 if part of a head had arrived. A reverse proxy in front (README) is still the right place
for slow bodies and header size limits in production.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

DEFAULT_HEADER_TIMEOUT = 10.0
REQUEST_TIMEOUT = b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"


def header_timeout() -> float:
    return float(os.environ.get("WARROOM_HEADER_TIMEOUT", DEFAULT_HEADER_TIMEOUT))


class HeadDeadlineProtocol(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_seconds = header_timeout()
        self.head_deadline: asyncio.TimerHandle | None = None
        self.head_begun = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()  # a socket that never says anything counts as a head that never ends

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.head_begun = True
        if self.head_deadline is None:  # the next request on a kept-alive connection
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        self.head_begun = False
        super().on_headers_complete()

    def _arm(self) -> None:
        self._disarm()
        self.head_deadline = self.loop.call_later(self.head_seconds, self._head_too_slow)

    def _disarm(self) -> None:
        if self.head_deadline is not None:
            self.head_deadline.cancel()
            self.head_deadline = None

    def _head_too_slow(self) -> None:
        self.head_deadline = None
        if self.transport.is_closing():
            return
        # a response of an earlier (pipelined) request may still be being written: never cut into it
        if self.head_begun and (self.cycle is None or self.cycle.response_complete):
            self.transport.write(REQUEST_TIMEOUT)
        self.transport.close()
