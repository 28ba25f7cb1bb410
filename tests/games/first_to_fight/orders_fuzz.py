"""The game with a stand-in end for fuzzing the orders before the ENDING part is merged.

Without the Ending Phase nothing ever advances time or empties a hand, so no match would end: this
module (for ``python -m app fuzz tests.games.first_to_fight.orders_fuzz:GAME``) adds an end check that
stops a match after ``ROUNDS`` rounds, scoring the VP tokens. Only the fuzzer imports it."""

from __future__ import annotations

from app.games.first_to_fight import GAME, flow
from app.games.first_to_fight.engine import Ctx

__all__ = ["GAME"]
ROUNDS = 6


@flow.end_check
def _stop(ctx: Ctx) -> None:
    state = ctx.state
    if state.round < ROUNDS or flow.ENDING:
        return
    top = max(state.vp.values())
    state.outcome = {"winners": [s for s in state.seats if state.vp[s] == top], "scores": dict(state.vp)}
