"""One log walker serves undo, history, replay and export (issue 8, §4).

Every logged move any of them applies goes through ``app.sessions.log_walk.play``: the test
counts its calls while each user runs in this process against a real table (the undo in a
transaction rolled back at the end), and checks that no other module of the server sets a
game up or applies a move by itself (only ``commit_action`` applies a new move, which is
writing the log, not walking it)."""

from __future__ import annotations

import ast
import asyncio
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from app.db import make_engine, make_sessionmaker
from app.games import registry
from app.games.registry import get as get_game
from app.models import Match, User
from app.sessions import history, log_walk, maintenance, table_life
from app.sessions.replay import MatchCache
from tests.conftest import FIXTURE_GAMES
from tests.test_table_life import answer_until, play_out, started

ROOT = Path(__file__).resolve().parents[1]


class Walked:
    """The moves the walker applied, by the user walking the log at the time."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.now = ""


@pytest.fixture
def walked(monkeypatch: pytest.MonkeyPatch) -> Iterator[Walked]:
    monkeypatch.setenv("WARROOM_EXTRA_GAMES", FIXTURE_GAMES)  # the fixture game, in this process too
    registry.installed.cache_clear()
    seen = Walked()
    real = log_walk.play

    def counting(*args: Any, **kwargs: Any) -> None:
        seen.counts[seen.now] += 1
        real(*args, **kwargs)

    monkeypatch.setattr(log_walk, "play", counting)
    yield seen
    registry.installed.cache_clear()


def in_process(database_url: str, scenario: Callable[[Any], Any]) -> Any:
    async def run() -> Any:
        engine = make_engine(database_url, pool_size=1)
        try:
            async with make_sessionmaker(engine)() as db:
                return await scenario(db)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def test_undo_history_replay_and_export_all_walk_the_log_through_one_walker(make_player, database_url, walked):
    alice, bob, match_id = started(make_player)
    mover, m = answer_until([alice, bob], match_id, "order")
    order = next(d for d in m["pending"] if d["kind"] == "order")
    assert mover.act(match_id, order["decision"], "sort", seq=m["seq"]).status_code == 200
    moved = m["seq"] + 1
    mover_id = mover.id

    async def undo_then_roll_back(db: Any) -> int:
        walked.now = "undo"
        async with db.begin():
            user = await db.get(User, mover_id)
            match = await table_life.undo(db, MatchCache(), user, match_id, moved)
            seq = match.seq
            await db.rollback()
        return seq

    assert in_process(database_url, undo_then_roll_back) == moved + 1

    async def past_view(db: Any) -> dict[str, Any]:
        walked.now = "history"
        match = await db.scalar(select(Match).where(Match.id == match_id))
        return await history.view_at(db, MatchCache(), match, None, moved, None)

    assert in_process(database_url, past_view)["seq"] == moved

    async def match_log(db: Any) -> maintenance.MatchLog:
        return await maintenance.read_log(db, match_id, lock=False)

    log = in_process(database_url, match_log)
    walked.now = "replay"
    assert maintenance.replay_log(get_game("cardgame"), log).diverged_at is None

    walked.now = "export"
    job = history.ReplayJob("cardgame", log.options, [{"seat": s.id, "label": s.label, "roles": list(s.roles)}
                                                       for s in log.seats], log.seed, log.moves)
    assert set(history.public_hashes(job)) == {move.seq for move in log.moves}

    play_out([alice, bob], match_id)
    walked.now = "verify"
    finished = alice.get(f"/api/matches/{match_id}/export").json()
    assert history.check_replay(history.verify_job(history.MatchExport(**finished)))["ok"]

    for user in ("undo", "history", "replay", "export", "verify"):
        assert walked.counts[user] > 0, f"{user} applied no move through the walker"


def test_no_other_module_sets_a_game_up_or_applies_a_logged_move() -> None:
    """Outside the games and the walker, only ``play_answer`` applies a move: the new one (for
    ``commit_action`` and for the move in one round trip, ``one_trip``).
    The fuzzer (app/fuzz.py) is not the platform but a player and a checker of the rules: it
    plays its own matches and applies moves to reloaded copies and twins on purpose, to compare
    them with each other and with this walker (its end-of-match replay goes through log_walk)."""
    found = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        if "games" in path.relative_to(ROOT).parts or path.name in ("log_walk.py", "fuzz.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                        and node.func.attr in ("apply", "setup") and "action_rng" in ast.unparse(node)
                        and (path.name, fn.name) != ("service.py", "play_answer")):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {fn.name}: {ast.unparse(node)}")
    assert not found, "\n".join(found)
