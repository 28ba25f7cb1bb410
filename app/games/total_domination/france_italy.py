"""Administrative step B: France and Italy change sides (spec §11, rulebook §4.3 B).

France starts as the UK's coalition country and Italy as Germany's. At step B a coalition country
whose space an opponent of its controller controls goes over: to that Axis power (France), to that
Allied power (Italy), or home again (France to the UK, Italy to Germany) whoever of the home side
liberated it. Every unit of the country leaves the board for the new controller's pool. When the
USSR liberates France (or Japan liberates Italy) its units there retreat, at no cost, to the nearest
space it controls that is supplied and has stacking room (gap G2: fewest steps by any connection;
the retreating power chooses among equally near spaces; no such space: the unit goes to the pool).
"""

from __future__ import annotations

from collections import deque

from app.games.total_domination import derived
from app.games.total_domination.changes import consequences, snapshot
from app.games.total_domination.engine import Ctx, Task, ask, cont, task
from app.games.total_domination.flow import admin_step
from app.games.total_domination.movement import ARCTIC, fits, stack_room
from app.games.total_domination.pack import COALITION, side_of
from app.games.total_domination.state import GameState, Unit
from app.games.total_domination.text import say

HOME = {"france": "uk", "italy": "germany"}  # who gets the country back when its own side retakes it


def country_space(state: GameState, nation: str) -> str | None:
    """The country's space (its capital if the board gave it several)."""
    spaces = state.geo.home_spaces(nation)
    if not spaces:
        return None
    return state.geo.capital_of(nation) or spaces[0]


def new_controller(state: GameState, nation: str) -> str | None:
    """The power the country goes to at step B now, or None if it stays."""
    space = country_space(state, nation)
    if space is None:
        return None
    now, holder = state.controller.get(nation), derived.controller(state, space)
    if now is None or holder is None or side_of(holder) == side_of(now):
        return None
    # France goes to the Axis power holding it, Italy to the Allied power; back home it always
    # goes to its original controller, whichever power of that side retook it
    return HOME[nation] if side_of(holder) == side_of(HOME[nation]) else holder


def distances(state: GameState, start: str) -> dict[str, int]:
    """Steps from ``start`` to every space, over connections of any type."""
    seen = {start: 0}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        for other, _ in state.geo.neighbours[s]:
            if other not in seen:
                seen[other] = seen[s] + 1
                todo.append(other)
    return seen


def retreat_spaces(state: GameState, unit: Unit, power: str) -> list[str]:
    """The nearest spaces the unit may retreat to: controlled by ``power``, supplied, with room for
    it and of a shape it may stand on (a bomber never ends in the Arctic)."""
    cmap = derived.control_map(state)
    sup = derived.supplied_spaces(state, power, cmap)
    geo = state.geo
    best: list[str] = []
    nearest = None
    for space, d in sorted(distances(state, unit.space).items(), key=lambda sd: (sd[1], sd[0])):
        if nearest is not None and d > nearest:
            break
        if space == unit.space or cmap.get(space) != power or space not in sup:
            continue
        sp = geo.spaces[space]
        if not fits(sp, unit.kind) or (unit.kind == "bomber" and space == ARCTIC) or stack_room(state, space) < 1:
            continue
        nearest = d
        best.append(space)
    return best


@task("coalition_switch")
def _run_coalition_switch(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    done = t.setdefault("done", [])
    for nation in COALITION:
        if nation in done:
            continue
        done.append(nation)
        power = new_controller(state, nation)
        if power is None:
            continue
        space = country_space(state, nation)
        liberator = derived.controller(state, space) if space else None
        was = state.controller[nation]
        before = snapshot(state)
        gone = [u for u in state.units if u.nation == nation]
        state.units = [u for u in state.units if u.nation != nation]
        state.controller[nation] = power
        ctx.log("coalition_switches", nation=nation, was=was, now=power, removed=len(gone))
        consequences(ctx, before)
        if space is not None and liberator is not None and liberator != power:
            # the liberator's units leave the space, one by one, nearest first
            here = [u for u in state.units_at(space) if state.power_of(u.nation) == liberator
                    and u.kind not in derived.EXEMPT]
            ctx.push(*[{"k": "coalition_retreat", "power": liberator, "unit": u.id} for u in here])
        return False  # the retreats run first; this task continues with the next country after them
    ctx.pop(t)
    return False


@task("coalition_retreat")
def _run_coalition_retreat(ctx: Ctx, t: Task) -> bool:
    state, power = ctx.state, t["power"]
    ctx.pop(t)
    unit = state.unit(t["unit"])
    options = retreat_spaces(state, unit, power)
    if not options:
        before = snapshot(state)
        state.units.remove(unit)
        ctx.log("retreat_no_space", unit=unit.id, kind=unit.kind, nation=unit.nation, space=unit.space)
        consequences(ctx, before)
        return False
    if len(options) == 1 or state.automa(power):
        # the automa, having nobody to ask, takes the first of equally near spaces by name
        _retreat(ctx, unit, options[0])
        return False
    ctx.push(ask(state.seat_of(power), say("prompt_retreat", power=power, kind=unit.kind, space=unit.space),
                 [(s, say("retreat_to", space=s)) for s in options], "retreat_chosen", kind="retreat",
                 power=power, unit=unit.id))
    return False


@cont("retreat_chosen")
def _retreat_chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    _retreat(ctx, ctx.state.unit(t["unit"]), choices[0])


def _retreat(ctx: Ctx, unit: Unit, dest: str) -> None:
    before = snapshot(ctx.state)
    origin = unit.space
    unit.space = dest
    ctx.log("retreat", unit=unit.id, kind=unit.kind, nation=unit.nation, space=origin, dest=dest)
    consequences(ctx, before)


admin_step("B", "coalition_switch")
