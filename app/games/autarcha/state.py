"""Autarcha's game state: every fact the rules keep, JSON-compatible so dump()/load() are plain.

Squares are the book's own names, ``LL.OO.DD`` (U-3.2: "a server can use it as the canonical square
id"); ``at(sid)`` and ``sid(sq)`` convert to and from the pack's (row, column). Two seats, the box's two
colours: ``white`` deploys on side A (south of line 07), ``red`` on side B (north of line 14).

What is secret (spec §20.2): a side's mines (the handheld map) and, while the lid stands (Skirmish's
hidden deployment), where the other side put its units. Everything else is open: units, facings,
damage, gold, the ledger, the area cards."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import orjson

from app.games.autarcha.pack import Square, parse_square, square_id

SEATS: tuple[str, ...] = ("white", "red")
SIDE_OF: dict[str, str] = {"white": "A", "red": "B"}  # A: south, below line 07; B: north, above line 14


@functools.lru_cache(maxsize=4096)
def at(square: str) -> Square:
    """``"03.08.SE"`` -> the pack's (row, column)."""
    return parse_square(square)


@functools.lru_cache(maxsize=4096)
def sid(sq: Square) -> str:
    """The pack's (row, column) -> ``"03.08.SE"``."""
    return square_id(sq)


@dataclass
class GameState:
    options: dict[str, Any]  # the table's options, every one filled in (rules.py)
    seats: list[str]  # ("white", "red")
    scenario: str  # one of pack.SCENARIOS
    seat_labels: dict[str, str] = field(default_factory=dict)
    phase: str = "setup"  # setup (buying, deployment, the start roll), play, over
    turn: int = 0  # turns of moves played so far (the first player's first turn is 1)
    first: str = ""  # who took the first turn
    active: str = ""  # whose turn of moves it is (U-5.1); the other seat is passive
    moves_left: int = 0  # of the five moves (U-5.3)
    # units: id -> {"seat", "kind" (PSZ, PIE, PC, ART, SAP), "sq" (square id, None while in reserve),
    # "facing" (one of pack.DIRECTIONS), "hits", "acted" (took part in a move this turn, U-5.6),
    # "new" (recruited this turn, U-12.1), "lost_steps" (a column's unit that fell behind, U-8.2.3)}
    units: dict[str, dict[str, Any]] = field(default_factory=dict)
    next_unit: int = 1  # the next unit id's number ("u<n>")
    # factories: id -> {"sq", "hits"} (neutral buildings, U-11.4.3; None sq: issued, not yet placed)
    factories: dict[str, dict[str, Any]] = field(default_factory=dict)
    # mines: seat -> [{"sq", "call"}]: the owner's handheld map (secret to the other seat, U-11.2.4);
    # "call" is the owner's standing answer when an enemy enters (README: mines)
    mines: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # map damage: square id -> hits taken by the square's forest, road, rail or city (U-3.5.9)
    damage: dict[str, dict[str, int]] = field(default_factory=dict)
    # destroyed: square id -> the objects destroyed there (destruction markers: "forest", "road", "rail",
    # "city"); a destroyed square counts as ground (U-3.5.9)
    destroyed: dict[str, list[str]] = field(default_factory=dict)
    gold: dict[str, int] = field(default_factory=dict)  # seat -> balance (U-6.4)
    # the handheld ledger: seat -> [{"turn", "what" (a catalogue message), "income", "expense", "balance"}]
    ledger: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    cards: dict[str, str | None] = field(default_factory=dict)  # area id -> seat holding its card, None: the pool
    control: dict[str, str | None] = field(default_factory=dict)  # area id -> controlling seat (U-6.1)
    war: list[str] = field(default_factory=list)  # areas under war status (U-6.2.2)
    gained: list[str] = field(default_factory=list)  # areas whose card the active seat took this turn (U-6.3.3)
    collected: bool = False  # the active seat collected its gold this turn (U-6.3.4)
    setup: dict[str, Any] = field(default_factory=dict)  # buying and deployment's scratch (the screen)
    move: dict[str, Any] = field(default_factory=dict)  # the move being made: its scratch
    # what a seat has legitimately learned of the other's secrets (a triggered mine...): excused from them
    seen: dict[str, list[Any]] = field(default_factory=dict)
    stack: list[dict[str, Any]] = field(default_factory=list)  # the engine's tasks, top = last
    step: int = 0  # answers applied so far: names the open decision
    flags: dict[str, Any] = field(default_factory=dict)
    outcome: dict[str, Any] | None = None  # {"winners": [...], "summary_msg": ..., "scores": {...}}

    # ------------------------------------------------------------------ lookups
    def other(self, seat: str) -> str:
        return self.seats[1] if seat == self.seats[0] else self.seats[0]

    @property
    def passive(self) -> str:
        return self.other(self.active) if self.active else ""

    def side(self, seat: str) -> str:
        return SIDE_OF[seat]

    def unit_at(self, square: str) -> str | None:
        """The unit standing on ``square`` (at most one: U-7.1.5)."""
        for u, d in self.units.items():
            if d["sq"] == square:
                return u
        return None

    def occupied(self) -> dict[str, str]:
        """Square id -> the unit on it, for every unit on the board."""
        return {d["sq"]: u for u, d in self.units.items() if d["sq"] is not None}

    def units_of(self, seat: str, on_board: bool = True) -> list[str]:
        return sorted((u for u, d in self.units.items() if d["seat"] == seat and (d["sq"] is not None or not on_board)),
                      key=lambda u: int(u[1:]))

    def hq(self, seat: str) -> str | None:
        for u, d in self.units.items():
            if d["seat"] == seat and d["kind"] == "PSZ":
                return u
        return None

    def factory_at(self, square: str) -> str | None:
        for f, d in self.factories.items():
            if d["sq"] == square:
                return f
        return None

    def is_destroyed(self, square: str, what: str) -> bool:
        return what in self.destroyed.get(square, ())

    def new_unit(self, seat: str, kind: str, square: str | None = None, facing: str = "N") -> str:
        uid = f"u{self.next_unit}"
        self.next_unit += 1
        self.units[uid] = {"seat": seat, "kind": kind, "sq": square, "facing": facing, "hits": 0,
                           "acted": False, "new": False, "lost_steps": 0}
        return uid

    def mine_at(self, seat: str, square: str) -> dict[str, Any] | None:
        for m in self.mines.get(seat, []):
            if m["sq"] == square:
                return m
        return None

    def see(self, who: str, *facts: Any) -> None:
        known = self.seen.setdefault(who, [])
        known.extend(f for f in facts if f not in known)


def dump(state: GameState) -> dict[str, Any]:
    return orjson.loads(orjson.dumps(state))


def load(data: dict[str, Any]) -> GameState:
    return GameState(**data)
