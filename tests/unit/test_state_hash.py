"""The per-seq state hash is cheap (orjson) yet the very hash every stored log holds: for any
dump it equals the sha256 of json.dumps(sort_keys, compact), so old logs verify unchanged."""

from __future__ import annotations

import random
from typing import Any

from app.games.protocol import Seat, action_rng, random_bot, validate_action
from app.games.registry import get
from app.sessions.log_walk import setup
from app.sessions.replay import legacy_state_hash, state_hash


class Dumps:
    """A game whose state is its own dump."""

    def dump(self, state: Any) -> Any:
        return state


def test_every_qmg_state_of_a_seeded_game_hashes_as_before() -> None:
    game = get("qmg")
    assert game is not None
    options = {o.id: o.default for o in game.options}
    seats = [Seat(id=s.id, label=s.label, roles=tuple(s.roles)) for s in game.roles(4, options)]
    seed = b"h" * 32
    state = setup(game, options, seats, seed)
    rng = random.Random(10)
    for seq in range(1, 120):
        assert state_hash(game, state) == legacy_state_hash(game.dump(state))
        if game.outcome(state):
            break
        decision = next(d for d in game.pending(state) if not d.optional)
        game.apply(state, decision.seat, validate_action(decision, list(random_bot(decision, rng).choices)),
                   action_rng(seed, seq))


def test_dumps_orjson_would_spell_otherwise_hash_as_before() -> None:
    game: Any = Dumps()
    for dump in [
        {"b": 1, "a": [True, False, None, 0, -5, 2**40]},
        {"name": "Łódź", "ok": "zażółć"},  # json escapes non-ASCII text
        {"x": 1.0, "y": 1e16, "z": 1e-07, "w": 0.1},  # floats: exponents and fractions
        {1: "a", 2: "b"},  # number keys
        {"big": 2**70},  # beyond 64 bits
        {"text": "v1.2 and 3e5 in words"},
        {"nested": {"z": {"b": [1, {"d": 2, "c": 3}]}, "a": []}},
        [],
        {},
    ]:
        assert state_hash(game, dump) == legacy_state_hash(dump), dump
