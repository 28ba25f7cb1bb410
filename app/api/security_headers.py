"""Security headers on every HTTP response.

The pages run no inline script, no inline style and no eval: htmx is configured for that
(``allowEval``/``includeIndicatorStyles`` off in base.html), page behaviour lives in
app/static/warroom.js, and a game's board brings its stylesheet and script as files
(``/games/<game>/board.css|js``). So the policy is ``'self'`` for everything; ``connect-src
'self'`` covers the table's same-origin ws:/wss: socket. Nothing may frame the pages
(clickjacking a "resign" button), the browser must not guess content types, and other sites
are not told which match a player came from.

FastAPI's /docs and /redoc pages are the exception: they load Swagger UI / ReDoc from a CDN
and start them with an inline script. They show no user content, so they get a policy
loosened just for that.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
               "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
CDN = "https://cdn.jsdelivr.net"
DOCS_POLICY = (f"default-src 'self'; script-src 'self' 'unsafe-inline' {CDN}; style-src 'self' 'unsafe-inline' {CDN} "
               "https://fonts.googleapis.com; font-src 'self' https://fonts.gstatic.com; "
               f"img-src 'self' data: {CDN} https://fastapi.tiangolo.com; worker-src 'self' blob:; "
               "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/docs/oauth2-redirect", "/redoc")
COMMON = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def headers_for(path: str) -> dict[str, str]:
    policy = DOCS_POLICY if path in DOCS_PATHS else PAGE_POLICY
    return {"Content-Security-Policy": policy, **COMMON}


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = headers_for(scope["path"])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in extra.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
