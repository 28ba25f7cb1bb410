"""Small staged tables for the setup and victory tests (spec §4, §21).

``table(...)`` builds a game on a staged map through the real setup (deal, the first-player roll,
claims, placement, capitals), each setup question answered by a chooser; ``play_state`` goes
straight to the first turn with a given board. ``no_actions`` empties the registry of actions so
that turns end by themselves: the clock tests count turns, whatever the other rule modules add."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from app.games.attack import engine, flow, setup
from app.games.attack.engine import Ctx
from app.games.attack.pack import Map, Region, pack, register_map
from app.games.attack.rules import GAME
from app.games.attack.state import GameState
from app.games.protocol import Action, Decision

# three regions on each continent, a line of land links through each continent
CONTINENT_REGIONS = {
    "north_america": ("alaska", "canada", "usa"),
    "south_america": ("brazil", "argentina", "peru"),
    "africa": ("egypt", "congo", "cape"),
    "eurasia": ("france", "germany", "ukraine"),
}


def _regions(spec: dict[str, tuple[str, ...]]) -> list[Region]:
    return [Region(id=r, name=r.title(), name_pl=r.title(), continent=c, lon=0.0, lat=0.0)
            for c, rs in spec.items() for r in rs]


def _links(spec: dict[str, tuple[str, ...]]) -> list[tuple[str, str]]:
    return [(rs[i], rs[i + 1]) for rs in spec.values() for i in range(len(rs) - 1)]


register_map(Map.build("end-test", _regions(CONTINENT_REGIONS), _links(CONTINENT_REGIONS)))
# one continent with a single region: two players cannot both claim there (the option's fallback)
SCARCE = {"north_america": ("usa",), "south_america": ("brazil", "argentina"),
          "africa": ("egypt", "congo", "cape"), "eurasia": ("france", "germany", "ukraine", "poland")}
register_map(Map.build("end-scarce", _regions(SCARCE), _links(SCARCE)))

OPTIONS = {"end": "timed", "turn_limit": "12", "finish_round": False, "one_per_continent": False}
Chooser = Callable[[GameState, Decision], tuple[str, ...]]


def first(state: GameState, d: Decision) -> tuple[str, ...]:
    return (d.choices[0].id,)


def new_state(players: int = 2, map_key: str = "end-test", **options: Any) -> GameState:
    opts = {**OPTIONS, **options, "players": players}
    seats = GAME.roles(players, opts)
    return GameState(options=opts, map=map_key, seats=[s.id for s in seats],
                     colours={s.id: s.roles[0] for s in seats}, seat_labels={s.id: s.label for s in seats})


def begin(state: GameState, rng: random.Random | None = None) -> GameState:
    """Deal and run the setup up to its first question (what ``GAME.setup`` does, on any map)."""
    rng = rng or random.Random(1)
    setup.deal(state, rng)
    ctx = Ctx(state, rng)
    flow.start(ctx)
    engine.run(ctx)
    return state


def answer(state: GameState, choices: tuple[str, ...], rng: random.Random | None = None,
           decision: Decision | None = None) -> list[Any]:
    d = decision or GAME.pending(state)[0]
    return GAME.apply(state, d.seat, Action(decision=d.id, choices=choices), rng or random.Random(state.step))


def run_setup(state: GameState, chooser: Chooser = first, rng: random.Random | None = None) -> list[Decision]:
    """Answer every setup question with ``chooser``; the decisions asked, in order."""
    asked: list[Decision] = []
    while state.phase == "setup" and state.outcome is None:
        d = GAME.pending(state)[0]
        asked.append(d)
        answer(state, chooser(state, d), rng, d)
    return asked


def table(players: int = 2, map_key: str = "end-test", chooser: Chooser = first, seed: int = 1,
          **options: Any) -> GameState:
    state = begin(new_state(players, map_key, **options), random.Random(seed))
    run_setup(state, chooser, random.Random(seed))
    return state


@contextmanager
def no_actions() -> Iterator[None]:
    """No action can be taken: every turn ends by itself (the clock tests count bare turns)."""
    saved = dict(flow.ACTIONS)
    flow.ACTIONS.clear()
    try:
        yield
    finally:
        flow.ACTIONS.update(saved)


def all_cards() -> set[str]:
    return set(pack().econ)


@contextmanager
def only_action(start: Callable[[Ctx, str], None], allowed: Callable[[GameState, str], bool] | None = None,
                repeatable: bool = False) -> Iterator[None]:
    """One stand-in action ("TEST") is all a turn offers: ``start(ctx, seat)`` does what a battle
    or a build would (the victory tests wipe a player out with it)."""
    saved = dict(flow.ACTIONS)
    flow.ACTIONS.clear()
    flow.register_action(flow.ActionKind("TEST", 1, allowed or (lambda s, seat: True), start, repeatable))
    try:
        yield
    finally:
        flow.ACTIONS.clear()
        flow.ACTIONS.update(saved)


def wipe_out(state: GameState, seat: str) -> None:
    """Every land unit of ``seat`` leaves the map (as if it lost its last battle)."""
    for r in state.regions_of(seat):
        state.remove_units(r, dict(state.units[r]))


def give(state: GameState, seat: str, region: str, **units: int) -> None:
    """``seat`` takes ``region`` with these units (whatever stood there goes)."""
    if region in state.units:
        state.remove_units(region, dict(state.units[region]))
    state.add_units(region, seat, units)
