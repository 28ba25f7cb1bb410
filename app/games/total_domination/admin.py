"""The Administrative Phase, steps A–G in this exact order (spec §5.4).

A first cut: step A ends the match after the last year (the Axis wins, spec §10.1). The full
victory check and steps B–F replace it."""

from __future__ import annotations

from app.games.total_domination.engine import Ctx, Task, task
from app.games.total_domination.flow import admin_step, last_year
from app.games.total_domination.text import say


@task("victory_check")
def _run_victory_check(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    ctx.pop(t)
    if state.year >= last_year(state):
        state.outcome = {"side": "axis", "summary_msg": {"id": "outcome_axis_last_year", "params": {}}}
        state.phase = "over"
        ctx.log("outcome_axis_last_year")
    return False


admin_step("A", "victory_check")
_ = say
