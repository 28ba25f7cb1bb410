"""Total Domination's game state: every fact the rules keep, JSON-compatible so dump()/load()
are plain. Control, supply and VP are not stored: they are computed from this (spec §19.5,
``derived.py``). Destruction markers are stored, being events rather than derived facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from app.games.total_domination.pack import ALLIES, AXIS, POWERS, Board, board, side_of


@dataclass
class Unit:
    id: str  # "u7": never reused in a match
    nation: str  # germany, uk, japan, ussr, france, italy, usa, china, or neutral (the neutral armies)
    kind: str  # army, fleet, bomber, uboat, resistance
    space: str
    spent: bool = False  # a bomber on its hangar side (air strike or strategic bombing this round)


@dataclass
class GameState:
    options: dict[str, Any]  # the table's options, every one filled in (rules.py)
    board: str  # the pack's board key ("basic", "alternative+arctic"...) or a test board's
    seats: dict[str, str]  # power -> seat id; "" for a power the solo automa runs
    seat_labels: dict[str, str]
    hand_of: dict[str, str]  # power -> hand id: the power itself, or its side in the shared-hand 2-player game
    hands: dict[str, list[str]] = field(default_factory=dict)  # hand id -> card ids (secret to others)
    deck: list[str] = field(default_factory=list)  # the main draw pile, index 0 on top
    discard: list[str] = field(default_factory=list)  # face up, browsable by all; the last is on top
    decks: dict[str, list[str]] = field(default_factory=dict)  # usa / china -> their decks, index 0 on top
    year: int = 1939
    phase: str = "setup"  # setup, draft, swap, espionage, action, admin, over
    controller: dict[str, str] = field(default_factory=dict)  # nation -> power, or "nonaligned" (usa/china)
    tracks: dict[str, int] = field(default_factory=dict)  # usa / china -> marker position (pack.tracks: joins)
    units: list[Unit] = field(default_factory=list)
    next_unit: int = 1
    destroyed: list[str] = field(default_factory=list)  # spaces with a Destruction marker
    techs: dict[str, list[str]] = field(default_factory=dict)  # power -> techs revealed, in order
    tech_cards: dict[str, list[str]] = field(default_factory=dict)  # power -> cards by its sheet (out of play)
    tech_played: dict[str, str] = field(default_factory=dict)  # power -> the face-down card of this round
    diplomacy: list[dict[str, Any]] = field(default_factory=list)  # {"card", "power"}: face up, in play
    tactics: list[dict[str, Any]] = field(default_factory=list)  # {"card", "power" (affected), "value"}
    saved: dict[str, str] = field(default_factory=dict)  # power -> the rotated card holding a saved 1 OP
    passed: list[str] = field(default_factory=list)  # powers that passed this Action Phase
    lend_lease: list[str] = field(default_factory=list)  # powers that did Lend-Lease this round
    set_aside: dict[str, list[str]] = field(default_factory=dict)  # hand id -> reserve / Lend-Lease cards
    rockets_used: list[str] = field(default_factory=list)  # powers that launched a rocket this round
    radar_used: list[str] = field(default_factory=list)  # powers whose Radar turned a rocket this round
    draft: dict[str, Any] = field(default_factory=dict)  # the year's draft in progress (strategic.py)
    active: str = ""  # the power whose turn it is
    turn: dict[str, Any] = field(default_factory=dict)  # the active power's card play in progress
    solo: dict[str, Any] = field(default_factory=dict)  # the automa's deck, dealt cards, revealed card
    bonus_vp: dict[str, int] = field(default_factory=dict)  # power -> VP from no component (solo rule 11)
    stack: list[dict[str, Any]] = field(default_factory=list)  # the engine's tasks, top = last
    step: int = 0  # answers applied so far: names the open decision
    flags: dict[str, Any] = field(default_factory=dict)  # round-scoped marks
    outcome: dict[str, Any] | None = None  # {"side": "axis"/"allies"/None, "summary": str, "summary_msg": ...}

    # ------------------------------------------------------------------ lookups
    @property
    def geo(self) -> Board:
        return board(self.board)

    def seat_of(self, power: str) -> str:
        return self.seats[power]

    def powers_of(self, seat: str) -> list[str]:
        return [p for p in POWERS if self.seats.get(p) == seat]

    def power_of(self, nation: str) -> str | None:
        """The belligerent whose units these are now (None: neutral, or a non-aligned country not yet joined)."""
        if nation in POWERS:
            return nation
        who = self.controller.get(nation)
        return who if who in POWERS else None

    def units_at(self, space: str) -> list[Unit]:
        return [u for u in self.units if u.space == space]

    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def hand(self, power: str) -> list[str]:
        return self.hands[self.hand_of[power]]

    def solo_game(self) -> bool:
        return self.options.get("players") == 1

    def automa(self, power: str) -> bool:
        """Whether the solo automa runs this power (it has no seat and no hand)."""
        return self.solo_game() and power in AXIS

    def new_unit(self, nation: str, kind: str, space: str) -> Unit:
        u = Unit(id=f"u{self.next_unit}", nation=nation, kind=kind, space=space)
        self.next_unit += 1
        self.units.append(u)
        return u


def allies_of(power: str) -> tuple[str, ...]:
    return AXIS if side_of(power) == "axis" else ALLIES


def enemies_of(power: str) -> tuple[str, ...]:
    return ALLIES if side_of(power) == "axis" else AXIS


def dump(state: GameState) -> dict[str, Any]:
    # orjson walks the dataclasses in C: dataclasses.asdict's deep recursion was most of a step's
    # cost when the fuzzer and the platform snapshot the state after every answer
    return orjson.loads(orjson.dumps(state))


def load(data: dict[str, Any]) -> GameState:
    fields = dict(data)
    fields["units"] = [Unit(**u) for u in data.get("units", [])]
    return GameState(**fields)
