#!/usr/bin/env python
"""What a move costs the live channels of a Quartermaster General table (issue 9, item 7).

Not a test. It starts its own PostgreSQL (pgserver in a temp dir), a fresh migrated database
and ``python -m app serve`` on a loopback port, then plays seeded QMG matches: four players
answer at random through the JSON API (legal choices, seeded RNG), while on the server every
seat and two spectators keep a page socket (the htmx channel) and a JSON socket open. Printed:

* bytes per update per channel (median, p90, max), the first (full) frame apart;
* the page socket's bytes per update by fragment (which parts of the page cost what);
* from a hub run in this process on the same database with the same page sockets, pushed
  once per committed move: renders per push, database queries per push and the hub's CPU per
  push, for 6 sockets and again with 15 (none of them may grow with the sockets);
* what the same pushes cost before this work: the whole panel set on every push (the size
  of a full render).

    .venv/bin/python scripts/bench_page_push.py --matches 2 --moves 150 --seed 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect as ws_connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import event  # noqa: E402

from app.api.table_pages import TablePage  # noqa: E402
from app.db import asyncpg_dsn, make_engine, make_sessionmaker  # noqa: E402
from app.models import User  # noqa: E402
from app.sessions.fragments import attributes, split  # noqa: E402
from app.sessions.live import Hub, Subscriber  # noqa: E402
from app.sessions.replay import MatchCache  # noqa: E402
from tests.conftest import Server, create_database  # noqa: E402


def pct(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))] if ordered else 0


def summary(values: list[int]) -> str:
    if not values:
        return "no frames"
    return (f"median {statistics.median(values):>8,.0f} B   p90 {pct(values, 90):>8,} B   max {max(values):>8,} B"
            f"   ({len(values)} frames)")


class Client:
    def __init__(self, base: str, name: str) -> None:
        self.http = httpx.AsyncClient(base_url=base, timeout=20)
        self.name = name
        self.id = 0

    async def sign_in(self) -> None:
        r = await self.http.post("/api/guests", json={"name": self.name})
        r.raise_for_status()
        self.id = r.json()["id"]

    @property
    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


class Listener:
    """One socket on the server: the size of every frame after the first."""

    def __init__(self, url: str, cookie: str) -> None:
        self.url, self.cookie = url, cookie
        self.first = 0
        self.sizes: list[int] = []
        self.frames: list[str] = []
        self.task: asyncio.Task[None] | None = None
        self.ready = asyncio.Event()

    async def run(self) -> None:
        async with ws_connect(self.url, additional_headers={"Cookie": self.cookie}, max_size=None) as ws:
            async for text in ws:
                size = len(text.encode() if isinstance(text, str) else text)
                if not self.ready.is_set():
                    self.first = size
                    self.ready.set()
                else:
                    self.sizes.append(size)
                    self.frames.append(str(text))

    async def start(self) -> None:
        self.task = asyncio.create_task(self.run())
        await asyncio.wait_for(self.ready.wait(), 20)

    async def stop(self) -> None:
        if self.task:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


async def random_move(players: list[Client], match_id: str, rng: random.Random) -> int | None:
    """A seat with a required decision answers it at random: the new seq, or None at the end."""
    order = players[:]
    rng.shuffle(order)
    for p in order:
        m = (await p.http.get(f"/api/matches/{match_id}")).json()
        if m["status"] != "active":
            return None
        required = [d for d in m["pending"] if not d["optional"]]
        if not required:
            continue
        d = rng.choice(required)
        ids = [c["id"] for c in d["choices"]]
        picked = rng.sample(ids, max(d["min"], 1)) if d["max"] > 1 else [rng.choice(ids)]
        r = await p.http.post(f"/api/matches/{match_id}/actions",
                              json={"seq": m["seq"], "decision": d["decision"], "choices": picked})
        if r.status_code == 200:
            return int(r.json()["seq"])
    return None


def by_fragment(frames: list[str]) -> dict[str, list[int]]:
    """Bytes per top-level element sent: by id; new lines by where they go; deletes together."""
    out: dict[str, list[int]] = {}
    for frame in frames:
        for f in split(re.sub(r"^<!--seq:\d+-->", "", frame)).fragments:
            swap = attributes(f.text[:f.text.find(">")]).get("hx-swap-oob", "")
            name = "(delete)" if swap.startswith("delete") else f.id or f"({swap})"
            out.setdefault(name, []).append(len(f.text.encode()))
    return out


async def play(base: str, ws_base: str, database_url: str, matches: int, moves: int, seed: int,
               dump: Path | None = None) -> None:
    rng = random.Random(seed)
    engine = make_engine(database_url, pool_size=2)
    queries = [0]

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def count(*_args: Any) -> None:
        queries[0] += 1

    hub = Hub(make_sessionmaker(engine), MatchCache(), asyncpg_dsn(database_url))
    page_sizes: list[int] = []
    json_sizes: list[int] = []
    page_first: list[int] = []
    json_first: list[int] = []
    page_frames: list[str] = []
    json_frames: list[str] = []
    renders: list[int] = []
    queries_per_push: dict[int, list[int]] = {}
    cpu_per_push: dict[int, list[float]] = {}
    full_sizes: list[int] = []
    for n in range(matches):
        players = [Client(base, f"Bench {seed}.{n}.{i}") for i in range(4)]
        watchers = [Client(base, f"Bench watcher {seed}.{n}.{i}") for i in range(10)]
        for c in players + watchers:
            await c.sign_in()
        r = await players[0].http.post("/api/matches", json={"game": "qmg", "players": 4, "options": {},
                                                              "mode": "live"})
        r.raise_for_status()
        match_id = r.json()["match_id"]
        for p in players[1:]:
            (await p.http.post(f"/api/matches/{match_id}/join")).raise_for_status()
        (await players[0].http.post(f"/api/matches/{match_id}/start")).raise_for_status()
        watching = players + watchers[:2]
        pages = [Listener(f"{ws_base}/matches/{match_id}/live", c.cookie) for c in watching]
        sockets = [Listener(f"{ws_base}/api/matches/{match_id}/ws", c.cookie) for c in watching]
        for listener in pages + sockets:
            await listener.start()
        # the same page sockets on an in-process hub, to count renders and queries
        async with hub.sessions() as db:
            users = {c.id: await db.get(User, c.id) for c in players + watchers}

        async def subscribe(c: Client, users: dict[int, Any] = users, match_id: str = match_id) -> Subscriber:
            sub = Subscriber(match_id=match_id, user_id=c.id,
                             page=TablePage(users[c.id], "en", "csrf", f"http://bench/matches/{match_id}"))
            await hub.subscribe(sub)
            return sub

        subs = [await subscribe(c) for c in watching]
        for i in range(moves):
            if i == moves // 2:  # 8 more spectators and a second tab: neither renders nor queries may grow
                subs += [await subscribe(c) for c in watchers[2:]] + [await subscribe(players[0])]
            seq = await random_move(players, match_id, rng)
            if seq is None:
                break
            before_r, before_q, started = hub.stats.renders, queries[0], time.process_time()
            await hub.push_now(match_id)
            cpu_per_push.setdefault(len(subs), []).append(time.process_time() - started)
            renders.append(hub.stats.renders - before_r)
            queries_per_push.setdefault(len(subs), []).append(queries[0] - before_q)
            for sub in subs:
                while not sub.queue.empty():
                    sub.queue.get_nowait()
            full_sizes.append(len(subs[0].sent.text.encode()) if subs[0].sent else 0)
        await asyncio.sleep(1.0)  # the server's last frames
        for listener in pages + sockets:
            await listener.stop()
        for sub in subs:
            hub.unsubscribe(sub)
        page_sizes += [s for listener in pages for s in listener.sizes]
        json_sizes += [s for listener in sockets for s in listener.sizes]
        page_first += [listener.first for listener in pages]
        json_first += [listener.first for listener in sockets]
        page_frames += [f for listener in pages for f in listener.frames]
        json_frames += [f for listener in sockets for f in listener.frames]
        for c in players + watchers:
            await c.http.aclose()
    await engine.dispose()

    if dump is not None:  # every page frame, in order, to read what a median one carries
        dump.mkdir(parents=True, exist_ok=True)
        for i, frame in enumerate(page_frames):
            (dump / f"{i:05d}-{len(frame.encode())}.html").write_text(frame)
        for i, frame in enumerate(json_frames):
            (dump / f"json-{i:05d}-{len(frame.encode())}.json").write_text(frame)
    print(f"QMG, 4 seats, random legal answers (seed {seed}), {matches} match(es) x up to {moves} moves;"
          " sockets: 4 seats + 2 spectators per channel")
    print(f"page socket (htmx)  per update: {summary(page_sizes)}")
    print(f"JSON socket         per update: {summary(json_sizes)}")
    print(f"first frame (everything): page median {statistics.median(page_first):,.0f} B,"
          f" JSON median {statistics.median(json_first):,.0f} B")
    print(f"before (the whole panel set on every push): {summary(full_sizes)}")
    print(f"renders per push (one per key: each seat's, and one for all the spectators): {sorted(set(renders))}")
    for n_subs, counts in sorted(queries_per_push.items()):
        print(f"DB queries per push with {n_subs:>2} page sockets: median {statistics.median(counts):.0f},"
              f" max {max(counts)}; hub CPU per push median"
              f" {1000 * statistics.median(cpu_per_push[n_subs]):.1f} ms (this process: the read, renders, diffs)")
    parts = by_fragment(page_frames)
    total = sum(page_sizes) or 1
    biggest = max(parts, key=lambda fid: sum(parts[fid])) if parts else ""
    rest = [len(f.encode()) - sum(len(n.text.encode()) for n in split(re.sub(r"^<!--seq:\d+-->", "", f)).fragments
                                  if n.id == biggest) for f in page_frames]
    print(f"page socket per update without its biggest fragment (#{biggest}): {summary(rest)}")
    print("page socket bytes by fragment (share of all update bytes, median size when sent):")
    for fid, sizes in sorted(parts.items(), key=lambda kv: -sum(kv[1]))[:40]:
        share = 100 * sum(sizes) / total
        print(f"  {fid:<22} {share:5.1f} %   sent {len(sizes):>5}x   median {statistics.median(sizes):>7,.0f} B")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=2)
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dump", type=Path, help="write every page and JSON frame into this folder")
    args = ap.parse_args()
    import pgserver

    folder = tempfile.mkdtemp(prefix="wr-bench-pg-")
    pg = pgserver.get_server(Path(folder) / "pg", cleanup_mode="stop")
    server = None
    try:
        url = create_database(pg, f"bench_push_{uuid.uuid4().hex[:6]}")
        server = Server(url).start()
        asyncio.run(play(server.url, server.ws_url, url, args.matches, args.moves, args.seed, args.dump))
    finally:
        if server:
            server.stop()
        pg.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
