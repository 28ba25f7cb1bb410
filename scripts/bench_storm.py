#!/usr/bin/env python
"""Storm benchmark of issue 7's two wedging patterns. Not a test: it prints figures.

Starts its own PostgreSQL and ``python -m app serve`` (as scripts/bench_live.py does), then,
on loopback and bounded in time:

* N concurrent ``POST /actions`` on one seq by one seated guest (``--stale``, default 200);
* ``--getters`` anonymous clients (default 120) GETting running all-bot matches for
  ``--seconds`` (default 20);

and reports every status code, GET latency p50/p99, how long an unrelated ``POST /api/guests``
takes afterwards, and whether every bot match still plays on to its end.

    .venv/bin/python scripts/bench_storm.py
    .venv/bin/python scripts/bench_storm.py --stale 90 --getters 120 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_live import Database, Server, pct, raise_fd_limit  # noqa: E402

BOT_MATCHES = 4


async def guest(client: httpx.AsyncClient, name: str) -> None:
    r = await client.post("/api/guests", json={"name": name})
    r.raise_for_status()


async def bot_match(client: httpx.AsyncClient) -> str:
    r = await client.post("/api/matches", json={"game": "cardgame", "players": 4, "options": {"target": "100"}})
    match_id = str(r.json()["match_id"])
    for n in (2, 3, 4):
        await client.post(f"/api/matches/{match_id}/bots", json={"seat": f"p{n}", "bot": "random"})
    await client.post(f"/api/matches/{match_id}/start")
    await client.post(f"/api/matches/{match_id}/resign")  # every seat a bot's from here
    return match_id


async def storm(url: str, stale: int, getters: int, seconds: float) -> dict[str, object]:
    limits = httpx.Limits(max_connections=stale + getters + 10, max_keepalive_connections=stale + getters + 10)
    timeout = httpx.Timeout(120)
    async with httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as alice, \
            httpx.AsyncClient(base_url=url, timeout=timeout) as bob, \
            httpx.AsyncClient(base_url=url, timeout=timeout) as host, \
            httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as anonymous:
        await guest(alice, "Storm A")
        await guest(bob, "Storm B")
        await guest(host, "Storm host")
        r = await alice.post("/api/matches", json={"game": "cardgame", "players": 2, "options": {}})
        match_id = r.json()["match_id"]
        await bob.post(f"/api/matches/{match_id}/join")
        await alice.post(f"/api/matches/{match_id}/start")
        bots = [await bot_match(host) for _ in range(BOT_MATCHES)]
        m = (await alice.get(f"/api/matches/{match_id}")).json()
        d = m["pending"][0]
        statuses: Counter[str] = Counter()
        latencies: list[float] = []

        async def stale_move(i: int) -> None:
            body = {"seq": m["seq"], "decision": d["decision"], "choice": d["choices"][i % 2]["id"]}
            try:
                statuses[str((await alice.post(f"/api/matches/{match_id}/actions", json=body)).status_code)] += 1
            except httpx.HTTPError as exc:
                statuses[type(exc).__name__] += 1

        async def getter(n: int) -> None:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                started = time.monotonic()
                try:
                    r = await anonymous.get(f"/api/matches/{bots[n % len(bots)]}")
                    statuses[str(r.status_code)] += 1
                except httpx.HTTPError as exc:
                    statuses[type(exc).__name__] += 1
                latencies.append(time.monotonic() - started)

        began = time.monotonic()
        await asyncio.gather(*(stale_move(i) for i in range(stale)), *(getter(n) for n in range(getters)))
        took = time.monotonic() - began
        started = time.monotonic()
        async with httpx.AsyncClient(base_url=url, timeout=timeout) as late:
            r = await late.post("/api/guests", json={"name": "Latecomer"})
        unrelated = time.monotonic() - started
        finished = 0
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and finished < len(bots):
            finished = sum([(await host.get(f"/api/matches/{b}")).json()["status"] == "finished" for b in bots])
            await asyncio.sleep(0.5)
    return {"statuses": dict(statuses), "requests": sum(statuses.values()), "seconds": round(took, 1),
            "get_p50_ms": round((pct(latencies, 50) or 0) * 1000, 1),
            "get_p99_ms": round((pct(latencies, 99) or 0) * 1000, 1),
            "unrelated_ms": round(unrelated * 1000, 1), "unrelated_status": r.status_code,
            "bot_matches_finished": f"{finished}/{len(bots)}"}


async def amain(args: argparse.Namespace) -> None:
    raise_fd_limit()
    db = await Database.create(args.database_url, f"storm_{uuid.uuid4().hex[:8]}")
    server = Server(db.url, workers=args.workers)
    try:
        server.start({})
        result = await storm(server.url, args.stale, args.getters, args.seconds)
        print(f"stale={args.stale} getters={args.getters} seconds={args.seconds} workers={args.workers}")
        for key, value in result.items():
            print(f"  {key}: {value}")
        errors = [line for line in server.log().splitlines() if "Traceback" in line or " 500 " in line]
        print(f"  server tracebacks/500 lines: {len(errors)}")
    finally:
        server.stop()
        await db.close(keep=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stale", type=int, default=200)
    parser.add_argument("--getters", type=int, default=120)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--database-url", default=None)
    asyncio.run(amain(parser.parse_args()))


if __name__ == "__main__":
    main()
