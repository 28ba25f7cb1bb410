"""Supply lines (rulebook §9).

A unit of country C is supplied when a chain of adjacent spaces, each holding a unit
of C, links it to a supply space that also holds a unit of C. Allied units never
carry C's supply. A navy additionally needs a port: an adjacent land space holding
an army of C or of an ally (that army need not be supplied). Straits count only when
open for C's team. Links need not themselves have a port (literal reading, §9.2).
"""

from __future__ import annotations

from app.games.qmg import board
from app.games.qmg.data import card, team_of
from app.games.qmg.state import GameState


def status_in_play(state: GameState, key: str) -> str | None:
    """The owner of a face-up Status card with definition id ``key``, if it is in play."""
    for c, cs in state.countries.items():
        for iid in cs.statuses:
            if card(iid).key == key:
                return c
    return None


def is_supply_space(state: GameState, space: str, team: str) -> bool:
    if not board.is_supply(space):
        return False
    return not (space == "ukraine" and team == "axis" and status_in_play(state, "ussr_scorched_earth"))


def supplied_spaces(
    state: GameState, country: str, units: dict[str, list[str]] | None = None
) -> set[str]:
    """Spaces where ``country``'s units are supplied (``units`` overrides the board)."""
    units = state.units if units is None else units
    team = team_of(country)
    mine = {s for s, cs in units.items() if country in cs}
    adj = board.adjacency(team, units)
    linked = linked_spaces(state, country, units)
    out = set()
    for s in linked:
        if board.is_land(s) or _has_port(s, team, units, adj):
            out.add(s)
    out |= _always_supplied(state, country, mine)
    return out


def _has_port(sea: str, team: str, units: dict[str, list[str]], adj: dict[str, set[str]]) -> bool:
    """A port: an adjacent land space with an army of the navy's team (supplied or not)."""
    return any(board.is_land(n) and any(team_of(c) == team for c in units.get(n, [])) for n in adj[sea])


def _always_supplied(state: GameState, country: str, mine: set[str]) -> set[str]:
    extra: set[str] = set()
    if country == "ussr" and status_in_play(state, "ussr_shverniks_evacuation_council"):
        extra |= {s for s in mine if board.is_land(s)}
    if team_of(country) == "allies" and "szechuan" in mine and status_in_play(
        state, "usa_american_volunteer_group_expands"
    ):
        extra.add("szechuan")
    if country == "japan" and state.flags.get("truk"):
        zone = {"central_pacific", *board.base_adjacent("central_pacific")}
        extra |= mine & zone
    return extra


def is_supplied(state: GameState, space: str, country: str) -> bool:
    return space in supplied_spaces(state, country)


def linked_spaces(state: GameState, country: str, units: dict[str, list[str]] | None = None) -> set[str]:
    """Own spaces joined to a supply space by a chain of own units (ports not considered)."""
    units = state.units if units is None else units
    team = team_of(country)
    mine = {s for s, cs in units.items() if country in cs}
    adj = board.adjacency(team, units)
    linked = {s for s in mine if is_supply_space(state, s, team)}
    todo = list(linked)
    while todo:
        for n in adj[todo.pop()]:
            if n in mine and n not in linked:
                linked.add(n)
                todo.append(n)
    return linked


def would_be_supplied(state: GameState, space: str, country: str,
                      linked: set[str] | None = None) -> bool:
    """Would a new unit of ``country`` placed in ``space`` be supplied (counting itself)?

    A new unit cannot change strait control or ports of the team unless it is an army,
    so the fast path (``linked`` given) only serves navies and armies off strait anchors;
    anything unusual takes the exact path.
    """
    team = team_of(country)
    anchors = {st.anchor for st in board.map_pack().straits}
    special = country in ("ussr", "japan", "uk", "usa") and (
        status_in_play(state, "ussr_shverniks_evacuation_council")
        or status_in_play(state, "usa_american_volunteer_group_expands") or state.flags.get("truk"))
    if linked is not None and space not in anchors and not special:
        adj = board.adjacency(team, state.units)
        joined = is_supply_space(state, space, team) or bool(adj[space] & linked)
        if not joined:
            return False
        return board.is_land(space) or _has_port(space, team, state.units, adj)
    units = {s: list(cs) for s, cs in state.units.items()}
    units.setdefault(space, []).append(country)
    return space in supplied_spaces(state, country, units)
