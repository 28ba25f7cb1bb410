"""A Logistics event's icons (spec §7.2), resolved in any order, free of OP, the player free to
stop early. The events module plays the card and calls ``push_logistics``; this module only
carries the icons out:

* army / bomber / fleet: build one such unit on a legal build space (§6.3's rules, no cost);
* move: move any of the power's units, one built by this event included, by the normal rules;
* satellite (Axis): up to 2 of the power's own armies (G22) on spaces it controls now that were
  not Axis home spaces at the start of the game, never both of one icon on the same space;
* resistance (Allies): up to 3 Resistance units, in any combination, on spaces an Axis power
  controls that are not its home spaces (coalition ones included, G23) and not islands.

Choice ids: ``build:<nation>:<kind>:<space>``, ``move:<unit>:<space>``, ``satellite:<space>``,
``resistance:<space>``, ``done``.
"""

from __future__ import annotations

from typing import Any

from app.games.total_domination import pack as td_pack
from app.games.total_domination.changes import consequences, snapshot
from app.games.total_domination.derived import control_map, is_home_of
from app.games.total_domination.engine import Ctx, Task, answer, task, wait
from app.games.total_domination.movement import fits, stack_room, tokens_left
from app.games.total_domination.operations import Choice, build, build_choices, end_turn, invades, move, move_choices
from app.games.total_domination.pack import ALLIES, AXIS
from app.games.total_domination.state import GameState
from app.games.total_domination.text import say
from app.games.total_domination.views import view_part

BUILD_ICONS = ("army", "bomber", "fleet")
START_COALITION = {"france": "uk", "italy": "germany"}  # rules.py's default; a scenario may change it
SATELLITES_PER_ICON, RESISTANCE_PER_ICON = 2, 3


def push_logistics(ctx: Ctx, power: str, icons: dict[str, int], card: str | None) -> None:
    """Resolve a Logistics event's icons for ``power`` (the caller disposes of ``card``)."""
    kept = {k: int(n) for k, n in sorted(icons.items()) if n}
    if power not in AXIS:
        kept.pop("satellite", None)
    if power not in ALLIES or ctx.state.solo_game():
        kept.pop("resistance", None)  # solo rule 8: no Resistance in a solo game, its icons ignored
    if ctx.state.solo_game():
        kept.pop("bomber", None)  # solo rule 8: bombers neither
    ctx.push({"k": "logistics", "power": power, "card": card, "icons": kept, "sat_open": None, "res_open": 0})


def axis_home_at_start(state: GameState) -> set[str]:
    """The nations whose home spaces were the Axis's when the game began (the satellite rule)."""
    coalition = dict(START_COALITION)
    try:
        scenario = td_pack.pack().scenarios.get(str(state.options.get("scenario", "full")))
    except (AttributeError, FileNotFoundError, ImportError):
        scenario = None
    if scenario is not None:
        coalition.update(scenario.coalition)
    return set(AXIS) | {n for n, p in coalition.items() if p in AXIS}


def satellite_spaces(state: GameState, power: str) -> list[str]:
    if tokens_left(state, power, "army") < 1:
        return []
    axis_homes = axis_home_at_start(state)
    cmap = control_map(state)
    out = []
    for s, sp in sorted(state.geo.spaces.items()):
        if cmap.get(s) != power or sp.nation in axis_homes or not fits(sp, "army") or stack_room(state, s) < 1:
            continue
        out.append(s)
    return out


def resistance_left(state: GameState) -> int:
    """Markers left in the one pool the Allied players share (src §1.0: 6), whatever key the pack
    lists them under; a placed marker is the placing power's unit (so the Axis may attack it)."""
    box = sum(kinds.get("resistance", 0) for kinds in td_pack.pack().tokens.values())
    return box - sum(1 for u in state.units if u.kind == "resistance")


def resistance_spaces(state: GameState, power: str) -> list[str]:
    if resistance_left(state) < 1:
        return []
    cmap = control_map(state)
    return [s for s, sp in sorted(state.geo.spaces.items())
            if cmap.get(s) in AXIS and not is_home_of(state, s, str(cmap[s])) and sp.shape != "island"]


def logistics_choices(state: GameState, t: Task) -> list[Choice]:
    power, icons = t["power"], t["icons"]
    out: list[Choice] = []
    kinds = {k for k in BUILD_ICONS if icons.get(k)}
    if kinds:
        out += build_choices(state, power, None, kinds, free=True)
    if icons.get("move"):
        out += move_choices(state, power, None, free=True)
    if icons.get("satellite") or t["sat_open"]:
        for s in satellite_spaces(state, power):
            if s != t["sat_open"] or icons.get("satellite"):
                out.append((f"satellite:{s}", say("choice_satellite", space=s)))
    if icons.get("resistance") or t["res_open"]:
        out += [(f"resistance:{s}", say("choice_resistance", space=s)) for s in resistance_spaces(state, power)]
    out.append(("done", say("choice_logistics_done")))
    return out


@task("logistics")
def _run_logistics(ctx: Ctx, t: Task) -> bool:
    state, power = ctx.state, t["power"]
    choices = logistics_choices(state, t)
    if len(choices) == 1:
        ctx.pop(t)
        end_turn(ctx, power)
        return False
    undoable = not any(invades(state, power, c) for c, _ in choices)
    left = [{"id": "icon_count", "params": {"n": n, "icon": "icon_" + k}} for k, n in sorted(t["icons"].items()) if n]
    return wait(t, state.seat_of(power), "logistics", say("prompt_logistics", power=power, icons=left),
                choices, undoable=undoable)


@answer("logistics")
def _answer_logistics(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power, icons = ctx.state, t["power"], t["icons"]
    verb, _, rest = choices[0].partition(":")
    if verb == "done":
        ctx.pop(t)
        end_turn(ctx, power)
        ctx.log("logistics_done", power=power)
    elif verb == "build":
        nation, kind, space = rest.split(":")
        icons[kind] -= 1
        build(ctx, power, nation, kind, space, 0)
    elif verb == "move":
        unit_id, dest = rest.split(":")
        icons["move"] -= 1
        move(ctx, power, unit_id, dest, 0)
    elif verb == "satellite":
        if t["sat_open"] and rest != t["sat_open"]:
            t["sat_open"] = None  # the second army of the icon already begun
        else:
            icons["satellite"] -= 1
            t["sat_open"] = rest
        before = snapshot(state)
        state.new_unit(power, "army", rest)
        ctx.log("logistics_satellite", power=power, space=rest)
        consequences(ctx, before)
    elif verb == "resistance":
        if t["res_open"]:
            t["res_open"] -= 1
        else:
            icons["resistance"] -= 1
            t["res_open"] = RESISTANCE_PER_ICON - 1
        before = snapshot(state)
        state.new_unit(power, "resistance", rest)
        ctx.log("logistics_resistance", power=power, space=rest)
        consequences(ctx, before)
    else:
        raise ValueError(choices[0])


@view_part
def _logistics_view(state: GameState, seat: str | None) -> dict[str, Any]:
    t = next((x for x in reversed(state.stack) if x.get("k") == "logistics"), None)
    if t is None:
        return {"logistics": None}
    return {"logistics": {"power": t["power"], "card": t["card"],
                          "icons": {k: n for k, n in t["icons"].items() if n},
                          "satellite_open": t["sat_open"], "resistance_open": t["res_open"]}}
