#!/usr/bin/env python
"""Server CPU per committed move on the JSON path (issue 10, item 2). Not a test.

One process, its own PostgreSQL (pgserver in a temp dir): N QMG tables of four human seats
play seeded random answers through ``work.submit`` (the path POST /api/matches/{id}/actions
takes), and after every move a hub in this process pushes the JSON socket of every seat plus
one spectator (what the listener does after a commit). Printed, per committed move:

* CPU of this process (``time.process_time``), split into the rules (apply, pending), the
  state hash, building and encoding the socket messages and patches, the POST reply, and the
  rest (the database driver, SQLAlchemy, the unit of work);
* CPU of the PostgreSQL processes over the same run;
* database round trips per move (statements sent by SQLAlchemy and by asyncpg directly);
* bytes per JSON-socket update (median, p90, max) and what dominates them;
* how long a cold load of a long match takes (see --load).

    .venv/bin/python scripts/bench_move_cpu.py --matches 4 --moves 300 --seed 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

# the same match seeds on every run (the server's own rule for benchmarks): figures compare
os.environ.setdefault("WARROOM_TEST_SEED", "bench_move_cpu")
# BENCH_ROOT: measure another checkout's code (the figures before a change) with this script
ROOT = Path(os.environ.get("BENCH_ROOT") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402
from sqlalchemy import event  # noqa: E402

from app.db import asyncpg_dsn, make_engine, make_sessionmaker  # noqa: E402
from app.games.protocol import random_bot  # noqa: E402
from app.games.registry import get as get_game  # noqa: E402
from app.models import Match, User  # noqa: E402
from app.sessions import live, replay, service, views, work  # noqa: E402
from app.sessions.live import Hub, Subscriber  # noqa: E402
from app.sessions.replay import MatchCache  # noqa: E402
from app.sessions.work import MatchWork  # noqa: E402
from tests.conftest import create_database  # noqa: E402


class Split:
    """CPU seconds by part, measured by wrapping the functions that do each part."""

    def __init__(self) -> None:
        self.parts: Counter[str] = Counter()
        self.depth = 0  # nested wrapped calls count once, in the outermost part

    def wrap(self, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self.depth:
                return fn(*args, **kwargs)
            self.depth += 1
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.parts[part] += time.process_time() - start
                self.depth -= 1
        return timed


def wrap_async(split: Split, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``Split.wrap`` for a coroutine function: nothing else runs in this process meanwhile
    (the hub is not started), so the CPU around the await is the call's own."""
    async def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return await fn(*args, **kwargs)
        finally:
            split.parts[part] += time.process_time() - start
    return timed


def pct(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] if ordered else 0


PG_DATA: list[Path] = []  # this run's own PostgreSQL data directory


def postgres_cpu() -> float:
    """utime + stime of this run's PostgreSQL (its postmaster and every backend it forked), in
    seconds: other PostgreSQL servers on the machine are not counted."""
    try:
        postmaster = int((PG_DATA[0] / "postmaster.pid").read_text().split()[0])
    except (IndexError, OSError, ValueError):
        return 0.0
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(pid) == postmaster or int(fields[1]) == postmaster:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


async def setup(sessions: Any, cache: MatchCache, matches: int) -> list[tuple[str, dict[str, int]]]:
    tables = []
    async with sessions() as db:
        for m in range(matches):
            users = [User(name=f"p{m}-{i}", is_guest=True) for i in range(4)]
            async with db.begin():
                db.add_all(users)
                await db.flush()
                match = await service.create_match(db, users[0], "qmg", 4, {}, "live")
                for u in users:
                    await service.join(db, u, match.id, None)
            await work.start(MatchWork(cache, lambda _m: None), db, users[0], match.id)
            seats = {s.seat: s.user_id for s in await service.seat_rows(db, match.id)}
            await db.commit()
            tables.append((match.id, seats))
    return tables


async def run(url: str, args: argparse.Namespace) -> None:
    engine = make_engine(url, pool_size=4)
    statements = Counter[str]()

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def counted(*_a: Any) -> None:
        statements["orm"] += 1

    sessions = make_sessionmaker(engine)
    cache = MatchCache()
    tables_work = MatchWork(cache, lambda _m: None)
    hub = Hub(sessions, cache, asyncpg_dsn(url))
    tables = await setup(sessions, cache, args.matches)
    game = get_game("qmg")
    assert game is not None
    subs: dict[str, list[Subscriber]] = {}
    for match_id, seats in tables:
        subs[match_id] = [Subscriber(match_id, uid) for uid in seats.values()] + [Subscriber(match_id, None)]
        for sub in subs[match_id]:
            await hub.subscribe(sub)
            sub.queue.get_nowait()

    split = Split()
    game.apply = split.wrap("rules", game.apply)  # type: ignore[method-assign]
    game.pending = split.wrap("rules", game.pending)  # type: ignore[method-assign]
    game.outcome = split.wrap("rules", game.outcome)  # type: ignore[method-assign]
    service.state_hash = split.wrap("hash", service.state_hash)  # type: ignore[assignment]
    live.build_frame = split.wrap("socket messages", live.build_frame)  # type: ignore[assignment]
    live.make_patch = split.wrap("socket patches", live.make_patch)  # type: ignore[assignment]
    live.encode = split.wrap("socket patches", live.encode)  # type: ignore[assignment]
    if hasattr(views, "answered_json"):
        def reply_json(cache: MatchCache, done: Any) -> bytes:
            loaded = cache.peek(done.match_id)
            assert loaded is not None and loaded.seq == done.seq
            return views.answered_json(loaded, done.seat, done.match.status, done.applied)  # type: ignore[no-any-return]
        answered = split.wrap("POST reply", reply_json)
    else:  # before issue 10: the reply was a dict the response model encoded
        def reply(cache: MatchCache, done: Any) -> bytes:
            loaded = cache.peek(done.match.id)
            assert loaded is not None and loaded.seq == done.seq
            body = {"seq": loaded.seq, "view": views.seat_view(loaded, done.seat),
                    "pending": views.pending_for(loaded, done.seat, done.match.status), "applied": done.applied}
            return json.dumps(body).encode()
        answered = split.wrap("POST reply", reply)

    rng = random.Random(args.seed)
    raw_statements = Counter[str]()
    original_fetchrow = service_fetchrow_counter(raw_statements)
    import asyncpg
    from sqlalchemy.ext.asyncio import AsyncSession

    counted_fetchrow = asyncpg.Connection.fetchrow
    asyncpg.Connection.fetchrow = wrap_async(split, "warroom_move", counted_fetchrow)  # type: ignore[method-assign]
    original_connection = AsyncSession.connection
    AsyncSession.connection = wrap_async(split, "pool checkout", original_connection)  # type: ignore[method-assign]
    sizes: list[int] = []
    ops: Counter[str] = Counter()
    moves = 0
    moving = pushing = 0.0  # CPU of the move itself (submit and its reply), and of the sockets' push
    cpu0, pg0 = time.process_time(), postgres_cpu()
    orm0 = statements["orm"]
    started = time.perf_counter()
    live_tables = {m: seats for m, seats in tables}
    while live_tables and moves < args.moves * args.matches:
        for match_id in list(live_tables):
            seats = live_tables[match_id]
            loaded = cache.peek(match_id)
            if loaded is None or loaded.head is None or loaded.head.status != "active":
                async with sessions() as db:
                    row = await db.get(Match, match_id)
                    assert row is not None
                    if row.status != "active":
                        del live_tables[match_id]
                        continue
                    loaded = await cache.load(db, row)
            pending = [d for d in loaded.game.pending(loaded.state) if not d.optional]
            decision = pending[0]
            choices = list(random_bot(decision, rng).choices)
            user = service_player(seats[decision.seat])
            mark = time.process_time()
            async with sessions() as db:
                done = await work.submit(tables_work, db, user, match_id, loaded.seq, decision.id, choices, None)
                answered(cache, done)
            moving += time.process_time() - mark
            moves += 1
            sent_before = [s.queue.qsize() for s in subs[match_id]]
            mark = time.process_time()
            await hub._push_match(match_id, done.seq)
            pushing += time.process_time() - mark
            for sub, before in zip(subs[match_id], sent_before, strict=True):
                while sub.queue.qsize() > before - 0 and not sub.queue.empty():
                    text = sub.queue.get_nowait()
                    assert text is not None
                    sizes.append(len(text.encode()))
                    for op in orjson.loads(text).get("patch", []):
                        ops[op["path"].split("/")[1] + ":" + op["op"]] += len(orjson.dumps(op))
            if loaded.head is not None and loaded.head.status != "active":
                del live_tables[match_id]
    wall = time.perf_counter() - started
    cpu, pg = time.process_time() - cpu0, postgres_cpu() - pg0
    restore(original_fetchrow)
    AsyncSession.connection = original_connection  # type: ignore[method-assign]
    orm = statements["orm"] - orm0
    per = 1000 / max(1, moves)
    print(f"{moves} committed moves over {args.matches} QMG tables in {wall:.2f} s wall")
    print(f"this process: {cpu * per:.3f} ms CPU per move: {moving * per:.3f} ms the move and its reply, "
          f"{pushing * per:.3f} ms the push to {len(next(iter(subs.values())))} JSON sockets, the rest the bench")
    measured = sum(split.parts.values())
    for part, seconds in split.parts.most_common():
        print(f"  {part:<16} {seconds * per:.3f} ms")
    print(f"  {'the rest':<16} {(cpu - measured) * per:.3f} ms  (database driver, SQLAlchemy, unit of work, hub)")
    print(f"postgres: {pg * per:.3f} ms CPU per move")
    print(f"round trips per move: {(orm + raw_statements['raw']) / max(1, moves):.2f} "
          f"(SQLAlchemy {orm / max(1, moves):.2f}, asyncpg direct {raw_statements['raw'] / max(1, moves):.2f})")
    if sizes:
        print(f"JSON socket update: median {statistics.median(sizes):,.0f} B  p90 {pct(sizes, 90):,} B  "
              f"max {max(sizes):,} B  ({len(sizes)} updates)")
        total = sum(ops.values())
        print("  bytes by path:op " + ", ".join(f"{k} {v * 100 / total:.0f}%" for k, v in ops.most_common(8)))
    await engine.dispose()
    if args.load:
        await bench_load(url, args)


async def bench_load(url: str, args: argparse.Namespace) -> None:
    """A long QMG match (the game's own bot on every seat: its matches run longest, though
    none reaches 2,000 actions), loaded cold from its newest snapshot and the log after it:
    the cost is bounded by the snapshot interval, not by the log's length."""
    engine = make_engine(url, pool_size=2)
    sessions = make_sessionmaker(engine)
    cache = MatchCache()
    (match_id, seats), = await setup(sessions, cache, 1)
    rng = random.Random(args.seed)
    tables_work = MatchWork(cache, lambda _m: None)
    played = 0
    while played < args.load:
        async with sessions() as db:
            row = await db.get(Match, match_id)
            assert row is not None
            if row.status != "active":
                break
            loaded = await cache.load(db, row)
            decision = [d for d in loaded.game.pending(loaded.state) if not d.optional][0]
            seq = loaded.seq
            await db.commit()
            await work.submit(tables_work, db, service_player(seats[decision.seat]), match_id, seq,
                              decision.id, list(loaded.game.bot(loaded.state, decision, rng).choices), None)
        played += 1
    async def cold_ms(upto: int) -> float:
        times = []
        for _ in range(5):
            cold = MatchCache()
            async with sessions() as db:
                row = await db.get(Match, match_id)
                assert row is not None
                start = time.perf_counter()
                await cold.load(db, row, upto=upto)
                times.append(time.perf_counter() - start)
        return statistics.median(times) * 1000

    every = int(os.environ.get("WARROOM_SNAPSHOT_EVERY", "50"))
    # just before a snapshot is due: the longest walk from the snapshot before (the worst case)
    lengths = sorted({*range(2 * every - 1, played, 2 * every), played})
    figures = [f"{n}: {await cold_ms(n):.1f} ms" for n in lengths]
    print(f"cold load of a QMG match after n actions (the match ran {played}; snapshot every {every}): "
          + ", ".join(figures))
    await engine.dispose()


def service_player(user_id: int) -> Any:
    from app.api.deps import SignedIn

    return SignedIn(user_id)


def service_fetchrow_counter(counter: Counter[str]) -> Any:
    """Count the statements the move path sends through asyncpg itself (the one-trip path)."""
    import asyncpg

    original = asyncpg.Connection.fetchrow

    async def fetchrow(self: Any, *args: Any, **kwargs: Any) -> Any:
        counter["raw"] += 1
        return await original(self, *args, **kwargs)

    asyncpg.Connection.fetchrow = fetchrow  # type: ignore[method-assign]
    return original


def restore(original: Any) -> None:
    import asyncpg

    asyncpg.Connection.fetchrow = original  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=4)
    parser.add_argument("--moves", type=int, default=300, help="at most this many moves per table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--load", type=int, default=0, help="also time a cold load of a match this long")
    args = parser.parse_args()
    random.seed(args.seed)
    import pgserver

    folder = tempfile.mkdtemp(prefix="wr-bench-move-")
    os.chmod(folder, 0o755)
    pg = pgserver.get_server(Path(folder) / "pg", cleanup_mode="stop")
    PG_DATA.append(Path(folder) / "pg")
    try:
        url = create_database(pg, f"bench_{uuid.uuid4().hex[:6]}")
        asyncio.run(run(url, args))
    finally:
        pg.cleanup()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    _ = replay  # the module whose cache the moves keep current
    main()
