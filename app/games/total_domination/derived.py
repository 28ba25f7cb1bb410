"""What the state implies and does not store (spec §19.5): control, supply, VP, thresholds.

Everything here is a pure function of the GameState, recomputed after every atomic change
(§4.10: "compute VP as a function of state rather than by incremental bookkeeping. The two
give the same result"). ``settle`` is the one exception that returns work to do: the state
corrections that follow a change (a bomber left alone away from home, Resistance an Allied
unit stands on), handed back as facts so the caller applies the log lines.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from app.games.total_domination import pack as td_pack
from app.games.total_domination.pack import AXIS, COALITION, NONALIGNED, POWERS, TECH_GROUPS, Board, side_of
from app.games.total_domination.state import GameState, Unit

HOLDERS = ("army", "fleet")  # the only units that control a space (U-boats, Resistance, bombers never do)
EXEMPT = ("uboat", "resistance")  # share any space, never count for stacking, never block a move
ALLIED_BASE, ALLIED_STEP, ALLIED_MAX = 33, 2, 37  # §10.1
AXIS_THRESHOLD = 29

Fact = tuple[str, ...]


# ---------------------------------------------------------------- countries and home spaces
def joined(state: GameState, nation: str) -> bool:
    """Whether the USA / China has joined the war (its controller is then the UK / USSR, §9.1)."""
    return nation in NONALIGNED and state.controller.get(nation) in POWERS


def home_nations(state: GameState, power: str) -> list[str]:
    """The countries whose home spaces are this power's: its own, the coalition countries it
    controls now, and a non-aligned country that joined it (§4.11)."""
    return [power] + [n for n in COALITION + NONALIGNED if state.controller.get(n) == power]


def is_home_of(state: GameState, space: str, power: str) -> bool:
    nation = state.geo.spaces[space].nation
    return nation is not None and (nation == power or state.controller.get(nation) == power)


def power_of_unit(state: GameState, u: Unit) -> str | None:
    return state.power_of(u.nation)


def allied(state: GameState, u: Unit) -> bool:
    """Whether the unit is run by an Allied power (the UK, the USSR, or a country one of them controls)."""
    p = state.power_of(u.nation)
    return p is not None and side_of(p) == "allies"


def enemies(a: str, b: str) -> bool:
    return side_of(a) != side_of(b)


def units_by_space(state: GameState) -> dict[str, list[Unit]]:
    by: dict[str, list[Unit]] = {}
    for u in state.units:
        by.setdefault(u.space, []).append(u)
    return by


# ---------------------------------------------------------------- control (§4.10)
def _control(state: GameState, space: str, here: Iterable[Unit]) -> str | None:
    sp = state.geo.spaces[space]
    holders: dict[str, int] = {}  # power -> its armies and fleets on the space
    for u in here:
        if u.kind in HOLDERS:
            p = state.power_of(u.nation)
            if p is not None:
                holders[p] = holders.get(p, 0) + 1
    owner = state.power_of(sp.nation) if sp.nation else None
    if owner is None:
        # a neutral space, or a non-aligned home space before joining (gap G11): the occupier
        return next(iter(holders), None)
    hostile = {p: n for p, n in holders.items() if enemies(p, owner)}
    if not hostile:
        return owner
    enemy, count = max(hostile.items(), key=lambda pn: pn[1])
    if sp.capital and count < 2:
        return None  # one enemy unit in a capital: nobody controls it (§3.8)
    return enemy


def controller(state: GameState, space: str) -> str | None:
    """The power that controls the space, or None (neutral, empty, or a capital with one enemy unit)."""
    return _control(state, space, state.units_at(space))


# the last control maps computed, by what they depend on: the rules ask again and again between
# two changes (every listed move, build and attack checks control and supply)
_CONTROL: dict[tuple[Any, ...], tuple[Board, dict[str, str | None]]] = {}


def control_map(state: GameState) -> dict[str, str | None]:
    geo = state.geo
    key = (state.board, tuple(sorted(state.controller.items())),
           tuple((u.nation, u.kind, u.space) for u in state.units))
    cached = _CONTROL.get(key)
    if cached is not None and cached[0] is geo:  # a test may register another board under a key
        return dict(cached[1])
    found = _control_map(state)
    if len(_CONTROL) >= 256:
        _CONTROL.pop(next(iter(_CONTROL)))
    _CONTROL[key] = (geo, found)
    return dict(found)


def _control_map(state: GameState) -> dict[str, str | None]:
    by = units_by_space(state)
    owners: dict[str | None, str | None] = {None: None}
    out: dict[str, str | None] = {}
    for s, sp in state.geo.spaces.items():
        here = by.get(s)
        if here:
            out[s] = _control(state, s, here)
            continue
        # an empty space: its home country's power, or nobody (the common case, kept cheap)
        if sp.nation not in owners:
            owners[sp.nation] = state.power_of(sp.nation)
        out[s] = owners[sp.nation]
    return out


# ---------------------------------------------------------------- supply (§4.11)
def supplied_spaces(state: GameState, power: str, cmap: dict[str, str | None] | None = None) -> set[str]:
    """Spaces the power controls joined to one of its controlled home spaces through spaces it
    controls, by any connection (a supply line runs through the player's own spaces, not an ally's)."""
    cmap = control_map(state) if cmap is None else cmap
    geo = state.geo
    reached = {s for s, p in cmap.items() if p == power and is_home_of(state, s, power)}
    todo = deque(reached)
    while todo:
        s = todo.popleft()
        for other, _ in geo.neighbours[s]:
            if other not in reached and cmap.get(other) == power:
                reached.add(other)
                todo.append(other)
    return reached


def supplied(state: GameState, u: Unit, sup: set[str] | None = None) -> bool:
    """U-boats and Resistance are never unsupplied; a unit on its power's home space always is."""
    if u.kind in EXEMPT:
        return True
    power = state.power_of(u.nation)
    if power is None:
        return False  # neutral armies and non-aligned units never act
    if is_home_of(state, u.space, power):
        return True
    return u.space in (supplied_spaces(state, power) if sup is None else sup)


# ---------------------------------------------------------------- victory points (§4.5, §10)
def space_value(state: GameState, space: str) -> int:
    sp = state.geo.spaces[space]
    return 3 if sp.capital else sp.stars


def space_vp(state: GameState) -> dict[str, int]:
    """VP from controlled spaces: Resistance lowers the Axis's value (floor 0); a U-boat on a space
    with an Allied power's fleet denies the Allies that space (VP only, never supply: §4.10)."""
    by = units_by_space(state)
    vp = dict.fromkeys(POWERS, 0)
    for s, p in control_map(state).items():
        if p is None:
            continue
        here = by.get(s, [])
        value = space_value(state, s)
        if p in AXIS:
            value = max(0, value - sum(1 for u in here if u.kind == "resistance"))
        elif any(u.kind == "uboat" for u in here) and any(
            u.kind == "fleet" and state.power_of(u.nation) == p for u in here
        ):
            value = 0
        vp[p] += value
    return vp


def tech_group(tech: str) -> str:
    """The tech's colour group: the sheet letters A–E are the five groups (rulebook §8.1)."""
    return TECH_GROUPS["ABCDE".index(tech[0])]


def tech_vp(state: GameState, power: str) -> int:
    """+1 per new colour after the first tech, so max(0, groups − 1); none for the automa (solo rule 6)."""
    if state.automa(power):
        return 0
    return max(0, len({tech_group(t) for t in state.techs.get(power, [])}) - 1)


def diplomacy_vp(state: GameState) -> dict[str, int]:
    vp = dict.fromkeys(POWERS, 0)
    for d in state.diplomacy:
        vp[d["power"]] += td_pack.card(d["card"]).event.vp
    return vp


def vp(state: GameState) -> dict[str, int]:
    """Each belligerent's total: spaces + Diplomacy cards in play + techs + solo bonus."""
    spaces, diplomacy = space_vp(state), diplomacy_vp(state)
    return {p: spaces[p] + diplomacy[p] + tech_vp(state, p) + state.bonus_vp.get(p, 0) for p in POWERS}


def side_totals(state: GameState) -> dict[str, int]:
    totals = {"axis": 0, "allies": 0}
    for p, n in vp(state).items():
        totals[side_of(p)] += n
    return totals


def allied_threshold(state: GameState) -> int:
    """33, +2 for each non-aligned country that joined, at most 37 (§10.1)."""
    return min(ALLIED_MAX, ALLIED_BASE + ALLIED_STEP * sum(1 for n in NONALIGNED if joined(state, n)))


# ---------------------------------------------------------------- corrections after a change
def destruction_due(state: GameState, before: dict[str, str | None], after: dict[str, str | None]) -> list[str]:
    """Home spaces with a factory or shipyard that an enemy of their country took between two
    control maps, with no marker yet (§4.13 (b)). A capital is taken only by its second enemy unit,
    so it goes from nobody to the enemy, not from its owner."""
    out = []
    for s, now in after.items():
        sp = state.geo.spaces[s]
        owner = state.power_of(sp.nation) if sp.nation else None
        if (now is not None and owner is not None and enemies(now, owner) and before.get(s) != now
                and (sp.factory or sp.shipyard) and s not in state.destroyed):
            out.append(s)
    return out



def settle(state: GameState) -> list[Fact]:
    """Apply the corrections any change can call for and return them for the log:
    - a bomber with no army or fleet of its power beside it, away from its power's home spaces,
      goes back to the pool (bombers never hold a neutral or enemy space: §13.1, G12);
    - Resistance on a space where an Allied unit stands returns to the pool (§7.2.D)."""
    facts: list[Fact] = []
    by = units_by_space(state)
    gone: set[str] = set()
    for u in state.units:
        if u.kind != "bomber":
            continue
        p = state.power_of(u.nation)
        if p is None or is_home_of(state, u.space, p):
            continue
        if not any(o.kind in HOLDERS and state.power_of(o.nation) == p for o in by[u.space]):
            gone.add(u.id)
            facts.append(("bomber_removed", u.id, u.space))
    for u in state.units:
        if u.kind != "resistance" or u.id in gone:
            continue
        if any(o.id not in gone and o.kind != "resistance" and allied(state, o) for o in by[u.space]):
            gone.add(u.id)
            facts.append(("resistance_removed", u.id, u.space))
    if gone:
        state.units = [u for u in state.units if u.id not in gone]
    return facts
