"""The one mapping from the sessions' refusals to HTTP: status codes and the JSON error body.

Sessions raise kinds (``NotFound``, ``Stale``...); the web layer alone knows that a stale
move is a 409. ``ApiError`` is for the web layer's own refusals (a form field, sign in first),
which carry their status where they are raised."""

from __future__ import annotations

import contextlib
import html
import logging
from typing import Any

from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.sessions.errors import (
    Conflict,
    DomainError,
    Forbidden,
    Invalid,
    NotFound,
    RateLimited,
    Refused,
    Unauthenticated,
    Unavailable,
)

log = logging.getLogger("warroom")

STATUS: dict[type[DomainError], int] = {
    Refused: 400,
    Unauthenticated: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    Invalid: 422,
    RateLimited: 429,
    Unavailable: 503,
}


class ApiError(DomainError):
    """A refusal made by the web layer itself, with its HTTP status."""

    def __init__(self, status: int, error: str, **extra: Any) -> None:
        super().__init__(error, **extra)
        self.status = status


def status_of(exc: DomainError) -> int:
    if isinstance(exc, ApiError):
        return exc.status
    for kind in type(exc).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 400


def error_response(exc: DomainError) -> JSONResponse:
    headers = {"Retry-After": str(exc.extra["retry_after"])} if "retry_after" in exc.extra else None
    return JSONResponse(status_code=status_of(exc), content={"error": exc.error, **exc.extra}, headers=headers)


# --------------------------------------------------------------------------- overload
RETRY_AFTER_SECONDS = 1
TRY_AGAIN_LATER = 1013  # WebSocket close code: "Try Again Later" (RFC 6455 registry)
BUSY = "the server is busy: try again in a moment"


def _busy_response(scope: Scope) -> Response:
    """503 + Retry-After in the caller's kind: JSON for the API and scripts, the message in the
    page's language for a browser (out of band for htmx, which keeps the page as it is)."""
    from app.i18n import choose_lang, t, use_lang  # here: the pages' stack imports this module

    request = Request(scope)
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"}
    accept = request.headers.get("accept", "")
    if request.url.path.startswith("/api/") or "text/html" not in accept and "hx-request" not in request.headers:
        return JSONResponse(status_code=503, content={"error": BUSY}, headers=headers)
    use_lang(choose_lang(None, None, request.headers.get("accept-language")))
    message = t("server_busy")
    if "hx-request" in request.headers:
        from app.api.templating import templates

        body = templates.get_template("flash_oob.html").render(flash=message)
        return HTMLResponse(body, status_code=503, headers={**headers, "HX-Reswap": "none"})
    # no template: base.html asks the database (the header's counts) that is not answering
    page = (f"<!doctype html><html><head><meta charset=\"utf-8\"><title>Warroom</title>"
            f"<meta http-equiv=\"refresh\" content=\"{RETRY_AFTER_SECONDS * 5}\"></head>"
            f"<body><h1>{html.escape(message)}</h1><p><a href=\"\">Warroom</a></p></body></html>")
    return HTMLResponse(page, status_code=503, headers=headers)


class Overload:
    """Answers "the database is overloaded or restarting" as 503 + Retry-After, never 500:
    a pool timeout, too many clients, a server starting or shutting down, a connection refused
    or lost (``app.db.database_unavailable``), wherever it is raised (a route, a dependency, the
    session check). A socket is closed with 1013 and a reason a client can show. An answer
    already under way cannot be changed: that error goes on to the server's log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = accepted = closed = False

        async def watched(message: Message) -> None:
            nonlocal started, accepted, closed
            kind = message["type"]
            started = started or kind in ("http.response.start", "websocket.http.response.start")
            accepted = accepted or kind == "websocket.accept"
            closed = closed or kind == "websocket.close"
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as exc:
            from app.db import database_unavailable

            if not database_unavailable(exc):
                raise
            log.warning("database unavailable (%s: %s): answering %s busy", type(exc).__name__, exc,
                        scope["type"])
            if scope["type"] == "http":
                if started:
                    raise
                await _busy_response(scope)(scope, receive, send)
                return
            if closed or started:
                return
            with contextlib.suppress(Exception):  # the client may be gone already
                if not accepted:  # a refused handshake carries no reason: accept, then close
                    await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": TRY_AGAIN_LATER,
                            "reason": "the server is busy: reconnect in a moment"})
