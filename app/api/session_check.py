"""Only a live server-side session signs a request in.

Runs inside Starlette's SessionMiddleware, on every HTTP request and WebSocket: when the
signed cookie names a user, its session id must be one ``app.state.session_checks`` holds
(not revoked, not expired, that user's). Otherwise the user is dropped from the session
before any route sees it, so every route, page and socket treats the request as signed
out, and the response clears the stale cookie. ``require_signed_in`` stays query-free.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from app.sessions.signins import SessionChecks


class SessionCheck:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        session = scope.get("session") if scope["type"] in ("http", "websocket") else None
        if session and "uid" in session:
            checks: SessionChecks = scope["app"].state.session_checks
            uid, sid = session.get("uid"), session.get("sid")
            if not (isinstance(uid, int) and isinstance(sid, str) and await checks.holds(sid, uid)):
                session.pop("uid", None)
                session.pop("sid", None)
        await self.app(scope, receive, send)
