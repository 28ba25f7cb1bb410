"""Where land units may go in the three movement actions (spec §6–§9, checklist §25.6): pure geometry.

Nothing here changes the state. ``move.py`` asks these functions what a seat may do at each step
of a Move, a Blitzkrieg move or a Strategic move, and records what it did in the turn
(``moved_in``: units that already moved this action; ``blocked``: units refused at sea this turn),
which it hands back here."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from app.games.attack.pack import LAND_TYPES
from app.games.attack.state import GameState

MOVE, BLITZ, STRATEGIC = "MOVE", "BLITZ", "STRATEGIC"
FAST: tuple[str, ...] = ("TNK", "PLN")  # two regions in a Move; the only movers of a Blitz
Units = dict[str, int]


@dataclass(frozen=True)
class Target:
    """One place a group from ``origin`` may go this action."""

    origin: str
    dest: str
    sea: bool  # Move: the one sea hop; Strategic: every own route to it needs a sea link
    dist: int  # regions travelled: 1 or 2 by land, 1 by sea; Strategic: the shortest own route
    types: tuple[str, ...]  # the unit types free to make this move, in LAND_TYPES order
    via: str | None = None  # the region a two-region land move passes (shown on the map's arrow)

    @property
    def id(self) -> str:
        return f"{self.origin}{'~' if self.sea else '>'}{self.dest}"


def parse_target(choice: str) -> tuple[str, str, bool] | None:
    """A target's choice id back into (origin, destination, by sea)."""
    for mark, sea in (("~", True), (">", False)):
        if mark in choice:
            origin, _, dest = choice.partition(mark)
            return origin, dest, sea
    return None


def owns(state: GameState, seat: str, region: str) -> bool:
    return state.owner.get(region) == seat


def free_units(state: GameState, seat: str, region: str, action: str, moved_in: dict[str, Units],
               blocked: dict[str, Units]) -> Units:
    """The units in ``region`` that may still move this action: each unit once per action (A-7.1.6),
    none refused at sea this turn (A-7.3.4 item 4, A-8.7), tanks and planes only in a Blitz (A-8.2)."""
    if not owns(state, seat, region):
        return {}
    here = state.units.get(region, {})
    types = FAST if action == BLITZ else LAND_TYPES
    out: Units = {}
    for t in types:
        n = here.get(t, 0) - moved_in.get(region, {}).get(t, 0) - blocked.get(region, {}).get(t, 0)
        if n > 0:
            out[t] = n
    return out


def spare(state: GameState, region: str) -> int:
    """How many units may leave ``region`` in all: one must stay (A-6.3). Units that already moved
    in stand there, so they count among those staying: that is the rule's exception."""
    return max(0, state.count(region) - 1)


def land_targets(state: GameState, seat: str, origin: str, types: tuple[str, ...]) -> dict[str, Target]:
    """Where units of ``types`` in ``origin`` may go by land: one region any unit; two regions a tank
    through an own region, a plane over anything (A-7.1.2–A-7.1.4)."""
    geo = state.geo
    reach: dict[str, tuple[int, set[str], str | None]] = {}
    for m in sorted(geo.neighbours(origin)):
        reach[m] = (1, set(types), None)
    for m in sorted(geo.neighbours(origin)):
        two = [t for t in types if t == "PLN" or (t == "TNK" and owns(state, seat, m))]
        if not two:
            continue
        for d in sorted(geo.neighbours(m)):
            if d == origin or d in geo.neighbours(origin):
                continue
            dist, kinds, via = reach.get(d, (2, set(), m))
            if "TNK" in two and "TNK" not in kinds:  # the arrow follows the tanks' own road
                via = m
            reach[d] = (dist, kinds | set(two), via)
    return {d: Target(origin, d, False, dist, tuple(t for t in LAND_TYPES if t in kinds), via)
            for d, (dist, kinds, via) in sorted(reach.items())}


def sea_targets(state: GameState, origin: str, types: tuple[str, ...]) -> dict[str, Target]:
    """Exactly one sea hop, along a lane or across an anchored zone (A-7.3.1–A-7.3.3)."""
    return {d: Target(origin, d, True, 1, types) for d in sorted(state.geo.by_sea(origin))}


def own_routes(state: GameState, seat: str, origin: str) -> dict[str, tuple[int, bool]]:
    """A-9.2/A-9.3: every own region joined to ``origin`` by an unbroken chain of own regions, as
    (length of the shortest such route, whether every such route needs a sea link). Sea lanes and
    anchored zones may be links of the route (spec §24)."""

    def walk(by_sea: bool) -> dict[str, int]:
        seen = {origin: 0}
        todo = deque([origin])
        while todo:
            r = todo.popleft()
            links = state.geo.neighbours(r) | (state.geo.by_sea(r) if by_sea else frozenset())
            for n in sorted(links):
                if n not in seen and owns(state, seat, n):
                    seen[n] = seen[r] + 1
                    todo.append(n)
        del seen[origin]
        return seen

    by_land, by_any = walk(False), walk(True)
    return {d: (by_land[d], False) if d in by_land else (by_any[d], True) for d in sorted(by_any)}


def targets_from(state: GameState, seat: str, origin: str, action: str, moved_in: dict[str, Units],
                 blocked: dict[str, Units]) -> list[Target]:
    """Every legal group destination from ``origin`` this action, land moves before sea moves."""
    free = free_units(state, seat, origin, action, moved_in, blocked)
    if not free or spare(state, origin) == 0:
        return []
    types = tuple(free)
    if action == STRATEGIC:
        return [Target(origin, d, sea, dist, types) for d, (dist, sea) in own_routes(state, seat, origin).items()]
    out = [t for t in land_targets(state, seat, origin, types).values() if t.types]
    if action == MOVE:  # no sea lanes and no anchored zones in a Blitz
        out += sea_targets(state, origin, types).values()
    return out


def all_targets(state: GameState, seat: str, action: str, moved_in: dict[str, Units],
                blocked: dict[str, Units]) -> list[Target]:
    return [t for r in state.regions_of(seat) for t in targets_from(state, seat, r, action, moved_in, blocked)]


def find_target(state: GameState, seat: str, choice: str, action: str, moved_in: dict[str, Units],
                blocked: dict[str, Units]) -> Target | None:
    parsed = parse_target(choice)
    if parsed is None:
        return None
    origin, dest, sea = parsed
    if origin not in state.geo.regions:
        return None
    return next((t for t in targets_from(state, seat, origin, action, moved_in, blocked)
                 if t.dest == dest and t.sea == sea), None)


def group_caps(state: GameState, seat: str, target: Target, action: str, moved_in: dict[str, Units],
               blocked: dict[str, Units]) -> Units:
    """The most of each type that may make ``target``'s move (each capped by the last-unit rule)."""
    free = free_units(state, seat, target.origin, action, moved_in, blocked)
    room = spare(state, target.origin)
    return {t: min(free[t], room) for t in target.types if free.get(t) and room}


def needs_permission(state: GameState, seat: str, units: Units) -> bool:
    """A-7.3.4/A-7.3.5: the sea controller is asked unless nobody controls the seas, the mover does,
    or the group is only planes (they cannot be refused)."""
    ruler = state.sea_controller
    if ruler is None or ruler == seat or ruler in state.eliminated:
        return False
    return any(n for t, n in units.items() if t != "PLN")


def add(into: dict[str, Units], region: str, units: Units) -> None:
    here = into.setdefault(region, {})
    for t, n in units.items():
        if n:
            here[t] = here.get(t, 0) + n
