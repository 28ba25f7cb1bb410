"""Small positions for the attack, mine and sapper tests: a GameState in play built by hand, a task started on
it, answers given through the game's own apply(), and a die that shows what the test says."""

from __future__ import annotations

import random
from typing import Any

from app.games.autarcha import GAME, engine
from app.games.autarcha.engine import Ctx
from app.games.autarcha.pack import pack
from app.games.autarcha.state import SEATS, GameState, sid
from app.games.protocol import Action, Decision, Event

# squares of the shipped map (rows from the south, columns from the west) the tests stand on
GROUND = (11, 10)  # a 4 x 6 block of open ground, no track (rows 10-13, columns 8-13)
FOREST = (11, 18)
MOUNTAINS = (12, 1)  # at the ridge's western foot: ground lies 1 north
WATER = (12, 26)
CITY = (4, 12)
ROAD = (9, 10)  # the east-west road, on ground
RAIL = (1, 6)  # the western railway, on ground


def sq(r: int, c: int) -> str:
    return sid((r, c))


class Die(random.Random):
    """The passive player's die, showing ``faces`` in turn (the TSO-EX stub)."""

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, pack().die.value), (a, b)
        return self.faces.pop(0)


def position(*units: tuple[str, str, tuple[int, int], str], scenario: str = "total_war", active: str = "white",
             gold: int = 100) -> tuple[GameState, dict[str, str]]:
    """A state in play, ``active`` to move, with ``units`` (seat, kind, (row, col), facing) on the board and
    nothing else; returns it and the units' ids by their order ("1", "2"...)."""
    opts = {o.id: o.default for o in GAME.options}
    opts["scenario"] = scenario
    state = GameState(options=opts, seats=list(SEATS), scenario=scenario, phase="play", turn=1, first="white",
                      active=active, moves_left=5)
    for seat in SEATS:
        state.gold[seat] = gold
        state.ledger[seat] = [{"turn": 0, "what": {"id": "ledger_start", "params": {}}, "income": gold,
                               "expense": 0, "balance": gold}]
        state.mines[seat] = []
    for area in pack().areas:
        state.cards[area] = None
        state.control[area] = None
    ids = {}
    for i, (seat, kind, at_, facing) in enumerate(units, 1):
        ids[str(i)] = state.new_unit(seat, kind, sq(*at_), facing)
    return state, ids


def start(state: GameState, *tasks: dict[str, Any], rng: random.Random | None = None) -> list[Event]:
    """Push ``tasks`` on an empty stack and run until one waits."""
    ctx = Ctx(state, rng or random.Random(0))
    ctx.push(*tasks)
    engine.run(ctx)
    return ctx.events


def open_decision(state: GameState) -> Decision:
    found = engine.decisions(state)
    assert len(found) == 1, found
    return found[0]


def give(state: GameState, *choices: str, rng: random.Random | None = None, seat: str | None = None) -> list[Event]:
    """Answer the open decision with ``choices``."""
    d = open_decision(state)
    return GAME.apply(state, seat or d.seat, Action(d.id, tuple(choices)), rng or random.Random(0))


def lines(events: list[Event]) -> list[str]:
    return [e.text for e in events]


def ctx_of(state: GameState, rng: random.Random | None = None) -> Ctx:
    return Ctx(state, rng or random.Random(0))
