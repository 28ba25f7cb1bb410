"""Load never shows as a 5xx other than 503: a request that finds no pooled connection in time,
a PostgreSQL out of connection slots ("too many clients") and a PostgreSQL restarting all answer
503 + Retry-After, as JSON on the API, as a page on the pages, and a socket closes with 1013 and
a reason; and opening, joining and starting tables goes on while moves run and queue."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import websockets

from tests.conftest import Player, Server, create_database, new_table

SMALL_MAX_CONNECTIONS = 20
HTML = {"Accept": "text/html,application/xhtml+xml"}


# --------------------------------------------------------------------------- helpers
def started_match(server: Server, names: tuple[str, str]) -> tuple[str, Player, Player]:
    host, guest = Player(server.url, names[0]), Player(server.url, names[1])
    match_id = new_table(host)
    assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
    assert host.post(f"/api/matches/{match_id}/start").status_code == 200
    return match_id, host, guest


def first_move(players: tuple[Player, Player], match_id: str) -> tuple[Player, dict[str, Any], int]:
    for player in players:
        view = player.match(match_id)
        if view["pending"]:
            return player, view["pending"][0], int(view["seq"])
    raise AssertionError("nobody has a decision")


@contextlib.contextmanager
def row_locked(database_url: str, match_id: str) -> Iterator[None]:
    """Another session holds the match's row lock: a move on it waits, holding its connection."""
    with psycopg.connect(database_url) as conn:
        conn.execute("SELECT 1 FROM matches WHERE id = %s FOR UPDATE", (match_id,))
        yield
        conn.rollback()


def quiet(database_url: str, deadline: float = 10) -> None:
    """Until no session of the server is busy: the work a request leaves behind (a push, a notice) has
    given its connection back, so the next request takes the pooled one and an idle connection
    cannot turn up in the pool behind it."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            busy = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                "AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')"
                                ).fetchone()[0]
            if not busy:
                return
            time.sleep(0.05)
    raise AssertionError("the server's sessions never went quiet")


def waiting_on_lock(database_url: str, deadline: float = 10) -> None:
    """Until some session waits for a row lock (the move in flight has its connection)."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            if conn.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'").fetchone()[0]:
                return
            time.sleep(0.05)
    raise AssertionError("the move never reached the row lock")


async def socket_close(server: Server, path: str, cookie: str) -> tuple[int | None, str]:
    async with websockets.connect(f"{server.ws_url}{path}", additional_headers={"Cookie": cookie}) as ws:
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), 10)
        return ws.close_code, ws.close_reason


def assert_busy_everywhere(server: Server, player: Player, match_id: str) -> None:
    """The API, a page, an htmx request and a socket all say "busy, retry", none a 500."""
    api = player.get(f"/api/matches/{match_id}")
    assert api.status_code == 503, api.text
    assert int(api.headers["retry-after"]) >= 1 and "busy" in api.json()["error"]
    page = player.http.get("/", headers=HTML)
    assert page.status_code == 503, page.text
    assert int(page.headers["retry-after"]) >= 1 and "text/html" in page.headers["content-type"]
    assert "busy" in page.text
    partial = player.http.get("/", headers={**HTML, "HX-Request": "true"})
    assert partial.status_code == 503 and partial.headers["hx-reswap"] == "none"
    for socket in (f"/api/matches/{match_id}/ws", f"/matches/{match_id}/live"):  # the JSON and the page socket
        code, reason = asyncio.run(socket_close(server, socket, player.cookie))
        assert code == 1013 and "busy" in reason, (socket, code, reason)


def in_thread(call: Callable[[], httpx.Response]) -> concurrent.futures.Future[httpx.Response]:
    pool = concurrent.futures.ThreadPoolExecutor(1)
    future = pool.submit(call)
    pool.shutdown(wait=False)
    return future


def server_log_has_no_500(server: Server) -> None:
    log = server.log()
    assert " 500 " not in log and "Traceback" not in log, log[-3000:]


# --------------------------------------------------------------------------- the pool runs out
def test_a_request_that_finds_no_pooled_connection_gets_503_not_500(database_url: str) -> None:
    server = Server(database_url, extra_env={"WARROOM_DB_POOL": "1", "WARROOM_DB_OVERFLOW": "0",
                                             "WARROOM_DB_POOL_TIMEOUT": "0.5",
                                             "WARROOM_LIVE_POLL_SECONDS": "600"}).start()
    try:
        match_id, host, guest = started_match(server, ("Pia", "Pat"))
        mover, decision, seq = first_move((host, guest), match_id)
        with row_locked(database_url, match_id):
            move = in_thread(lambda: mover.act(match_id, decision["decision"], decision["choices"][0]["id"], seq))
            waiting_on_lock(database_url)  # the move holds the only pooled connection
            assert_busy_everywhere(server, host, match_id)
        assert move.result(15).status_code == 200  # the held move itself goes through
        assert host.get(f"/api/matches/{match_id}").status_code == 200
        server_log_has_no_500(server)
    finally:
        server.stop()


# --------------------------------------------------------------------------- PostgreSQL runs out
@pytest.fixture(scope="module")
def small_pg() -> Iterator[Any]:
    """A PostgreSQL of its own with few connection slots, which the tests may fill and restart."""
    import pgserver
    from pgserver._commands import pg_ctl

    folder = tempfile.mkdtemp(prefix="wr-pg-small-")
    os.chmod(folder, 0o755)  # pgserver drops root to its own user, which must reach the folder
    server = pgserver.get_server(Path(folder) / "pg", cleanup_mode="stop")
    server.psql(f"ALTER SYSTEM SET max_connections = {SMALL_MAX_CONNECTIONS};")
    pg_ctl(["-w", "-m", "fast", "restart"], pgdata=server.pgdata, user=server.system_user, timeout=30)
    yield server
    server.cleanup()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def small_db(small_pg: Any) -> str:
    return create_database(small_pg, "overload")


@pytest.fixture(scope="module")
def small_server(small_db: str) -> Iterator[Server]:
    server = Server(small_db, extra_env={"WARROOM_DB_POOL": "1", "WARROOM_DB_OVERFLOW": "2",
                                         "WARROOM_DB_POOL_TIMEOUT": "2",
                                         "WARROOM_LIVE_POLL_SECONDS": "600"}).start()
    yield server
    server.stop()


@contextlib.contextmanager
def every_slot_taken(database_url: str) -> Iterator[int]:
    """Open connections until PostgreSQL says "too many clients"; yield how many were taken."""
    held: list[psycopg.Connection[Any]] = []
    try:
        for _ in range(SMALL_MAX_CONNECTIONS + 1):
            try:
                held.append(psycopg.connect(database_url, connect_timeout=5))
            except psycopg.OperationalError as exc:
                assert "too many clients" in str(exc) or "reserved" in str(exc), exc
                break
        else:
            raise AssertionError("PostgreSQL never ran out of slots")
        yield len(held)
    finally:
        for conn in held:
            conn.close()


def test_too_many_clients_answers_503_not_500(small_server: Server, small_db: str) -> None:
    assert "max_connections 20" in small_server.log()
    match_id, host, guest = started_match(small_server, ("Ola", "Ala"))
    mover, decision, seq = first_move((host, guest), match_id)
    quiet(small_db)
    with row_locked(small_db, match_id):
        move = in_thread(lambda: mover.act(match_id, decision["decision"], decision["choices"][0]["id"], seq))
        waiting_on_lock(small_db)  # the pooled connection is busy: the next request must open one
        with every_slot_taken(small_db):
            assert_busy_everywhere(small_server, host, match_id)
        assert host.get(f"/api/matches/{match_id}").status_code == 200  # slots free again: served
    assert move.result(15).status_code == 200
    server_log_has_no_500(small_server)


def test_a_database_restart_answers_503_then_serves_again(small_server: Server, small_pg: Any) -> None:
    from pgserver._commands import pg_ctl

    match_id, host, _guest = started_match(small_server, ("Ewa", "Iza"))
    assert host.get(f"/api/matches/{match_id}").status_code == 200  # a pooled connection to lose
    socket_dir = small_pg.get_postmaster_info().socket_dir
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=small_pg.pgdata, user=small_pg.system_user, timeout=30)
    try:
        for _ in range(2):  # the pooled connection found dead, then a connection refused
            assert_busy_everywhere(small_server, host, match_id)
    finally:
        pg_ctl(["-w", "-o", '-h ""', "-o", f"-k {socket_dir}", "-l", str(small_pg.log), "start"],
               pgdata=small_pg.pgdata, user=small_pg.system_user, timeout=30)
    deadline = time.monotonic() + 20
    statuses: list[int] = []
    while time.monotonic() < deadline:
        statuses.append(host.get(f"/api/matches/{match_id}").status_code)
        if statuses[-1] == 200:
            break
        time.sleep(0.2)
    assert statuses[-1] == 200 and set(statuses) <= {200, 503}, statuses
    server_log_has_no_500(small_server)


# --------------------------------------------------------------------------- tables go on under moves
@pytest.fixture(scope="module")
def small_pool_server(database_url: str) -> Iterator[Server]:
    """Two workers with small pools: moves that queue must not take every connection."""
    server = Server(database_url, workers=2, extra_env={"WARROOM_DB_POOL": "2", "WARROOM_DB_OVERFLOW": "2",
                                                        "WARROOM_DB_POOL_TIMEOUT": "3"}).start()
    yield server
    server.stop()


def test_tables_open_join_and_start_while_moves_run_and_queue(small_pool_server: Server, database_url: str) -> None:
    """Moves keep running on a few matches while several moves queue on one match whose row a slow
    transaction elsewhere holds (on both workers: behind the worker's match lock, which holds no
    connection, and behind the row lock, which holds one): new tables are opened, joined and
    started meanwhile, none refused or timed out."""
    server = small_pool_server
    busy = [started_match(server, (f"Mover{n}", f"Rival{n}")) for n in range(3)]
    stuck_id, stuck_host, stuck_guest = started_match(server, ("Slow", "Slower"))
    stop = time.monotonic() + 60
    done: list[int] = []

    def keep_moving(match_id: str, host: Player, guest: Player) -> None:
        while time.monotonic() < stop and not done:
            try:
                mover, decision, seq = first_move((host, guest), match_id)
            except AssertionError:
                return  # the match ended
            r = mover.act(match_id, decision["decision"], decision["choices"][0]["id"], seq)
            assert r.status_code in (200, 409), r.text  # 409: the other seat answered first

    queued = 6
    with concurrent.futures.ThreadPoolExecutor(len(busy) + queued) as pool:
        movers = [pool.submit(keep_moving, *game) for game in busy]
        with row_locked(database_url, stuck_id):
            mover, decision, seq = first_move((stuck_host, stuck_guest), stuck_id)
            # separate connections: the kernel spreads them over both workers
            clients = [httpx.Client(base_url=server.url, cookies=mover.http.cookies, timeout=30)
                       for _ in range(queued)]
            stuck = [pool.submit(client.post, f"/api/matches/{stuck_id}/actions",
                                 json={"seq": seq, "decision": decision["decision"],
                                       "choice": decision["choices"][0]["id"]}) for client in clients]
            waiting_on_lock(database_url)
            for n in range(4):
                host, guest = Player(server.url, f"Host{n}"), Player(server.url, f"Guest{n}")
                match_id = new_table(host)
                assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
                assert host.post(f"/api/matches/{match_id}/start").status_code == 200
                assert host.match(match_id)["status"] == "active"
            assert not any(move.done() for move in stuck)  # the tables were made while the moves still waited
        done.append(1)
        statuses = sorted(move.result(30).status_code for move in stuck)
        assert statuses[0] == 200 and set(statuses) <= {200, 409}, statuses  # one applied, the rest stale
        for mover_done in movers:
            mover_done.result(30)
        for client in clients:
            client.close()
