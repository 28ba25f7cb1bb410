"""A WebSocket client that keeps each seat's message current by applying patches."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import jsonpatch
import websockets


class LiveSeat:
    def __init__(self, ws_url: str, match_id: str, cookie: str | None) -> None:
        self.url = f"{ws_url}/api/matches/{match_id}/ws"
        self.cookie = cookie
        self.message: dict[str, Any] | None = None
        self.frames: list[tuple[int, str]] = []  # (seq, raw text): everything this socket received
        self.messages: list[dict[str, Any]] = []  # the whole message after each frame
        self.worker: str | None = None
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Condition()

    async def __aenter__(self) -> LiveSeat:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        self._ws = await websockets.connect(self.url, additional_headers=headers, max_size=None)
        self.worker = self._ws.response.headers.get("x-warroom-worker")
        self._reader = asyncio.create_task(self._read())
        await self.wait_for(lambda m: True)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._reader:
            self._reader.cancel()
        await self._ws.close()

    async def _read(self) -> None:
        async for text in self._ws:
            frame = json.loads(text)
            if "patch" in frame:
                assert self.message is not None, "a patch arrived before any full message"
                self.message = jsonpatch.apply_patch(self.message, frame["patch"])
            else:
                self.message = frame
            assert self.message is not None
            self.message["seq"] = frame["seq"]
            self.frames.append((frame["seq"], text))
            self.messages.append(json.loads(json.dumps(self.message)))
            async with self._changed:
                self._changed.notify_all()

    async def send(self, message: dict[str, Any]) -> None:
        await self._ws.send(json.dumps(message))

    @property
    def seq(self) -> int:
        return -1 if self.message is None else int(self.message["seq"])

    async def wait_for(self, predicate: Any, timeout: float = 10) -> dict[str, Any]:
        async def wait() -> dict[str, Any]:
            async with self._changed:
                while self.message is None or not predicate(self.message):
                    await self._changed.wait()
                return self.message

        return await asyncio.wait_for(wait(), timeout)

    async def wait_seq(self, seq: int, timeout: float = 10) -> dict[str, Any]:
        return await self.wait_for(lambda m: m["seq"] >= seq, timeout)
