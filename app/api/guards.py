"""Cross-site request forgery guards.

JSON API calls: a browser cannot send ``application/json`` cross-site without a
CORS preflight (which we never grant), so an unsafe /api request may name no content type
other than JSON, body or not (a bodiless form post is as cross-site as a full one), and,
when the browser names an Origin, it must be this host's. ``Origin: null`` (sandboxed
frames, cross-origin redirects, privacy modes) names no origin we could trust: refused.
HTML form posts carry the session's CSRF token, checked by ``check_form_token``.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


class OriginGuard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
            problem = _problem(scope["path"], headers)
            if problem is not None:
                status, error = problem
                body = json.dumps({"error": error}).encode()
                await send({"type": "http.response.start", "status": status,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


def _problem(path: str, headers: dict[str, str]) -> tuple[int, str] | None:
    origin = headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != headers.get("host"):
        return 403, f"cross-site request refused: Origin {origin} is not this server"
    if path.startswith("/api/"):
        ctype = headers.get("content-type", "").split(";")[0].strip().lower()
        has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        if (has_body or ctype) and ctype != "application/json":
            return 415, "the API takes JSON: send Content-Type: application/json (or no body and no Content-Type)"
    return None


def check_form_token(request: Request, token: str | None) -> bool:
    expected = request.session.get("csrf")
    return bool(expected) and token == expected
