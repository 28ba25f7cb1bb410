"""A staged map and a table in mid-game for the movement rules (app/games/attack/move.py).

The map (p1 light brown, p2 green)::

    E(neutral) -- A(p1) -- B(p1) -- C(p2) -- D(p2)
        |                  |
        F(p1)              K(p1) -- L(p1)

    lanes: A ~ G (p1's island), A ~ H (p2's island)
    anchored zone "bay": F, I (neutral), J (p1) all joined by sea

A battle is not fought here: ``stub_battles`` replaces BATTLE's ``land_battle`` with a task that
records the attacking force and lets it win (the defenders vanish), so the movement tests see
exactly which forces attack where, and in which order."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.attack import GAME, move
from app.games.attack.engine import Ctx, Task, run, task
from app.games.attack.pack import Lane, Map, Region, SeaZone, register_map
from app.games.attack.state import GameState
from app.games.protocol import Action, Decision

MAP_KEY = "moves-test"
COLOURS = {"p1": "light_brown", "p2": "green"}


def _region(rid: str) -> Region:
    return Region(id=rid, name=rid, name_pl=rid, continent="eurasia", lon=0.0, lat=0.0)


def staged_map() -> Map:
    ids = "ABCDEFGHIJKL"
    land = [("A", "B"), ("B", "C"), ("C", "D"), ("A", "E"), ("E", "F"), ("B", "K"), ("K", "L")]
    lanes = [Lane("A", "G"), Lane("A", "H")]
    zones = [SeaZone(id="bay", name="Bay", name_pl="Zatoka", anchored=True, borders=("F", "I", "J"))]
    return Map.build(MAP_KEY, [_region(r) for r in ids], land, lanes, zones)


register_map(staged_map())


def table(units: dict[str, dict[str, int]], owners: dict[str, str] | None = None,
          sea_controller: str | None = None, actions: tuple[str, ...] = ()) -> GameState:
    """p1's turn has begun; ``units``: region -> {type: count} for the owners given (default as drawn)."""
    owner = {"A": "p1", "B": "p1", "C": "p2", "D": "p2", "F": "p1", "G": "p1", "H": "p2", "J": "p1",
             "K": "p1", "L": "p1"}
    owner.update(owners or {})
    state = GameState(options={"end": "elimination", "turn_limit": "36", "finish_round": False,
                               "one_per_continent": False, "players": 2},
                      map=MAP_KEY, seats=["p1", "p2"], colours=dict(COLOURS), order=["p1", "p2"])
    for region, here in units.items():
        state.add_units(region, owner[region], here)
    for region, seat in owner.items():
        if region not in state.units:  # every held region holds a unit
            state.add_units(region, seat, {"INF": 1})
    state.capitals = {"p1": "A", "p2": "D"}
    state.hands = {s: [] for s in state.seats}
    state.navy = {s: {"BB": 1, "DD": 2, "SS": 2} for s in state.seats}
    state.sea_controller = sea_controller
    state.phase, state.active, state.round = "play", "p1", 1
    state.turn = {"seat": "p1", "actions": list(actions)}
    state.stack = [{"k": "turn", "seat": "p1"}, {"k": "turn_ends", "seat": "p1"}]
    run(Ctx(state, random.Random(1)))
    return state


def pending(state: GameState) -> Decision:
    found = GAME.pending(state)
    assert len(found) == 1, found
    return found[0]


def choice_ids(state: GameState) -> list[str]:
    return list(pending(state).choice_ids())


def answer(state: GameState, *choices: str, seat: str | None = None, rng: random.Random | None = None) -> list[Any]:
    d = pending(state)
    assert seat is None or d.seat == seat, (d.seat, d.prompt)
    return GAME.apply(state, d.seat, Action(decision=d.id, choices=tuple(choices)), rng or random.Random(7))


def move_group(state: GameState, target: str, *counts: str) -> None:
    """Declare one group: its target, then its counts (when asked: one possible count answers itself)."""
    answer(state, target)
    if counts:
        assert pending(state).kind == "move_count", pending(state).prompt
        answer(state, *counts)


@task("test_battle")
def _run_test_battle(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    state.flags.setdefault("battles", []).append([t["region"], t["attacker"], t["units"]])
    if t["region"] in state.units:
        state.remove_units(t["region"], dict(state.units[t["region"]]))
    state.add_units(t["region"], t["attacker"], t["units"])
    ctx.pop(t)
    return False


def _stub(region: str, attacker: str, units: dict[str, int]) -> Task:
    return {"k": "test_battle", "region": region, "attacker": attacker, "units": dict(units)}


@pytest.fixture
def stub_battles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(move, "land_battle", _stub)
