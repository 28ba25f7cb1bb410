"""The end of the game (spec §4, U-13.1): the win checks after every move and every loss. Surrender (the
Skirmish's third ending) is the table's own "Resign", offered to either side at any moment: with two seats
the other side wins (README).

* Every scenario: a side whose HQ is destroyed loses (the pack's ``hq_destroyed``).
* Skirmish also (``all_units_destroyed``): a side with no unit left, on the board or still to deploy,
  loses (issue 14: "the Skirmish ends when the enemy HQ is destroyed or every enemy unit is").
* Surrender: the active side's menu entry, never one of the five moves, in every scenario (the book names
  it for Skirmish; resigning is open to any player, spec §20.5). The other side wins.

Both sides beaten by one event (it cannot happen with one attack at a time) would be a draw. The
"game_over" line carries the final figures the end-of-game summary reads (summary.py)."""

from __future__ import annotations

from typing import Any

from app.games.autarcha.engine import Ctx
from app.games.autarcha.flow import end_check
from app.games.autarcha.pack import pack
from app.games.autarcha.state import GameState
from app.games.autarcha.text import Label, as_json, say


def beaten(state: GameState, seat: str) -> str | None:
    """Why ``seat`` has lost (a win condition's id), or None."""
    win = pack().scenarios[state.scenario].win
    if "hq_destroyed" in win and state.hq(seat) is None:
        return "hq_destroyed"
    if "all_units_destroyed" in win and state.phase != "setup" and not state.units_of(seat, on_board=False):
        return "all_units_destroyed"
    return None


def figures(state: GameState) -> list[Any]:
    """Per side: units standing, units lost, gold, area cards held (public facts)."""
    lost = state.flags.get("lost", {})
    return [as_json(say("figures_row", seat=s, units=len(state.units_of(s, on_board=False)),
                        lost=len(lost.get(s, [])), gold=state.gold.get(s, 0),
                        cards=sum(1 for h in state.cards.values() if h == s)))
            for s in state.seats]


def finish(ctx: Ctx, winners: list[str], reason: str) -> None:
    state = ctx.state
    state.phase = "over"
    if winners:
        msg: Label = say("outcome_win", seat=winners[0], reason=f"reason_{reason}")
    else:
        msg = say("outcome_draw", reason=f"reason_{reason}")
    state.outcome = {"winners": winners, "summary_msg": as_json(msg),
                     "scores": {s: int(s in winners) for s in state.seats}}
    ctx.log("game_over", winners=winners, reason=f"reason_{reason}", turn=state.turn, figures=figures(state))


@end_check
def _check(ctx: Ctx) -> None:
    state = ctx.state
    lost = {s: why for s in state.seats if (why := beaten(state, s)) is not None}
    if not lost:
        return
    if len(lost) == len(state.seats):
        finish(ctx, [], next(iter(lost.values())))
        return
    (loser, why), = lost.items()
    finish(ctx, [state.other(loser)], why)
