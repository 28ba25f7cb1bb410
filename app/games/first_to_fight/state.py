"""First to Fight's game state: every fact the rules keep, JSON-compatible so dump()/load() are plain.

Soldiers belong to nobody (spec §1.2): a soldier on the board is keyed by its card id with the region
it lies in and its current values. Missions in hand are secret to everyone but their holder; every
deck is secret to all (its order and, for the decks nobody has looked into, its contents)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from app.games.first_to_fight.pack import REGIONS, pack


@dataclass
class GameState:
    options: dict[str, Any]  # the table's options, every one filled in (rules.py)
    seats: list[str]  # seat ids in seat order ("p1".."p4"): clockwise is this order
    seat_labels: dict[str, str] = field(default_factory=dict)
    phase: str = "setup"  # setup, orders, ending, over
    round: int = 0
    starter: str = ""  # who chooses the first order of the round (§6.2, §6.3.6)
    chooser: str = ""  # whose turn it is to choose an order tile
    leader: str = ""  # the Maneuvers chooser: leads the Ending Phase (§6.3.6)
    tiles: dict[str, dict[str, Any]] = field(default_factory=dict)  # order -> {"active": bool, "vp": int}
    chosen: list[str] = field(default_factory=list)  # orders chosen this round, in order
    domination: dict[str, int] = field(default_factory=dict)  # region -> the marker's square (index into its track)
    # soldiers on the board: card id -> {"region", "s" (Strength), "u" (Underground), "trained", "wounds"}
    soldiers: dict[str, dict[str, Any]] = field(default_factory=dict)
    soldier_deck: list[str] = field(default_factory=list)  # index 0 on top (secret)
    fallen: list[str] = field(default_factory=list)  # soldiers removed from the game (public)
    concentration: dict[str, str] | None = None  # {"region", "formation"} or None (§9)
    time: int = 0  # the time marker's square (0 = IX 1939)
    hands: dict[str, list[str]] = field(default_factory=dict)  # seat -> mission ids in hand (secret to others)
    stage1_deck: list[str] = field(default_factory=list)  # red missions left (out of the game after setup)
    stage2_deck: list[str] = field(default_factory=list)  # yellow missions, index 0 on top (secret)
    removed_missions: list[str] = field(default_factory=list)  # set aside unrevealed (setup, the draft)
    succeeded: dict[str, list[str]] = field(default_factory=dict)  # seat -> missions won (face up)
    failed: dict[str, list[str]] = field(default_factory=dict)  # seat -> missions failed (face down, revealed)
    discarded: dict[str, list[str]] = field(default_factory=dict)  # seat -> missions shown and discarded (Main front)
    started_four: dict[str, bool] = field(default_factory=dict)  # kept 4 red cards (§7.6)
    stage2_received: dict[str, int] = field(default_factory=dict)  # yellow cards kept so far (OQ-10)
    vp: dict[str, int] = field(default_factory=dict)  # seat -> VP tokens
    nurses: dict[str, int] = field(default_factory=dict)  # seat -> nurse tokens (0..3)
    event_deck: list[str] = field(default_factory=list)  # index 0 on top (secret)
    event_drawn: str | None = None  # this Ending Phase's event card, shown to all
    event_track: list[str] = field(default_factory=list)  # advanced: placed events, in the order drawn
    events_gone: list[str] = field(default_factory=list)  # discarded or resolved (public)
    # mission / soldier / event ids a seat has legitimately seen ("*": every seat): not secret to it
    seen: dict[str, list[str]] = field(default_factory=dict)
    order: dict[str, Any] = field(default_factory=dict)  # the order being resolved: its scratch (§16.1)
    ending: dict[str, Any] = field(default_factory=dict)  # the Ending Phase's scratch
    stack: list[dict[str, Any]] = field(default_factory=list)  # the engine's tasks, top = last
    step: int = 0  # answers applied so far: names the open decision
    flags: dict[str, Any] = field(default_factory=dict)
    outcome: dict[str, Any] | None = None  # {"winners": [...], "summary_msg": ..., "scores": {...}}

    # ------------------------------------------------------------------ lookups
    def clockwise(self, first: str) -> list[str]:
        """Every seat once, clockwise from ``first``."""
        i = self.seats.index(first)
        return self.seats[i:] + self.seats[:i]

    def left_of(self, seat: str) -> str:
        return self.seats[(self.seats.index(seat) + 1) % len(self.seats)]

    def in_region(self, region: str) -> list[str]:
        """The soldiers lying in ``region``, by card id."""
        return sorted(s for s, d in self.soldiers.items() if d["region"] == region)

    def level(self, region: str) -> int:
        """The region's domination level: the number on its marker's square (§4.3)."""
        return pack().regions[region].track[self.domination[region]]

    def occupied(self, region: str) -> bool:
        return self.domination[region] >= pack().regions[region].occupied_from

    def locked(self, soldier: str) -> bool:
        """The concentration token holds this soldier where it is (§9)."""
        c = self.concentration
        if c is None:
            return False
        here = self.soldiers[soldier]
        return here["region"] == c["region"] and pack().soldiers[soldier].formation == c["formation"]

    def see(self, who: str, *ids: str) -> None:
        """``who`` (a seat, or "*" for every seat) has seen the cards ``ids``."""
        known = self.seen.setdefault(who, [])
        known.extend(c for c in ids if c not in known)

    def stage2_in_hand(self, seat: str) -> int:
        return sum(1 for m in self.hands.get(seat, []) if pack().missions[m].stage == 2)

    def regions(self) -> tuple[str, ...]:
        return REGIONS


def dump(state: GameState) -> dict[str, Any]:
    return orjson.loads(orjson.dumps(state))


def load(data: dict[str, Any]) -> GameState:
    return GameState(**data)
