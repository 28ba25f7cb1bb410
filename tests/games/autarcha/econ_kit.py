"""Staging for the scenarios', economy's and victory's tests: a table set up by the game itself, small play
positions built straight on a GameState (the real board), scripted dice, answering whatever is asked, and
every channel a seat reads (its view, its pending decisions, the log lines it gets) for the leak check."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from typing import Any

from app.games.autarcha import engine, setup
from app.games.autarcha.engine import Ctx
from app.games.autarcha.pack import pack
from app.games.autarcha.rules import GAME
from app.games.autarcha.state import SEATS, GameState
from app.games.protocol import Action, Decision, Event, Seat

SEAT_OBJS = [Seat(id="white", label="White"), Seat(id="red", label="Red")]


class Dice(random.Random):
    """A seeded RNG whose die faces are scripted (``randint(1, 6)``); everything else is seeded."""

    def __init__(self, *faces: int, seed: int = 7) -> None:
        super().__init__(seed)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        if (a, b) == (1, pack().die.value) and self.faces:
            return self.faces.pop(0)
        return super().randint(a, b)


class Table:
    """A game and everything each seat was told: the log lines (public, or the seat's private one)."""

    def __init__(self, scenario: str = "skirmish", rng: random.Random | None = None, **options: Any) -> None:
        self.rng = rng or random.Random(1)
        self.events: list[Event] = []
        self.state: GameState = GAME.setup({"scenario": scenario, **options}, SEAT_OBJS, self.rng)
        self.events.extend(self.setup_events())

    def setup_events(self) -> list[Event]:
        return []  # setup() returns no events; its log lines are checked through later answers' events

    def pending(self, seat: str | None = None) -> list[Decision]:
        return [d for d in GAME.pending(self.state) if seat is None or d.seat == seat]

    def one(self, seat: str | None = None, kind: str | None = None) -> Decision:
        ds = [d for d in self.pending(seat) if kind is None or d.kind == kind]
        assert ds, f"nothing pending for {seat} {kind}: {[(d.seat, d.kind) for d in GAME.pending(self.state)]}"
        return ds[0]

    def answer(self, seat: str, *choices: str, kind: str | None = None) -> list[Event]:
        d = self.one(seat, kind)
        events = GAME.apply(self.state, seat, Action(d.id, tuple(choices)), self.rng)
        self.events.extend(events)
        return events

    def told(self, seat: str) -> list[str]:
        """The log as ``seat`` reads it: the private line where it has one, else the public one."""
        out = []
        for e in self.events:
            msg = e.private_msg.get(seat) if e.private_msg else None
            out.append(json.dumps({"text": e.private.get(seat, e.text),
                                   "msg": asdict(msg) if msg else asdict(e.msg) if e.msg else None}))
        return out

    def channels(self, seat: str) -> list[str]:
        """Everything ``seat`` receives: its view, the pending decisions it sees, the log it reads."""
        view = json.dumps(GAME.view(self.state, seat))
        decisions = json.dumps([asdict(d) for d in self.pending(seat)], default=str)
        return [view, decisions, *self.told(seat)]

    def log_ids(self) -> list[str]:
        return [e.msg.id for e in self.events if e.msg]


def position(scenario: str = "autarchy", units: list[tuple[str, str, str]] = (),  # type: ignore[assignment]
             gold: dict[str, int] | None = None, first: str = "white", **options: Any) -> GameState:
    """A state at the start of ``first``'s first turn with only ``units`` (seat, kind, square) on the board
    (no factories unless the test adds them), the pool holding every card, and the issue's gold."""
    opts = {"scenario": scenario, "collect_costs_move": False, **options}
    state = GameState(options=opts, seats=list(SEATS), scenario=scenario)
    setup.issue(state, random.Random(0))
    state.units.clear()
    state.factories.clear()
    state.next_unit = 1
    for seat, kind, square in units:
        state.new_unit(seat, kind, square, "N" if seat == "white" else "S")
    if gold:
        state.gold.update(gold)
    state.first = first
    state.stack = [{"k": "turns"}]
    ctx = Ctx(state, random.Random(3))
    from app.games.autarcha.areas import update_areas

    update_areas(ctx, gains=False)
    engine.run(ctx)
    return state


def refresh(state: GameState) -> None:
    """Ask the waiting question again after a test changed the state under it (the menu is built when asked)."""
    engine.run(Ctx(state, random.Random(6)))


def apply(state: GameState, seat: str, *choices: str, rng: random.Random | None = None) -> list[Event]:
    refresh(state)
    d = next(d for d in GAME.pending(state) if d.seat == seat)
    return GAME.apply(state, seat, Action(d.id, tuple(choices)), rng or random.Random(5))


def pending_one(state: GameState) -> Decision:
    refresh(state)
    return GAME.pending(state)[0]


def menu_ids(state: GameState) -> list[str]:
    d = pending_one(state)
    assert d.kind == "move", d
    return d.choice_ids()


def play_setup(table: Table, pick: str = "first") -> None:
    """Answer every setup decision (the first choice, or the last with ``pick="last"``) until play begins."""
    for _ in range(5000):
        if table.state.phase != "setup" or table.state.outcome is not None:
            return
        ds = table.pending()
        d = ds[0]
        ids = d.choice_ids()
        choice = ids[0] if pick == "first" else ids[-1]
        if d.kind == "buy" and choice == "done" and len(ids) > 1 and pick == "first":
            choice = ids[0]
        table.answer(d.seat, choice, kind=d.kind)
    raise AssertionError("setup did not end")


def squares_in(area: str, kind: str = "PIE") -> list[str]:
    """The squares of ``area`` a unit of ``kind`` may stand on, south-west first."""
    from app.games.autarcha.state import sid

    data = pack()
    return [sid(sq) for sq in data.board.squares()
            if data.area_of(sq) and data.area_of(sq).id == area  # type: ignore[union-attr]
            and data.troops[kind].may_stand_on(data.board.terrain[sq[0]][sq[1]])]


def ctx(state: GameState, rng: random.Random | None = None) -> Ctx:
    return Ctx(state, rng or random.Random(4))


def move_to(state: GameState, unit: str, square: str) -> list[Event]:
    """A unit's move as the rules see it afterwards (movement is another module's): it stands on ``square``
    and the after-move hooks run."""
    from app.games.autarcha.flow import AFTER_MOVE, end_checks

    c = ctx(state)
    state.units[unit]["sq"] = square
    for fn in AFTER_MOVE:
        fn(c)
    end_checks(c)
    return c.events
