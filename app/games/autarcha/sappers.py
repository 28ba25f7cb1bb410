"""The sappers' other special operations (spec §11.1, §11.4-11.6, §13.5): building a factory, repairing a
destroyed forest, road or rail, carrying a blocked unit. Mining and demining are in mines.py.

Each is a unit action of a sapper: it costs one of the five moves (flow's unit menu spends it), the sapper
works inside its own [BO] (U-11.1.6), and neither the sapper's square nor the square it works on may lie
in any enemy unit's [BO] (U-11.1.4; spec §19 checks both).
"""

from __future__ import annotations

from app.games.autarcha import attacks, flow
from app.games.autarcha.engine import Ctx, Task, answer, task, wait
from app.games.autarcha.mines import sapper_may_work
from app.games.autarcha.pack import pack
from app.games.autarcha.state import GameState, at
from app.games.autarcha.text import say

REPAIRABLE: tuple[str, ...] = ("forest", "road", "rail")  # a city cannot be rebuilt (U-3.5.7, U-11.5.4)


def _workplaces(state: GameState, unit: str) -> list[str]:
    """The squares of the sapper's [BO] outside every enemy unit's [BO]."""
    d = state.units[unit]
    return sorted(attacks.close_to(d["sq"]) - attacks.enemy_zone(state, d["seat"]))


# ------------------------------------------------------------------ building a factory (U-11.4)
def factory_cost() -> int:
    cost = pack().troops["F"].cost.value
    return cost if cost is not None else 0


def factory_sites(state: GameState, unit: str) -> list[str]:
    """Where the sapper may build: no unit or building there, not water (U-11.4.4), not in an area under
    war status (U-11.4.2)."""
    building = pack().troops["F"]
    occupied = state.occupied()
    out = []
    for s in _workplaces(state, unit):
        area = pack().area_of(at(s))
        if s in occupied or state.factory_at(s) is not None or (area is not None and area.id in state.war):
            continue
        if building.may_stand_on(attacks.landscape(state, s)):
            out.append(s)
    return out


def may_build(state: GameState, unit: str) -> bool:
    seat = state.units[unit]["seat"]
    return (sapper_may_work(state, unit) and state.gold.get(seat, 0) >= factory_cost()
            and bool(factory_sites(state, unit)))


@task("build")
def _run_build(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    u = t["unit"]
    d = state.units[u]
    return wait(t, d["seat"], "factory_site", say("prompt_factory_site", unit=u, kind=f"kind_{d['kind']}",
                                                  square=d["sq"], cost=factory_cost()),
                [(s, say("choice_factory_site", square=s)) for s in factory_sites(state, u)])


@answer("build")
def _built(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state = ctx.state
    ctx.pop(t)
    seat = state.units[t["unit"]]["seat"]
    built = state.flags.get("factories_built", 0) + 1
    state.flags["factories_built"] = built
    fid = f"fb{built}"
    state.factories[fid] = {"sq": choices[0], "hits": 0, "issued_to": None}  # neutral (U-11.4.3)
    cost = factory_cost()
    attacks.note(state, seat, say("ledger_factory_built", factory=fid, square=choices[0]), expense=cost)
    ctx.log("factory_built", seat=seat, unit=t["unit"], factory=fid, square=choices[0], cost=cost)


# ------------------------------------------------------------------ repairing (U-11.5)
def repair_sites(state: GameState, unit: str) -> list[str]:
    return [s for s in _workplaces(state, unit) if any(state.is_destroyed(s, w) for w in REPAIRABLE)]


def may_repair(state: GameState, unit: str) -> bool:
    return sapper_may_work(state, unit) and bool(repair_sites(state, unit))


@task("repair")
def _run_repair(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    u = t["unit"]
    d = state.units[u]
    return wait(t, d["seat"], "repair_at", say("prompt_repair_at", unit=u, kind=f"kind_{d['kind']}", square=d["sq"]),
                [(s, say("choice_repair_square", square=s)) for s in repair_sites(state, u)])


@answer("repair")
def _repaired(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    """One move repairs one small square (U-11.5.3): its forest, road and rail markers go; a city's stays."""
    state = ctx.state
    ctx.pop(t)
    square = choices[0]
    markers = state.destroyed.get(square, [])
    state.destroyed[square] = [w for w in markers if w not in REPAIRABLE]
    if not state.destroyed[square]:
        del state.destroyed[square]
    damage = state.damage.get(square, {})
    for w in REPAIRABLE:
        damage.pop(w, None)
    if square in state.damage and not damage:
        del state.damage[square]
    ctx.log("square_repaired", seat=state.units[t["unit"]]["seat"], unit=t["unit"], square=square)


# ------------------------------------------------------------------ carrying (U-11.6)
def blocked(state: GameState, unit: str) -> bool:
    """A unit standing where it has 0 steps (the book's artillery in the mountains, U-11.6.1)."""
    d = state.units[unit]
    return d["sq"] is not None and pack().troops[d["kind"]].max_steps(attacks.cover(state, d["sq"])) == 0


def carry_destinations(state: GameState, sapper: str, unit: str) -> list[str]:
    """Free squares of the sapper's [BO], outside every enemy unit's [BO], where ``unit`` may stand."""
    troop = pack().troops[state.units[unit]["kind"]]
    occupied = state.occupied()
    return [s for s in _workplaces(state, sapper) if s not in occupied and troop.may_stand_on(attacks.cover(state, s))]


def carriable(state: GameState, sapper: str) -> list[str]:
    """The sapper's side's blocked units in its [BO] (not in an enemy unit's), with somewhere to go."""
    d = state.units[sapper]
    places = set(_workplaces(state, sapper))
    return [u for u in state.units_of(d["seat"]) if u != sapper and state.units[u]["sq"] in places
            and blocked(state, u) and carry_destinations(state, sapper, u)]


def may_carry(state: GameState, unit: str) -> bool:
    return sapper_may_work(state, unit) and bool(carriable(state, unit))


@task("carry")
def _run_carry(ctx: Ctx, t: Task) -> bool:
    """{unit: the sapper, which: the carried unit once chosen}."""
    state = ctx.state
    sapper = t["unit"]
    d = state.units[sapper]
    if "which" not in t:
        found = carriable(state, sapper)
        if len(found) > 1:
            return wait(t, d["seat"], "carry_unit", say("prompt_carry_unit", unit=sapper, square=d["sq"]),
                        [(u, say("choice_carry_unit", unit=u, kind=f"kind_{state.units[u]['kind']}",
                                 square=state.units[u]["sq"])) for u in found])
        t["which"] = found[0]
    w = state.units[t["which"]]
    return wait(t, d["seat"], "carry_to", say("prompt_carry_to", unit=t["which"], kind=f"kind_{w['kind']}",
                                              square=w["sq"]),
                [(s, say("choice_carry_to", square=s)) for s in carry_destinations(state, sapper, t["which"])])


@answer("carry")
def _carried(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state = ctx.state
    if "which" not in t:
        t["which"] = choices[0]  # the task runs again and asks where to
        return
    ctx.pop(t)
    u = t["which"]
    d = state.units[u]
    came_from = d["sq"]
    d["sq"] = choices[0]
    d["acted"] = True  # spec §18 gap, our default: a carried unit does nothing more this turn (README)
    ctx.log("unit_carried", seat=d["seat"], unit=u, kind=f"kind_{d['kind']}", sapper=t["unit"], square=came_from,
            to=choices[0])
    flow.entered(ctx, u, choices[0])  # set down on an enemy mine, it may go off


flow.unit_action(flow.UnitAction("build", may_build, lambda u: [{"k": "build", "unit": u}]))
flow.unit_action(flow.UnitAction("repair", may_repair, lambda u: [{"k": "repair", "unit": u}]))
flow.unit_action(flow.UnitAction("carry", may_carry, lambda u: [{"k": "carry", "unit": u}]))
