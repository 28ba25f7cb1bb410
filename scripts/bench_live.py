#!/usr/bin/env python
"""Load benchmark of the live path: POST an action -> commit -> pg_notify -> every socket.

(Issue 10's benchmark, of QMG and the card game on both channels with the client over several
processes, is scripts/bench_move_path.py; it reuses the parts below. This one stays for the
figures of docs/benchmarks.md's first section.)

Not a test. It starts its own PostgreSQL (pgserver in a temp dir) unless
--database-url is given, creates a fresh database, migrates it, starts
``python -m app serve --workers W`` on a free loopback port with the test card
game installed, and then drives it with simulated players over real HTTP/1.1
(httpx, keep-alive) and real WebSockets (websockets):

* players sit at two-player tables; each keeps the table's socket open, applies
  the RFC 6902 patches (jsonpatch) and, whenever its pending list is non-empty,
  POSTs the first choice of its first pending decision with the seq it saw;
* extra sockets (--sockets above --players) are spectators spread over the
  tables; they only read the seq of each message;
* when a match is finished the same players open a new table and go on.

Measured over a fixed window (--seconds, after --warmup):

* committed actions/s (HTTP 200 responses; cross-checked with rows in ``actions``);
* latency from submit to the moment the LAST socket of the match has a message
  at or past the committed seq (p50/p95/p99), and the POST round trip alone;
* the bare ceiling of the same PostgreSQL: single-row INSERT + COMMIT per
  transaction into a scratch table (asyncpg, several connections) -> rows/s;
* CPU used by the client, the server workers and PostgreSQL during the window.

Everything runs on 127.0.0.1, is bounded in time, and stops by itself; the
server's process group is killed at the end.

    .venv/bin/python scripts/bench_live.py                         # W=1, 200 players
    .venv/bin/python scripts/bench_live.py --workers 1,2 --sockets 200,2000 --json out.json
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import json
import os
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import httpx
import jsonpatch
from websockets.asyncio.client import connect as ws_connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GAMES = "tests.fixtures.cardgame:GAME"
BENCH_SECRET = secrets.token_urlsafe(32)  # the server refuses short or placeholder keys
now = time.monotonic


# ----------------------------------------------------------------------------- helpers
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(q / 100 * (len(values) - 1))))
    return values[k]


def ms(x: float | None) -> str:
    return "-" if x is None else f"{x * 1000:.1f}"


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def with_database(url: str, name: str) -> str:
    """The same server URL pointing at database ``name`` (query string kept: pgserver's socket)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


# ----------------------------------------------------------------------------- CPU accounting
CLK = os.sysconf("SC_CLK_TCK")


def proc_table() -> dict[int, tuple[str, int, int, float, str]]:
    """pid -> (comm, ppid, pgrp, cpu seconds, cmdline) for every process we can read."""
    out: dict[int, tuple[str, int, int, float, str]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                raw = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        comm = raw[raw.index("(") + 1: raw.rindex(")")]
        rest = raw[raw.rindex(")") + 2:].split()
        ppid, pgrp = int(rest[1]), int(rest[2])
        cpu = (int(rest[11]) + int(rest[12])) / CLK
        if comm == "postgres" and "-D" in cmd:  # a postmaster: count its reaped backends too
            cpu += (int(rest[13]) + int(rest[14])) / CLK
        out[int(entry)] = (comm, ppid, pgrp, cpu, cmd)
    return out


def cpu_groups(server_pgid: int | None, postmaster: int | None) -> dict[str, float]:
    """CPU seconds so far of: this client, the server's process group, our PostgreSQL (the
    postmaster and its children; any postgres when it is not ours), everything else."""
    groups: Counter[str] = Counter()
    me = os.getpid()
    for pid, (comm, ppid, pgrp, cpu, cmd) in proc_table().items():
        if pid == me:
            groups["client"] += cpu
        elif server_pgid is not None and pgrp == server_pgid:
            groups["server"] += cpu
        elif postmaster in (pid, ppid) if postmaster is not None else "postgres" in (comm + cmd.split(" ")[0]):
            groups["postgres"] += cpu
        else:
            groups["other"] += cpu
    return dict(groups)


def machine_busy() -> tuple[float, float]:
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / CLK, sum(fields) / CLK


async def wait_for_quiet(limit: float, threshold: float = 25.0) -> float:
    """On a shared machine: wait (at most ``limit`` s) until others use < ``threshold``% of it for 2 s.
    Returns the busy % last seen."""
    deadline = now() + limit
    quiet_since: float | None = None
    while True:
        b0 = machine_busy()
        await asyncio.sleep(0.5)
        b1 = machine_busy()
        busy = (b1[0] - b0[0]) / max(1e-9, b1[1] - b0[1]) * 100
        if busy < threshold:
            quiet_since = quiet_since or now()
            if now() - quiet_since >= 2:
                return busy
        else:
            quiet_since = None
        if now() >= deadline:
            print(f"machine still {busy:.0f}% busy with other work after {limit:.0f}s: measuring anyway",
                  flush=True)
            return busy


def server_workers(server_pid: int) -> list[int]:
    """The uvicorn worker processes (the server process itself when W=1)."""
    table = proc_table()
    kids = [pid for pid, (_c, ppid, _g, _cpu, cmd) in table.items()
            if ppid == server_pid and "multiprocessing" in cmd and "resource_tracker" not in cmd]
    return kids or [server_pid]


# ----------------------------------------------------------------------------- database
@dataclass
class Database:
    url: str  # the bench database
    admin_url: str  # to create/drop databases
    pg: Any = None  # pgserver handle when embedded
    folder: str | None = None

    names: list[str] = field(default_factory=list)
    app_root: Path = ROOT

    @classmethod
    async def create(cls, given: str | None, name: str, app_root: Path = ROOT) -> Database:
        if given:
            db = cls(url="", admin_url=given, app_root=app_root)
        else:
            import pgserver

            folder = tempfile.mkdtemp(prefix="wr-bench-pg-")
            os.chmod(folder, 0o755)  # pgserver drops root to its own user, which must reach the folder
            pg = await asyncio.to_thread(pgserver.get_server, Path(folder) / "pg", cleanup_mode="stop")
            db = cls(url="", admin_url=pg.get_uri("postgres"), pg=pg, folder=folder, app_root=app_root)
        await db.new_database(name)
        return db

    async def admin(self, sql: str) -> None:
        from app.db import asyncpg_dsn

        conn = await asyncpg.connect(asyncpg_dsn(self.admin_url))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    async def new_database(self, name: str) -> str:
        """A fresh database, migrated to the newest schema."""
        from app.db import upgrade_schema

        await self.admin(f'CREATE DATABASE "{name}"')
        self.names.append(name)
        self.url = self.pg.get_uri(name) if self.pg is not None else with_database(self.admin_url, name)
        if self.app_root == ROOT:
            await asyncio.to_thread(upgrade_schema, self.url)
        else:  # that checkout's own migrations
            code = "import sys; from app.db import upgrade_schema; upgrade_schema(sys.argv[1])"
            await asyncio.to_thread(subprocess.run, [sys.executable, "-c", code, self.url], cwd=self.app_root,
                                    check=True, capture_output=True)
        return self.url

    def postmaster(self) -> int | None:
        if self.pg is None:
            return None
        with contextlib.suppress(Exception):
            return int(self.pg.get_pid())
        return None

    @property
    def dsn(self) -> str:
        from app.db import asyncpg_dsn

        return asyncpg_dsn(self.url)

    async def counters(self) -> tuple[int, int]:
        """(rows in actions, transactions committed + rolled back in this database so far)."""
        conn = await asyncpg.connect(self.dsn)
        try:
            rows = int(await conn.fetchval("SELECT count(*) FROM actions"))
            await conn.execute("SELECT pg_stat_clear_snapshot()")
            xacts = int(await conn.fetchval("SELECT xact_commit + xact_rollback FROM pg_stat_database"
                                            " WHERE datname = current_database()"))
            return rows, xacts
        finally:
            await conn.close()

    async def close(self, keep: bool) -> None:
        if self.pg is not None:
            with contextlib.suppress(Exception):
                self.pg.cleanup()
            if self.folder:
                shutil.rmtree(self.folder, ignore_errors=True)
        elif not keep:
            for name in self.names:
                with contextlib.suppress(Exception):
                    await self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def insert_ceiling(dsn: str, conns: int, seconds: float) -> float:
    """Single-row INSERT + COMMIT per transaction from ``conns`` connections -> rows/s."""
    pool = [await asyncpg.connect(dsn) for _ in range(conns)]
    try:
        await pool[0].execute(
            "CREATE TABLE IF NOT EXISTS bench_scratch (id bigserial PRIMARY KEY, match_id text NOT NULL,"
            " seq int NOT NULL, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())")
        stmt = "INSERT INTO bench_scratch (match_id, seq, payload) VALUES ($1, $2, $3::jsonb)"
        payload = json.dumps({"decision": "play:p1:12", "choices": ["card-c17"]})
        count = 0
        end = now() + seconds

        async def run(conn: asyncpg.Connection, i: int) -> None:
            nonlocal count
            seq = 0
            while now() < end:
                seq += 1
                await conn.execute(stmt, f"scratch{i:04d}", seq, payload)  # autocommit: 1 row = 1 commit
                count += 1

        start = now()
        await asyncio.gather(*(run(c, i) for i, c in enumerate(pool)))
        rate = count / (now() - start)
        await pool[0].execute("DROP TABLE bench_scratch")
        return rate
    finally:
        for c in pool:
            await c.close()


# ----------------------------------------------------------------------------- server
@dataclass
class Server:
    database_url: str
    workers: int
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    folder: str = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, extra_env: dict[str, str], wrap: list[str] | None = None, cwd: Path = ROOT) -> None:
        self.folder = tempfile.mkdtemp(prefix="wr-bench-srv-")
        env = {**os.environ, "DATABASE_URL": self.database_url, "HOST": "127.0.0.1", "PORT": str(self.port),
               "WARROOM_DATA": self.folder, "WARROOM_SECRET": BENCH_SECRET, "WARROOM_EXTRA_GAMES": GAMES,
               "LOG_LEVEL": "warning", **extra_env}
        log = open(Path(self.folder) / "server.log", "wb")  # noqa: SIM115 - the process owns it
        command = wrap or [sys.executable, "-m", "app", "serve", "--workers", str(self.workers)]
        self.process = subprocess.Popen(command,
                                        cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = now() + 60
        while now() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        else:
            raise RuntimeError(f"server did not come up:\n{self.log()}")
        # every worker must be up: with W>1 the first answer may come from one of them only
        time.sleep(0.5 * self.workers)

    def log(self) -> str:
        path = Path(self.folder) / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        if self.process is not None:  # stragglers of the group (workers) never outlive the run
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        shutil.rmtree(self.folder, ignore_errors=True)


# ----------------------------------------------------------------------------- the load
@dataclass
class Stats:
    counts: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    post_latency: list[float] = field(default_factory=list)  # submit -> HTTP 200
    e2e_latency: list[float] = field(default_factory=list)  # submit -> last socket of the match has the seq
    undelivered: int = 0

    def error(self, what: str) -> None:
        self.errors[what[:120]] += 1


class Window:
    def __init__(self) -> None:
        self.start = float("inf")
        self.end = float("inf")
        self.stop = False  # no new submits / no new matches

    def inside(self, t: float) -> bool:
        return self.start <= t < self.end


class Sock:
    """One open socket of the current match: what it received, when."""

    def __init__(self, player: Player | None) -> None:
        self.player = player
        self.seqs: list[int] = []
        self.times: list[float] = []
        self.doc: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.closed = False
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None

    def first_at_or_after(self, seq: int) -> float | None:
        i = bisect.bisect_left(self.seqs, seq)
        return self.times[i] if i < len(self.seqs) else None


class Player:
    def __init__(self, base_url: str, name: str) -> None:
        self.name = name
        self.http = httpx.AsyncClient(base_url=base_url, timeout=30, http2=False,
                                      limits=httpx.Limits(max_connections=2, max_keepalive_connections=2))
        self.cookie = ""

    async def sign_in(self) -> None:
        r = await self.http.post("/api/guests", json={"name": self.name})
        r.raise_for_status()
        self.cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())


def seq_of(text: str) -> int:
    """The seq of a server message without parsing it all (the server writes it first)."""
    if text.startswith('{"seq":'):
        end = text.find(",", 7)
        if end > 0 and text[7:end].isdigit():
            return int(text[7:end])
    return int(json.loads(text)["seq"])


class Bench:
    def __init__(self, args: argparse.Namespace, server: Server, db: Database) -> None:
        self.args = args
        self.server = server
        self.db = db
        self.stats = Stats()
        self.window = Window()
        self.target: str | None = None
        self.connect_gate = asyncio.Semaphore(args.connect_concurrency)
        self.ready = 0
        self.all_ready = asyncio.Event()
        self.matches_started = 0
        self.matches_finished = 0

    # -- sockets ---------------------------------------------------------
    async def open_socket(self, match_id: str, sock: Sock) -> None:
        headers = {"Cookie": sock.player.cookie} if sock.player is not None else {}
        async with self.connect_gate:
            sock.ws = await ws_connect(f"{self.server.ws_url}/api/matches/{match_id}/ws",
                                       additional_headers=headers, max_size=1 << 22, open_timeout=30,
                                       compression="deflate" if self.args.ws_compression else None,
                                       ping_interval=None)
        sock.task = asyncio.create_task(self.read_socket(sock))

    async def read_socket(self, sock: Sock) -> None:
        try:
            async for text in sock.ws:
                t = now()
                assert isinstance(text, str)
                if sock.player is None:
                    seq = seq_of(text)
                else:
                    msg = json.loads(text)
                    seq = int(msg["seq"])
                    if "patch" in msg:
                        if sock.doc is None:
                            self.stats.error("patch before a full message")
                            continue
                        sock.doc = jsonpatch.apply_patch(sock.doc, msg["patch"], in_place=True)
                    else:
                        sock.doc = msg
                    sock.changed.set()
                if sock.seqs and seq < sock.seqs[-1]:
                    self.stats.error("socket went back in seq")
                sock.seqs.append(seq)
                sock.times.append(t)
        except Exception as exc:  # connection closed by the server etc.
            if not self.window.stop:
                self.stats.error(f"socket: {type(exc).__name__}: {exc}")
        finally:
            sock.closed = True
            sock.changed.set()

    # -- players ---------------------------------------------------------
    async def act_loop(self, sock: Sock, match_id: str, commits: list[tuple[int, float]]) -> str:
        """Answer this seat's pending decisions until the match is over; return why we stopped."""
        player = sock.player
        assert player is not None
        last_sent = -1
        while True:
            try:
                await asyncio.wait_for(sock.changed.wait(), timeout=self.args.stall_seconds)
            except TimeoutError:
                if self.window.stop:
                    return "stop"
                doc = sock.doc or {}
                if doc.get("status") == "active" and doc.get("seq") == last_sent:
                    self.stats.error("stalled: no update for the seq we acted on")
                    return "stalled"
                continue  # nothing is pending on us: the other seat thinks; wait on
            sock.changed.clear()
            while True:
                if self.window.stop:
                    return "stop"
                if sock.closed:
                    return "closed"
                doc = sock.doc
                if doc is None:
                    break
                if doc.get("status") == "finished":
                    return "finished"
                pending = doc.get("pending") or []
                seq = int(doc["seq"])
                if not pending or seq == last_sent:
                    break
                decision = pending[0]
                body = {"seq": seq, "decision": decision["decision"], "choice": decision["choices"][0]["id"]}
                last_sent = seq
                t0 = now()
                try:
                    r = await player.http.post(f"/api/matches/{match_id}/actions", json=body)
                except httpx.HTTPError as exc:
                    self.stats.error(f"POST action: {type(exc).__name__}")
                    continue
                t1 = now()
                if r.status_code == 200:
                    done = int(r.json()["seq"])
                    if self.window.inside(t1):
                        self.stats.counts["committed"] += 1
                    if self.window.inside(t0):
                        self.stats.post_latency.append(t1 - t0)
                        commits.append((done, t0))
                elif r.status_code == 409:
                    if self.window.inside(t1):
                        self.stats.counts["stale_409"] += 1  # the other seat moved first (bids): retry on update
                else:
                    self.stats.error(f"POST action: HTTP {r.status_code} {r.text[:80]}")

    async def new_match(self, host: Player, guest: Player) -> str:
        options = {"target": self.target} if self.target else {}
        r = await host.http.post("/api/matches", json={"game": "cardgame", "players": 2, "options": options,
                                                       "mode": "live"})
        r.raise_for_status()
        match_id = str(r.json()["match_id"])
        r = await guest.http.post(f"/api/matches/{match_id}/join", json={})
        r.raise_for_status()
        r = await host.http.post(f"/api/matches/{match_id}/start", json={})
        r.raise_for_status()
        return match_id

    async def table(self, index: int, host: Player, guest: Player, spectators: int) -> None:
        """One table slot: play match after match with the same two players until the window ends."""
        first = True
        while not self.window.stop:
            try:
                match_id = await self.new_match(host, guest)
            except Exception as exc:
                self.stats.error(f"new match: {type(exc).__name__}: {exc}")
                await asyncio.sleep(0.5)
                continue
            self.matches_started += 1
            socks = [Sock(host), Sock(guest)] + [Sock(None) for _ in range(spectators)]
            commits: list[tuple[int, float]] = []
            try:
                # every socket is open before the first move, so each one can see every seq
                await asyncio.gather(*(self.open_socket(match_id, s) for s in socks))
                if first:
                    first = False
                    self.ready += 1
                    if self.ready >= self.args.tables:
                        self.all_ready.set()
                    await self.all_ready.wait()
                results = await asyncio.gather(self.act_loop(socks[0], match_id, commits),
                                               self.act_loop(socks[1], match_id, commits))
                if "finished" in results:
                    self.matches_finished += 1
                # let the last updates reach every socket before judging them
                deadline = now() + self.args.drain_seconds
                top = max((s for s, _ in commits), default=0)
                while now() < deadline and any(not s.closed and (not s.seqs or s.seqs[-1] < top) for s in socks):
                    await asyncio.sleep(0.02)
            except Exception as exc:
                self.stats.error(f"table: {type(exc).__name__}: {exc}")
            finally:
                await asyncio.gather(*(self.close_socket(s) for s in socks))
            self.judge(socks, commits)

    async def close_socket(self, sock: Sock) -> None:
        if sock.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sock.ws.close(), 5)
        if sock.task is not None:
            sock.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sock.task

    def judge(self, socks: list[Sock], commits: list[tuple[int, float]]) -> None:
        for seq, t0 in commits:
            last = 0.0
            for s in socks:
                t = s.first_at_or_after(seq)
                if t is None:
                    last = -1.0
                    break
                last = max(last, t)
            if last < 0:
                self.stats.undelivered += 1
            else:
                self.stats.e2e_latency.append(last - t0)

    # -- the run ---------------------------------------------------------
    async def run(self) -> dict[str, Any]:
        args = self.args
        async with httpx.AsyncClient(base_url=self.server.url) as probe:
            games = (await probe.get("/api/games")).json()
        card = next(g for g in games if g["id"] == "cardgame")
        choices = next((o["choices"] for o in card["options"] if o["id"] == "target"), [])
        self.target = args.target if args.target in choices else None

        players = [Player(self.server.url, f"bench{i}") for i in range(args.tables * 2)]
        gate = asyncio.Semaphore(50)

        async def sign_in(p: Player) -> None:
            async with gate:
                await p.sign_in()

        t_setup = now()
        await asyncio.gather(*(sign_in(p) for p in players))
        extra = max(0, args.sockets - len(players))
        per_table = [extra // args.tables + (1 if i < extra % args.tables else 0) for i in range(args.tables)]
        tasks = [asyncio.create_task(self.table(i, players[2 * i], players[2 * i + 1], per_table[i]))
                 for i in range(args.tables)]
        try:
            await asyncio.wait_for(self.all_ready.wait(), timeout=args.setup_timeout)
        except TimeoutError:
            self.stats.error(f"setup: only {self.ready}/{args.tables} tables ready in {args.setup_timeout}s")
            self.all_ready.set()
        setup_seconds = now() - t_setup
        await asyncio.sleep(args.warmup)

        postmaster = self.db.postmaster()
        cpu0, busy0, (rows0, xacts0) = (cpu_groups(self.server.process.pid, postmaster), machine_busy(),
                                        await self.db.counters())
        profilers = self.start_profilers(args.seconds) if args.profile else []
        self.window.start = now()
        self.window.end = self.window.start + args.seconds
        await asyncio.sleep(args.seconds)
        t_end = now()
        cpu1, busy1, (rows1, xacts1) = (cpu_groups(self.server.process.pid, postmaster), machine_busy(),
                                        await self.db.counters())
        self.window.stop = True
        for p in profilers:
            with contextlib.suppress(Exception):
                p.wait(args.seconds + 30)
        done, pending = await asyncio.wait(tasks, timeout=args.drain_seconds + args.stall_seconds + 15)
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for t in done:
            if t.exception() is not None:
                self.stats.error(f"table task: {t.exception()!r}")
        await asyncio.gather(*(p.http.aclose() for p in players), return_exceptions=True)

        span = t_end - self.window.start
        cpu = {k: round((cpu1.get(k, 0.0) - cpu0.get(k, 0.0)) / span * 100, 1) for k in ("client", "server",
                                                                                        "postgres")}
        cpu["machine_total"] = round((busy1[0] - busy0[0]) / span * 100, 1)
        # processes that are none of ours (e.g. a test suite running beside): the figures are noisy then
        cpu["not_ours"] = round(max(0.0, cpu["machine_total"] - cpu["client"] - cpu["server"] - cpu["postgres"]), 1)
        s = self.stats
        return {
            "workers": args.workers_one,
            "players": len(players),
            "tables": args.tables,
            "sockets": len(players) + extra,
            "target": self.target,
            "seconds": round(span, 2),
            "setup_seconds": round(setup_seconds, 2),
            "committed": s.counts["committed"],
            "actions_per_s": round(s.counts["committed"] / span, 1),
            "db_rows": rows1 - rows0,
            "db_rows_per_s": round((rows1 - rows0) / span, 1),
            "db_transactions_per_action": round((xacts1 - xacts0) / max(1, rows1 - rows0), 1),
            "server_cpu_ms_per_action": round((cpu1.get("server", 0) - cpu0.get("server", 0)) * 1000
                                              / max(1, rows1 - rows0), 2),
            "stale_409": s.counts["stale_409"],
            "matches_started": self.matches_started,
            "matches_finished": self.matches_finished,
            "e2e_ms": {f"p{q}": round(pct(s.e2e_latency, q) * 1000, 2) if s.e2e_latency else None
                       for q in (50, 95, 99)} | {"max": round(max(s.e2e_latency) * 1000, 2) if s.e2e_latency
                                                 else None, "samples": len(s.e2e_latency)},
            "post_ms": {f"p{q}": round(pct(s.post_latency, q) * 1000, 2) if s.post_latency else None
                        for q in (50, 95, 99)},
            "undelivered": s.undelivered,
            "errors": sum(s.errors.values()),
            "error_kinds": dict(s.errors.most_common(10)),
            "cpu_percent_of_one_core": cpu,
        }

    def start_profilers(self, seconds: float) -> list[subprocess.Popen[bytes]]:
        out = Path(self.args.profile)
        out.mkdir(parents=True, exist_ok=True)
        spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        procs = []
        tag = f"w{self.args.workers_one}-s{self.args.sockets}"
        targets = [(f"server-{pid}", pid) for pid in server_workers(self.server.process.pid)]
        targets.append(("client", os.getpid()))
        for name, pid in targets:
            path = out / f"{tag}-{name}.txt"
            procs.append(subprocess.Popen([spy, "record", "--pid", str(pid), "--duration", str(int(seconds)),
                                           "--rate", "200", "--format", "raw", "--nonblocking", "--gil",
                                           "--output", str(path)],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        return procs


# ----------------------------------------------------------------------------- main
def tree_state() -> str:
    """The commit measured, and whether the work tree differed from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "app"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return head + ("+dirty(app)" if dirty else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def summary_line(r: dict[str, Any], ceiling: float) -> str:
    e2e, post, cpu = r["e2e_ms"], r["post_ms"], r["cpu_percent_of_one_core"]
    share = r["actions_per_s"] / ceiling * 100 if ceiling else 0
    return (f"W={r['workers']:<2} sockets={r['sockets']:<5} players={r['players']:<5} "
            f"actions/s={r['actions_per_s']:<7} (db rows/s {r['db_rows_per_s']}) "
            f"= {share:.0f}% of ceiling | e2e p50/p95/p99 = {e2e['p50']}/{e2e['p95']}/{e2e['p99']} ms "
            f"(POST p50/p99 {post['p50']}/{post['p99']} ms) | errors={r['errors']} undelivered={r['undelivered']}"
            f" stale409={r['stale_409']} matches={r['matches_finished']}/{r['matches_started']} | CPU% "
            f"client {cpu['client']} server {cpu['server']} postgres {cpu['postgres']} "
            f"machine {cpu['machine_total']}/{os.cpu_count() * 100} (not ours {cpu['not_ours']}) | server CPU "
            f"{r['server_cpu_ms_per_action']} ms/action, {r['db_transactions_per_action']} db transactions/action")


async def amain(args: argparse.Namespace) -> dict[str, Any]:
    raise_fd_limit()
    stamp = uuid.uuid4().hex[:6]
    app_root = Path(args.app_root).resolve() if args.app_root else ROOT
    db = await Database.create(args.database_url, f"bench_{stamp}_0", app_root)
    results: list[dict[str, Any]] = []
    ceiling: dict[str, Any] = {}
    try:
        levels = [int(x) for x in args.ceiling_connections.split(",")]
        if args.wait_idle:
            await wait_for_quiet(args.wait_idle)
        for c in levels:
            ceiling[str(c)] = round(await insert_ceiling(db.dsn, c, args.ceiling_seconds), 1)
            print(f"ceiling: INSERT+COMMIT with {c} connection(s): {ceiling[str(c)]} rows/s", flush=True)
        best = max(ceiling.values())
        runs = [(w, s) for w in args.workers for s in args.sockets]
        for i, (workers, sockets) in enumerate(runs):
            if i:
                await db.new_database(f"bench_{stamp}_{i}")
            if args.wait_idle:
                await wait_for_quiet(args.wait_idle)
            server = Server(db.url, workers)
            await asyncio.to_thread(server.start, {"WARROOM_DB_POOL": str(args.db_pool)} if args.db_pool else {},
                                    args.server_command.split() if args.server_command else None,
                                    app_root)
            try:
                one = argparse.Namespace(**vars(args))
                one.workers_one, one.sockets = workers, max(sockets, args.players)
                one.tables = args.players // 2
                result = await asyncio.wait_for(Bench(one, server, db).run(),
                                                timeout=args.warmup + args.seconds + args.setup_timeout + 120)
                result["ceiling_rows_per_s"] = best
                result["percent_of_ceiling"] = round(result["actions_per_s"] / best * 100, 1)
                results.append(result)
                print(summary_line(result, best), flush=True)
                if result["errors"]:
                    print(f"  error kinds: {result['error_kinds']}", flush=True)
            finally:
                if args.server_log:
                    Path(f"{args.server_log}.w{workers}-s{sockets}").write_text(server.log())
                server.stop()
    finally:
        await db.close(keep=args.keep_databases)
    return {"tree": tree_state(), "app_root": str(Path(args.app_root).resolve()) if args.app_root else str(ROOT),
            "machine": {"nproc": os.cpu_count(), "mem_gib": round(os.sysconf("SC_PAGE_SIZE")
                                                                   * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
                        "python": sys.version.split()[0]},
            "ceiling_rows_per_s": ceiling, "runs": results}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ints = lambda s: [int(x) for x in s.split(",")]  # noqa: E731
    ap.add_argument("--workers", type=ints, default=[1], help="server worker processes; a list runs each (1,2)")
    ap.add_argument("--players", type=int, default=200, help="players, two per table (default 200)")
    ap.add_argument("--sockets", type=ints, default=[0],
                    help="open sockets in all (>= players; the rest are spectators); a list runs each")
    ap.add_argument("--seconds", type=float, default=20, help="measured window (default 20)")
    ap.add_argument("--warmup", type=float, default=3, help="seconds of load before the window (default 3)")
    ap.add_argument("--target", default="100", help="points to win when the game offers it (long games)")
    ap.add_argument("--database-url", default=None, help="use this PostgreSQL instead of an embedded one")
    ap.add_argument("--keep-databases", action="store_true", help="with --database-url: keep the bench databases")
    ap.add_argument("--ceiling-connections", default="1,4,16", help="INSERT+COMMIT ceiling: connection counts")
    ap.add_argument("--ceiling-seconds", type=float, default=3)
    ap.add_argument("--db-pool", type=int, default=0, help="WARROOM_DB_POOL for the server (default: its own)")
    ap.add_argument("--ws-compression", action="store_true", help="negotiate permessage-deflate like browsers")
    ap.add_argument("--connect-concurrency", type=int, default=64)
    ap.add_argument("--stall-seconds", type=float, default=5)
    ap.add_argument("--drain-seconds", type=float, default=2)
    ap.add_argument("--setup-timeout", type=float, default=120)
    ap.add_argument("--profile", default=None, help="folder for py-spy raw profiles of workers and client")
    ap.add_argument("--app-root", default=None,
                    help="run the server from another checkout of the project (A/B runs; e.g. a git worktree)")
    ap.add_argument("--wait-idle", type=float, default=0,
                    help="shared machine: before each measurement wait up to this many seconds for it to be idle")
    ap.add_argument("--server-command", default=None,
                    help="start the server with this command instead (e.g. a profiling wrapper); env as usual")
    ap.add_argument("--server-log", default=None, help="keep the server's log as PATH.w<W>-s<S>")
    ap.add_argument("--json", default=None, help="write the results as JSON to this file ('-' for stdout)")
    args = ap.parse_args()
    if args.players < 2 or args.players % 2:
        ap.error("--players must be an even number >= 2")
    run_bench(amain, args)


def run_bench(amain: Any, args: argparse.Namespace) -> None:
    """Run a benchmark's ``amain(args)`` on uvloop when installed, and write its figures where
    ``--json`` says ('-': stdout)."""
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    # a SIGTERM (timeout, kill) unwinds like ^C: the server group is killed and PostgreSQL stopped
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    out = asyncio.run(amain(args))
    if args.json:
        text = json.dumps(out, indent=2)
        if args.json == "-":
            print(text)
        else:
            Path(args.json).write_text(text + "\n")


if __name__ == "__main__":
    main()
