"""Where a unit may move and where a unit may be built (spec §6.3, §6.4, §13.1, §13.2).

A move passes through spaces the mover controls and that are supplied, and ends either on such
a space or one step beyond, on a space nobody else stands on. The last step into a space the
mover does not control must match the unit: a fleet by a sea lane, an army (or bomber, a land
unit) by a land route or arrow link (§6.4.3). The rules compute the legal set; the caller picks.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from app.games.total_domination import pack as td_pack
from app.games.total_domination.derived import (
    EXEMPT,
    HOLDERS,
    Fact,
    control_map,
    enemies,
    home_nations,
    is_home_of,
    joined,
    supplied,
    supplied_spaces,
    units_by_space,
)
from app.games.total_domination.pack import AXIS, NONALIGNED, POWERS, Board, Space
from app.games.total_domination.state import GameState, Unit

ARCTIC = "arctic"  # the Arctic add-on's polar space: no bomber ends a move there (§13.4)
LAND_LINKS = ("land", "arrow")  # arrow links count as land routes (§4.6)
UBOAT_YEAR_LIMIT = {1939: 1, 1940: 2}  # U-boats on the board; none from 1941 but the tokens (§13.2)
UBOATS_PER_SPACE = 2


def rise_of_the_axis(state: GameState) -> bool:
    return state.options.get("scenario") == "rise_of_the_axis"


def fits(sp: Space, kind: str) -> bool:
    """Shape rules (§4.3): no army on an island, no fleet on land, U-boats only on U-boat spaces,
    Resistance not on islands; bombers anywhere."""
    if kind == "uboat":
        return sp.uboat
    if kind == "fleet":
        return sp.shape != "land"
    if kind in ("army", "resistance"):
        return sp.shape != "island"
    return True


def stack_room(state: GameState, space: str, here: list[Unit] | None = None) -> int:
    """Free places for units that count (U-boats and Resistance never do, §4.9)."""
    here = state.units_at(space) if here is None else here
    return state.geo.spaces[space].limit - sum(1 for u in here if u.kind not in EXEMPT)


def ally_home(state: GameState, space: str, power: str) -> bool:
    """An ally's home space: no unit moves onto or through it (§4.10, §6.4)."""
    nation = state.geo.spaces[space].nation
    if nation is None or is_home_of(state, space, power):
        return False
    owner = state.power_of(nation)
    return owner is not None and not enemies(owner, power)


def nonaligned_home(state: GameState, space: str) -> str | None:
    """The non-aligned country whose home space this is, while it has not joined."""
    nation = state.geo.spaces[space].nation
    return nation if nation in NONALIGNED and not joined(state, nation) else None


def _closed(state: GameState, space: str, power: str) -> bool:
    """Spaces this power never moves onto or through, whatever stands there: an ally's home space,
    and US / Chinese home spaces in Rise of the Axis (§14.1)."""
    return ally_home(state, space, power) or (rise_of_the_axis(state) and state.geo.spaces[space].nation
                                              in NONALIGNED)


def _foreign(state: GameState, power: str, here: list[Unit]) -> list[Unit]:
    """Units on a space that are not this power's, other than U-boats and Resistance (which never block)."""
    return [u for u in here if u.kind not in EXEMPT and state.power_of(u.nation) != power]


def bombers_taken(state: GameState, unit: Unit, dest: str, here: list[Unit] | None = None) -> list[Unit]:
    """The bomber-only exception (§6.4.4): an army or fleet entering an enemy space where the enemy
    has only bombers destroys them. Returns those bombers ([] when the exception does not apply)."""
    if unit.kind not in HOLDERS:
        return []
    power = state.power_of(unit.nation)
    here = state.units_at(dest) if here is None else here
    foreign = _foreign(state, power or "", here)
    if not foreign or any(u.kind != "bomber" for u in foreign):
        return []
    owners = {state.power_of(u.nation) for u in foreign}
    if power is None or any(o is None or not enemies(o, power) for o in owners):
        return []
    return foreign


# destinations by what they depend on (the board, the options, who controls which country, every
# unit where it stands): the rules list every unit's moves after each step, and every copy of the
# state a replay or a reload makes asks the same again
_DESTINATIONS: dict[tuple[Any, ...], tuple[Board, dict[str, tuple[str, ...]]]] = {}


def destinations(state: GameState, unit: Unit) -> dict[str, tuple[str, ...]]:
    """Every space the unit may legally end a move on, each with one legal path (start first)."""
    geo = state.geo
    key = (state.board, unit.id, tuple(sorted(state.options.items())), tuple(sorted(state.controller.items())),
           tuple((u.id, u.nation, u.kind, u.space, u.spent) for u in state.units))
    cached = _DESTINATIONS.get(key)
    if cached is not None and cached[0] is geo:  # a test may register another board under a key
        return dict(cached[1])
    found = _destinations(state, unit)
    if len(_DESTINATIONS) >= 4096:
        _DESTINATIONS.pop(next(iter(_DESTINATIONS)))
    _DESTINATIONS[key] = (geo, found)
    return dict(found)


def _destinations(state: GameState, unit: Unit) -> dict[str, tuple[str, ...]]:
    power = state.power_of(unit.nation)
    if power is None or unit.kind == "resistance":
        return {}
    if unit.kind == "bomber" and unit.spent:
        return {}  # a bomber that struck this round may not move (§13.1.A)
    if unit.kind == "uboat":
        return _uboat_destinations(state, unit, power)
    cmap = control_map(state)
    sup = supplied_spaces(state, power, cmap)
    if not supplied(state, unit, sup):
        return {}
    geo = state.geo
    by = units_by_space(state)

    def passable(s: str) -> bool:
        return s in sup and not _closed(state, s, power) and not _foreign(state, power, by.get(s, []))

    parent: dict[str, str | None] = {unit.space: None}
    order = [unit.space]
    todo = deque(order)
    while todo:
        s = todo.popleft()
        for other, _ in geo.neighbours[s]:
            if other not in parent and passable(other):
                parent[other] = s
                order.append(other)
                todo.append(other)

    def path_to(s: str) -> tuple[str, ...]:
        out: list[str] = []
        at: str | None = s
        while at is not None:
            out.append(at)
            at = parent[at]
        return tuple(reversed(out))

    found: dict[str, tuple[str, ...]] = {}
    for s in order[1:]:  # (a) controlled and supplied spaces
        if _may_end(state, unit, power, s, by.get(s, []), entering=False):
            found[s] = path_to(s)
    step = LAND_LINKS if unit.kind in ("army", "bomber") else ("sea",)
    for s in order:  # (b) one step beyond, from a supplied space the mover controls
        if s not in sup:
            continue
        for other, kind in geo.neighbours[s]:
            if other in found or other in parent or other == unit.space or kind not in step:
                continue
            if cmap.get(other) == power:
                continue  # controlled but unsupplied (cut off): neither kind of destination
            if _may_end(state, unit, power, other, by.get(other, []), entering=True):
                found[other] = path_to(s) + (other,)
    return found


def _may_end(state: GameState, unit: Unit, power: str, dest: str, here: list[Unit], entering: bool) -> bool:
    sp = state.geo.spaces[dest]
    if not fits(sp, unit.kind) or _closed(state, dest, power):
        return False
    taken = bombers_taken(state, unit, dest, here) if entering else []
    if _foreign(state, power, here) and not taken:
        return False
    mine = [u for u in here if u not in taken]
    if stack_room(state, dest, mine) < 1:
        return False
    if unit.kind == "bomber":
        if dest == ARCTIC:
            return False
        # a bomber never ends alone on a neutral or enemy space (§13.1, gap G12)
        if not is_home_of(state, dest, power) and not any(u.kind in HOLDERS for u in mine):
            return False
    return True


def _uboat_destinations(state: GameState, unit: Unit, power: str) -> dict[str, tuple[str, ...]]:
    """A U-boat relocates straight to any other U-boat space with room (§6.4: no path is given)."""
    by = units_by_space(state)
    return {s: (unit.space, s) for s, sp in state.geo.spaces.items()
            if sp.uboat and s != unit.space and not _closed(state, s, power)
            and sum(1 for u in by.get(s, []) if u.kind == "uboat") < UBOATS_PER_SPACE}


def apply_move(state: GameState, unit: Unit, dest: str) -> list[Fact]:
    """Move the unit along a legal path; enemy bombers taken by the bomber-only exception are
    destroyed. Returns facts for the log, and ("axis_invasion", "usa" / "china") for the caller to
    advance the track (§9.3). What follows any change (Destruction markers: ``derived.destruction_due``,
    lone bombers and Resistance: ``derived.settle``) is the caller's, as after a build or an attack."""
    legal = destinations(state, unit)
    if dest not in legal:
        raise ValueError(f"{unit.id} may not move to {dest}")
    power = state.power_of(unit.nation)
    assert power is not None
    before = control_map(state).get(dest)
    start = unit.space
    taken = bombers_taken(state, unit, dest) if before != power else []
    facts: list[Fact] = []
    if taken:
        gone = {u.id for u in taken}
        state.units = [u for u in state.units if u.id not in gone]
        facts += [("bomber_destroyed", u.id, dest) for u in taken]
    unit.space = dest
    facts.insert(0, ("moved", unit.id, start, dest))
    invaded = nonaligned_home(state, dest)
    if invaded and power in AXIS:
        facts.append(("axis_invasion", invaded))
    return facts


# ---------------------------------------------------------------- building (§6.3)
def tokens_left(state: GameState, nation: str, kind: str) -> int:
    """Tokens of this kind still in the pool: the box's count minus those on the board."""
    box = td_pack.pack().tokens.get(nation, {}).get(kind, 0)
    return box - sum(1 for u in state.units if u.nation == nation and u.kind == kind)


def bomber_limit(state: GameState, power: str) -> int:
    return 2 if "A4" in state.techs.get(power, []) else 1


def uboat_limit(state: GameState) -> int | None:
    return UBOAT_YEAR_LIMIT.get(state.year)


def build_spaces(state: GameState, power: str) -> list[tuple[str, str, str]]:
    """Every (nation, kind, space) this power may build now, cost aside: a home space it controls
    with no Destruction marker, a unit of that space's colour, the icon's type (factory: army or
    bomber, shipyard: fleet), shape and stacking, tokens left, the bomber limit; and German U-boats
    on the U-boat spaces within the year's limit."""
    if power not in POWERS:
        return []
    cmap = control_map(state)
    by = units_by_space(state)
    use_bombers = bool(state.options.get("bombers")) and not state.automa(power)
    bombers_out = sum(1 for u in state.units if u.kind == "bomber" and state.power_of(u.nation) == power)
    out: list[tuple[str, str, str]] = []
    for nation in home_nations(state, power):
        for s in state.geo.home_spaces(nation):
            sp = state.geo.spaces[s]
            if cmap.get(s) != power or s in state.destroyed or stack_room(state, s, by.get(s, [])) < 1:
                continue
            kinds = []
            if sp.factory:
                kinds.append("army")
                if use_bombers and bombers_out < bomber_limit(state, power):
                    kinds.append("bomber")
            if sp.shipyard:
                kinds.append("fleet")
            out += [(nation, k, s) for k in kinds if fits(sp, k) and tokens_left(state, nation, k) > 0]
    if power == "germany" and state.options.get("uboats") and not state.automa(power):
        on_board = sum(1 for u in state.units if u.kind == "uboat")
        cap = uboat_limit(state)
        if (cap is None or on_board < cap) and tokens_left(state, "germany", "uboat") > 0:
            out += [("germany", "uboat", s) for s, sp in state.geo.spaces.items()
                    if sp.uboat and sum(1 for u in by.get(s, []) if u.kind == "uboat") < UBOATS_PER_SPACE]
    return out
