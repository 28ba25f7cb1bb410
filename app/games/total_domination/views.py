"""What each seat may see (spec §19.1), and what it must never learn.

The frame here shows the public table and the seat's own hands; each rule module adds the part
it owns through ``view_part`` / ``secret_part`` (the draft's packets, the tech sheets, the automa's
cards...), so no module reaches into another's state to show it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from app.games.secrets import Secret
from app.games.total_domination.pack import POWERS, side_of
from app.games.total_domination.state import GameState
from app.games.view_parts import ViewParts

PARTS = ViewParts()
view_part, secret_part = PARTS.view_part, PARTS.secret_part
KnownPart = Callable[[GameState, str], Iterable[str]]
KNOWN_PARTS: list[KnownPart] = []  # hidden cards a seat has legitimately seen (Espionage...): not secret to it


def known_part(fn: KnownPart) -> KnownPart:
    KNOWN_PARTS.append(fn)
    return fn


def own_hands(state: GameState, seat: str | None) -> list[str]:
    """The hand ids ``seat`` holds (two in the 3-player game and the 2-player variant)."""
    if seat is None:
        return []
    return sorted({state.hand_of[p] for p in state.powers_of(seat) if p in state.hand_of})


def view(state: GameState, seat: str | None) -> dict[str, Any]:
    mine = own_hands(state, seat)
    out: dict[str, Any] = {
        "game": "total_domination",
        "year": state.year,
        "phase": state.phase,
        "active": state.active,
        "board": state.board,
        "options": state.options,
        "seats": [{"id": s, "label": state.seat_labels.get(s, s),
                   "powers": [p for p in POWERS if state.seats.get(p) == s]}
                  for s in sorted({v for v in state.seats.values() if v})],
        "my_powers": state.powers_of(seat) if seat else [],
        "controller": dict(sorted(state.controller.items())),
        "tracks": dict(sorted(state.tracks.items())),
        "units": [{"id": u.id, "nation": u.nation, "kind": u.kind, "space": u.space, "spent": u.spent}
                  for u in state.units],
        "destroyed": sorted(state.destroyed),
        "discard": list(state.discard),
        "deck_size": len(state.deck),
        "country_decks": {k: len(v) for k, v in sorted(state.decks.items())},
        "hand_sizes": {h: len(c) for h, c in sorted(state.hands.items())},
        "set_aside_sizes": {h: len(c) for h, c in sorted(state.set_aside.items()) if c},
        "hands": {h: list(state.hands.get(h, [])) for h in mine},
        "set_aside": {h: list(state.set_aside.get(h, [])) for h in mine if state.set_aside.get(h)},
        "techs": {p: list(state.techs.get(p, [])) for p in POWERS},
        "tech_played": {p: (state.tech_played[p] if seat and state.seats.get(p) == seat else True)
                        for p in sorted(state.tech_played)},
        "diplomacy": list(state.diplomacy),
        "tactics": list(state.tactics),
        "saved": dict(sorted(state.saved.items())),
        "passed": list(state.passed),
        "lend_lease": list(state.lend_lease),
        "rockets_used": list(state.rockets_used),
        "bonus_vp": dict(sorted(state.bonus_vp.items())),
        "sides": {p: side_of(p) for p in POWERS},
        "outcome": state.outcome,
    }
    return PARTS.add_views(out, state, seat)


def secrets(state: GameState, seat: str) -> set[str | Secret]:
    mine = set(own_hands(state, seat))
    out: set[str | Secret] = set(state.deck)
    for deck in state.decks.values():
        out.update(deck)
    for hid, cards in state.hands.items():
        if hid not in mine:
            out.update(cards)
    for hid, cards in state.set_aside.items():
        if hid not in mine:
            out.update(cards)
    for power, card in state.tech_played.items():
        if state.seats.get(power) != seat:
            out.add(card)
    PARTS.add_secrets(out, state, seat)
    for part in KNOWN_PARTS:
        out.difference_update(part(state, seat))
    return out
