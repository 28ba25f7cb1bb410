"""The database pool is sized from PostgreSQL's max_connections and the number of app processes
sharing it (app.db.plan_pool): W processes x (pool + overflow + listener) never exceed what the
server allows, and a configuration that cannot fit is refused with a message saying what to change."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile

import asyncpg
import pytest
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.config import ConfigError
from app.db import (
    LISTENERS_PER_PROCESS,
    MIN_POOL,
    ConnectionLimits,
    PoolPlan,
    connection_limits,
    database_unavailable,
    plan_pool,
)
from tests.conftest import ROOT, TEST_SECRET, Server, free_port

PG_DEFAULT = ConnectionLimits(max_connections=100, reserved=3)


def fits(limits: ConnectionLimits, processes: int, plan: PoolPlan, spare: int = 3) -> bool:
    usable, _why = limits.usable()
    return processes * plan.connections + spare <= usable


def test_one_process_on_a_default_postgres_keeps_the_usual_pool() -> None:
    assert plan_pool(PG_DEFAULT, 1) == PoolPlan(10, 20)


@pytest.mark.parametrize("processes", [1, 2, 3, 4, 8, 16, 23])
def test_every_process_count_that_fits_stays_within_max_connections(processes: int) -> None:
    plan = plan_pool(PG_DEFAULT, processes)
    assert plan.pool_size >= 1 and plan.pool_size + plan.max_overflow >= MIN_POOL
    assert fits(PG_DEFAULT, processes, plan)


def test_the_issue_case_four_workers_no_longer_exceed_a_default_postgres() -> None:
    # four workers x (10 + 20) was over 100: "too many clients"
    plan = plan_pool(PG_DEFAULT, 4)
    assert 4 * plan.connections <= 100 - 3 - 3
    assert plan.pool_size + plan.max_overflow == (100 - 3 - 3) // 4 - LISTENERS_PER_PROCESS


def test_too_many_processes_for_the_database_are_refused_naming_what_to_change() -> None:
    with pytest.raises(ConfigError) as refused:
        plan_pool(PG_DEFAULT, 40, workers=8)
    message = str(refused.value)
    assert "max_connections 100" in message
    assert "40 app processes (WARROOM_APP_PROCESSES; 8 workers here) gets 2" in message
    assert "--workers" in message
    assert "Raise max_connections to at least" in message


def test_the_smallest_database_that_fits_is_accepted_and_one_less_is_refused() -> None:
    # 4 processes x (2 pooled + 1 listener) + 3 spare = 15 usable = 18 max_connections with 3 reserved
    assert plan_pool(ConnectionLimits(18, 3), 4) == PoolPlan(1, 1)
    with pytest.raises(ConfigError):
        plan_pool(ConnectionLimits(17, 3), 4)


def test_an_explicit_pool_that_would_exceed_max_connections_is_refused() -> None:
    with pytest.raises(ConfigError) as refused:
        plan_pool(PG_DEFAULT, 4, pool=30)
    assert "WARROOM_DB_POOL 30" in str(refused.value) and "max_connections 100" in str(refused.value)
    with pytest.raises(ConfigError):
        plan_pool(PG_DEFAULT, 4, pool=10, overflow=20)


def test_an_explicit_pool_that_fits_is_kept_and_its_overflow_fills_the_rest() -> None:
    assert plan_pool(PG_DEFAULT, 4, pool=5, overflow=0) == PoolPlan(5, 0)
    plan = plan_pool(PG_DEFAULT, 4, pool=5)
    assert plan.pool_size == 5 and fits(PG_DEFAULT, 4, plan)
    assert plan_pool(PG_DEFAULT, 1, pool=1, overflow=0) == PoolPlan(1, 0)


def test_a_role_or_database_connection_limit_is_the_budget_when_lower() -> None:
    limited = ConnectionLimits(max_connections=100, reserved=3, role_limit=20)
    plan = plan_pool(limited, 2)
    assert 2 * plan.connections + 3 <= 20
    with pytest.raises(ConfigError) as refused:
        plan_pool(ConnectionLimits(100, 3, database_limit=8), 4)
    assert "the database's CONNECTION LIMIT 8" in str(refused.value)
    assert "Raise the database's CONNECTION LIMIT to at least 15" in str(refused.value)


def test_spare_connections_for_maintenance_are_kept() -> None:
    plan = plan_pool(ConnectionLimits(40, 3), 1, spare=10)
    assert plan.connections + 10 <= 37


def test_a_plan_travels_to_the_workers_unchanged() -> None:
    plan = PoolPlan(4, 7)
    assert PoolPlan.decoded(plan.encoded()) == plan


# --------------------------------------------------------------------------- which errors mean "busy"
async def connect_error(dsn: str) -> BaseException:
    try:
        await asyncpg.connect(dsn, timeout=5)
    except BaseException as exc:  # noqa: BLE001 - the error itself is what is tested
        return exc
    raise AssertionError("connected")


def test_overload_and_restart_errors_count_as_unavailable_and_bugs_do_not() -> None:
    assert database_unavailable(PoolTimeout("QueuePool limit of size 1 overflow 0 reached"))
    assert database_unavailable(asyncpg.TooManyConnectionsError("sorry, too many clients already"))
    assert database_unavailable(asyncpg.CannotConnectNowError("the database system is starting up"))
    assert database_unavailable(asyncpg.AdminShutdownError("terminating connection due to administrator command"))
    assert database_unavailable(OperationalError("SELECT 1", {}, asyncpg.ConnectionDoesNotExistError("gone")))
    refused = asyncio.run(connect_error("postgresql://nobody@127.0.0.1:1/none"))  # nothing listens on port 1
    assert isinstance(refused, OSError) and database_unavailable(refused)
    assert not database_unavailable(ConnectionRefusedError("raised by the app itself, not the driver"))
    assert not database_unavailable(ValueError("a bug"))
    assert not database_unavailable(asyncpg.UniqueViolationError("duplicate key"))


# --------------------------------------------------------------------------- the server itself
def start_refused(server: Server) -> str:
    with pytest.raises(RuntimeError, match="exited early"):
        server.start()
    assert server.process is not None and server.process.wait(10) == 2
    return server.log()


def test_a_server_too_big_for_the_database_refuses_to_start_with_the_reason(database_url: str) -> None:
    log = start_refused(Server(database_url, workers=2, extra_env={"WARROOM_APP_PROCESSES": "200"}))
    assert "warroom: refusing to start" in log
    assert "max_connections" in log and "200 app processes (WARROOM_APP_PROCESSES; 2 workers here)" in log
    assert "Traceback" not in log


def test_an_explicit_pool_too_big_refuses_to_start(database_url: str) -> None:
    log = start_refused(Server(database_url, extra_env={"WARROOM_DB_POOL": "400"}))
    assert "WARROOM_DB_POOL 400" in log and "max_connections" in log


def test_a_malformed_pool_setting_refuses_to_start(database_url: str) -> None:
    log = start_refused(Server(database_url, extra_env={"WARROOM_DB_POOL": "lots"}))
    assert "WARROOM_DB_POOL must be a whole number" in log


def test_a_server_that_fits_says_how_it_sized_its_pool(database_url: str) -> None:
    server = Server(database_url, workers=2, extra_env={"WARROOM_APP_PROCESSES": "6"}).start()
    try:
        expected = plan_pool(connection_limits(server.database_url), 6)
        assert f"each of 6 app process(es) gets a pool of {expected.pool_size} + {expected.max_overflow}" in (
            server.log())
    finally:
        server.stop()


def test_under_bare_uvicorn_each_worker_sizes_its_pool_and_refuses_what_cannot_fit(database_url: str) -> None:
    """Served by uvicorn itself (not ``python -m app serve``), the worker makes the check at start."""
    env = {**os.environ, "DATABASE_URL": database_url, "WARROOM_DATA": tempfile.mkdtemp(prefix="wr-data-"),
           "WARROOM_SECRET": TEST_SECRET, "WEB_CONCURRENCY": "1", "WARROOM_APP_PROCESSES": "300"}
    env.pop("WARROOM_POOL_PLAN", None)
    run = subprocess.run([sys.executable, "-m", "uvicorn", "app.main:app", "--port", str(free_port())], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "warroom: refusing to start" in run.stderr and "300 app processes" in run.stderr
