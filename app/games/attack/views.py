"""What each seat may see (spec §25.2, §24 "Visibility"), and what it must never learn.

The frame here shows the public table and the seat's own hand; each rule module adds the part it
owns through ``view_part`` / ``secret_part`` (a battle in progress, a naval line-up, a trade offer),
so no module reaches into another's state to show it."""

from __future__ import annotations

from typing import Any

from app.games.attack.pack import pack
from app.games.attack.state import GameState
from app.games.secrets import Secret
from app.games.view_parts import ViewParts

PARTS = ViewParts()
view_part, page_part, secret_part = PARTS.view_part, PARTS.page_part, PARTS.secret_part


def view(state: GameState, seat: str | None, page: bool = True) -> dict[str, Any]:
    """What ``seat`` sees (None: a spectator); ``page=False`` leaves out what only the table page
    reads (the bot asks for its view at every answer, and the decisions are handed to it anyway)."""
    out: dict[str, Any] = {
        "game": "attack",
        "phase": state.phase,
        "round": state.round,
        "turns_taken": state.turns_taken,
        "active": state.active,
        "actions_taken": list(state.turn.get("actions", [])),
        "map": state.map,
        "options": state.options,
        "seats": [{"id": s, "label": state.seat_labels.get(s, s), "colour": state.colours[s],
                   "regions": sum(1 for o in state.owner.values() if o == s), "units": state.land_units(s),
                   "cards": len(state.hands.get(s, [])), "eliminated": s in state.eliminated}
                  for s in state.seats],
        "order": list(state.order),
        "owner": dict(sorted(state.owner.items())),
        "units": {r: dict(sorted(u.items())) for r, u in sorted(state.units.items())},
        "capitals": dict(sorted(state.capitals.items())),
        "navy": {s: dict(sorted(n.items())) for s, n in sorted(state.navy.items())},
        "sea_controller": state.sea_controller,
        "deck_size": len(state.deck),
        "hand_sizes": {s: len(h) for s, h in sorted(state.hands.items())},
        "hand": list(state.hands.get(seat, [])) if seat else [],
        "outcome": state.outcome,
    }
    return PARTS.add_views(out, state, seat, page)


def card_secrets(card_id: str) -> list[str]:
    """A hidden Economics card, as every string that names it: its id and its names in both languages."""
    card = pack().econ.get(card_id)
    return [card_id] if card is None else [card_id, card.name, card.name_pl]


def secrets(state: GameState, seat: str) -> set[str | Secret]:
    out: set[str | Secret] = set()
    for card in state.deck:
        out.update(card_secrets(card))
    for other, cards in state.hands.items():
        if other != seat:
            for card in cards:
                out.update(card_secrets(card))
    PARTS.add_secrets(out, state, seat)
    for card in [*state.seen.get("*", []), *state.seen.get(seat, [])]:
        out.difference_update(card_secrets(card))
    return out
