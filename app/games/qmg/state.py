"""Typed game state. Everything is JSON-compatible so dump()/load() are trivial."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.games.qmg.data import COUNTRIES, members, pieces, team_of


@dataclass
class CountryState:
    deck: list[str] = field(default_factory=list)  # index 0 is the top card
    hand: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)  # last is the top (visible) card
    revealed: list[str] = field(default_factory=list)  # discarded cards that were shown to all
    statuses: list[str] = field(default_factory=list)  # face up, public
    responses: list[str] = field(default_factory=list)  # face down
    used: list[str] = field(default_factory=list)  # once-per-turn marks, cleared at every turn start


@dataclass
class GameState:
    options: dict[str, Any]
    seats: dict[str, str]  # country -> seat id
    seat_labels: dict[str, str]
    countries: dict[str, CountryState]
    units: dict[str, list[str]] = field(default_factory=dict)  # space -> countries with a unit there
    round: int = 1
    active: str = "germany"
    phase: str = "setup"
    vp: dict[str, int] = field(default_factory=lambda: {"axis": 0, "allies": 0})
    vp_log: list[list[Any]] = field(default_factory=list)  # [team, delta, reason]
    protected: list[list[str]] = field(default_factory=list)  # [space, country] until end of turn
    stack: list[dict[str, Any]] = field(default_factory=list)  # pending engine tasks, top = last
    step: int = 0  # answers applied so far
    limbo: list[str] = field(default_factory=list)  # cards being resolved
    flags: dict[str, Any] = field(default_factory=dict)  # turn/card scoped markers
    outcome: dict[str, Any] | None = None

    # ---- units -------------------------------------------------------------------------
    def units_of(self, country: str) -> list[str]:
        # sorted, never dict order: a state loaded from JSONB has its keys re-sorted, and the
        # order of these spaces reaches prompts, bots and the VP log
        return sorted(s for s, cs in self.units.items() if country in cs)

    def has_unit(self, space: str, country: str) -> bool:
        return country in self.units.get(space, [])

    def place(self, space: str, country: str) -> None:
        self.units.setdefault(space, []).append(country)

    def lift(self, space: str, country: str) -> None:
        self.units[space].remove(country)
        if not self.units[space]:
            del self.units[space]

    def on_board(self, country: str, kind: str) -> int:
        from app.games.qmg.board import kind_at

        return sum(1 for s in self.units_of(country) if kind_at(s) == kind)

    def available(self, country: str, kind: str) -> int:
        armies, navies = pieces(country)
        return (armies if kind == "army" else navies) - self.on_board(country, kind)

    def is_protected(self, space: str, country: str) -> bool:
        return [space, country] in self.protected

    # ---- seats -------------------------------------------------------------------------
    def seat_of(self, country: str) -> str:
        return self.seats[country]

    def countries_of(self, seat: str) -> list[str]:
        return [c for c in COUNTRIES if self.seats[c] == seat]

    def team_countries(self, team: str) -> tuple[str, ...]:
        return members(team)

    # ---- score -------------------------------------------------------------------------
    def add_vp(self, team: str, delta: int, reason: str) -> None:
        if delta:
            self.vp[team] += delta
            self.vp_log.append([team, delta, reason])

    def team_of(self, country: str) -> str:
        return team_of(country)


def new_state(options: dict[str, Any], seats: dict[str, str], labels: dict[str, str]) -> GameState:
    return GameState(
        options=dict(options), seats=dict(seats), seat_labels=dict(labels),
        countries={c: CountryState() for c in COUNTRIES},
    )


def dump(state: GameState) -> dict[str, Any]:
    # what dataclasses.asdict gives, several times faster: the platform hashes a dump after
    # every move, and the fuzzer several times per step
    data = {k: _plain(v) for k, v in vars(state).items()}
    data["countries"] = {c: {k: _plain(v) for k, v in vars(cs).items()} for c, cs in state.countries.items()}
    return data


def _plain(value: Any) -> Any:
    """A deep copy of JSON-like data (lists, dicts, scalars)."""
    if type(value) is list:
        return [_plain(v) for v in value]
    if type(value) is dict:
        return {k: _plain(v) for k, v in value.items()}
    return value


def load(data: dict[str, Any]) -> GameState:
    d = dict(data)
    d["countries"] = {c: CountryState(**v) for c, v in d["countries"].items()}
    return GameState(**d)
