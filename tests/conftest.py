"""Shared fixtures: one real PostgreSQL per test session (pgserver), a fresh database
per test module, and real server processes speaking HTTP and WebSocket."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_GAMES = "tests.fixtures.cardgame:GAME"
TEST_SECRET = secrets.token_urlsafe(32)  # the server refuses short or placeholder keys


@pytest.fixture(scope="session")
def pg() -> Iterator[Any]:
    import pgserver

    folder = tempfile.mkdtemp(prefix="wr-pg-")
    os.chmod(folder, 0o755)  # pgserver drops root to its own user, which must reach the folder
    server = pgserver.get_server(Path(folder) / "pg", cleanup_mode="stop")
    yield server
    server.cleanup()
    shutil.rmtree(folder, ignore_errors=True)


def create_database(pg: Any, name: str) -> str:
    from app.db import upgrade_schema

    pg.psql(f'CREATE DATABASE "{name}";')
    url = pg.get_uri(name)
    upgrade_schema(url)
    return url


@pytest.fixture(scope="module")
def database_url(pg: Any, request: pytest.FixtureRequest) -> str:
    stem = re.sub(r"[^a-z0-9]", "_", request.module.__name__.rsplit(".", 1)[-1].lower())[:40]
    return create_database(pg, f"{stem}_{uuid.uuid4().hex[:6]}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A real `python -m app serve` process on a free port."""

    database_url: str
    workers: int = 1
    extra_env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        data = tempfile.mkdtemp(prefix="wr-data-")
        env = {**os.environ, "DATABASE_URL": self.database_url, "HOST": "127.0.0.1", "PORT": str(self.port),
               "WARROOM_DATA": data, "WARROOM_SECRET": TEST_SECRET, "WARROOM_EXTRA_GAMES": FIXTURE_GAMES,
               "WARROOM_TEST_SEED": "20261125",
               "LOG_LEVEL": "warning", **self.extra_env}
        self.log_path = Path(data) / "server.log"
        log = open(self.log_path, "wb")  # noqa: SIM115 - the process owns it
        self.process = subprocess.Popen([sys.executable, "-m", "app", "serve", "--workers", str(self.workers)],
                                        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"server did not come up:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path else ""

    def kill(self) -> None:
        """SIGKILL the whole process group: a crash, not a polite shutdown."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, 9)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, 15)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    srv = Server(database_url).start()
    yield srv
    srv.stop()


class Player:
    """A signed-in client of the JSON API."""

    def __init__(self, base_url: str, name: str) -> None:
        self.name = name
        self.http = httpx.Client(base_url=base_url, timeout=10)
        r = self.http.post("/api/guests", json={"name": name})
        assert r.status_code == 200, r.text
        self.id = r.json()["id"]

    @property
    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body or {})

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def match(self, match_id: str) -> dict[str, Any]:
        r = self.get(f"/api/matches/{match_id}")
        assert r.status_code == 200, r.text
        return r.json()

    def act(self, match_id: str, decision: str, choice: str, seq: int | None = None,
            key: str | None = None) -> httpx.Response:
        if seq is None:
            seq = self.match(match_id)["seq"]
        body: dict[str, Any] = {"seq": seq, "decision": decision, "choice": choice}
        if key:
            body["key"] = key
        return self.post(f"/api/matches/{match_id}/actions", body)


def new_table(host: Player, players: int = 2, options: dict[str, Any] | None = None,
              game: str = "cardgame") -> str:
    r = host.post("/api/matches", {"game": game, "players": players, "options": options or {}, "mode": "live"})
    assert r.status_code == 200, r.text
    return str(r.json()["match_id"])


@pytest.fixture(scope="module")
def now_file() -> Iterator[Path]:
    """A file whose ISO timestamp *is* the server's time (WARROOM_FAKE_NOW_FILE)."""
    path = Path(tempfile.mkdtemp(prefix="wr-now-")) / "now"
    path.write_text("2026-03-01T12:00:00+00:00")
    yield path


@pytest.fixture(scope="module")
def timed_server(database_url: str, now_file: Path) -> Iterator[Server]:
    """A server whose clock is ``now_file``: tests move time by rewriting it."""
    srv = Server(database_url, extra_env={"WARROOM_FAKE_NOW_FILE": str(now_file)}).start()
    yield srv
    srv.stop()


@pytest.fixture
def make_player(server: Server) -> Iterator[Any]:
    made: list[Player] = []

    def make(name: str) -> Player:
        p = Player(server.url, name)
        made.append(p)
        return p

    yield make
    for p in made:
        p.http.close()
