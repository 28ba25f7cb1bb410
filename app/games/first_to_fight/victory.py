"""The end of the game and the final scoring (spec §10.3, §10.4).

The game ends when, after an Ending Phase (OQ-15), no player holds a mission. A score is the VP of the
successful missions, plus the VP tokens, minus 5 per failed mission (a Main front discard scores 0).
The most VP wins; a tie goes to the most successful missions; still tied, the victory is shared.
Every Ending Phase logs the standings so far (all of it public: tokens and revealed missions), which
the end-of-game summary reads (summary.py)."""

from __future__ import annotations

from app.games.first_to_fight.engine import Ctx
from app.games.first_to_fight.flow import end_check
from app.games.first_to_fight.pack import FAIL_VP, pack
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import as_json, say


def scores(state: GameState) -> dict[str, int]:
    data = pack()
    return {seat: sum(data.missions[m].vp for m in state.succeeded.get(seat, [])) + state.vp.get(seat, 0)
            + FAIL_VP * len(state.failed.get(seat, []))
            for seat in state.seats}


def winners(state: GameState) -> list[str]:
    score = scores(state)
    best = max((score[s], len(state.succeeded.get(s, []))) for s in state.seats)
    return [s for s in state.seats if (score[s], len(state.succeeded.get(s, []))) == best]


def standing(state: GameState) -> list[object]:
    score = scores(state)
    return [as_json(say("standing_row", seat=s, vp=score[s], won=len(state.succeeded.get(s, [])),
                        failed=len(state.failed.get(s, [])))) for s in state.seats]


@end_check
def _game_over(ctx: Ctx) -> None:
    state = ctx.state
    if any(state.hands.get(s) for s in state.seats):
        ctx.log("standings", round=state.round, standing=standing(state))
        return
    won = winners(state)
    ctx.log("game_over", round=state.round, standing=standing(state))
    msg = say("outcome_win", seat=won[0], vp=scores(state)[won[0]]) if len(won) == 1 else \
        say("outcome_shared", seats=won, vp=scores(state)[won[0]])
    state.phase = "over"
    state.outcome = {"winners": won, "summary_msg": as_json(msg), "scores": scores(state)}
