"""The starting position: the scenario's units, techs, tracks and coalition (spec §3, §14), and the
alternative setup (spec §13.3, rulebook §11.3).

``begin`` puts a scenario on the board at setup (``rules.setup`` calls it once the decks are
shuffled). Scenarios with starting techs (Fall of the Axis) take one card of each such tech out of
the deck to lie by its owner's sheet ("shuffle all REMAINING cards", §14.2): the lowest-numbered
main-deck card with that icon, since the book names none.

The alternative setup replaces every standard starting unit but the neutral armies: before the
first draft, the USSR, Japan, the UK and Germany in that order each place their listed units on
their home spaces, one decision per unit (shape and stacking limits apply; factory and shipyard
icons do not, the book says "any of their home spaces"). In the solo game the automa does not
choose, so its countries (Germany, Japan, Italy) keep their standard units. Fall of the Axis has
its own placements: it is always played with them.

The pack's ``alternative_setup`` is read as ``{"order": [power, ...], <power>: [entry, ...]}``
(the entries may also sit under ``"units"``), an entry being ``{nation (default: the power),
count (default 1), kind | kinds (default: any), space | spaces (default: the nation's home
spaces)}``; with no order, the book's USSR, Japan, UK, Germany.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from app.games.total_domination import derived
from app.games.total_domination.engine import Ctx, Task, ask, cont, task
from app.games.total_domination.flow import strategic_step
from app.games.total_domination.movement import bomber_limit, fits, stack_room, tokens_left
from app.games.total_domination.pack import JOINS, NEUTRAL, NONALIGNED, POWERS, Pack, Scenario, pack
from app.games.total_domination.state import GameState
from app.games.total_domination.text import say

ORDER: tuple[str, ...] = ("ussr", "japan", "uk", "germany")  # rulebook §11.3
ANY_KIND: tuple[str, ...] = ("army", "fleet", "bomber")  # "dowolnie": U-boats have no home spaces
# the book's lists (§11.3), used when the pack gives none
BOOK: dict[str, Any] = {
    "order": list(ORDER),
    "ussr": [{"nation": "ussr", "count": 4}, {"nation": "china", "kind": "army", "count": 2}],
    "japan": [{"nation": "japan", "count": 6}],
    "uk": [{"nation": "uk", "count": 3}, {"nation": "france", "count": 1},
           {"nation": "usa", "kind": "fleet", "space": "philippines", "count": 1}, {"nation": "usa", "count": 2}],
    "germany": [{"nation": "germany", "count": 5}, {"nation": "italy", "count": 1}],
}


def alternative(state: GameState) -> bool:
    return state.options.get("setup") == "alternative" and state.options.get("scenario") != "fall_of_the_axis"


def chooses(state: GameState, nation: str) -> bool:
    """Whether this nation's starting units are placed by a player in the alternative setup."""
    if nation == NEUTRAL:
        return False
    power = state.power_of(nation) if nation in POWERS else state.controller.get(nation)
    start = power if power in POWERS else {"usa": "uk", "china": "ussr"}.get(nation)
    return start is not None and not state.automa(start)


def begin(state: GameState, scenario: Scenario, data: Pack, rng: random.Random) -> None:
    """Place the scenario's units (the Arctic's extra neutral army with the expansion) and set its
    starting techs' cards aside; in the alternative setup the players' units wait for step 0."""
    geo = state.geo
    placements = list(scenario.placements) + (list(data.arctic_extra) if state.options.get("arctic") else [])
    for pl in placements:
        if pl.space not in geo.spaces or (alternative(state) and chooses(state, pl.nation)):
            continue
        for _ in range(pl.count):
            state.new_unit(pl.nation, pl.kind, pl.space)
    taken: set[str] = set()
    for power in POWERS:
        for tech in scenario.techs.get(power, ()):
            found = next((c for c in sorted(data.cards) if c not in taken and data.cards[c].deck == "main"
                          and data.cards[c].tech == tech), None)
            if found is None:
                continue
            taken.add(found)
            state.tech_cards.setdefault(power, []).append(found)
    state.deck = [c for c in state.deck if c not in taken]
    for nation in NONALIGNED:
        # a scenario may start a track at its end: the country has joined (§9.1), and its deck, which
        # Lend-Lease can no longer draw, is among "all the remaining cards" shuffled into the deck (gap:
        # in play, a country joins only once its cards are drawn or shuffled in by invasions)
        at_end = state.tracks.get(nation, 0) >= data.tracks.get(nation, 10**6)
        if at_end and state.controller.get(nation) == "nonaligned":
            state.controller[nation] = JOINS[nation]
        if at_end and state.decks.get(nation):
            state.deck += state.decks[nation]
            state.decks[nation] = []
            rng.shuffle(state.deck)


# ------------------------------------------------------------------ the alternative setup
def _entries(raw: Any, power: str) -> list[dict[str, Any]]:
    out = []
    for e in raw or []:
        kinds = e.get("kinds") or ([e["kind"]] if e.get("kind") not in (None, "any") else None)
        spaces = e.get("spaces") or ([e["space"]] if e.get("space") else None)
        out.append({"nation": e.get("nation", power), "count": int(e.get("count", 1)),
                    "kinds": list(kinds) if kinds else None, "spaces": list(spaces) if spaces else None})
    return out


def slots(setup: dict[str, Any]) -> list[dict[str, Any]]:
    """One slot per unit to place, in the book's order."""
    units = setup.get("units", setup)
    out = []
    for power in setup.get("order") or ORDER:
        for e in _entries(units.get(power), power):
            out += [{"power": power, "nation": e["nation"], "kinds": e["kinds"], "spaces": e["spaces"]}
                    for _ in range(e["count"])]
    return out


def place_options(state: GameState, slot: dict[str, Any]) -> list[tuple[str, str]]:
    """(kind, space) pairs this slot's unit may take now."""
    nation, power = slot["nation"], slot["power"]
    geo = state.geo
    spaces: Iterable[str] = slot["spaces"] or geo.home_spaces(nation)
    kinds = [k for k in (slot["kinds"] or ANY_KIND) if k != "bomber" or state.options.get("bombers")]
    bombers = sum(1 for u in state.units if u.kind == "bomber" and state.power_of(u.nation) == power)
    out = []
    for space in spaces:
        if space not in geo.spaces or stack_room(state, space) < 1:
            continue
        if any(u.kind not in derived.EXEMPT and state.power_of(u.nation) != state.power_of(nation)
               for u in state.units_at(space)):
            continue  # units of two powers never share a space
        for kind in kinds:
            if kind == "bomber" and bombers >= bomber_limit(state, power):
                continue
            if fits(geo.spaces[space], kind) and tokens_left(state, nation, kind) > 0:
                out.append((kind, space))
    return out


@task("alternative_setup")
def _run_alternative_setup(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    if not alternative(state) or state.year != int(state.options.get("first_year", 1939)):
        ctx.pop(t)
        return False
    if "slots" not in t:
        t["slots"] = [s for s in slots(pack().alternative_setup or BOOK) if not state.automa(s["power"])]
        ctx.log("alternative_setup_begins")
    while t["slots"]:
        slot = t["slots"].pop(0)
        options = place_options(state, slot)
        if not options:
            ctx.log("setup_no_room", power=slot["power"], nation=slot["nation"])
            continue
        power = slot["power"]
        # taking a placement back reveals nothing, but the last question starts the draft's deal
        ctx.push(ask(state.seat_of(power), say("prompt_place", power=power, nation=slot["nation"],
                                               left=1 + sum(1 for s in t["slots"] if s["power"] == power)),
                     [(f"{k}@{s}", say("choice_place", nation=slot["nation"], kind=k, space=s)) for k, s in options],
                     "placed", kind="place", undoable=_asks_again(state, t["slots"]), power=power,
                     nation=slot["nation"]))
        return False
    ctx.pop(t)
    return False


def _asks_again(state: GameState, rest: list[dict[str, Any]]) -> bool:
    """Whether the next slot surely asks a question whatever this placement is (it takes the room of
    one space at most, and maybe the last bomber)."""
    if not rest:
        return False
    options = [o for o in place_options(state, rest[0]) if o[0] != "bomber"]
    return bool(options) and all(sum(1 for _, s in options if s != taken) >= 2 for taken in {s for _, s in options})


@cont("placed")
def _placed(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    kind, space = choices[0].split("@", 1)
    unit = ctx.state.new_unit(t["nation"], kind, space)
    ctx.log("setup_placed", power=t["power"], nation=t["nation"], kind=kind, space=space, unit=unit.id)


strategic_step(0, "alternative_setup")
