"""The end of the game (spec §21): elimination ends it at once; the winner holds the most regions,
then the most regions + land units. PLACEHOLDER by the lead: the SETUP/VICTORY part completes the
timed game, the last-player-standing variant and the tie after the tie-break."""

from __future__ import annotations

from app.games.attack.engine import Ctx
from app.games.attack.flow import end_check
from app.games.attack.state import GameState


def standings(state: GameState) -> list[tuple[int, int, str]]:
    """(regions, regions + land units, seat), best first (A-21.3)."""
    rows = [(len(state.regions_of(s)), len(state.regions_of(s)) + state.land_units(s), s) for s in state.seats
            if s not in state.eliminated]
    return sorted(rows, key=lambda r: (-r[0], -r[1], r[2]))


def finish(ctx: Ctx, reason: str) -> None:
    state = ctx.state
    rows = standings(state)
    best = rows[0][:2]
    winners = [s for a, b, s in rows if (a, b) == best]
    state.phase = "over"
    state.outcome = {"winners": winners, "reason": reason,
                     "scores": {s: len(state.regions_of(s)) for s in state.seats},
                     "summary_msg": {"id": "game_over", "params": {"reason": {"id": f"end_{reason}", "params": {}},
                                                                   "winners": [state.colours[s] for s in winners]}}}
    ctx.log("game_over", reason={"id": f"end_{reason}", "params": {}}, winners=[state.colours[s] for s in winners])


@end_check
def _elimination(ctx: Ctx) -> None:
    """A-21.1: a seat with no land units on the map is eliminated; the game ends at once."""
    state = ctx.state
    if state.phase != "play":
        return
    out = [s for s in state.live() if state.land_units(s) == 0]
    if out:
        for s in out:
            state.eliminated.append(s)
            ctx.log("eliminated", seat=state.colours[s])
        finish(ctx, "elimination")


@end_check
def _round_limit(ctx: Ctx) -> None:
    """Until the timed game is written: a game ends when the table's turn limit is reached."""
    state = ctx.state
    limit = int(state.options.get("turn_limit") or 0)
    if state.phase == "play" and limit and state.turns_taken >= limit and not state.turn:
        finish(ctx, "time")




def trade_locked(state: GameState) -> bool:
    """A-19.6: no Trade in the last 30 minutes of a timed game. PLACEHOLDER: the END part decides how
    the turn-counted clock reads "the last 30 minutes"."""
    return False
