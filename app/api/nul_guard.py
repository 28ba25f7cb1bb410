"""No U+0000 in any string a request carries.

PostgreSQL refuses NUL in text and JSONB, so a NUL that reaches a query is a 500 in some
unrelated place. Every string enters through one of four doors, and each is checked once:
the path and the query string and JSON bodies here (``NulGuard``), and page forms (which may
be multipart) in ``app.api.page_kit.checked_form`` through ``nul_in_form``. The answer is a 422
naming the field, like any other validation error.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

NUL = "\x00"
JSON_NUL = b"\\u0000"  # the only way a JSON text can hold NUL (a raw one is not JSON)


def refusal(where: str) -> str:
    return f"{where}: must not contain the NUL character (U+0000)"


def nul_in(value: Any, where: str) -> str | None:
    """The dotted path of the first string (or object key) inside ``value`` holding NUL."""
    if isinstance(value, str):
        return where if NUL in value else None
    if isinstance(value, dict):
        items: Iterable[tuple[Any, Any]] = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        inner = f"{where}.{key}" if where else str(key)
        if NUL in str(key):
            return inner
        if found := nul_in(item, inner):
            return found
    return None


def nul_in_pairs(pairs: Iterable[tuple[str, Any]]) -> str | None:
    """The name of the first (name, value) pair, of a query or a form, holding NUL."""
    for name, value in pairs:
        if NUL in name or (isinstance(value, str) and NUL in value):
            return name
    return None


def nul_in_url(scope: Scope) -> str | None:
    if NUL in scope["path"]:
        return "path"
    raw: bytes = scope.get("query_string", b"")
    if b"%00" in raw:
        return nul_in_pairs(parse_qsl(raw.decode("latin-1"), keep_blank_values=True))
    return None


def nul_in_json(body: bytes) -> str | None:
    if JSON_NUL not in body:
        return None
    try:
        return nul_in(json.loads(body), "")
    except ValueError:  # not JSON after all: the route's own parsing says so
        return None


def is_json(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"content-type":
            return value.split(b";")[0].strip().lower() == b"application/json"
    return False


class NulGuard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        where = nul_in_url(scope)
        if where is None and scope["type"] == "http" and is_json(scope):
            body, receive = await buffered(receive)
            where = nul_in_json(body)
        if where is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": refusal(where)})
        else:
            await unprocessable(send, refusal(where))


async def buffered(receive: Receive) -> tuple[bytes, Receive]:
    """The whole request body, and a ``receive`` that hands it on as if unread."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"", _replay([message], receive)  # the client left: let the app see it
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    return body, _replay([{"type": "http.request", "body": body, "more_body": False}], receive)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    async def replay() -> Message:
        return messages.pop(0) if messages else await receive()

    return replay


async def unprocessable(send: Send, error: str) -> None:
    body = json.dumps({"error": error}).encode()
    await send({"type": "http.response.start", "status": 422,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
