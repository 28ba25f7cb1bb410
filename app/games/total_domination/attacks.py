"""Attacks (spec §6.5), the capital exception (§4.4) and air strikes (§13.1.A).

Settled reading (issue 11): any supplied unit of the attacker, of any type, U-boats included,
may be the origin ("swoją zaopatrzoną jednostkę (dowolnego typu)… Typ atakującej jednostki nie
ma znaczenia"); the cost depends on the target's type only. U-boats are destroyed only by a
fleet on their space, Resistance only by an army on its space (2 OP, fixed).
"""

from __future__ import annotations

from collections import deque

from app.games.total_domination.costs import cost
from app.games.total_domination.derived import (
    EXEMPT,
    HOLDERS,
    Fact,
    control_map,
    enemies,
    home_nations,
    joined,
    supplied,
    supplied_spaces,
    units_by_space,
)
from app.games.total_domination.movement import rise_of_the_axis
from app.games.total_domination.pack import AXIS, NEUTRAL, NONALIGNED, Board
from app.games.total_domination.state import GameState, Unit

Option = tuple[str, str, int]  # (origin: a unit id, or the capital's space id; target unit id; OP)


def hostile(state: GameState, power: str, target: Unit) -> bool:
    """Whether the power may attack this unit at all: an enemy power's unit, a neutral army, or
    (Axis only, gap G10) a non-aligned unit; nobody attacks US / Chinese units in Rise of the Axis."""
    if target.nation in NONALIGNED and rise_of_the_axis(state):
        return False
    owner = state.power_of(target.nation)
    if owner is not None:
        return enemies(owner, power)
    if target.nation == NEUTRAL:
        return True
    return target.nation in NONALIGNED and power in AXIS


def bomber_exposed(state: GameState, target: Unit, here: list[Unit]) -> bool:
    """A bomber may be attacked only when bombers are the only unit type on its space (§13.1)."""
    return not any(u.kind in HOLDERS for u in here if u.id != target.id)


def _origins_adjacent(state: GameState, power: str, target: Unit, by: dict[str, list[Unit]],
                      sup: set[str]) -> list[str]:
    out = []
    for other, _ in state.geo.neighbours[target.space]:
        for u in by.get(other, []):
            if state.power_of(u.nation) == power and not (u.kind == "bomber" and u.spent) \
                    and supplied(state, u, sup):
                out.append(u.id)
    return sorted(set(out), key=lambda i: (len(i), i))


def attack_targets(state: GameState, power: str) -> list[Option]:
    """Every (origin, target, cost) the power may pay for now. Origins: its supplied units next to
    the target (any connection), a fleet / army on the target's own space for U-boats / Resistance,
    and its capital itself against an enemy unit inside it (§4.4). A spent bomber is used up."""
    cmap = control_map(state)
    sup = supplied_spaces(state, power, cmap)
    by = units_by_space(state)
    capitals = {c for n in home_nations(state, power) if (c := state.geo.capital_of(n))}
    out: list[Option] = []
    for target in state.units:
        if not hostile(state, power, target):
            continue
        here = by.get(target.space, [])
        price = cost(state, power, "attack_" + target.kind, target.space)
        if target.kind in EXEMPT:
            need = "fleet" if target.kind == "uboat" else "army"
            out += [(u.id, target.id, price) for u in here
                    if u.kind == need and state.power_of(u.nation) == power and supplied(state, u, sup)]
            continue
        if target.kind == "bomber" and not bomber_exposed(state, target, here):
            continue
        out += [(o, target.id, price) for o in _origins_adjacent(state, power, target, by, sup)]
        if target.space in capitals:
            out.append((target.space, target.id, price))
    return out


def apply_attack(state: GameState, power: str, origin: str, target: str) -> list[Fact]:
    """Destroy the target (it returns to its owner's pool, gap G25). Returns facts for the log and
    ("axis_invasion", "usa" / "china") when the Axis attacks a non-aligned unit (§9.3). The caller
    pays the cost, then runs ``derived.settle`` (a bomber left alone away from home)."""
    if not any(o == origin and t == target for o, t, _ in attack_targets(state, power)):
        raise ValueError(f"{power} may not attack {target} from {origin}")
    return destroy(state, power, target)


def destroy(state: GameState, power: str, target: str) -> list[Fact]:
    """Remove a unit the power destroyed (an attack or an air strike), with the facts it makes."""
    unit = state.unit(target)
    state.units = [u for u in state.units if u.id != target]
    facts: list[Fact] = [("destroyed", unit.id, unit.nation, unit.kind, unit.space)]
    if unit.nation in NONALIGNED and not joined(state, unit.nation) and power in AXIS:
        facts.append(("axis_invasion", unit.nation))
    return facts


# ---------------------------------------------------------------- air strikes (§13.1.A)
def distance_at_most(state: GameState, a: str, b: str, limit: int) -> bool:
    return b in _reach(state.geo, a, limit)


_REACH: dict[tuple[str, str, int], tuple[Board, frozenset[str]]] = {}


def _reach(geo: Board, a: str, limit: int) -> frozenset[str]:
    """Spaces at most ``limit`` steps from ``a`` by any connection (a board never changes: kept)."""
    key = (geo.key, a, limit)
    cached = _REACH.get(key)
    if cached is not None and cached[0] is geo:  # a test may register another board under a key
        return cached[1]
    seen = {a}
    frontier = deque([(a, 0)])
    while frontier:
        s, d = frontier.popleft()
        if d == limit:
            continue
        for other, _ in geo.neighbours[s]:
            if other not in seen:
                seen.add(other)
                frontier.append((other, d + 1))
    found = frozenset(seen)
    _REACH[key] = (geo, found)
    return found


def within2(state: GameState, a: str, b: str) -> bool:
    """Graph distance of at most 2 by any connection; the path is not restricted (§13.1.A, G13)."""
    return distance_at_most(state, a, b, 2)


def air_strike_options(state: GameState, power: str, bomber: Unit, moved: set[str]) -> dict[str, list[str]]:
    """Space -> the units a strike by this bomber could destroy there. The bomber must be the
    power's, supplied, ready (not spent) and not moved this turn (``moved``: ids of units moved).
    U-boats and Resistance are out of reach (they need a unit on their space); a bomber is listed
    when bombers are the only type there, or with the other units, to be struck after them
    (``air_strike_cost`` checks the order)."""
    if bomber.kind != "bomber" or state.power_of(bomber.nation) != power or bomber.spent or bomber.id in moved:
        return {}
    if not supplied(state, bomber):
        return {}
    by = units_by_space(state)
    out: dict[str, list[str]] = {}
    for s, here in by.items():
        if not within2(state, bomber.space, s):
            continue
        hit = [u.id for u in here if u.kind not in EXEMPT and hostile(state, power, u)]
        if hit:
            out[s] = hit
    return out


def air_strike_cost(state: GameState, power: str, space: str, targets: list[str]) -> int | None:
    """OP a strike on these units of one space costs at normal attack costs, or None if the set is
    not a legal strike: all on that space, each attackable by the power, a bomber only when no
    army or fleet is left beside it once the others chosen are destroyed."""
    if not targets or len(set(targets)) != len(targets):
        return None
    here = state.units_at(space)
    by_id = {u.id: u for u in here}
    if any(t not in by_id for t in targets):
        return None
    chosen = [by_id[t] for t in targets]
    if any(u.kind in EXEMPT or not hostile(state, power, u) for u in chosen):
        return None
    left = [u for u in here if u.id not in set(targets)]
    if any(u.kind == "bomber" for u in chosen) and any(u.kind in HOLDERS for u in left):
        return None
    return sum(cost(state, power, "attack_" + u.kind, space) for u in chosen)
