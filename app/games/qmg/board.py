"""The map: spaces, adjacency (with straits open per team), distances."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from app.games.qmg.data import AXIS, map_pack, team_of

Units = Mapping[str, list[str]]  # space id -> countries with a unit there


@cache
def spaces() -> dict[str, object]:
    return {s.id: s for s in map_pack().spaces}


@cache
def is_land(space: str) -> bool:
    return spaces()[space].type == "land"  # type: ignore[attr-defined]


@cache
def is_supply(space: str) -> bool:
    return spaces()[space].supply  # type: ignore[attr-defined]


@cache
def capital(country: str) -> str:
    for s in map_pack().spaces:
        if s.capital and s.home == country:
            return s.id
    raise KeyError(country)


@cache
def base_adjacent(space: str) -> frozenset[str]:
    return frozenset(spaces()[space].adjacent)  # type: ignore[attr-defined]


def name(space: str) -> str:
    return spaces()[space].name_en  # type: ignore[attr-defined]


def kind_at(space: str) -> str:
    """The kind of unit that may stand in a space."""
    return "army" if is_land(space) else "navy"


def strait_open_for(strait_anchor: str, units: Units) -> str:
    """The team a strait is open for: whoever has an army on the anchor; Allies by default."""
    for c in units.get(strait_anchor, []):
        return team_of(c)
    return "allies"


def open_strait_links(team: str, units: Units) -> dict[str, set[str]]:
    links: dict[str, set[str]] = {}
    for st in map_pack().straits:
        if strait_open_for(st.anchor, units) == team:
            a, b = st.seas
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    return links


def adjacent(space: str, team: str, units: Units) -> set[str]:
    """Neighbours of ``space`` as seen by ``team`` (straits depend on who holds the anchor)."""
    out = set(base_adjacent(space))
    out |= open_strait_links(team, units).get(space, set())
    return out


def adjacency(team: str, units: Units) -> dict[str, frozenset[str]]:
    """The whole neighbour map for ``team`` (read-only; cached per strait situation)."""
    holders = tuple(strait_open_for(st.anchor, units) for st in map_pack().straits)
    return _adjacency(team, holders)


@cache
def _adjacency(team: str, holders: tuple[str, ...]) -> dict[str, frozenset[str]]:
    links: dict[str, set[str]] = {}
    for st, holder in zip(map_pack().straits, holders, strict=True):
        if holder == team:
            a, b = st.seas
            links.setdefault(a, set()).add(b)
            links.setdefault(b, set()).add(a)
    return {s: base_adjacent(s) | frozenset(links.get(s, ())) for s in spaces()}


def within(start: Iterable[str], distance: int, team: str, units: Units) -> set[str]:
    adj = adjacency(team, units)
    seen = set(start)
    frontier = set(seen)
    for _ in range(distance):
        frontier = {n for s in frontier for n in adj[s]} - seen
        seen |= frontier
    return seen


def enemy_in(space: str, country: str, units: Units) -> bool:
    t = team_of(country)
    return any(team_of(c) != t for c in units.get(space, []))


def friendly_in(space: str, country: str, units: Units) -> bool:
    t = team_of(country)
    return any(team_of(c) == t for c in units.get(space, []))


def axis_capitals() -> list[str]:
    return [capital(c) for c in AXIS]
