"""What each seat may see (spec §16.2), and what it must never learn.

The frame here shows the public table and the seat's own missions; each rule module adds the part
it owns through ``view_part`` / ``secret_part`` (the order being resolved, the Ending Phase's steps),
so no module reaches into another's state to show it."""

from __future__ import annotations

from typing import Any

from app.games.first_to_fight.pack import month_label, pack
from app.games.first_to_fight.state import GameState
from app.games.secrets import Secret
from app.games.view_parts import ViewParts

PARTS = ViewParts()
view_part, page_part, secret_part = PARTS.view_part, PARTS.page_part, PARTS.secret_part


def _hand_counts(state: GameState, seat: str) -> dict[str, int]:
    """The backs are coloured: how many red and yellow missions a hand holds is public (§16.2)."""
    stages = [pack().missions[m].stage for m in state.hands.get(seat, [])]
    return {"stage1": stages.count(1), "stage2": stages.count(2)}


def view(state: GameState, seat: str | None, page: bool = True) -> dict[str, Any]:
    """What ``seat`` sees (None: a spectator); ``page=False`` leaves out what only the table page
    reads (its pending decisions: the bot is handed its decision anyway)."""
    out: dict[str, Any] = {
        "game": "first_to_fight",
        "phase": state.phase,
        "round": state.round,
        "time": state.time,
        "month": month_label(state.time),
        "starter": state.starter,
        "chooser": state.chooser,
        "leader": state.leader,
        "options": state.options,
        "tiles": {k: dict(v) for k, v in state.tiles.items()},
        "chosen": list(state.chosen),
        "domination": {r: {"square": i, "level": state.level(r), "occupied": state.occupied(r)}
                       for r, i in state.domination.items()},
        "soldiers": {s: dict(d) for s, d in sorted(state.soldiers.items())},
        "fallen": list(state.fallen),
        "concentration": dict(state.concentration) if state.concentration else None,
        "seats": [{"id": s, "label": state.seat_labels.get(s, s), "vp": state.vp.get(s, 0),
                   "nurses": state.nurses.get(s, 0), **_hand_counts(state, s),
                   "succeeded": list(state.succeeded.get(s, [])), "failed": list(state.failed.get(s, [])),
                   "discarded": list(state.discarded.get(s, []))}
                  for s in state.seats],
        "hand": list(state.hands.get(seat, [])) if seat else [],
        "decks": {"soldiers": len(state.soldier_deck), "stage2": len(state.stage2_deck),
                  "events": len(state.event_deck)},
        "event_drawn": state.event_drawn,
        "event_track": list(state.event_track),
        "events_gone": list(state.events_gone),
        "outcome": state.outcome,
    }
    return PARTS.add_views(out, state, seat, page)


def card_secrets(card_id: str) -> list[str]:
    """A hidden card, as every string that names it: its id and its names in both languages."""
    data = pack()
    if card_id in data.missions:
        m = data.missions[card_id]
        return [card_id, m.title, m.title_pl]
    if card_id in data.soldiers:
        return [card_id, data.soldiers[card_id].name]
    if card_id in data.events:
        e = data.events[card_id]
        return [card_id, e.title, e.title_pl]
    return [card_id]


def secrets(state: GameState, seat: str) -> set[str | Secret]:
    out: set[str | Secret] = set()
    hidden = [*state.stage1_deck, *state.stage2_deck, *state.removed_missions, *state.soldier_deck,
              *state.event_deck]
    for other, cards in state.hands.items():
        if other != seat:
            hidden += cards
    for card in hidden:
        out.update(card_secrets(card))
    PARTS.add_secrets(out, state, seat)
    for card in [*state.seen.get("*", []), *state.seen.get(seat, [])]:
        out.difference_update(card_secrets(card))
    return out
