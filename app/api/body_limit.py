"""Request-body limits for the paths that take uploads, enforced before the body is read.

uvicorn reads request bodies without any limit, and both FastAPI's JSON parsing and Starlette's
multipart parser take whatever arrives. Here a body announced (Content-Length) over its path's
limit is refused at the first read, with no byte of it read; a body that does not announce its
size (chunked) is counted as it streams and refused at the first chunk past the limit.

The refusal is an HTTPException(413): FastAPI re-raises it from its body parsing, so the
JSON API answers ``{"error": ...}`` through the app's handler, and a page handler that reads
its own form may catch ``BodyTooLarge`` and answer in its own words.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is over the limit of {describe_size(limit)} for this address")
        self.limit = limit


def describe_size(size: int) -> str:
    if size >= 1024 * 1024 and size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MB"
    if size >= 1024 and size % 1024 == 0:
        return f"{size // 1024} KB"
    return f"{size} bytes"


class BodyLimit:
    def __init__(self, app: ASGIApp, limits: Mapping[str, int]) -> None:
        self.app = app
        self.limits = dict(limits)  # exact path -> the largest body it takes, in bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = self.limits.get(scope["path"]) if scope["type"] == "http" else None
        if limit is None:
            await self.app(scope, receive, send)
            return
        announced = _content_length(scope)
        seen = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal seen
            if announced is not None and announced > limit:
                raise BodyTooLarge(limit)
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except BodyTooLarge as exc:  # raised where no handler answered it (e.g. outside FastAPI)
            if started:
                raise
            await JSONResponse({"error": exc.detail}, status_code=413)(scope, receive, send)


def _content_length(scope: Scope) -> int | None:
    value = Headers(scope=scope).get("content-length")
    if value is None or not (value.isascii() and value.isdigit()):
        return None  # the server (h11, httptools) refuses malformed lengths before we run
    return int(value) if len(value) < 20 else 2**63
