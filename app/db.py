"""Where the database is: the DATABASE_URL, or a private PostgreSQL started from
the pgserver wheel when none is given. Never SQLite, never a mock."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger("warroom.db")

_embedded: list[Any] = []  # keeps the pgserver handle alive for the life of the process


def start_embedded(data_dir: Path, database: str = "warroom") -> str:
    """Start (or reuse) the embedded PostgreSQL under ``data_dir/pg``; return its URL."""
    import pgserver

    data_dir.mkdir(parents=True, exist_ok=True)
    server = pgserver.get_server(data_dir / "pg", cleanup_mode="stop")
    _embedded.append(server)
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "1 row" not in exists:
        server.psql(f'CREATE DATABASE "{database}";')
    url = server.get_uri(database)
    log.info("embedded PostgreSQL running in %s", data_dir / "pg")
    return url


def _with_driver(url: str, driver: str) -> str:
    parts = urlsplit(url)
    scheme = parts.scheme.split("+")[0]
    if scheme == "postgres":
        scheme = "postgresql"
    return urlunsplit((f"{scheme}+{driver}", *parts[1:]))


def async_url(url: str) -> str:
    return _with_driver(url, "asyncpg")


def sync_url(url: str) -> str:
    return _with_driver(url, "psycopg")


def asyncpg_dsn(url: str) -> str:
    """A DSN that asyncpg.connect accepts (no SQLAlchemy driver suffix)."""
    parts = urlsplit(url)
    return urlunsplit(("postgresql", *parts[1:]))


def make_engine(url: str, pool_size: int = 10, pool_timeout: float = 10.0) -> AsyncEngine:
    """``pool_timeout`` stays well under any client's request timeout: a request that
    cannot get a connection in time answers 503 instead of queueing without end; and
    PostgreSQL itself ends a transaction left idle for a minute, so a stuck task can
    never hold a pooled connection forever."""
    return create_async_engine(
        async_url(url), pool_size=pool_size, max_overflow=20, pool_pre_ping=False, pool_timeout=pool_timeout,
        connect_args={"server_settings": {"idle_in_transaction_session_timeout": "60000"}})


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    return async_sessionmaker(engine, expire_on_commit=False)


def _alembic_config(url: str) -> Config:
    from alembic.config import Config

    root = Path(__file__).resolve().parent.parent
    cfg = Config()
    cfg.set_main_option("script_location", str(root / "migrations"))
    cfg.set_main_option("sqlalchemy.url", sync_url(url).replace("%", "%%"))
    return cfg


def upgrade_schema(url: str) -> str:
    """Bring the schema to the newest Alembic revision; return that revision."""
    from alembic import command
    from alembic.script import ScriptDirectory

    cfg = _alembic_config(url)
    command.upgrade(cfg, "heads")  # "heads": features may add migrations side by side
    heads = ScriptDirectory.from_config(cfg).get_heads()
    return ", ".join(sorted(heads)) or "base"


def schema_is_current(url: str) -> bool:
    """Whether the database is at every newest revision (a check that changes nothing)."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    from sqlalchemy import create_engine

    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as conn:
            current = set(MigrationContext.configure(conn).get_current_heads())
    finally:
        engine.dispose()
    return current == set(ScriptDirectory.from_config(_alembic_config(url)).get_heads())
