"""`python -m app serve`: start the database (embedded unless DATABASE_URL), migrate, serve."""

from __future__ import annotations

import argparse
import logging
import os
import sys

import uvicorn

from app import db as database
from app.config import ConfigError, Settings, load_settings
from app.http_protocol import header_timeout


def settings_or_exit() -> Settings:
    """The settings, or exit 2 with the reason before anything (the database) is started."""
    try:
        return load_settings()
    except ConfigError as exc:
        print(f"warroom: refusing to start: {exc}", file=sys.stderr, flush=True)
        sys.exit(2)


def serve(workers: int | None) -> None:
    settings = settings_or_exit()
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
    print(f"warroom: serving on http://{settings.host}:{settings.port} with {count} worker(s)", flush=True)
    header_timeout()  # a malformed WARROOM_HEADER_TIMEOUT stops us here, not in every worker
    uvicorn.run("app.main:app", host=settings.host, port=settings.port, workers=count,
                log_level=os.environ.get("LOG_LEVEL", "info"), ws_max_size=1 << 20,
                http="app.http_protocol:HeadDeadlineProtocol",
                timeout_keep_alive=int(os.environ.get("WARROOM_KEEP_ALIVE_TIMEOUT", "5")))


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    parser = argparse.ArgumentParser(prog="warroom")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("serve", help="run the web server")
    run.add_argument("--workers", type=int, default=None, help="uvicorn worker processes (default 1)")
    args = parser.parse_args()
    if args.command == "serve":
        serve(args.workers)


if __name__ == "__main__":
    main()
