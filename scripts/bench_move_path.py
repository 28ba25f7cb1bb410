#!/usr/bin/env python
"""The move path as users make it (issue 10, item 5): QMG or the fixture card game, both live channels.

Not a test. Like scripts/bench_live.py (whose parts it reuses) it starts its own PostgreSQL
(pgserver; or ``--database-url``), a fresh migrated database and ``python -m app serve --workers W``
per configuration, or it drives a server that is already running (``--url``). Then:

* the commit ceiling of that PostgreSQL: single-row INSERT + COMMIT per transaction (the same run);
* RSS per idle socket: K idle JSON sockets, then K idle page sockets on idle tables, the server
  workers' RSS read from /proc before and after each batch (the workers are known by the
  ``x-warroom-worker`` header of their sockets);
* the load, spread over ``--client-procs`` client processes (whole tables per process, so each one
  can time every socket of its tables): ``--players`` players sit at 4-seat QMG tables (``--game qmg``)
  or 2-seat card-game tables (``--game cardgame``). Each player loads the table page like a browser
  (its cookie), holds the table's JSON socket, applies its patches and answers its own required
  decisions with a seeded random legal pick (``random_bot``'s rule), POSTing the seq it saw.
  ``--page-sockets`` per table are htmx page sockets (``/matches/{id}/live``): the seats' own first,
  then spectators (an anonymous browser that loaded the page). Sockets beyond those up to
  ``--sockets`` (all channels counted) are JSON spectators. Finished tables are replaced.

Reported per configuration, over ``--seconds`` after ``--warmup``: committed moves/s (HTTP 200s;
rows added to ``actions``, auto-passes included); p50/p95/p99 from submit to the moment the last
socket of the table (each channel apart, then both) has a frame at or past the committed seq;
server CPU per committed row (the server's processes from /proc, apart from the clients' and
PostgreSQL's); each client process's CPU against the wall (``client_bound`` when one of them used
>= 85 % of a core: then the client, not the server, set the pace); bytes per update per channel
(median, p90, max; the first full frame apart); RSS per idle socket per channel; the ceiling; HTTP
5xx and every other error.

    .venv/bin/python scripts/bench_move_path.py                                   # QMG, W=1, 200 players
    .venv/bin/python scripts/bench_move_path.py --workers 1,2,4,8 --sockets 200,2000 --page-sockets 0,10 \\
        --json out.json                                                            # the issue's matrix
    .venv/bin/python scripts/bench_move_path.py --url http://host:8000 --database-url postgresql://...
    .venv/bin/python scripts/bench_move_path.py --smoke                            # seconds; CI runs it

A server given by ``--url`` must allow the load from one address: WARROOM_SOCKETS_PER_ADDRESS=0,
WARROOM_SOCKETS_PER_USER=0, WARROOM_GUESTS_PER_ADDRESS_HOUR=0, WARROOM_TABLES_PER_ADDRESS_HOUR=0,
WARROOM_TABLES_PER_USER_HOUR=0, WARROOM_OPEN_TABLES_PER_USER=0 (and, for ``--game cardgame``,
WARROOM_EXTRA_GAMES=tests.fixtures.cardgame:GAME). Its CPU and RSS are read from /proc when it runs
on this host; elsewhere they are reported as null.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import os
import random
import re
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
from websockets.asyncio.client import connect as ws_connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.bench_live import (  # noqa: E402
    Database,
    Server,
    insert_ceiling,
    machine_busy,
    proc_table,
    raise_fd_limit,
    run_bench,
    seq_of,
    server_workers,
    tree_state,
    wait_for_quiet,
)

SEATS = {"qmg": 4, "cardgame": 2}
# a server we start lets one client address make all the load (the flood limits are per address)
UNLIMITED = {"WARROOM_SOCKETS_PER_ADDRESS": "0", "WARROOM_SOCKETS_PER_USER": "0",
             "WARROOM_GUESTS_PER_ADDRESS_HOUR": "0", "WARROOM_TABLES_PER_ADDRESS_HOUR": "0",
             "WARROOM_TABLES_PER_USER_HOUR": "0", "WARROOM_OPEN_TABLES_PER_USER": "0"}
CLIENT_BOUND = 85.0  # % of one core used by one client process: it, not the server, set the pace
PAGE_SEQ = re.compile(r"<!--seq:(\d+)-->")
CHANNELS = ("json", "page")
now = time.monotonic


def quantiles(values: list[float]) -> dict[str, float | None]:
    ordered = sorted(values)

    def at(q: float) -> float | None:
        if not ordered:
            return None
        return round(ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))], 2)

    return {"p50": at(50), "p95": at(95), "p99": at(99), "max": round(ordered[-1], 2) if ordered else None,
            "samples": len(ordered)}


def size_summary(sizes: Counter[int]) -> dict[str, int | None]:
    """Median, p90 and max of a histogram of frame sizes in bytes."""
    total = sum(sizes.values())
    if not total:
        return {"median": None, "p90": None, "max": None, "frames": 0}
    ordered = sorted(sizes.items())

    def at(q: float) -> int:
        rank = min(total - 1, round(q * (total - 1)))
        seen = 0
        for size, count in ordered:
            seen += count
            if seen > rank:
                return size
        return ordered[-1][0]

    return {"median": at(0.5), "p90": at(0.9), "max": ordered[-1][0], "frames": total}


# ============================================================================ the client (one process)
@dataclass
class Plan:
    """What one client process plays: its tables, and how many sockets each holds."""

    url: str
    game: str
    tag: str
    tables: list[int]  # global table numbers (names, seeds)
    page_sockets: int  # per table
    json_spectators: list[int]  # per table, in the order of ``tables``
    seed: int
    stall_seconds: float
    lost_seconds: float
    drain_seconds: float
    setup_timeout: float
    connect_concurrency: int

    @property
    def ws_url(self) -> str:
        return "ws" + self.url.removeprefix("http")


class Player:
    """A browser of one signed-in guest: its cookie jar is its session."""

    def __init__(self, url: str, name: str | None) -> None:
        self.name = name
        # an idle connection is dropped before the server's keep-alive timeout (5 s) would close it
        # under a request: a browser retries that case, httpx does not
        self.http = httpx.AsyncClient(base_url=url, timeout=30,
                                      limits=httpx.Limits(max_connections=2, max_keepalive_connections=2,
                                                          keepalive_expiry=3))

    @property
    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


class Sock:
    """One open socket: when each frame came, at which seq."""

    def __init__(self, channel: str, player: Player | None, applies: bool) -> None:
        self.channel = channel
        self.player = player
        self.applies = applies  # keeps the whole message (a seat's JSON socket): it decides from it
        self.seqs: list[int] = []
        self.times: list[float] = []
        self.doc: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.closed = False
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None
        self.worker: str | None = None

    def first_at_or_after(self, seq: int) -> float | None:
        i = bisect.bisect_left(self.seqs, seq)
        return self.times[i] if i < len(self.seqs) else None


class Client:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.start = float("inf")  # the measured window, once the parent says go
        self.end = float("inf")
        self.go = asyncio.Event()
        self.all_ready = asyncio.Event()
        self.ready = 0
        self.gate = asyncio.Semaphore(max(1, plan.connect_concurrency))
        self.counts: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.post_ms: list[float] = []
        self.e2e_ms: dict[str, list[float]] = {"json": [], "page": [], "all": []}
        self.undelivered: Counter[str] = Counter()
        self.sizes: dict[str, Counter[int]] = {c: Counter() for c in CHANNELS}
        self.first_sizes: dict[str, Counter[int]] = {c: Counter() for c in CHANNELS}
        self.workers: set[str] = set()
        self.options: dict[str, str] = {}

    def error(self, what: str) -> None:
        self.errors[what[:120]] += 1

    def stopped(self) -> bool:
        return now() >= self.end

    def inside(self, t: float) -> bool:
        return self.start <= t < self.end

    def status(self, r: httpx.Response, what: str) -> None:
        if r.status_code >= 500:
            self.counts["http_5xx"] += 1
        if r.status_code != 200:
            raise RuntimeError(f"{what}: HTTP {r.status_code} {r.text[:80]}")

    # -- sockets ---------------------------------------------------------------
    async def open(self, match_id: str, sock: Sock) -> None:
        path = f"/api/matches/{match_id}/ws" if sock.channel == "json" else f"/matches/{match_id}/live"
        cookie = sock.player.cookie if sock.player is not None else ""
        async with self.gate:
            # a browser's page socket carries its origin (the server checks it); the JSON API's clients need not
            sock.ws = await ws_connect(self.plan.ws_url + path, additional_headers={"Cookie": cookie} if cookie else {},
                                       origin=self.plan.url if sock.channel == "page" else None,
                                       max_size=1 << 23, open_timeout=60, ping_interval=None, compression=None)
        sock.worker = sock.ws.response.headers.get("x-warroom-worker")
        if sock.worker:
            self.workers.add(sock.worker)
        sock.task = asyncio.create_task(self.read(sock))

    async def read(self, sock: Sock) -> None:
        try:
            async for text in sock.ws:
                t = now()
                assert isinstance(text, str)
                size = len(text.encode())
                if sock.channel == "page":
                    m = PAGE_SEQ.match(text)
                    if m is None:
                        self.error("page frame without its seq")
                        continue
                    seq = int(m.group(1))
                elif sock.applies:
                    msg = json.loads(text)
                    seq = int(msg["seq"])
                    if "patch" in msg:
                        if sock.doc is None:
                            self.error("patch before a full message")
                            continue
                        sock.doc = jsonpatch.apply_patch(sock.doc, msg["patch"], in_place=True)
                        sock.doc["seq"] = seq
                    else:
                        sock.doc = msg
                    sock.changed.set()
                else:
                    seq = seq_of(text)
                if not sock.seqs:
                    self.first_sizes[sock.channel][size] += 1
                elif self.inside(t):
                    self.sizes[sock.channel][size] += 1
                if sock.seqs and seq < sock.seqs[-1]:
                    self.error(f"{sock.channel} socket went back in seq")
                sock.seqs.append(seq)
                sock.times.append(t)
        except Exception as exc:  # the server closed it, etc.
            if not self.stopped():
                self.error(f"{sock.channel} socket: {type(exc).__name__}: {exc}")
        finally:
            sock.closed = True
            sock.changed.set()
            close = getattr(sock.ws, "close_code", None)
            if close is not None and close == 1011 and not self.stopped():
                self.counts["socket_1011"] += 1  # the server's "internal error": its 5xx

    async def close(self, sock: Sock) -> None:
        if sock.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sock.ws.close(), 5)
        if sock.task is not None:
            sock.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sock.task

    # -- players ---------------------------------------------------------------
    async def act(self, sock: Sock, match_id: str, rng: random.Random,
                  commits: list[tuple[int, float]]) -> str:
        """Answer this seat's required decisions until the match is over; why we stopped."""
        player = sock.player
        assert player is not None
        last_sent = -1
        late = 0.0  # how long the update of our own last move has been awaited
        while True:
            try:
                await asyncio.wait_for(sock.changed.wait(), timeout=self.plan.stall_seconds)
            except TimeoutError:
                if self.stopped():
                    return "stop"
                doc = sock.doc or {}
                if doc.get("status") == "active" and doc.get("seq") == last_sent:
                    # a server under more load than it can take is slow, not broken, until it is very slow
                    if not late:
                        self.counts["late_updates"] += 1
                    late += self.plan.stall_seconds
                    if late >= self.plan.lost_seconds:
                        self.error(f"lost: no update {late:.0f} s after the seq we acted on")
                        return "lost"
                continue  # nothing is ours to answer: another seat thinks
            sock.changed.clear()
            late = 0.0
            while True:
                if self.stopped():
                    return "stop"
                if sock.closed:
                    return "closed"
                doc = sock.doc
                if doc is None:
                    break
                if doc.get("status") == "finished":
                    return "finished"
                # any-time decisions wait on nobody: a player answers what the game waits for
                required = [d for d in doc.get("pending") or [] if not d.get("optional")]
                seq = int(doc["seq"])
                if not required or seq == last_sent:
                    break
                decision = required[0]
                ids = [c["id"] for c in decision["choices"]]
                n = rng.randint(decision["min"], min(decision["max"], len(ids))) if ids else 0
                body = {"seq": seq, "decision": decision["decision"], "choices": rng.sample(ids, n)}
                last_sent = seq
                t0 = now()
                try:
                    r = await player.http.post(f"/api/matches/{match_id}/actions", json=body)
                except httpx.HTTPError as exc:
                    self.error(f"POST action: {type(exc).__name__}")
                    continue
                t1 = now()
                if r.status_code == 200:
                    if self.inside(t1):
                        self.counts["committed"] += 1
                    if self.inside(t0):
                        self.post_ms.append((t1 - t0) * 1000)
                        commits.append((int(r.json()["seq"]), t0))
                elif r.status_code == 409:
                    if self.inside(t1):
                        self.counts["stale_409"] += 1  # another seat moved first: answer again on its update
                elif r.status_code == 503:  # overload, said politely: counted, and the move tried again
                    self.counts["http_5xx"] += 1
                    self.error("POST action: HTTP 503")
                    with contextlib.suppress(ValueError):
                        await asyncio.sleep(min(2.0, float(r.headers.get("retry-after") or 1)))
                    last_sent = -1
                else:
                    if r.status_code >= 500:
                        self.counts["http_5xx"] += 1
                    self.error(f"POST action: HTTP {r.status_code} {r.text[:80]}")

    async def new_match(self, players: list[Player]) -> str:
        host = players[0]
        r = await host.http.post("/api/matches", json={"game": self.plan.game, "players": len(players),
                                                       "options": self.options, "mode": "live"})
        self.status(r, "create")
        match_id = str(r.json()["match_id"])
        for p in players[1:]:
            self.status(await p.http.post(f"/api/matches/{match_id}/join", json={}), "join")
        self.status(await host.http.post(f"/api/matches/{match_id}/start", json={}), "start")
        return match_id

    async def table(self, index: int, players: list[Player], viewer: Player, spectators: int) -> None:
        """One table slot: match after match with the same players until the window ends."""
        first = True
        page = self.plan.page_sockets
        while not self.stopped():
            try:
                match_id = await self.new_match(players)
            except Exception as exc:
                self.error(f"new match: {type(exc).__name__}: {exc}")
                await asyncio.sleep(1.0)
                if first and self.go.is_set():
                    return
                continue
            self.counts["matches_started"] += 1
            seats = [Sock("json", p, applies=True) for p in players]
            pages = [Sock("page", players[i] if i < len(players) else viewer, applies=False) for i in range(page)]
            socks = seats + pages + [Sock("json", None, applies=False) for _ in range(spectators)]
            commits: list[tuple[int, float]] = []
            try:
                # the page sockets' browsers load the table first (the session holds its csrf)
                for browser in {id(s.player): s.player for s in pages if s.player is not None}.values():
                    self.status(await browser.http.get(f"/matches/{match_id}"), "table page")
                # every socket is open before the first move, so each one can see every seq
                await asyncio.gather(*(self.open(match_id, s) for s in socks))
                if first:
                    first = False
                    self.ready += 1
                    if self.ready >= len(self.plan.tables):
                        self.all_ready.set()
                    await self.go.wait()
                rngs = [random.Random(f"{self.plan.seed}:{index}:{self.counts['matches_started']}:{i}")
                        for i in range(len(seats))]
                results = await asyncio.gather(*(self.act(s, match_id, rng, commits) for s, rng in zip(seats, rngs,
                                                                                                        strict=True)))
                if "finished" in results:
                    self.counts["matches_finished"] += 1
                # the last updates reach every socket before they are judged
                deadline = now() + self.plan.drain_seconds
                top = max((s for s, _ in commits), default=0)
                while now() < deadline and any(not s.closed and (not s.seqs or s.seqs[-1] < top) for s in socks):
                    await asyncio.sleep(0.02)
            except Exception as exc:
                self.error(f"table: {type(exc).__name__}: {exc}")
                if first:  # never ready: the run goes on without this table
                    first = False
                    self.ready += 1
                    if self.ready >= len(self.plan.tables):
                        self.all_ready.set()
            finally:
                await asyncio.gather(*(self.close(s) for s in socks))
            self.judge(socks, commits)

    def judge(self, socks: list[Sock], commits: list[tuple[int, float]]) -> None:
        for seq, t0 in commits:
            last: dict[str, float] = {}
            missing = set()
            for s in socks:
                t = s.first_at_or_after(seq)
                if t is None:
                    missing.add(s.channel)
                else:
                    last[s.channel] = max(last.get(s.channel, 0.0), t)
            for channel in CHANNELS:
                if channel in missing:
                    self.undelivered[channel] += 1
                elif channel in last:
                    self.e2e_ms[channel].append(round((last[channel] - t0) * 1000, 2))
            if not missing and last:
                self.e2e_ms["all"].append(round((max(last.values()) - t0) * 1000, 2))

    # -- the run ---------------------------------------------------------------
    async def run(self, ready: Any, wait_go: Any) -> dict[str, Any]:
        plan = self.plan
        async with httpx.AsyncClient(base_url=plan.url, timeout=30) as probe:
            games = (await probe.get("/api/games")).json()
        game = next((g for g in games if g["id"] == plan.game), None)
        if game is None:
            raise SystemExit(f"the server does not offer {plan.game!r}")
        if plan.game == "cardgame":  # long matches, as bench_live plays them
            choices = next((o["choices"] for o in game["options"] if o["id"] == "target"), [])
            if "100" in choices:
                self.options = {"target": "100"}
        seats = SEATS[plan.game]
        t0 = now()
        sign_gate = asyncio.Semaphore(32)

        async def sign_in(p: Player) -> None:
            async with sign_gate:
                if p.name is not None:  # an anonymous browser gets its cookie with the table page
                    self.status(await p.http.post("/api/guests", json={"name": p.name}), "guest")

        slots = [(index, [Player(plan.url, f"b{plan.tag} {index}.{s}") for s in range(seats)],
                  Player(plan.url, None), spectators)
                 for index, spectators in zip(plan.tables, plan.json_spectators, strict=True)]
        everyone = [p for _, ps, v, _ in slots for p in (*ps, v)]
        tasks: list[asyncio.Task[None]] = []
        try:
            await asyncio.gather(*(sign_in(p) for p in everyone))
            tasks = [asyncio.create_task(self.table(*slot)) for slot in slots]
            if not tasks:
                self.all_ready.set()
            await asyncio.wait_for(self.all_ready.wait(), timeout=plan.setup_timeout)
        except TimeoutError:
            self.error(f"setup: only {self.ready}/{len(slots)} tables ready in {plan.setup_timeout}s")
        except Exception as exc:
            self.error(f"client setup: {type(exc).__name__}: {exc}")
        setup = now() - t0
        # the parent hears "ready" and answers "go" whatever happened, so that it never waits in vain
        ready({"ready": True, "setup_seconds": round(setup, 2), "workers": sorted(self.workers)})
        try:
            go = await wait_go()
            self.start, self.end = float(go["start"]), float(go["end"])
            self.go.set()
            await asyncio.sleep(max(0.0, self.end - now()))
            if tasks:
                done, pending = await asyncio.wait(tasks, timeout=plan.drain_seconds + plan.stall_seconds + 30)
                for t in pending:
                    t.cancel()
                    self.error("table task did not stop")
                await asyncio.gather(*pending, return_exceptions=True)
                for t in done:
                    if t.exception() is not None:
                        self.error(f"table task: {t.exception()!r}")
        except Exception as exc:
            self.error(f"client: {type(exc).__name__}: {exc}")
        finally:
            await asyncio.gather(*(p.http.aclose() for p in everyone), return_exceptions=True)
        return {"pid": os.getpid(), "counts": dict(self.counts), "errors": dict(self.errors),
                "post_ms": self.post_ms, "e2e_ms": self.e2e_ms, "undelivered": dict(self.undelivered),
                "sizes": {c: dict(v) for c, v in self.sizes.items()},
                "first_sizes": {c: dict(v) for c, v in self.first_sizes.items()},
                "workers": sorted(self.workers), "setup_seconds": round(setup, 2)}


def child_main() -> None:
    """A client process: the plan on the first line of stdin, ``go`` on the next; JSON lines out."""
    raise_fd_limit()
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    plan = Plan(**json.loads(sys.stdin.readline()))
    out = sys.stdout

    def say(message: dict[str, Any]) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    async def wait_go() -> dict[str, Any]:
        line = await asyncio.to_thread(sys.stdin.readline)
        return dict(json.loads(line)) if line.strip() else {"start": now(), "end": now()}

    result = asyncio.run(Client(plan).run(say, wait_go))
    say({"result": result})


# ============================================================================ the parent
def rss_kib(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_of(pids: set[int], table: dict[int, tuple[str, int, int, float, str]]) -> float:
    return sum(table[p][3] for p in pids if p in table)


@dataclass
class Target:
    """The server under load: one we started (its process group) or one at --url (its workers' pids)."""

    url: str
    server: Server | None = None
    seen: set[int] = field(default_factory=set)  # worker pids from the sockets' x-warroom-worker header

    def pids(self, table: dict[int, tuple[str, int, int, float, str]]) -> set[int]:
        if self.server is not None and self.server.process is not None:
            group = self.server.process.pid
            return {pid for pid, row in table.items() if row[2] == group}
        return {p for p in self.seen if p in table}

    def workers(self) -> list[int]:
        if self.server is not None and self.server.process is not None:
            return sorted(set(server_workers(self.server.process.pid)) | self.seen)
        return sorted(self.seen)


def cpu_snapshot(target: Target, postmaster: int | None, clients: set[int]) -> dict[str, Any]:
    table = proc_table()
    server = target.pids(table)
    me = os.getpid()
    if postmaster is not None:
        pg = {pid for pid, row in table.items() if pid == postmaster or row[1] == postmaster}
    else:  # not ours: any PostgreSQL on this host
        pg = {pid for pid, row in table.items() if row[0] == "postgres" or "postgres" in row[4].split(" ")[0]}
    return {"server": cpu_of(server, table), "postgres": cpu_of(pg - server, table),
            "client": cpu_of(clients | {me}, table), "each_client": {p: cpu_of({p}, table) for p in clients},
            "server_local": bool(server)}


async def idle_rss(target: Target, game: str, tag: str, k: int) -> dict[str, Any]:
    """RSS of the server's workers per idle socket, per channel: K JSON sockets, then K page sockets
    more (each batch measured while the one before stays open), on two idle tables."""
    if k <= 0:
        return {"json_kib": None, "page_kib": None, "sockets": 0}
    base = target.url
    ws = "ws" + base.removeprefix("http")
    seats = SEATS[game]
    clients: list[httpx.AsyncClient] = []
    socks: list[Any] = []

    async def browser(name: str | None) -> httpx.AsyncClient:
        c = httpx.AsyncClient(base_url=base, timeout=30)
        clients.append(c)
        if name is not None:
            (await c.post("/api/guests", json={"name": name})).raise_for_status()
        return c

    def cookie(c: httpx.AsyncClient) -> dict[str, str]:
        jar = "; ".join(f"{n}={v}" for n, v in c.cookies.items())
        return {"Cookie": jar} if jar else {}

    gate = asyncio.Semaphore(32)

    async def open_one(url: str, headers: dict[str, str], page: bool) -> int | None:
        async with gate:
            sock = await ws_connect(url, additional_headers=headers, origin=base if page else None,
                                    max_size=1 << 23, open_timeout=60, ping_interval=None, compression=None)
            socks.append(sock)
            await asyncio.wait_for(sock.recv(), 60)  # its first frame: the server holds what it keeps
        worker = sock.response.headers.get("x-warroom-worker")
        return int(worker) if worker and worker.isdigit() else None

    def rss(pids: set[int]) -> int | None:
        values = [rss_kib(p) for p in pids]
        return None if not values or None in values else sum(v for v in values if v is not None)

    try:
        tables: list[str] = []
        for t in range(2):
            players = [await browser(f"b{tag} idle {t}.{s}") for s in range(seats)]
            r = await players[0].post("/api/matches", json={"game": game, "players": seats, "options": {},
                                                             "mode": "live"})
            r.raise_for_status()
            match_id = r.json()["match_id"]
            for p in players[1:]:
                (await p.post(f"/api/matches/{match_id}/join", json={})).raise_for_status()
            (await players[0].post(f"/api/matches/{match_id}/start", json={})).raise_for_status()
            tables.append(match_id)
        viewer = await browser(None)
        for match_id in tables:
            (await viewer.get(f"/matches/{match_id}")).raise_for_status()
        json_url = [f"{ws}/api/matches/{m}/ws" for m in tables]
        page_url = [f"{ws}/matches/{m}/live" for m in tables]
        # a few sockets first: the workers are known (and warm) before anything is measured
        probes = await asyncio.gather(*(open_one(json_url[i % 2], {}, False) for i in range(16)))
        probes += await asyncio.gather(*(open_one(page_url[i % 2], cookie(viewer), True) for i in range(16)))
        target.seen |= {p for p in probes if p}
        pids = set(target.workers())
        await asyncio.sleep(1)
        before = rss(pids)
        got = await asyncio.gather(*(open_one(json_url[i % 2], {}, False) for i in range(k)))
        await asyncio.sleep(1)
        mid = rss(pids)
        got_page = await asyncio.gather(*(open_one(page_url[i % 2], cookie(viewer), True) for i in range(k)))
        await asyncio.sleep(1)
        after = rss(pids)
        on_known = sum(1 for p in got if p in pids)
        on_known_page = sum(1 for p in got_page if p in pids)
        target.seen |= {p for p in got + got_page if p}
        return {"sockets": k,
                "json_kib": round((mid - before) / max(1, on_known), 1) if before is not None and mid else None,
                "page_kib": round((after - mid) / max(1, on_known_page), 1) if mid is not None and after else None,
                "workers_rss_mib": round(after / 1024, 1) if after else None}
    finally:
        for s in socks:
            with contextlib.suppress(Exception):
                await s.close()
        for c in clients:
            await c.aclose()


@dataclass
class Config:
    workers: int
    sockets: int
    page_sockets: int


async def run_config(args: argparse.Namespace, cfg: Config, target: Target, db: Database | None,
                     postmaster: int | None) -> dict[str, Any]:
    seats = SEATS[args.game]
    tables = args.players // seats
    tag = uuid.uuid4().hex[:5]
    try:
        rss = await idle_rss(target, args.game, tag, args.idle_sockets)
    except Exception as exc:  # the load is still worth measuring
        rss = {"json_kib": None, "page_kib": None, "sockets": args.idle_sockets,
               "error": f"{type(exc).__name__}: {exc}"[:200]}
    floor = args.players + cfg.page_sockets * tables
    spectators = max(0, cfg.sockets - floor)
    per_table = [spectators // tables + (1 if i < spectators % tables else 0) for i in range(tables)]
    procs = max(1, min(args.client_procs, tables))
    plans = [Plan(url=target.url, game=args.game, tag=tag, tables=list(range(i, tables, procs)),
                  page_sockets=cfg.page_sockets, json_spectators=per_table[i::procs], seed=args.seed,
                  stall_seconds=args.stall_seconds, lost_seconds=args.lost_seconds, drain_seconds=args.drain_seconds,
                  setup_timeout=args.setup_timeout, connect_concurrency=max(4, args.connect_concurrency // procs))
             for i in range(procs)]
    children = []
    for plan in plans:
        child = await asyncio.create_subprocess_exec(sys.executable, str(Path(__file__).resolve()), "--child",
                                                     stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                                                     limit=1 << 28, cwd=ROOT)
        assert child.stdin is not None
        child.stdin.write((json.dumps(plan.__dict__) + "\n").encode())
        await child.stdin.drain()
        children.append(child)
    results: list[dict[str, Any]] = []
    try:
        async def line(child: asyncio.subprocess.Process) -> dict[str, Any]:
            assert child.stdout is not None
            raw = await child.stdout.readline()
            if not raw:
                raise RuntimeError(f"client process {child.pid} ended early (rc {await child.wait()})")
            return dict(json.loads(raw))

        t_setup = now()
        readies = await asyncio.wait_for(asyncio.gather(*(line(c) for c in children)),
                                         timeout=args.setup_timeout + 60)
        setup_seconds = now() - t_setup
        for r in readies:
            target.seen |= {int(w) for w in r["workers"] if str(w).isdigit()}
        start = now() + args.warmup
        end = start + args.seconds
        for child in children:
            assert child.stdin is not None
            child.stdin.write((json.dumps({"start": start, "end": end}) + "\n").encode())
            await child.stdin.drain()
        client_pids = {c.pid for c in children}
        await asyncio.sleep(max(0.0, start - now()))
        cpu0, busy0 = cpu_snapshot(target, postmaster, client_pids), machine_busy()
        counters0 = await db.counters() if db is not None else None
        await asyncio.sleep(max(0.0, end - now()))
        cpu1, busy1 = cpu_snapshot(target, postmaster, client_pids), machine_busy()
        counters1 = await db.counters() if db is not None else None
        span = end - start
        outs = await asyncio.wait_for(asyncio.gather(*(line(c) for c in children)),
                                      timeout=args.drain_seconds + args.stall_seconds + 90)
        results = [o["result"] for o in outs]
        for child in children:
            await asyncio.wait_for(child.wait(), 30)
    finally:
        for child in children:
            if child.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    child.kill()
                await child.wait()

    counts: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    undelivered: Counter[str] = Counter()
    sizes = {c: Counter[int]() for c in CHANNELS}
    first = {c: Counter[int]() for c in CHANNELS}
    post: list[float] = []
    e2e: dict[str, list[float]] = {"json": [], "page": [], "all": []}
    for r in results:
        counts.update(r["counts"])
        errors.update(r["errors"])
        undelivered.update(r["undelivered"])
        post += r["post_ms"]
        for k in e2e:
            e2e[k] += r["e2e_ms"][k]
        for c in CHANNELS:
            sizes[c].update({int(s): n for s, n in r["sizes"][c].items()})
            first[c].update({int(s): n for s, n in r["first_sizes"][c].items()})
        target.seen |= {int(w) for w in r["workers"] if str(w).isdigit()}

    rows = counters1[0] - counters0[0] if counters0 and counters1 else None
    xacts = counters1[1] - counters0[1] if counters0 and counters1 else None
    moves = rows if rows else counts["committed"]
    server_cpu = cpu1["server"] - cpu0["server"] if cpu1["server_local"] else None
    each_client = {str(p): round((cpu1["each_client"][p] - cpu0["each_client"].get(p, 0.0)) / span * 100, 1)
                   for p in cpu1["each_client"]}
    cpu = {"server": round(server_cpu / span * 100, 1) if server_cpu is not None else None,
           "postgres": round((cpu1["postgres"] - cpu0["postgres"]) / span * 100, 1),
           "client": round((cpu1["client"] - cpu0["client"]) / span * 100, 1),
           "machine_total": round((busy1[0] - busy0[0]) / span * 100, 1)}
    cpu["not_ours"] = round(max(0.0, cpu["machine_total"] - sum(v or 0 for k, v in cpu.items()
                                                                   if k in ("server", "postgres", "client"))), 1)
    busiest = max(each_client.values(), default=0.0)
    if "error" in rss:
        errors[f"idle sockets: {rss['error']}"[:120]] += 1
    all_errors = sum(errors.values())
    return {
        "game": args.game, "workers": cfg.workers if target.server is not None else len(target.workers()) or None,
        "players": tables * seats, "tables": tables, "page_sockets_per_table": cfg.page_sockets,
        "sockets": {"all": floor + spectators, "json": args.players + spectators, "page": cfg.page_sockets * tables},
        "client_procs": procs, "seconds": round(span, 2), "setup_seconds": round(setup_seconds, 2),
        "committed": counts["committed"], "moves_per_s": round(counts["committed"] / span, 1),
        "db_rows": rows, "db_rows_per_s": round(rows / span, 1) if rows is not None else None,
        "db_transactions_per_row": round(xacts / max(1, rows), 2) if xacts is not None and rows else None,
        "server_cpu_ms_per_move": round(server_cpu * 1000 / max(1, moves), 2) if server_cpu is not None else None,
        "stale_409": counts["stale_409"], "late_updates": counts["late_updates"],
        "matches_started": counts["matches_started"], "matches_finished": counts["matches_finished"],
        "e2e_ms": {k: quantiles(v) for k, v in e2e.items()}, "post_ms": quantiles(post),
        "bytes_per_update": {c: size_summary(sizes[c]) for c in CHANNELS},
        "bytes_first_frame": {c: size_summary(first[c]) for c in CHANNELS},
        "rss_per_idle_socket_kib": rss,
        "undelivered": dict(undelivered), "http_5xx": counts["http_5xx"] + counts["socket_1011"],
        "errors": all_errors, "error_kinds": dict(errors.most_common(10)),
        "cpu_percent_of_one_core": cpu, "client_cpu_percent_each": each_client,
        "client_bound": busiest >= CLIENT_BOUND,
    }


def fmt(x: Any) -> str:
    return "-" if x is None else str(x)


def table_lines(runs: list[dict[str, Any]], ceiling: float | None) -> list[str]:
    head = (f"{'W':>2} {'sockets':>6} {'json/page':>10} {'moves/s':>8} {'rows/s':>7} {'%ceil':>5} "
            f"{'e2e p50/p95/p99 ms':>22} {'page p99':>8} {'srv ms/mv':>9} {'client%':>8} "
            f"{'json B med/p90/max':>22} {'page B med/p90/max':>22} {'idle KiB j/p':>13} {'late/lost':>9} {'err':>4} "
            f"{'5xx':>4}")
    out = [head, "-" * len(head)]
    for r in runs:
        e, b, rss = r["e2e_ms"]["all"], r["bytes_per_update"], r["rss_per_idle_socket_kib"]
        share = round(r["moves_per_s"] / ceiling * 100) if ceiling else None
        client = max(r["client_cpu_percent_each"].values(), default=0.0)
        out.append(
            f"{fmt(r['workers']):>2} {r['sockets']['all']:>6} {r['sockets']['json']:>5}/{r['sockets']['page']:<4} "
            f"{r['moves_per_s']:>8} {fmt(r['db_rows_per_s']):>7} {fmt(share):>5} "
            f"{fmt(e['p50']) + '/' + fmt(e['p95']) + '/' + fmt(e['p99']):>22} {fmt(r['e2e_ms']['page']['p99']):>8} "
            f"{fmt(r['server_cpu_ms_per_move']):>9} {str(client) + ('!' if r['client_bound'] else ''):>8} "
            f"{'/'.join(fmt(b['json'][k]) for k in ('median', 'p90', 'max')):>22} "
            f"{'/'.join(fmt(b['page'][k]) for k in ('median', 'p90', 'max')):>22} "
            f"{fmt(rss['json_kib']) + '/' + fmt(rss['page_kib']):>13} "
            f"{str(r['late_updates']) + '/' + str(sum(r['undelivered'].values())):>9} {r['errors']:>4} "
            f"{r['http_5xx']:>4}")
    return out


async def amain(args: argparse.Namespace) -> dict[str, Any]:
    raise_fd_limit()
    stamp = uuid.uuid4().hex[:6]
    ceiling: dict[str, float] = {}
    runs: list[dict[str, Any]] = []
    configs = [Config(w, s, p) for w in args.workers for s in args.sockets for p in args.page_sockets]
    if args.url:
        # a server already running: one configuration per sockets x page sockets, its workers as they are
        configs = [Config(0, s, p) for s in args.sockets for p in args.page_sockets]
        if args.workers != [1]:
            print("--workers is ignored with --url: the server runs the workers it was started with", flush=True)
        db = Database(url=args.database_url, admin_url=args.database_url) if args.database_url else None
    else:
        db = await Database.create(args.database_url, f"bench_mp_{stamp}_0")
    try:
        if db is not None and args.ceiling_seconds > 0:
            if args.wait_idle:
                await wait_for_quiet(args.wait_idle)
            for c in (int(x) for x in args.ceiling_connections.split(",")):
                ceiling[str(c)] = round(await insert_ceiling(db.dsn, c, args.ceiling_seconds), 1)
                print(f"ceiling: INSERT+COMMIT with {c} connection(s): {ceiling[str(c)]} rows/s", flush=True)
        best = max(ceiling.values()) if ceiling else None
        for i, cfg in enumerate(configs):
            if args.wait_idle:
                await wait_for_quiet(args.wait_idle)
            server: Server | None = None
            if not args.url:
                assert db is not None
                if i:
                    await db.new_database(f"bench_mp_{stamp}_{i}")
                server = Server(db.url, cfg.workers)
                env = dict(UNLIMITED)
                if args.db_pool:
                    env["WARROOM_DB_POOL"] = str(args.db_pool)
                await asyncio.to_thread(server.start, env)
            target = Target(url=args.url.rstrip("/") if args.url else server.url if server else "", server=server)
            try:
                result = await asyncio.wait_for(
                    run_config(args, cfg, target, db, db.postmaster() if db is not None else None),
                    timeout=args.warmup + args.seconds + 2 * args.setup_timeout + 240)
                result["ceiling_rows_per_s"] = best
                runs.append(result)
                print(f"W={fmt(result['workers'])} sockets={result['sockets']} moves/s={result['moves_per_s']} "
                      f"e2e={result['e2e_ms']['all']} server ms/move={result['server_cpu_ms_per_move']} "
                      f"errors={result['errors']} 5xx={result['http_5xx']}", flush=True)
                if result["errors"]:
                    print(f"  error kinds: {result['error_kinds']}", flush=True)
            finally:
                if server is not None:
                    if args.server_log:
                        Path(f"{args.server_log}.w{cfg.workers}-s{cfg.sockets}-p{cfg.page_sockets}").write_text(
                            server.log())
                    server.stop()
    finally:
        if db is not None and not args.url:
            await db.close(keep=args.keep_databases)
    print()
    print(f"{args.game}: {args.players} players, {args.seconds:.0f} s windows; ceiling "
          f"{fmt(best)} rows/s (INSERT+COMMIT); e2e = submit -> last socket of the table (both channels); "
          "client% = busiest client process (! = client-bound); late/lost = own moves back after more than"
          f" {args.stall_seconds:.0f} s / commits some socket never showed (within {args.drain_seconds:.0f} s)")
    for text in table_lines(runs, best):
        print(text)
    return {"tree": tree_state(), "url": args.url, "game": args.game,
            "machine": {"nproc": os.cpu_count(), "python": sys.version.split()[0]},
            "ceiling_rows_per_s": ceiling, "runs": runs}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ints = lambda s: [int(x) for x in s.split(",")]  # noqa: E731
    ap.add_argument("--game", choices=sorted(SEATS), default="qmg")
    ap.add_argument("--workers", type=ints, default=[1], help="server worker processes; a list runs each (1,2,4,8)")
    ap.add_argument("--players", type=int, default=200, help="players, a whole number of tables (default 200)")
    ap.add_argument("--sockets", type=ints, default=[0],
                    help="open sockets of both channels in all; below the players' and page sockets it is those;"
                         " a list runs each (200,2000)")
    ap.add_argument("--page-sockets", type=ints, default=[10],
                    help="htmx page sockets per table, the seats' first (default 10); a list runs each (0,10)")
    ap.add_argument("--client-procs", type=int, default=min(4, os.cpu_count() or 1),
                    help="client processes (default min(4, cores))")
    ap.add_argument("--seconds", type=float, default=20, help="measured window (default 20)")
    ap.add_argument("--warmup", type=float, default=3, help="seconds of load before the window (default 3)")
    ap.add_argument("--seed", type=int, default=1, help="the players' picks")
    ap.add_argument("--idle-sockets", type=int, default=500, help="idle sockets per channel for RSS (0: skip)")
    ap.add_argument("--url", default=None, help="drive this running server instead of starting one")
    ap.add_argument("--database-url", default=None,
                    help="PostgreSQL to use (fresh databases are made in it); with --url: the server's database,"
                         " for the ceiling and the row counts")
    ap.add_argument("--keep-databases", action="store_true")
    ap.add_argument("--ceiling-connections", default="1,4,16", help="INSERT+COMMIT ceiling: connection counts")
    ap.add_argument("--ceiling-seconds", type=float, default=3, help="per connection count (0: no ceiling)")
    ap.add_argument("--db-pool", type=int, default=0, help="WARROOM_DB_POOL for a server we start")
    ap.add_argument("--connect-concurrency", type=int, default=64)
    ap.add_argument("--stall-seconds", type=float, default=5,
                    help="a player's own move not back on its socket after this long is counted late")
    ap.add_argument("--lost-seconds", type=float, default=60, help="... and after this long lost (an error)")
    ap.add_argument("--drain-seconds", type=float, default=10,
                    help="after the window, how long the last moves may take to reach every socket")
    ap.add_argument("--setup-timeout", type=float, default=180)
    ap.add_argument("--wait-idle", type=float, default=0, help="shared machine: wait up to S s for it to be idle")
    ap.add_argument("--server-log", default=None, help="keep each server's log as PATH.w<W>-s<S>-p<P>")
    ap.add_argument("--json", default=None, help="write the results as JSON to this file ('-' for stdout)")
    ap.add_argument("--smoke", action="store_true",
                    help="CI size: seconds, 1 worker, 2 tables, 2 page sockets each, 2 client processes")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.smoke:
        args.workers = [1]
        args.players = 2 * SEATS[args.game]
        args.sockets = [args.players + 2 * 2 + 2]  # two JSON spectators on top
        args.page_sockets = [2]
        args.client_procs = 2
        args.seconds, args.warmup = 3.0, 0.5
        args.idle_sockets = 10
        args.ceiling_connections, args.ceiling_seconds = "1", 0.5
        args.setup_timeout = 60
    if args.players < SEATS[args.game] or args.players % SEATS[args.game]:
        ap.error(f"--players must be a whole number of {SEATS[args.game]}-seat tables")
    return args


def main() -> None:
    if "--child" in sys.argv[1:]:
        child_main()
        return
    run_bench(amain, parse_args())


if __name__ == "__main__":
    main()
