"""Replaying a log is linear in its length, undos included (issue 7, item 6).

The server used to replay from setup at every undo, so a log of undo/redo pairs cost the
square of its length. These tests count the rules' ``apply`` calls (never wall time) and
check every replayed state against an oracle that keeps a full copy under every move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from app.games import registry
from app.games.protocol import Action, Choice, Decision, Seat, action_rng
from app.sessions import history
from app.sessions.history import LogMove, MatchExport, replay_states
from app.sessions.replay import state_hash
from tests.conftest import FIXTURE_GAMES
from tests.fixtures.cardgame import GAME
from tests.replay_helpers import undo_heavy_export

SEED = bytes(range(32))


class CountingRules:
    """The fixture game, counting the moves the replay applies."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules
        self.applied = 0

    def apply(self, state: Any, seat: str, action: Action, rng: random.Random) -> Any:
        self.applied += 1
        return self.rules.apply(state, seat, action, rng)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)


def moves_of(export: dict[str, Any]) -> list[LogMove]:
    return [LogMove(a["seq"], a["seat"], a["payload"], a["state_hash"], a["public_hash"]) for a in export["actions"]]


def test_undo_redo_pairs_replay_each_move_once() -> None:
    export = undo_heavy_export(GAME, SEED, moves=100, pairs=40, options={"target": "100"})
    moves = moves_of(export)
    undos = sum("undo" in m.payload for m in moves)
    answered = len(moves) - undos
    assert undos >= 150 and undos > answered / 2, "the log is mostly undo/redo pairs"
    rules = CountingRules(GAME)
    seats = [Seat(id=s["seat"], label=s["label"]) for s in export["seats"]]
    for move, state in replay_states(rules, export["options"], seats, SEED, moves):
        assert state_hash(GAME, state) == move.state_hash, f"seq {move.seq}"
    assert rules.applied == answered, "an undo returns to the state kept under the move, replaying nothing"


@pytest.fixture
def fixture_game_installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("WARROOM_EXTRA_GAMES", FIXTURE_GAMES)
    registry.installed.cache_clear()
    yield
    registry.installed.cache_clear()


@pytest.mark.usefixtures("fixture_game_installed")
def test_verify_reports_the_first_divergence_in_an_undo_heavy_export() -> None:
    export = undo_heavy_export(GAME, SEED, moves=60, pairs=3, options={"target": "100"})
    assert history.verify(MatchExport.model_validate(export))["ok"] is True
    undo = next(a for a in export["actions"][30:] if "undo" in a["payload"])
    undo["public_hash"] = "0" * 64
    result = history.verify(MatchExport.model_validate(export))
    assert (result["ok"], result["first_divergent_seq"]) == (False, undo["seq"])


# ---------------------------------------------------------------- deep undos, any shape
@dataclass
class Tally:
    """A toy game whose state is the list of numbers added: every move may be taken back."""

    added: list[int] = field(default_factory=list)


class TallyRules:
    id = "tally"
    version = "1"

    def __init__(self) -> None:
        self.applied = 0

    def setup(self, options: dict[str, Any], seats: list[Seat], rng: random.Random) -> Tally:
        return Tally()

    def pending(self, state: Tally) -> list[Decision]:
        return [Decision(id=f"add:{len(state.added)}", seat="p1", kind="add", prompt="add",
                         choices=tuple(Choice(id=str(n), label=str(n)) for n in range(1, 4)), undoable=True)]

    def apply(self, state: Tally, seat: str, action: Action, rng: random.Random) -> list[Any]:
        self.applied += 1
        state.added.append(int(action.choices[0]) * 10 + rng.randint(0, 9))  # the seq's own die roll too
        return []


@pytest.mark.parametrize("checkpoint_every", [1, 3, 32])
def test_any_run_of_undos_replays_a_bounded_number_of_moves(checkpoint_every: int) -> None:
    """Undo several moves in a row (a forged log may): each undo replays fewer than
    ``checkpoint_every`` moves, and every state equals the oracle's."""
    rng = random.Random(11)
    rules = TallyRules()
    moves: list[LogMove] = []
    oracle: list[list[int]] = []  # the state after each row, by keeping every state
    standing: list[tuple[int, list[int]]] = []  # (seq, state before it)
    current: list[int] = []
    for seq in range(1, 1501):
        if standing and rng.random() < 0.45:
            undone, current = standing.pop()
            moves.append(LogMove(seq, "p1", {"undo": undone}))
        else:
            choice = rng.choice("123")
            payload: dict[str, Any] = {"decision": f"add:{len(current)}", "choices": [choice]}
            if rng.random() < 0.7:  # some moves come without the flag: their undo must rebuild
                payload["undoable"] = True
            standing.append((seq, current))
            moves.append(LogMove(seq, "p1", payload))
            current = [*current, int(choice) * 10 + action_rng(SEED, seq).randint(0, 9)]
        oracle.append(current)
    replayed = [list(state.added) for _, state in replay_states(rules, {}, [Seat(id="p1", label="One")], SEED,
                                                                 moves, checkpoint_every=checkpoint_every)]
    assert replayed == oracle
    undos = sum("undo" in m.payload for m in moves)
    assert rules.applied <= (len(moves) - undos) + undos * (checkpoint_every - 1)

