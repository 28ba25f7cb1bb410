"""Setup (spec §4): the first-player roll, claiming four neutral regions each, placing the other
starting units one at a time, then the capitals. Starting hands and fleets are dealt by ``deal``."""

from __future__ import annotations

import random

from app.games.attack import dice
from app.games.attack.engine import Ctx, Task, ask, cont, task
from app.games.attack.flow import setup_step
from app.games.attack.pack import LAND_TYPES, START_CARDS, START_LAND, START_NAVY, START_REGIONS, pack
from app.games.attack.state import GameState
from app.games.attack.text import Label, say


def deal(state: GameState, rng: random.Random) -> None:
    """A-4.1: shuffle the Economics deck, deal four cards each; each seat's starting fleet."""
    deck = sorted(pack().econ)
    rng.shuffle(deck)
    state.deck = deck
    for seat in state.seats:
        state.hands[seat] = [state.deck.pop(0) for _ in range(START_CARDS)]
        state.navy[seat] = dict(START_NAVY)


@task("first_player")
def _run_first_player(ctx: Ctx, t: Task) -> bool:
    """A-4.2: everyone rolls 2d6, the highest starts; the tied highest roll again (§24)."""
    state = ctx.state
    ctx.pop(t)
    rolling = list(state.seats)
    while True:
        rolls = {s: dice.blue(ctx.rng) for s in rolling}
        for s in rolling:
            ctx.log("first_player_roll", seat=state.colours[s], a=rolls[s][0], b=rolls[s][1], total=sum(rolls[s]))
        best = max(sum(r) for r in rolls.values())
        rolling = [s for s in rolling if sum(rolls[s]) == best]
        if len(rolling) == 1:
            break
    first = state.seats.index(rolling[0])
    state.order = state.seats[first:] + state.seats[:first]
    ctx.log("first_player", seat=state.colours[rolling[0]])
    return False


def claimable(state: GameState, seat: str) -> list[str]:
    """Neutral regions ``seat`` may claim now (A-4.3; one per continent with the option, A-4.4)."""
    free = [r for r in sorted(state.geo.regions) if r not in state.owner]
    if state.options.get("one_per_continent"):
        held = {state.geo.regions[r].continent for r in state.regions_of(seat)}
        free = [r for r in free if state.geo.regions[r].continent not in held]
    return free


@task("claim_regions")
def _run_claim(ctx: Ctx, t: Task) -> bool:
    """A-4.3: in turn order, one infantry into a neutral region each, until everyone holds four."""
    state = ctx.state
    t.setdefault("i", 0)
    if t["i"] >= START_REGIONS * len(state.order):
        ctx.pop(t)
        return False
    seat = state.order[t["i"] % len(state.order)]
    t["i"] += 1
    options: list[tuple[str, Label]] = [(r, r) for r in claimable(state, seat)]
    ctx.push(ask(seat, say("prompt_claim", seat=state.colours[seat], n=len(state.regions_of(seat)) + 1),
                 options, "region_claimed", kind="claim"))
    return False


@cont("region_claimed")
def _claimed(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["seat"]
    state.add_units(choices[0], seat, {"INF": 1})
    ctx.log("region_claimed", seat=state.colours[seat], region=choices[0])


def to_place(state: GameState, seat: str) -> dict[str, int]:
    """The starting units ``seat`` has still to put on the map (A-4.5)."""
    placed = {k: sum(state.units.get(r, {}).get(k, 0) for r in state.regions_of(seat)) for k in LAND_TYPES}
    return {k: START_LAND[k] - placed[k] for k in LAND_TYPES if START_LAND[k] > placed[k]}


@task("place_units")
def _run_place(ctx: Ctx, t: Task) -> bool:
    """A-4.5 (read as the spec does: every remaining starting unit, one piece at a time, in turn order)."""
    state = ctx.state
    waiting = [s for s in state.order if to_place(state, s)]
    if not waiting:
        ctx.pop(t)
        return False
    t.setdefault("i", 0)
    seat = state.order[t["i"] % len(state.order)]
    t["i"] += 1
    left = to_place(state, seat)
    if not left:
        return False
    options: list[tuple[str, Label]] = [(f"{r}:{k}", say("choice_place", region=r, unit=f"unit_{k}"))
                                        for r in state.regions_of(seat) for k in LAND_TYPES if left.get(k)]
    ctx.push(ask(seat, say("prompt_place", seat=state.colours[seat], n=sum(left.values())), options, "unit_placed",
                 kind="place"))
    return False


@cont("unit_placed")
def _placed(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["seat"]
    region, kind = choices[0].split(":")
    state.add_units(region, seat, {kind: 1})
    ctx.log("unit_placed", seat=state.colours[seat], region=region, unit=f"unit_{kind}")


@task("place_capitals")
def _run_capitals(ctx: Ctx, t: Task) -> bool:
    """A-4.6: in turn order, each seat's capital into one of its regions."""
    state = ctx.state
    seat = next((s for s in state.order if s not in state.capitals), None)
    if seat is None:
        ctx.pop(t)
        ctx.log("setup_done")
        return False
    options: list[tuple[str, Label]] = [(r, r) for r in state.regions_of(seat)]
    ctx.push(ask(seat, say("prompt_capital", seat=state.colours[seat]), options, "capital_placed",
                 kind="capital"))
    return False


@cont("capital_placed")
def _capital(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["seat"]
    state.capitals[seat] = choices[0]
    ctx.log("capital_placed", seat=state.colours[seat], region=choices[0])


setup_step(10, "first_player")
setup_step(20, "claim_regions")
setup_step(30, "place_units")
setup_step(40, "place_capitals")
