"""The scenario's issue (spec §4): each seat's units in reserve, its factories, its gold, the area cards
in the pool. Buying, deployment, the factories' placing, the cards taken and the start roll are setup
steps (``flow.SETUP``) of their own modules (buying.py, deployment.py)."""

from __future__ import annotations

import random

from app.games.autarcha.pack import pack
from app.games.autarcha.state import SIDE_OF, GameState

FACING_AT_START: dict[str, str] = {"A": "N", "B": "S"}  # towards the enemy (README: deployment)


def issue(state: GameState, rng: random.Random) -> None:
    data = pack()
    scenario = data.scenarios[state.scenario]
    for seat in state.seats:
        facing = FACING_AT_START[SIDE_OF[seat]]
        for kind in ("PSZ", "PIE", "PC", "ART", "SAP"):
            for _ in range(scenario.units.get(kind, 0)):
                state.new_unit(seat, kind, None, facing)
        for i in range(scenario.factories):
            state.factories[f"f{seat[0]}{i + 1}"] = {"sq": None, "hits": 0, "issued_to": seat}
        state.gold[seat] = scenario.gold
        state.ledger[seat] = [{"turn": 0, "what": {"id": "ledger_start", "params": {}}, "income": scenario.gold,
                               "expense": 0, "balance": scenario.gold}] if scenario.economy else []
        state.mines[seat] = []
    for area in data.areas:
        state.cards[area] = None
        state.control[area] = None
