#!/usr/bin/env python
"""Server memory per idle socket, per channel, with and without per-message deflate (issue 10).

Not a test. Starts its own PostgreSQL (pgserver; or ``--database-url``) and ``python -m app serve``
with one worker, opens one started QMG table, then K idle sockets at a time, each batch kept open
while the next is measured: JSON sockets of one seat, anonymous JSON spectators, page sockets of
one seat's browser, anonymous page spectators (``--compression deflate`` as a browser negotiates
it, or none as the move-path bench's clients do; the server compresses only with
WARROOM_WS_DEFLATE=1 in the environment). Prints the worker's RSS growth per socket (KiB) after
each batch has received its first frame, and the first frame's size, raw and as deflate (12
window bits, uvicorn's setting) would send it.

    .venv/bin/python scripts/bench_idle_sockets.py --sockets 200 --compression none,deflate
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import uuid
import zlib
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect as ws_connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.bench_live import Database, Server, raise_fd_limit, server_workers  # noqa: E402
from scripts.bench_move_path import UNLIMITED, rss_kib  # noqa: E402


async def table(base: str, tag: str) -> tuple[str, list[httpx.AsyncClient], httpx.AsyncClient]:
    players = []
    for s in range(4):
        c = httpx.AsyncClient(base_url=base, timeout=30)
        (await c.post("/api/guests", json={"name": f"idle {tag} {s}"})).raise_for_status()
        players.append(c)
    r = await players[0].post("/api/matches", json={"game": "qmg", "players": 4, "options": {}, "mode": "live"})
    r.raise_for_status()
    match_id = r.json()["match_id"]
    for p in players[1:]:
        (await p.post(f"/api/matches/{match_id}/join", json={})).raise_for_status()
    (await players[0].post(f"/api/matches/{match_id}/start", json={})).raise_for_status()
    viewer = httpx.AsyncClient(base_url=base, timeout=30)
    for c in (viewer, players[1]):  # a page's session (its CSRF token, language) is made by loading it
        (await c.get(f"/matches/{match_id}")).raise_for_status()
    return match_id, players, viewer


def cookie(c: httpx.AsyncClient) -> dict[str, str]:
    jar = "; ".join(f"{n}={v}" for n, v in c.cookies.items())
    return {"Cookie": jar} if jar else {}


async def measure(server: Server, k: int, compression: str | None) -> dict[str, Any]:
    base, ws = server.url, server.ws_url
    match_id, players, viewer = await table(base, uuid.uuid4().hex[:5])
    assert server.process is not None
    pids = server_workers(server.process.pid) or [server.process.pid]
    socks: list[Any] = []
    gate = asyncio.Semaphore(32)
    first: dict[str, int] = {}
    deflated: dict[str, int] = {}

    async def open_one(name: str, path: str, who: httpx.AsyncClient | None) -> None:
        async with gate:
            sock = await ws_connect(f"{ws}{path}", additional_headers=cookie(who) if who else {},
                                    origin=base if "live" in path else None, max_size=1 << 23,
                                    ping_interval=None, compression=compression, open_timeout=60)
            socks.append(sock)
            text = await asyncio.wait_for(sock.recv(), 60)
            first[name] = len(text.encode())
            # as the server's deflate would send it (uvicorn's settings: 12 window bits, memLevel 5)
            packer = zlib.compressobj(wbits=-12, memLevel=5)
            deflated[name] = len(packer.compress(text.encode()) + packer.flush(zlib.Z_SYNC_FLUSH)) - 4

    def rss() -> int:
        return sum(rss_kib(p) or 0 for p in pids)

    batches = [("json seat", f"/api/matches/{match_id}/ws", players[1]),
               ("json spectator", f"/api/matches/{match_id}/ws", None),
               ("page seat", f"/matches/{match_id}/live", players[1]),
               ("page spectator", f"/matches/{match_id}/live", viewer)]
    out: dict[str, Any] = {}
    try:
        for name, path, who in batches:  # warm each kind first: code paths, caches, allocator arenas
            await asyncio.gather(*(open_one(name, path, who) for _ in range(8)))
        await asyncio.sleep(1)
        for name, path, who in batches:
            before = rss()
            await asyncio.gather(*(open_one(name, path, who) for _ in range(k)))
            await asyncio.sleep(1)
            out[name] = round((rss() - before) / k, 1)
        out["first frame B"] = {n: f"{first[n]} ({deflated[n]} deflated)" for n in first}
        return out
    finally:
        for s in socks:
            with contextlib.suppress(Exception):
                await s.close()
        for c in [*players, viewer]:
            await c.aclose()


async def amain(args: argparse.Namespace) -> None:
    raise_fd_limit()
    db = await Database.create(args.database_url, f"bench_idle_{uuid.uuid4().hex[:6]}")
    try:
        for compression in args.compression.split(","):
            server = Server(db.url, 1)
            await asyncio.to_thread(server.start, dict(UNLIMITED))
            try:
                got = await measure(server, args.sockets, None if compression == "none" else compression)
            finally:
                server.stop()
            frames = got.pop("first frame B")
            print(f"compression={compression}: KiB per idle socket " +
                  ", ".join(f"{n} {v}" for n, v in got.items()) + f"; first frame bytes {frames}", flush=True)
    finally:
        await db.close(keep=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sockets", type=int, default=200, help="idle sockets per batch (default 200)")
    ap.add_argument("--compression", default="none,deflate", help="none, deflate or both (comma-separated)")
    ap.add_argument("--database-url", default=None)
    asyncio.run(amain(ap.parse_args()))


if __name__ == "__main__":
    main()
