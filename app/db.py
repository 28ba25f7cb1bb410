"""Where the database is: the DATABASE_URL, or a private PostgreSQL started from
the pgserver wheel when none is given. Never SQLite, never a mock."""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from app.config import ConfigError

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


def make_engine(url: str, pool_size: int = 10, pool_timeout: float = 10.0, max_overflow: int = 20) -> AsyncEngine:
    """``pool_timeout`` stays well under any client's request timeout: a request that
    cannot get a connection in time answers 503 instead of queueing without end; and
    PostgreSQL itself ends a transaction left idle for a minute, so a stuck task can
    never hold a pooled connection forever. Size the pool with ``plan_pool``."""
    return create_async_engine(
        async_url(url), pool_size=pool_size, max_overflow=max_overflow, pool_pre_ping=False,
        pool_timeout=pool_timeout,
        connect_args={"server_settings": {"idle_in_transaction_session_timeout": "60000"}})


# --------------------------------------------------------------------------- pool sizing
# Besides its pool, every app process holds one more connection: the live hub's LISTEN
# (app.sessions.live). The replay worker processes (app.sessions.replay_jobs) hold none:
# they only run the rules on what the request already read.
LISTENERS_PER_PROCESS = 1
MIN_POOL = 2  # pool + overflow: one for a request, one for the notifier, bots or a second request
DEFAULT_POOL = 10
DEFAULT_OVERFLOW = 20


@dataclass(frozen=True)
class ConnectionLimits:
    """What PostgreSQL lets this role open in this database."""

    max_connections: int
    reserved: int  # superuser_reserved_connections + reserved_connections (PostgreSQL 16)
    role_limit: int = -1  # the role's CONNECTION LIMIT, -1: none
    database_limit: int = -1  # the database's CONNECTION LIMIT, -1: none

    def usable(self) -> tuple[int, str]:
        """How many connections an ordinary role may open, and why that many."""
        usable = self.max_connections - self.reserved
        why = f"max_connections {self.max_connections} - {self.reserved} reserved for superusers"
        for limit, name in ((self.role_limit, "the role's CONNECTION LIMIT"),
                            (self.database_limit, "the database's CONNECTION LIMIT")):
            if 0 <= limit < usable:
                usable, why = limit, f"{name} {limit}"
        return usable, why


@dataclass(frozen=True)
class PoolPlan:
    """One app process's SQLAlchemy pool: ``pool_size`` kept open, ``max_overflow`` more on demand."""

    pool_size: int
    max_overflow: int

    @property
    def connections(self) -> int:
        """The most this process ever opens: pool, overflow and the hub's listener."""
        return self.pool_size + self.max_overflow + LISTENERS_PER_PROCESS

    def encoded(self) -> str:
        return f"{self.pool_size},{self.max_overflow}"

    @classmethod
    def decoded(cls, text: str) -> PoolPlan:
        pool, overflow = (int(part) for part in text.split(","))
        return cls(pool, overflow)


def plan_pool(limits: ConnectionLimits, processes: int, *, spare: int = 3, pool: int | None = None,
              overflow: int | None = None, workers: int | None = None) -> PoolPlan:
    """Size each app process's pool so that ``processes`` of them (every worker of every host
    sharing the database), each with its listener, stay within what PostgreSQL allows, keeping
    ``spare`` connections for maintenance (migrations, ``python -m app replay``, psql).

    ``pool``/``overflow``: sizes the operator set (WARROOM_DB_POOL / WARROOM_DB_OVERFLOW); refused
    when they do not fit, like a database too small for even ``MIN_POOL`` per process."""
    usable, why = limits.usable()
    share = (usable - spare) // max(1, processes)
    room = share - LISTENERS_PER_PROCESS  # for pool + overflow
    count = f"{processes} app process{'es' if processes != 1 else ''}"
    if workers is not None and workers != processes:
        count += f" (WARROOM_APP_PROCESSES; {workers} worker{'s' if workers != 1 else ''} here)"
    else:
        count += " (the workers: --workers / WEB_CONCURRENCY; WARROOM_APP_PROCESSES when several servers share it)"
    budget = (f"PostgreSQL lets Warroom open {usable} connections ({why}), {spare} kept spare for maintenance "
              f"(WARROOM_DB_SPARE), so each of {count} gets {max(share, 0)}, "
              f"{LISTENERS_PER_PROCESS} of them for the live listener")
    if pool is not None or overflow is not None:
        chosen_pool = DEFAULT_POOL if pool is None else pool
        chosen_overflow = max(0, min(DEFAULT_OVERFLOW, room - chosen_pool)) if overflow is None else overflow
        if chosen_pool < 1 or chosen_overflow < 0:
            raise ConfigError(f"WARROOM_DB_POOL must be at least 1 and WARROOM_DB_OVERFLOW at least 0 "
                              f"(got pool {chosen_pool}, overflow {chosen_overflow})")
        if chosen_pool + chosen_overflow > room:
            raise ConfigError(f"WARROOM_DB_POOL {chosen_pool} + overflow {chosen_overflow} = "
                              f"{chosen_pool + chosen_overflow} connections per process do not fit: {budget}. "
                              f"Set WARROOM_DB_POOL (+ WARROOM_DB_OVERFLOW) to at most {max(room, 0)} in all, unset "
                              "them to have the pool sized for you, run fewer workers, or raise max_connections")
        return PoolPlan(chosen_pool, chosen_overflow)
    if room < MIN_POOL:
        need = processes * (MIN_POOL + LISTENERS_PER_PROCESS) + spare
        raise_it = (f"Raise max_connections to at least {need + limits.reserved} (postgresql.conf, then restart "
                    "PostgreSQL)" if why.startswith("max_connections") else
                    f"Raise {why.rsplit(' ', 1)[0]} to at least {need} (ALTER ROLE / ALTER DATABASE)")
        raise ConfigError(f"the database is too small for this many app processes: {budget}, and each needs at "
                          f"least {MIN_POOL + LISTENERS_PER_PROCESS} ({MIN_POOL} pooled + the listener). {raise_it}, "
                          "run fewer workers (--workers / WEB_CONCURRENCY), or put fewer app processes on this "
                          "database")
    total = min(room, DEFAULT_POOL + DEFAULT_OVERFLOW)
    kept = max(1, min(DEFAULT_POOL, (total + 2) // 3))  # a third kept open, the rest opened on bursts
    return PoolPlan(kept, total - kept)


LIMITS_SQL = """
SELECT current_setting('max_connections')::int,
       current_setting('superuser_reserved_connections')::int
         + coalesce(current_setting('reserved_connections', true), '0')::int,
       (SELECT rolconnlimit FROM pg_roles WHERE rolname = current_user),
       (SELECT datconnlimit FROM pg_database WHERE datname = current_database())
"""


def connection_limits(url: str) -> ConnectionLimits:
    """Read the limits from the server (sync: the CLI asks once, before any worker starts)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    engine = create_engine(sync_url(url), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            row = conn.execute(text(LIMITS_SQL)).one()
    finally:
        engine.dispose()
    return ConnectionLimits(int(row[0]), int(row[1]), int(row[2] if row[2] is not None else -1),
                            int(row[3] if row[3] is not None else -1))


async def connection_limits_async(url: str) -> ConnectionLimits:
    """The same, from a worker's event loop (served by uvicorn directly, not ``python -m app serve``)."""
    import asyncpg

    conn = await asyncpg.connect(asyncpg_dsn(url))
    try:
        row = await conn.fetchrow(LIMITS_SQL)
    finally:
        await conn.close()
    assert row is not None
    return ConnectionLimits(int(row[0]), int(row[1]), int(row[2] if row[2] is not None else -1),
                            int(row[3] if row[3] is not None else -1))


# --------------------------------------------------------------------------- overload
# Errors meaning "the database cannot take this connection or query now", which a client should
# retry: too many clients (53300), starting up or shutting down (57P03, 57P01, 57P02), and the
# connection classes (08xxx: refused, lost while it restarts).
UNAVAILABLE_SQLSTATES = frozenset({"53300", "53000", "57P01", "57P02", "57P03"})
UNAVAILABLE_CLASSES = ("08",)


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    todo: list[BaseException | None] = [exc]
    while todo:
        item = todo.pop()
        if item is None or any(item is s for s in seen) or len(seen) > 20:
            continue
        seen.append(item)
        todo.extend([item.__cause__, item.__context__, getattr(item, "orig", None)])
    return seen


def _from_database_driver(exc: BaseException) -> bool:
    """Whether an OS error (refused, reset, no socket file) was raised by the driver or the pool:
    asyncpg lets them through unwrapped when it cannot reach the server."""
    for frame, _line in traceback.walk_tb(exc.__traceback__):
        module = str(frame.f_globals.get("__name__", ""))
        if module.startswith(("asyncpg", "sqlalchemy.pool", "sqlalchemy.dialects", "sqlalchemy.engine")):
            return True
    return False


def database_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database is overloaded or unreachable for now (answer 503 and
    Retry-After), as opposed to a bug (500)."""
    import asyncpg

    for item in _chain(exc):
        if isinstance(item, PoolTimeout):
            return True
        if isinstance(item, DBAPIError) and item.connection_invalidated:
            return True
        if isinstance(item, asyncpg.InterfaceError) and "connection" in str(item).lower() and (
                "closed" in str(item).lower() or "lost" in str(item).lower()):
            return True
        state = getattr(item, "sqlstate", None) or getattr(item, "pgcode", None)
        if isinstance(state, str) and (state in UNAVAILABLE_SQLSTATES or state.startswith(UNAVAILABLE_CLASSES)):
            return True
        if isinstance(item, OSError) and _from_database_driver(item):
            return True
        if "too many clients" in str(item) or "remaining connection slots are reserved" in str(item):
            return True
    return False


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker:
    return async_sessionmaker(engine, expire_on_commit=False)


def _alembic_config(url: str) -> Config:
    from alembic.config import Config

    root = Path(__file__).resolve().parent.parent
    cfg = Config()
    cfg.set_main_option("script_location", str(root / "migrations"))
    cfg.set_main_option("sqlalchemy.url", sync_url(url).replace("%", "%%"))
    return cfg


# pg_advisory_lock key held while migrating: app processes starting together (compose replicas,
# hosts) take turns, the first upgrades and the others find the schema current
MIGRATION_LOCK = 0x5741_5252  # "WARR"


def upgrade_schema(url: str) -> str:
    """Bring the schema to the newest Alembic revision; return that revision."""
    from alembic import command
    from alembic.script import ScriptDirectory
    from sqlalchemy import create_engine, text
    from sqlalchemy.pool import NullPool

    cfg = _alembic_config(url)
    lock_engine = create_engine(sync_url(url), poolclass=NullPool)
    try:
        with lock_engine.connect() as lock:
            lock.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            try:
                command.upgrade(cfg, "heads")  # "heads": features may add migrations side by side
            finally:
                lock.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                lock.commit()
    finally:
        lock_engine.dispose()
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
