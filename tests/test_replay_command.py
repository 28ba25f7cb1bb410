"""`python -m app replay`: running matches replayed under the installed rules engine.

Matches are made through a real server (the fixture card game, with an undo, a die roll,
a resignation and bots, and one Quartermaster General match); the command then runs as an
operator would run it, as a process of its own against the same database, with the rules
swapped for an "updated" engine (tests/fixtures/cardgame_v2.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import psycopg
import pytest
from markupsafe import escape

from app.games.qmg import GAME as QMG
from app.i18n import CATALOGUE
from tests.conftest import FIXTURE_GAMES, ROOT, Player, Server, new_table
from tests.fixtures.cardgame import GAME as CARDGAME
from tests.fixtures.cardgame_v2 import ROLL_FIXED, SAME_RULES
from tests.replay_helpers import conninfo, states_by_seq

SAME = "tests.fixtures.cardgame_v2:SAME_RULES"
FIXED = "tests.fixtures.cardgame_v2:ROLL_FIXED"


@dataclass
class Tables:
    server: Server
    alice: Player
    bob: Player
    early: str  # cardgame, two humans, an undo, no die roll yet
    rolled: str  # cardgame, three seats: dice rolled, a resignation, bots playing on
    qmg: str


def replay(database_url: str, *args: str, games: str = FIXTURE_GAMES) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url, "WARROOM_EXTRA_GAMES": games,
           "WARROOM_DATA": tempfile.mkdtemp(prefix="wr-replay-")}
    return subprocess.run([sys.executable, "-m", "app", "replay", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def rows(database_url: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(conninfo(database_url)) as conn:
        return conn.execute(sql, params).fetchall()


def log_of(database_url: str, match_id: str) -> list[tuple[Any, ...]]:
    return rows(database_url, "SELECT * FROM actions WHERE match_id = %s ORDER BY seq", match_id)


def snapshots_of(database_url: str, match_id: str) -> list[tuple[Any, ...]]:
    return rows(database_url, "SELECT seq, state, engine_version FROM snapshots WHERE match_id = %s ORDER BY seq",
                match_id)


def everything(database_url: str) -> list[list[tuple[Any, ...]]]:
    return [rows(database_url, f"SELECT * FROM {table} ORDER BY 1, 2")
            for table in ("actions", "snapshots", "matches", "match_seats")]


def answer_first(p: Player, match_id: str) -> None:
    m = p.match(match_id)
    d = m["pending"][0]
    ids = [c["id"] for c in d["choices"]][: max(d["min"], 1)]
    r = p.post(f"/api/matches/{match_id}/actions", {"seq": m["seq"], "decision": d["decision"], "choices": ids})
    assert r.status_code == 200, r.text


def play_until(players: list[Player], match_id: str, done: Any, limit: int = 200) -> None:
    for _ in range(limit):
        if done():
            return
        for p in players:
            m = p.match(match_id)
            if m["pending"]:
                answer_first(p, match_id)
                break
        else:
            time.sleep(0.05)  # a bot is answering
    raise AssertionError("the match never got there")


def settled(p: Player, match_id: str, humans: set[str]) -> None:
    """Wait until only humans are waited on: no bot writes to the log while the command runs."""
    for _ in range(200):
        m = p.match(match_id)
        if set(m["waiting_on"]) <= humans:
            return
        time.sleep(0.05)
    raise AssertionError("the bots never stopped")


def first_roll(database_url: str, match_id: str) -> int:
    return min(seq for seq, payload in rows(database_url, "SELECT seq, payload FROM actions WHERE match_id = %s",
                                             match_id)
               if str(payload.get("decision", "")).startswith("roll:"))


@pytest.fixture(scope="module")
def tables(database_url: str) -> Iterator[Tables]:
    server = Server(database_url, extra_env={"WARROOM_SNAPSHOT_EVERY": "3"}).start()
    alice, bob = Player(server.url, "Alice"), Player(server.url, "Bob")

    early = new_table(alice, options={"target": "100"})
    assert bob.post(f"/api/matches/{early}/join").status_code == 200
    assert alice.post(f"/api/matches/{early}/start").status_code == 200
    play_until([alice, bob], early, lambda: any(d["kind"] == "order" for d in alice.match(early)["pending"]))
    answer_first(alice, early)
    assert alice.post(f"/api/matches/{early}/undo", {"seq": alice.match(early)["seq"]}).status_code == 200
    play_until([alice, bob], early, lambda: alice.match(early)["seq"] >= 8)

    rolled = new_table(alice, players=3, options={"target": "100"})
    assert bob.post(f"/api/matches/{rolled}/join").status_code == 200
    assert alice.post(f"/api/matches/{rolled}/bots", {"seat": "p3"}).status_code == 200
    assert alice.post(f"/api/matches/{rolled}/start").status_code == 200
    play_until([alice, bob], rolled, lambda: alice.match(rolled)["view"]["turn"] >= 4)
    assert bob.post(f"/api/matches/{rolled}/resign").status_code == 200  # a bot plays his seat from here
    settled(alice, rolled, {"p1"})

    r = alice.post("/api/matches", {"game": "qmg", "players": 2, "options": {"reallocation": True}, "mode": "async"})
    qmg = r.json()["match_id"]
    assert bob.post(f"/api/matches/{qmg}/join").status_code == 200
    assert alice.post(f"/api/matches/{qmg}/start").status_code == 200
    answer_first(alice, qmg)
    assert alice.post(f"/api/matches/{qmg}/undo", {"seq": alice.match(qmg)["seq"]}).status_code == 200
    play_until([alice, bob], qmg, lambda: alice.match(qmg)["seq"] >= 14)

    yield Tables(server, alice, bob, early, rolled, qmg)
    server.stop()


def test_every_row_and_snapshot_records_its_engine_version(tables: Tables, database_url: str):
    for match_id in (tables.early, tables.rolled):
        log = rows(database_url, "SELECT payload, engine_version FROM actions WHERE match_id = %s", match_id)
        assert {v for _, v in log} == {CARDGAME.version}
        assert {v for _, _, v in snapshots_of(database_url, match_id)} == {CARDGAME.version}
    kinds = {kind for m in (tables.early, tables.rolled)
             for (p,) in rows(database_url, "SELECT payload FROM actions WHERE match_id = %s", m)
             for kind in ("decision", "undo", "meta") if kind in p}
    assert kinds == {"decision", "undo", "meta"}  # moves, an undo and a resignation all say it
    assert {v for (v,) in rows(database_url, "SELECT engine_version FROM actions WHERE match_id = %s",
                               tables.qmg)} == {QMG.version}


def test_a_dry_run_changes_nothing(tables: Tables, database_url: str):
    before = everything(database_url)
    fixed = replay(database_url, "--game", "cardgame", "--dry-run", games=FIXED)
    assert fixed.returncode == 1, fixed.stderr
    assert f"diverges at seq {first_roll(database_url, tables.rolled)}" in fixed.stdout
    same = replay(database_url, "--game", "cardgame", "--dry-run", games=SAME)
    assert same.returncode == 0, same.stderr
    assert same.stdout.count("agrees") == 2 and "would rebuild" in same.stdout
    assert everything(database_url) == before
    assert tables.alice.match(tables.rolled)["engine_warning"] is None


def test_where_every_hash_agrees_the_snapshots_are_rebuilt_under_the_current_engine(tables: Tables,
                                                                                   database_url: str):
    seqs = {m: [s for s, _, _ in snapshots_of(database_url, m)] for m in (tables.early, tables.rolled)}
    assert all(seqs.values()), "the server wrote snapshots (every 3rd seq)"
    logs = {m: log_of(database_url, m) for m in seqs}
    # what an older engine left behind: a dump the current one no longer writes, of no known version
    rows(database_url, "UPDATE snapshots SET state = '{\"stale\": true}', engine_version = NULL "
         "WHERE match_id IN (%s, %s) RETURNING seq", tables.early, tables.rolled)

    done = replay(database_url, "--game", "cardgame", games=SAME)

    assert done.returncode == 0, done.stdout + done.stderr
    for match_id in seqs:
        line = next(x for x in done.stdout.splitlines() if match_id in x)
        assert "agrees" in line and f"engine {CARDGAME.version}" in line, line
        assert "rows checked" in line
        states = states_by_seq(database_url, match_id, SAME_RULES)
        assert snapshots_of(database_url, match_id) == [(s, SAME_RULES.dump(states[s]), SAME_RULES.version)
                                                       for s in seqs[match_id]]
        assert log_of(database_url, match_id) == logs[match_id], "the log is never rewritten"
        assert rows(database_url, "SELECT engine_version, replay_diverged_at FROM matches WHERE id = %s",
                    match_id) == [(SAME_RULES.version, None)]
        assert tables.alice.match(match_id)["engine_warning"] is None


def banner(lang: str, seq: int, engine: str) -> str:
    return str(escape(CATALOGUE[lang]["engine_warning"].format(seq=seq, engine=engine)))


def test_where_the_log_diverges_the_match_is_flagged_and_left_as_it_was(tables: Tables, database_url: str):
    diverged = first_roll(database_url, tables.rolled)
    log, snapshots = log_of(database_url, tables.rolled), snapshots_of(database_url, tables.rolled)
    engine = rows(database_url, "SELECT engine_version FROM matches WHERE id = %s", tables.rolled)
    early_seq = tables.alice.match(tables.early)["seq"]

    done = replay(database_url, "--game", "cardgame", games=FIXED)

    assert done.returncode == 1, done.stdout + done.stderr
    line = next(x for x in done.stdout.splitlines() if tables.rolled in x)
    assert f"diverges at seq {diverged}" in line, line
    assert "agrees" in next(x for x in done.stdout.splitlines() if tables.early in x), "no roll yet: the same"
    assert log_of(database_url, tables.rolled) == log
    assert snapshots_of(database_url, tables.rolled) == snapshots
    assert rows(database_url, "SELECT engine_version FROM matches WHERE id = %s", tables.rolled) == engine

    m = tables.alice.match(tables.rolled)
    assert m["engine_warning"] == {"seq": diverged, "engine_version": ROLL_FIXED.version}
    assert m["status"] == "active" and m["seq"] == log[-1][1]
    assert tables.alice.match(tables.early)["engine_warning"] is None
    assert tables.alice.match(tables.early)["seq"] == early_seq
    for lang in ("en", "pl"):
        page = httpx.get(f"{tables.server.url}/matches/{tables.rolled}", headers={"Accept-Language": lang})
        assert page.status_code == 200
        assert banner(lang, diverged, ROLL_FIXED.version) in page.text, lang
        calm = httpx.get(f"{tables.server.url}/matches/{tables.early}", headers={"Accept-Language": lang})
        assert 'id="engine-warning"' not in calm.text


def test_qmg_replays_and_a_tampered_hash_is_flagged_until_the_log_agrees_again(tables: Tables, database_url: str):
    snapshots = snapshots_of(database_url, tables.qmg)
    assert snapshots
    rows(database_url, "UPDATE snapshots SET engine_version = NULL WHERE match_id = %s RETURNING seq", tables.qmg)
    done = replay(database_url, "--game", "qmg")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "agrees" in done.stdout
    assert snapshots_of(database_url, tables.qmg) == snapshots  # the same dumps, stamped again

    victim, good = rows(database_url, "SELECT seq, state_hash FROM actions WHERE match_id = %s AND seq = 9",
                        tables.qmg)[0]
    rows(database_url, "UPDATE actions SET state_hash = %s WHERE match_id = %s AND seq = %s RETURNING seq",
         "f" * 64, tables.qmg, victim)
    log = log_of(database_url, tables.qmg)
    flagged = replay(database_url, "--game", "qmg", "--match", tables.qmg)
    assert flagged.returncode == 1
    assert f"diverges at seq {victim}" in flagged.stdout
    assert log_of(database_url, tables.qmg) == log
    assert tables.alice.match(tables.qmg)["engine_warning"] == {"seq": victim, "engine_version": QMG.version}

    rows(database_url, "UPDATE actions SET state_hash = %s WHERE match_id = %s AND seq = %s RETURNING seq",
         good, tables.qmg, victim)
    cleared = replay(database_url, "--game", "qmg", "--match", tables.qmg)
    assert cleared.returncode == 0
    assert tables.alice.match(tables.qmg)["engine_warning"] is None


def test_an_unknown_game_or_match_is_refused_without_a_change(tables: Tables, database_url: str):
    before = everything(database_url)
    for args in (["--game", "chess"], ["--game", "cardgame", "--match", "nosuchmatch"],
                 ["--game", "cardgame", "--match", tables.qmg]):
        refused = replay(database_url, *args)
        assert refused.returncode == 2, args
        assert refused.stderr.strip().splitlines()[-1].startswith("warroom: --"), refused.stderr
    assert everything(database_url) == before


def test_a_dry_run_does_not_upgrade_an_old_schema(pg: Any):
    name = f"replay_old_{uuid.uuid4().hex[:6]}"
    pg.psql(f'CREATE DATABASE "{name}";')  # never migrated
    url = pg.get_uri(name)
    refused = replay(url, "--game", "cardgame", "--dry-run")
    assert refused.returncode == 2 and "schema is older" in refused.stderr
    assert rows(url, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == [(0,)]
