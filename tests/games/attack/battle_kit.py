"""A small staged table for land-battle tests: Ukraine and its neighbours, two to four players
mid-game, a land battle pushed as MOVES pushes it, answers given by seat."""

from __future__ import annotations

import random
from typing import Any

from app.games.attack import GAME, engine
from app.games.attack.battle import land_battle
from app.games.attack.engine import Ctx
from app.games.attack.pack import Map, Region, register_map
from app.games.attack.state import GameState
from app.games.protocol import Action, Decision, Event

MAP_KEY = "battle_test"
SEATS = ("p1", "p2", "p3", "p4")
COLOURS = {"p1": "light_brown", "p2": "green", "p3": "blue", "p4": "red"}


def _region(rid: str, lon: float, lat: float) -> Region:
    return Region(id=rid, name=rid.title(), name_pl=rid.title(), continent="eurasia", lon=lon, lat=lat)


register_map(Map.build(
    MAP_KEY,
    [_region("ukraine", 32, 49), _region("poland", 20, 52), _region("romania", 25, 45),
     _region("belarus", 28, 53), _region("russia", 40, 55)],
    [("ukraine", "poland"), ("ukraine", "romania"), ("ukraine", "belarus"), ("ukraine", "russia"),
     ("poland", "belarus"), ("belarus", "russia")],
))


def table(players: int = 2, owner: dict[str, str] | None = None, units: dict[str, dict[str, int]] | None = None,
          hands: dict[str, list[str]] | None = None, deck: list[str] | None = None,
          capitals: dict[str, str] | None = None, options: dict[str, Any] | None = None) -> GameState:
    """A table in the middle of p1's turn: ``owner``/``units`` as given (every other region neutral)."""
    seats = list(SEATS[:players])
    state = GameState(options={"end": "elimination", "turn_limit": "0", "finish_round": False,
                               "one_per_continent": False, "players": players, **(options or {})},
                      map=MAP_KEY, seats=seats, colours={s: COLOURS[s] for s in seats},
                      seat_labels={s: COLOURS[s] for s in seats}, order=list(seats))
    for region, seat in (owner or {}).items():
        state.add_units(region, seat, (units or {})[region])
    state.hands = {s: list((hands or {}).get(s, [])) for s in seats}
    state.deck = list(deck or [])
    state.capitals = dict(capitals or {})
    state.navy = {s: {} for s in seats}
    state.phase, state.active, state.round = "play", "p1", 1
    state.turn = {"seat": "p1", "actions": ["MOVE"]}
    return state


def fight(state: GameState, region: str, attacker: str, units: dict[str, int], rng: random.Random) -> list[Event]:
    """Push the battle as MOVES does (the moving units already off the map) and run to the first question."""
    ctx = Ctx(state, rng)
    ctx.push(land_battle(region, attacker, units))
    engine.run(ctx)
    return ctx.events


def pending(state: GameState) -> list[Decision]:
    return engine.decisions(state)


def one(state: GameState) -> Decision:
    ds = pending(state)
    assert len(ds) == 1, ds
    return ds[0]


def answer(state: GameState, seat: str, choices: tuple[str, ...] | list[str], rng: random.Random,
           decision: Decision | None = None) -> list[Event]:
    d = decision or next(d for d in pending(state) if d.seat == seat)
    return GAME.apply(state, seat, Action(decision=d.id, choices=tuple(choices)), rng)


def pick(units: dict[str, int]) -> tuple[str, ...]:
    """The token answer that commits ``units`` ("INF:1", "INF:2", ...)."""
    return tuple(f"{t}:{i}" for t, n in units.items() for i in range(1, n + 1))


def lines(events: list[Event]) -> list[str]:
    return [e.text for e in events]
