"""`python -m app serve`: start the database (embedded unless DATABASE_URL), migrate, serve.
`python -m app replay`: replay running matches under the installed rules engine.
`python -m app fuzz GAME`: fuzz a game's rules (see app/fuzz.py)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from typing import NoReturn

import uvicorn

from app import db as database
from app.config import ConfigError, Settings, data_folder, load_settings, pool_settings
from app.http_protocol import header_timeout


def settings_or_exit() -> Settings:
    """The settings, or exit 2 with the reason before anything (the database) is started."""
    try:
        pool_settings()  # a malformed WARROOM_DB_* stops us here too
        return load_settings()
    except ConfigError as exc:
        refuse(exc)


def refuse(reason: object) -> NoReturn:
    print(f"warroom: refusing to start: {reason}", file=sys.stderr, flush=True)
    sys.exit(2)


def planned_pool(url: str, workers: int) -> database.PoolPlan:
    """Size every worker's pool from what the database allows, or exit 2 saying what to change."""
    try:
        wanted = pool_settings()
        limits = database.connection_limits(url)
        plan = database.plan_pool(limits, wanted.processes(workers), spare=wanted.spare, pool=wanted.pool,
                                  overflow=wanted.overflow, workers=workers)
    except ConfigError as exc:
        refuse(exc)
    print(f"warroom: max_connections {limits.max_connections}: each of {wanted.processes(workers)} app "
          f"process(es) gets a pool of {plan.pool_size} + {plan.max_overflow} overflow + 1 listener", flush=True)
    return plan


def serve(workers: int | None) -> None:
    settings = settings_or_exit()
    deflate = socket_deflate()  # a malformed value stops us before the database starts
    url = settings.database_url
    if url is None:
        url = database.start_embedded(settings.data_dir)
        print(f"warroom: embedded PostgreSQL started, data in {settings.data_dir / 'pg'}", flush=True)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("WARROOM_SECRET", settings.secret_key)  # every worker signs cookies alike
    revision = database.upgrade_schema(url)
    print(f"warroom: database schema upgraded to revision {revision}", flush=True)
    count = workers or settings.workers
    os.environ["WARROOM_WORKERS"] = str(count)
    # every worker builds its engine from this plan instead of asking the database again
    os.environ["WARROOM_POOL_PLAN"] = planned_pool(url, count).encoded()
    print(f"warroom: serving on http://{settings.host}:{settings.port} with {count} worker(s)", flush=True)
    header_timeout()  # a malformed WARROOM_HEADER_TIMEOUT stops us here, not in every worker
    uvicorn.run("app.main:app", host=settings.host, port=settings.port, workers=count,
                log_level=os.environ.get("LOG_LEVEL", "info"), ws_max_size=1 << 20,
                http="app.http_protocol:HeadDeadlineProtocol",
                timeout_keep_alive=int(os.environ.get("WARROOM_KEEP_ALIVE_TIMEOUT", "5")),
                ws_per_message_deflate=deflate)


def socket_deflate() -> bool:
    """Per-message deflate on the sockets: off unless WARROOM_WS_DEFLATE=1. Its compressor is
    ~45 KiB of memory per socket for its whole life (twice what an idle socket costs else), while
    a push is about a kilobyte; on, a new page socket's first frame (a whole page) goes out ~5x
    smaller."""
    value = os.environ.get("WARROOM_WS_DEFLATE", "0").strip()
    if value not in ("0", "1"):
        refuse(f"WARROOM_WS_DEFLATE must be 0 or 1, not {value!r}")
    return value == "1"


def replay(game: str, match_id: str | None, dry_run: bool) -> int:
    """0: every match replayed the same; 1: some diverged (and were flagged); 2: refused."""
    # here, not at the top: `serve` leaves the sessions stack to its workers
    from app.sessions.maintenance import ReplayRefused
    from app.sessions.maintenance import replay as replay_matches

    url = os.environ.get("DATABASE_URL") or database.start_embedded(data_folder())
    if dry_run:
        if not database.schema_is_current(url):
            print("warroom: the database schema is older than this code; a dry run does not upgrade it "
                  "(run without --dry-run, or start the server once)", file=sys.stderr, flush=True)
            return 2
    else:
        database.upgrade_schema(url)
    try:
        verdicts = asyncio.run(replay_matches(url, game, match_id, dry_run))
    except ReplayRefused as exc:
        print(f"warroom: {exc}", file=sys.stderr, flush=True)
        return 2
    return 0 if all(v.agrees for v in verdicts) else 1


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    parser = argparse.ArgumentParser(prog="warroom")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("serve", help="run the web server")
    run.add_argument("--workers", type=int, default=None, help="uvicorn worker processes (default 1)")
    again = sub.add_parser("replay", help="replay running matches under the installed rules engine: rebuild "
                           "their snapshots where the log agrees, flag them for their players where it diverges")
    again.add_argument("--game", required=True, help="the game's id, e.g. qmg")
    again.add_argument("--match", default=None, help="only this match (running or finished)")
    again.add_argument("--dry-run", action="store_true", help="report only: change nothing")
    from app import fuzz  # pure: no database, no web

    fuzz.add_arguments(sub.add_parser("fuzz", help="play seeded matches of a game with random legal answers and "
                                      "its bots, checking dead ends, the length bound, dump/load, replay and "
                                      "secrets at every step"))
    args = parser.parse_args()
    if args.command == "fuzz":
        sys.exit(fuzz.run(args))
    if args.command == "serve":
        serve(args.workers)
    elif args.command == "replay":
        sys.exit(replay(args.game, args.match, args.dry_run))


if __name__ == "__main__":
    main()
