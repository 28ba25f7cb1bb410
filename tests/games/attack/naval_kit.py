"""A staged table for the naval rules: a few seats, each holding one region (so nobody is
eliminated), given fleets, a sea controller, and the active seat at its action prompt.

Seats take the pack's colours in seat order: p1 light brown, p2 green (NAVAL-EX-1's two fleets)."""

from __future__ import annotations

import random
from typing import Any

from app.games.attack import GAME, engine
from app.games.attack.engine import Ctx
from app.games.attack.pack import Map, Region, pack, register_map
from app.games.attack.state import GameState
from app.games.protocol import Action, Decision, Event

MAP_KEY = "naval_kit"
SEATS = ("p1", "p2", "p3", "p4")

register_map(Map.build(MAP_KEY, [Region(id=f"home_{s}", name=f"Home {s}", name_pl=f"Dom {s}", continent="eurasia",
                                        lon=float(i), lat=0.0) for i, s in enumerate(SEATS)],
                       land=[]))


def table(fleets: dict[str, dict[str, int]], controller: str | None = None, active: str = "p2",
          players: int = 2) -> GameState:
    """``players`` seats with these fleets; ``active`` at its first action prompt of the turn."""
    seats = list(SEATS[:players])
    colours = {s: pack().colours[i].id for i, s in enumerate(seats)}
    state = GameState(options={"end": "elimination", "turn_limit": "36", "finish_round": False,
                               "one_per_continent": False, "players": players},
                      map=MAP_KEY, seats=seats, colours=colours, seat_labels={s: s for s in seats})
    state.order = list(seats)
    for s in seats:
        state.add_units(f"home_{s}", s, {"INF": 3})
        state.capitals[s] = f"home_{s}"
        state.navy[s] = {k: v for k, v in fleets.get(s, {}).items() if v}
        state.hands[s] = []
    state.sea_controller = controller
    state.phase = "play"
    state.round = 1
    state.active = active
    state.turn = {"seat": active, "actions": []}
    state.stack = [{"k": "turn", "seat": active}]
    engine.run(Ctx(state, random.Random(0)))
    return state


def pending(state: GameState, seat: str | None = None, kind: str | None = None) -> list[Decision]:
    return [d for d in GAME.pending(state) if (seat is None or d.seat == seat) and (kind is None or d.kind == kind)]


def decision(state: GameState, seat: str, kind: str) -> Decision:
    found = pending(state, seat, kind)
    waiting = [(d.seat, d.kind) for d in GAME.pending(state)]
    assert len(found) == 1, f"expected one {kind} for {seat}, pending: {waiting}"
    return found[0]


def answer(state: GameState, seat: str, kind: str, *choices: str, rng: random.Random | None = None) -> list[Event]:
    d = decision(state, seat, kind)
    return GAME.apply(state, seat, Action(d.id, tuple(choices)), rng or random.Random(0))


def take_naval(state: GameState, seat: str, rng: random.Random | None = None) -> list[Event]:
    return answer(state, seat, "action", "NAVAL", rng=rng)


def texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]


def msgs(events: list[Event], msg_id: str) -> list[dict[str, Any]]:
    return [e.msg.params for e in events if e.msg is not None and e.msg.id == msg_id]
