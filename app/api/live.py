"""WS /api/matches/{id}/ws: server → client updates for the connection's seat."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.deps import current_user
from app.sessions import service
from app.sessions.errors import DomainError
from app.sessions.floods import SOCKET_REFUSED, SOCKETS
from app.sessions.live import Hub, Page, Subscriber

router = APIRouter(tags=["live"])


async def serve_socket(websocket: WebSocket, match_id: str, page: Page | None) -> None:
    """Accept, subscribe the caller's seat, then pump queued updates until the socket closes."""
    hub: Hub = websocket.app.state.hub
    origin = websocket.headers.get("origin")
    if origin and urlsplit(origin).netloc != websocket.headers.get("host"):
        await websocket.close(code=4403, reason="cross-site socket refused")  # another site riding our cookie
        return
    async with websocket.app.state.sessions() as db:
        user = await current_user(websocket, db)
        try:
            await service.get_match(db, match_id)
        except DomainError:
            await websocket.close(code=4404, reason="match not found")
            return
    del db  # this frame lives as long as the socket: a closed session is kilobytes an idle socket need not hold
    # which worker process serves this socket: lets tests prove cross-worker fan-out
    await websocket.accept(headers=[(b"x-warroom-worker", str(os.getpid()).encode())])
    if refusal := SOCKETS.acquire(websocket, user):  # accepted first: a refused handshake carries no reason
        await websocket.close(code=SOCKET_REFUSED, reason=refusal)
        return
    # the seat is the seat table's to say on every push, never fixed here
    sub = Subscriber(match_id=match_id, user_id=user.id if user else None, page=page)
    writer: asyncio.Task[None] | None = None
    try:
        await hub.subscribe(sub)  # the full message first, whatever ?seq= the client last saw
        writer = asyncio.create_task(_write(websocket, sub))
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:  # a binary frame: this socket speaks JSON text only
                await websocket.close(code=1003, reason="text frames only: send {\"seq\": n} as JSON text")
                break
            await _client_message(hub, sub, text)
    except WebSocketDisconnect:
        pass
    finally:  # also when subscribing failed (the database went away): the socket's quota slot comes back
        SOCKETS.release(websocket)
        hub.unsubscribe(sub)
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer


async def _write(websocket: WebSocket, sub: Subscriber) -> None:
    while True:
        text = await sub.queue.get()
        if text is None:
            await websocket.close(code=4408, reason="too slow: reconnect to resync")
            return
        await websocket.send_text(text)
        # an idle socket must not hold what it last sent (a new page socket's is a whole page)
        del text


async def _client_message(hub: Hub, sub: Subscriber, text: str) -> None:
    """The client may say which seq it last saw; anything else is ignored (moves go by POST)."""
    try:
        message = json.loads(text)
    except ValueError:
        return
    if isinstance(message, dict) and isinstance(message.get("seq"), int) and (
            sub.last_key is None or message["seq"] != sub.last_key[0]):
        await hub.subscribe(sub)


@router.websocket("/api/matches/{match_id}/ws")
async def match_socket(websocket: WebSocket, match_id: str) -> None:
    await serve_socket(websocket, match_id, page=None)
