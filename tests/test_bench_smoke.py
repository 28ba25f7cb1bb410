"""The move-path benchmark (scripts/bench_move_path.py) runs at a tiny size, so it cannot rot: every
figure it reports is there and nothing went wrong. Its timings are not judged here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, Server

SCRIPT = ROOT / "scripts" / "bench_move_path.py"
UNLIMITED = {"WARROOM_SOCKETS_PER_ADDRESS": "0", "WARROOM_SOCKETS_PER_USER": "0",
             "WARROOM_GUESTS_PER_ADDRESS_HOUR": "0", "WARROOM_TABLES_PER_ADDRESS_HOUR": "0",
             "WARROOM_TABLES_PER_USER_HOUR": "0", "WARROOM_OPEN_TABLES_PER_USER": "0"}


def bench(out: Path, *args: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(SCRIPT), "--smoke", "--json", str(out), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"stdout:\n{done.stdout}\nstderr:\n{done.stderr}"
    assert "moves/s" in done.stdout  # the table is printed
    return dict(json.loads(out.read_text()))


def check(report: dict[str, Any], game: str) -> dict[str, Any]:
    assert report["ceiling_rows_per_s"] and all(v > 0 for v in report["ceiling_rows_per_s"].values())
    [run] = report["runs"]
    assert run["game"] == game and run["workers"] == 1
    assert (run["errors"], run["http_5xx"], run["undelivered"]) == (0, 0, {}), run["error_kinds"]
    assert run["committed"] > 0 and run["moves_per_s"] > 0 and run["db_rows"] > 0  # counted apart
    assert run["sockets"]["page"] > 0 and run["sockets"]["json"] > run["players"]  # both channels, spectators too
    for channel in ("json", "page", "all"):
        assert run["e2e_ms"][channel]["samples"] > 0 and run["e2e_ms"][channel]["p99"] is not None
    for channel in ("json", "page"):
        sizes = run["bytes_per_update"][channel]
        assert sizes["frames"] > 0 and 0 < sizes["median"] <= sizes["p90"] <= sizes["max"]
        assert run["bytes_first_frame"][channel]["frames"] > 0
        assert run["rss_per_idle_socket_kib"][f"{channel}_kib"] is not None
    assert run["server_cpu_ms_per_move"] is not None and run["server_cpu_ms_per_move"] > 0
    assert run["cpu_percent_of_one_core"]["server"] is not None
    assert len(run["client_cpu_percent_each"]) == run["client_procs"] == 2
    assert isinstance(run["client_bound"], bool) and run["late_updates"] >= 0
    return dict(run)


def test_qmg_on_a_server_it_starts(pg: Any, tmp_path: Path) -> None:
    """Four-seat QMG tables, the JSON and page sockets, two client processes, its own server and
    fresh database on the suite's PostgreSQL (dropped afterwards)."""
    check(bench(tmp_path / "qmg.json", "--game", "qmg", "--database-url", pg.get_uri("postgres")), "qmg")


@pytest.fixture(scope="module")
def open_server(database_url: str) -> Any:
    srv = Server(database_url, extra_env=UNLIMITED).start()
    yield srv
    srv.stop()


def test_card_game_against_a_running_server(open_server: Server, database_url: str, tmp_path: Path) -> None:
    """--url: a server already running (its workers found by their sockets), its database for the
    ceiling and the row counts."""
    report = bench(tmp_path / "cardgame.json", "--game", "cardgame", "--url", open_server.url,
                   "--database-url", database_url)
    assert report["url"] == open_server.url
    check(report, "cardgame")
