"""Small boards for the movement, formation and column tests: a staged pack whose board is drawn in a few
strings (north first, the data pack's legend), units put where a test wants them, and the engine driven
answer by answer."""

from __future__ import annotations

import dataclasses
import random

from app.games.autarcha import engine, rules  # noqa: F401  (registers every rule module)
from app.games.autarcha.engine import Ctx
from app.games.autarcha.pack import Board, Cell, pack, use_pack
from app.games.autarcha.state import SEATS, GameState, sid
from app.games.protocol import Decision

TERRAIN = {".": "ground", "~": "water", "f": "forest", "^": "mountains", "#": "city"}
TRACK = {".": frozenset(), "|": frozenset({"N", "S"}), "-": frozenset({"E", "W"}), "/": frozenset({"NE", "SW"}),
         "\\": frozenset({"NW", "SE"}), "+": frozenset({"N", "E", "S", "W"}),
         "x": frozenset({"NE", "SE", "SW", "NW"})}


def board(terrain: list[str], roads: list[str] | None = None, rails: list[str] | None = None) -> Board:
    """A board from rows drawn north first (row 0 of the result is the last string: the south edge)."""
    rows, cols = len(terrain), len(terrain[0])
    blank = ["." * cols] * rows

    def layer(lines: list[str], legend: dict[str, frozenset[str]]) -> tuple[tuple[frozenset[str], ...], ...]:
        return tuple(tuple(legend[ch] for ch in line) for line in reversed(lines))

    return Board(latitudes=(rows + 1) // 2, longitudes=(cols + 1) // 2, symmetry="none",
                 terrain=tuple(tuple(TERRAIN[ch] for ch in line) for line in reversed(terrain)),
                 roads=layer(roads or blank, TRACK), rails=layer(rails or blank, TRACK),
                 areas=tuple(tuple("a" for _ in range(cols)) for _ in range(rows)))


def stage(terrain: list[str], roads: list[str] | None = None, rails: list[str] | None = None,
          steps: dict[tuple[str, str], int | None] | None = None) -> GameState:
    """Install a pack with this board (and ``steps``: Troops Table values changed, (kind, environment) ->
    value) and return an empty game on it, White to move. Call ``use_pack(None)`` after (the tests'
    fixture does)."""
    use_pack(None)
    real = pack()
    troops = dict(real.troops)
    for (kind, env), value in (steps or {}).items():
        t = troops[kind]
        troops[kind] = dataclasses.replace(t, steps={**t.steps, env: Cell(value, "guess", "test")})
    use_pack(dataclasses.replace(real, board=board(terrain, roads, rails), troops=troops))
    state = GameState(options={"scenario": "skirmish", "collect_costs_move": False}, seats=list(SEATS),
                      scenario="skirmish")
    for seat in SEATS:
        state.gold[seat], state.ledger[seat], state.mines[seat] = 0, [], []
    return state


def put(state: GameState, seat: str, kind: str, square: tuple[int, int], facing: str = "N") -> str:
    """A unit on (row from the south, column from the west)."""
    return state.new_unit(seat, kind, sid(square), facing)


def start_turn(state: GameState, seat: str = "white") -> None:
    """Begin ``seat``'s turn of moves (it needs an HQ on the board for its five moves)."""
    state.first = seat
    state.phase = "play"
    state.stack = [{"k": "turns"}]
    engine.run(Ctx(state, random.Random(0)))


def pending(state: GameState) -> Decision:
    return engine.decisions(state)[0]


def answer(state: GameState, *choices: str, seed: int = 0) -> Ctx:
    d = pending(state)
    ctx = Ctx(state, random.Random(seed))
    engine.apply_answer(ctx, d.seat, d.id, tuple(choices))
    return ctx


def logged(ctx: Ctx) -> list[str]:
    return [e.msg.id for e in ctx.events if e.msg is not None]


def refresh(state: GameState) -> None:
    """Ask the open question again after a test changed the position under it."""
    engine.run(Ctx(state, random.Random(0)))
