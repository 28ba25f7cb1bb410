"""A game's state must not depend on the order of its dict keys (issue 7, item 3).

PostgreSQL's JSONB re-sorts object keys, so a state loaded from a snapshot has other
key orders than the same state built move by move. Two copies of each seeded game are
played in lockstep: one as built, one dumped and reloaded with every object's keys in a
fresh random order before each move. Their decisions, events and hashes must agree at
every step. A second check runs one game under two PYTHONHASHSEEDs: set order of
strings differs between processes, and a replay after a restart is another process.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from app.fuzz import shuffled_keys
from app.games.protocol import GameRules, Seat, action_rng, validate_action
from app.sessions.replay import state_hash
from tests.fixtures.cardgame import GAME as CARDGAME

ROOT = Path(__file__).resolve().parents[2]


def games(played: bool = False) -> list[Any]:
    """Every installed game and the fixture; ``played``: for a test that needs moves played (Autarcha's
    skeleton has none yet: tests/games/autarcha/skeleton.py)."""
    from app.games.registry import installed
    from tests.games.autarcha.skeleton import UNTIL_PLAYABLE

    return [pytest.param(g, marks=UNTIL_PLAYABLE) if played and g.id == "autarcha" else g
            for g in [*installed().values(), CARDGAME]]


def decisions(game: GameRules, state: Any) -> list[tuple[str, str, list[str]]]:
    return [(d.id, d.seat, d.choice_ids()) for d in game.pending(state)]


def play_lockstep(game: GameRules, seed: int, max_steps: int = 4000) -> int:
    seats = game.roles(game.max_players, {})
    options = {o.id: o.default for o in game.options}
    match_seed = seed.to_bytes(8, "big")
    built = game.setup(dict(options), seats, action_rng(match_seed, 0))
    reloaded = game.load(json.loads(json.dumps(game.dump(built))))
    keys = random.Random(seed)
    steps = 0
    while game.outcome(built) is None and steps < max_steps:
        reloaded = game.load(shuffled_keys(json.loads(json.dumps(game.dump(reloaded))), keys))
        assert decisions(game, reloaded) == decisions(game, built), f"seed {seed} step {steps}: pending differs"
        decision = game.pending(built)[0]
        proposed = game.bot(built, decision, action_rng(match_seed, -(steps + 1)))
        action = validate_action(decision, list(proposed.choices))
        rng_seq = steps + 1
        events_built = game.apply(built, decision.seat, action, action_rng(match_seed, rng_seq))
        events_reloaded = game.apply(reloaded, decision.seat, action, action_rng(match_seed, rng_seq))
        assert [asdict(e) for e in events_built] == [asdict(e) for e in events_reloaded], \
            f"seed {seed} step {steps}: events differ"
        assert state_hash(game, built) == state_hash(game, reloaded), f"seed {seed} step {steps}: state differs"
        steps += 1
    return steps


@pytest.mark.parametrize("game", games(played=True), ids=lambda g: g.id)
@pytest.mark.parametrize("seed", range(6))
def test_state_key_order_changes_nothing(game: GameRules, seed: int) -> None:
    assert play_lockstep(game, seed) > 0


HASH_RUN = """
import sys
from app.games.registry import installed
from tests.fixtures.cardgame import GAME as CARDGAME
from tests.unit.test_state_order import final_hash
games = {**installed(), CARDGAME.id: CARDGAME}
print(final_hash(games[sys.argv[1]], int(sys.argv[2])))
"""


def final_hash(game: GameRules, seed: int) -> str:
    seats: list[Seat] = game.roles(game.max_players, {})
    options = {o.id: o.default for o in game.options}
    match_seed = seed.to_bytes(8, "big")
    state = game.setup(dict(options), seats, action_rng(match_seed, 0))
    step = 0
    while game.outcome(state) is None and step < 4000:
        decision = game.pending(state)[0]
        proposed = game.bot(state, decision, action_rng(match_seed, -(step + 1)))
        game.apply(state, decision.seat, validate_action(decision, list(proposed.choices)),
                   action_rng(match_seed, step + 1))
        step += 1
    return f"{step}:{state_hash(game, state)}"


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_a_game_plays_the_same_in_every_process(game: GameRules) -> None:
    """String hashing is salted per process: a set's order must never steer the rules."""
    results = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", HASH_RUN, game.id, "11"], cwd=ROOT, env=env,
                             capture_output=True, text=True, check=True)
        results.add(out.stdout.strip())
    assert len(results) == 1, results
