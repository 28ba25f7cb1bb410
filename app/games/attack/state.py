"""Attack!'s game state: every fact the rules keep, JSON-compatible so dump()/load() are plain.

Control is stored as ``owner`` (a region is its owner's while one of its land units stands there,
A-6.2; the last-unit rule keeps that true). Production points are never stored: they exist only
inside a Build action (A-20.4)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from app.games.attack.pack import LAND_TYPES, Map, geo


@dataclass
class GameState:
    options: dict[str, Any]  # the table's options, every one filled in (rules.py)
    map: str  # the pack's map key ("west") or a test map's
    seats: list[str]  # seat ids in seat order ("p1".."p6"); clockwise = this order
    colours: dict[str, str]  # seat -> colour id
    seat_labels: dict[str, str] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)  # turn order from the first player, clockwise
    owner: dict[str, str] = field(default_factory=dict)  # region -> seat; a region absent is neutral
    units: dict[str, dict[str, int]] = field(default_factory=dict)  # region -> land type -> count (its owner's)
    capitals: dict[str, str] = field(default_factory=dict)  # seat -> the region its capital piece stands in
    hands: dict[str, list[str]] = field(default_factory=dict)  # seat -> Economics card ids (secret to others)
    deck: list[str] = field(default_factory=list)  # the Economics draw pile, index 0 on top (secret)
    # Economics cards a seat has legitimately seen ("*": shown to all, e.g. a neutral's card put back
    # in the deck): not secret to it wherever they are now (``see``)
    seen: dict[str, list[str]] = field(default_factory=dict)
    navy: dict[str, dict[str, int]] = field(default_factory=dict)  # seat -> ship type -> count (public)
    sea_controller: str | None = None  # whose Navy cards lie in the North Atlantic
    eliminated: list[str] = field(default_factory=list)  # seats out of the game (last-player-standing)
    phase: str = "setup"  # setup, play, over
    active: str = ""  # the seat whose turn it is
    turn: dict[str, Any] = field(default_factory=dict)  # the active seat's turn: actions taken, blocked units...
    turns_taken: int = 0  # turns finished in the whole game (the timed game counts them)
    round: int = 0  # 1 for the first player's first turn, +1 each time the order comes back round
    battle: dict[str, Any] = field(default_factory=dict)  # the land or naval battle in progress, for the views
    stack: list[dict[str, Any]] = field(default_factory=list)  # the engine's tasks, top = last
    step: int = 0  # answers applied so far: names the open decision
    flags: dict[str, Any] = field(default_factory=dict)
    outcome: dict[str, Any] | None = None  # {"winners": [...], "summary_msg": ..., "scores": {...}}

    # ------------------------------------------------------------------ lookups
    @property
    def geo(self) -> Map:
        return geo(self.map)

    def live(self) -> list[str]:
        """Seats still in the game, in turn order."""
        return [s for s in (self.order or self.seats) if s not in self.eliminated]

    def regions_of(self, seat: str) -> list[str]:
        return sorted(r for r, s in self.owner.items() if s == seat)

    def land_units(self, seat: str) -> int:
        return sum(sum(self.units.get(r, {}).values()) for r, s in self.owner.items() if s == seat)

    def count(self, region: str, kind: str | None = None) -> int:
        here = self.units.get(region, {})
        return sum(here.values()) if kind is None else here.get(kind, 0)

    def add_units(self, region: str, seat: str, units: dict[str, int]) -> None:
        """Put ``seat``'s units into ``region`` (which it then controls)."""
        self.owner[region] = seat
        here = self.units.setdefault(region, {})
        for t in LAND_TYPES:
            if units.get(t):
                here[t] = here.get(t, 0) + units[t]

    def remove_units(self, region: str, units: dict[str, int]) -> None:
        """Take units out of ``region``; an emptied region turns neutral (only a lost battle empties one)."""
        here = self.units.get(region, {})
        for t, n in units.items():
            if n:
                left = here.get(t, 0) - n
                if left < 0:
                    raise ValueError(f"{region} has {here.get(t, 0)} {t}, not {n}")
                if left:
                    here[t] = left
                else:
                    here.pop(t, None)
        if not here:
            self.units.pop(region, None)
            self.owner.pop(region, None)

    def see(self, who: str, *cards: str) -> None:
        """``who`` (a seat, or "*" for every seat) has seen ``cards``."""
        known = self.seen.setdefault(who, [])
        known.extend(c for c in cards if c not in known)

    def capital_owner(self, region: str) -> str | None:
        """Whose capital piece stands in ``region`` (None: none)."""
        return next((s for s, r in self.capitals.items() if r == region), None)


def dump(state: GameState) -> dict[str, Any]:
    return orjson.loads(orjson.dumps(state))


def load(data: dict[str, Any]) -> GameState:
    return GameState(**data)
