"""The scenario's issue (spec §4): each seat's units in reserve, its factories, its gold, the area cards
in the pool. Buying, deployment, the factories' placing, the cards taken and the start roll are setup
steps (``flow.SETUP``) of their own modules.

``provisional_deployment`` is the skeleton's stand-in for those steps (every reserve unit on the first
free squares of its zone, white starts); the deployment module replaces it."""

from __future__ import annotations

import random

from app.games.autarcha.pack import pack
from app.games.autarcha.state import SIDE_OF, GameState, sid

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


def provisional_deployment(state: GameState) -> None:
    data = pack()
    for seat in state.seats:
        zone = data.zone(SIDE_OF[seat])
        zone.sort(key=lambda sq: (abs(sq[0] - (0 if SIDE_OF[seat] == "A" else data.board.rows - 1)), sq[1]))
        free = [sq for sq in zone if data.troops["PIE"].may_stand_on(data.board.terrain[sq[0]][sq[1]])]
        for u in state.units_of(seat, on_board=False):
            d = state.units[u]
            while free:
                sq = free.pop(0)
                if data.troops[d["kind"]].may_stand_on(data.board.terrain[sq[0]][sq[1]]):
                    d["sq"] = sid(sq)
                    break
    state.first = state.seats[0]


def _register_provisional() -> None:
    from app.games.autarcha.engine import Ctx, Task, task
    from app.games.autarcha.flow import setup_step

    @task("provisional_deployment")
    def _run(ctx: Ctx, t: Task) -> bool:
        ctx.pop(t)
        provisional_deployment(ctx.state)
        return False

    setup_step(100, "provisional_deployment")


_register_provisional()
