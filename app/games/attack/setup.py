"""Setup (spec §4): the first-player roll, claiming four neutral regions each, placing the other
starting units one at a time, then the capitals. Starting hands and fleets are dealt by ``deal``.

The first-player roll waits for every seat to press "roll" (a simultaneous step): ``setup`` has no
log of its own, and a die nobody sees rolled would break "every die is logged" (§25.4)."""

from __future__ import annotations

import random
from typing import Any

from app.games.attack import dice
from app.games.attack.engine import Ctx, Task, answers, ask, cont, question, task, wait_all
from app.games.attack.flow import setup_step
from app.games.attack.pack import LAND_TYPES, START_CARDS, START_LAND, START_NAVY, START_REGIONS, pack
from app.games.attack.state import GameState
from app.games.attack.text import Label, as_json, say


def deal(state: GameState, rng: random.Random) -> None:
    """A-4.1: shuffle the Economics deck, deal four cards each; each seat's starting fleet."""
    deck = sorted(pack().econ)
    rng.shuffle(deck)
    state.deck = deck
    for seat in state.seats:
        state.hands[seat] = [state.deck.pop(0) for _ in range(START_CARDS)]
        state.navy[seat] = dict(START_NAVY)


# ------------------------------------------------------------------ first player
@task("first_player")
def _run_first_player(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    qs = {s: question(s, "first_player", say("prompt_first_roll", seat=state.colours[s]),
                      [("roll", say("choice_roll"))], undoable=True) for s in state.seats}
    return wait_all(t, "first_player", qs)


@answers("first_player")
def _rolled_first(ctx: Ctx, t: Task, got: dict[str, tuple[str, ...]]) -> None:
    ctx.pop(t)
    roll_first_player(ctx)


def roll_first_player(ctx: Ctx) -> str:
    """A-4.2: everyone rolls 2d6, the highest starts, play passes clockwise (seat order); the tied
    highest roll again, the others out (§24)."""
    state = ctx.state
    rolling = list(state.seats)
    while True:
        rolls = {s: dice.blue(ctx.rng) for s in rolling}
        for s in rolling:
            ctx.log("first_player_roll", seat=state.colours[s], a=rolls[s][0], b=rolls[s][1], total=sum(rolls[s]))
        best = max(sum(r) for r in rolls.values())
        rolling = [s for s in rolling if sum(rolls[s]) == best]
        if len(rolling) == 1:
            break
        ctx.log("first_player_tie", seats=[state.colours[s] for s in rolling], total=best)
    first = state.seats.index(rolling[0])
    state.order = state.seats[first:] + state.seats[:first]
    ctx.log("first_player", seat=state.colours[rolling[0]])
    return rolling[0]


# ------------------------------------------------------------------ claims
def claimable(state: GameState, seat: str) -> list[str]:
    """Neutral regions ``seat`` may claim now (A-4.3). With the one-per-continent option (A-4.4)
    only on a continent it holds nothing on yet; should those be gone (a continent with fewer
    regions than players), any neutral region, so the setup never stalls (README)."""
    free = [r for r in sorted(state.geo.regions) if r not in state.owner]
    if state.options.get("one_per_continent"):
        held = {state.geo.regions[r].continent for r in state.regions_of(seat)}
        fresh = [r for r in free if state.geo.regions[r].continent not in held]
        return fresh or free
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
    n = len(state.regions_of(seat)) + 1
    options: list[tuple[str, Label]] = [(r, say("choice_region", region=r)) for r in claimable(state, seat)]
    prompt = "prompt_claim_continent" if state.options.get("one_per_continent") else "prompt_claim"
    ctx.push(ask(seat, say(prompt, seat=state.colours[seat], n=n, of=START_REGIONS), options, "region_claimed",
                 kind="claim", undoable=True))
    return False


@cont("region_claimed")
def _claimed(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["seat"]
    state.add_units(choices[0], seat, {"INF": 1})
    ctx.log("region_claimed", seat=state.colours[seat], region=choices[0])


# ------------------------------------------------------------------ the other units
def to_place(state: GameState, seat: str) -> dict[str, int]:
    """The starting units ``seat`` has still to put on the map (A-4.5): its 24 less those standing.
    Nothing leaves the map during setup, so the map is the count."""
    placed = {k: sum(state.units.get(r, {}).get(k, 0) for r in state.regions_of(seat)) for k in LAND_TYPES}
    return {k: START_LAND[k] - placed[k] for k in LAND_TYPES if START_LAND[k] > placed[k]}


def left_msg(left: dict[str, int]) -> list[dict[str, Any] | str]:
    """What is left to place, type by type ("8 × infantry, 6 × tank"), stored as plain JSON."""
    return [as_json(say("units_left", n=left[k], unit=f"unit_{k}")) for k in LAND_TYPES if left.get(k)]


@task("place_units")
def _run_place(ctx: Ctx, t: Task) -> bool:
    """A-4.5, read as the spec does ("all five" cannot be right: 24 units less the 4 claiming
    infantry leave 20): every remaining starting unit, one piece at a time, in turn order. One
    small decision per piece: which of your types into which of your regions."""
    state = ctx.state
    if not any(to_place(state, s) for s in state.order):
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
    ctx.push(ask(seat, say("prompt_place", seat=state.colours[seat], n=sum(left.values()), left=left_msg(left)),
                 options, "unit_placed", kind="place", undoable=True))
    return False


@cont("unit_placed")
def _placed(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["seat"]
    region, kind = choices[0].split(":")
    state.add_units(region, seat, {kind: 1})
    ctx.log("unit_placed", seat=state.colours[seat], region=region, unit=f"unit_{kind}")


# ------------------------------------------------------------------ capitals
@task("place_capitals")
def _run_capitals(ctx: Ctx, t: Task) -> bool:
    """A-4.6: in turn order, each seat's capital into one of its regions; then A-4.7, the first
    player's turn (flow), with nobody controlling the seas (A-4.8: ``sea_controller`` starts None)."""
    state = ctx.state
    seat = next((s for s in state.order if s not in state.capitals), None)
    if seat is None:
        ctx.pop(t)
        ctx.log("setup_done")
        return False
    options: list[tuple[str, Label]] = [(r, say("choice_region", region=r)) for r in state.regions_of(seat)]
    ctx.push(ask(seat, say("prompt_capital", seat=state.colours[seat]), options, "capital_placed",
                 kind="capital", undoable=True))
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
