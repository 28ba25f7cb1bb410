"""The game with a stand-in end for fuzzing the orders before the ENDING part is merged.

Without the Ending Phase nothing advances time or empties a hand, so no match would end: ``GAME`` here
(for ``python -m app fuzz tests.games.first_to_fight.orders_fuzz:GAME``) marks its states, and an end
check stops a marked match after ``ROUNDS`` rounds, scoring the VP tokens. Once ENDING's steps are
registered the stand-in steps aside and the real end decides. Other states are never touched."""

from __future__ import annotations

import random
from typing import Any

from app.games.first_to_fight import flow
from app.games.first_to_fight.engine import Ctx
from app.games.first_to_fight.rules import FirstToFight
from app.games.first_to_fight.state import GameState
from app.games.protocol import Seat

ROUNDS = 6
MARK = "orders_fuzz_rounds"


class StandInEnd(FirstToFight):
    def setup(self, options: dict[str, Any], seats: list[Seat], rng: random.Random) -> GameState:
        state = super().setup(options, seats, rng)
        state.flags[MARK] = ROUNDS
        return state


GAME = StandInEnd()


@flow.end_check
def _stop(ctx: Ctx) -> None:
    state = ctx.state
    rounds = state.flags.get(MARK)
    if rounds is None or state.round < rounds or flow.ENDING:
        return
    top = max(state.vp.values())
    state.outcome = {"winners": [s for s in state.seats if state.vp[s] == top], "scores": dict(state.vp)}
