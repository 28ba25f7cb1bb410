"""What each seat may see (spec §20.2), and what it must never learn.

The frame here is the open table: units with their facings and damage, factories, map damage, gold and
the ledgers, the area cards, control and war status. Each rule module adds the part it owns through
``view_part`` / ``page_part`` / ``secret_part`` (a seat's own mines, its placements behind the lid), so no
module reaches into another's state to show it."""

from __future__ import annotations

from typing import Any

from app.games.autarcha.state import SIDE_OF, GameState
from app.games.secrets import Secret
from app.games.view_parts import ViewParts

PARTS = ViewParts()
view_part, page_part, secret_part = PARTS.view_part, PARTS.page_part, PARTS.secret_part


def _reserve(state: GameState, seat: str) -> dict[str, int]:
    """How many of each kind a seat still has off the board (issued or bought, not yet placed): public,
    the scenario's forces and the purchases are open."""
    out: dict[str, int] = {}
    for d in state.units.values():
        if d["seat"] == seat and d["sq"] is None:
            out[d["kind"]] = out.get(d["kind"], 0) + 1
    return out


def view(state: GameState, seat: str | None, page: bool = True) -> dict[str, Any]:
    """What ``seat`` sees (None: a spectator); ``page=False`` leaves out what only the table page reads."""
    out: dict[str, Any] = {
        "game": "autarcha",
        "scenario": state.scenario,
        "phase": state.phase,
        "turn": state.turn,
        "first": state.first,
        "active": state.active,
        "moves_left": state.moves_left,
        "options": state.options,
        "units": {u: dict(d) for u, d in state.units.items() if d["sq"] is not None},
        "factories": {f: dict(d) for f, d in state.factories.items()},
        "destroyed": {k: list(v) for k, v in state.destroyed.items()},
        "damage": {k: dict(v) for k, v in state.damage.items()},
        "cards": dict(state.cards),
        "control": dict(state.control),
        "war": list(state.war),
        "collected": state.collected,
        "seats": [{"id": s, "label": state.seat_labels.get(s, s), "side": SIDE_OF[s], "gold": state.gold.get(s, 0),
                   "ledger": list(state.ledger.get(s, [])), "reserve": _reserve(state, s),
                   "lost": list(state.flags.get("lost", {}).get(s, []))}
                  for s in state.seats],
        "outcome": state.outcome,
    }
    return PARTS.add_views(out, state, seat, page)


def secrets(state: GameState, seat: str) -> set[str | Secret]:
    out: set[str | Secret] = set()
    PARTS.add_secrets(out, state, seat)
    return out
