"""The solo mode's Axis automa (spec §15). A first cut: the automa passes."""

from __future__ import annotations

from app.games.total_domination.engine import Ctx, Task, task


@task("automa_turn")
def _run_automa_turn(ctx: Ctx, t: Task) -> bool:
    ctx.pop(t)
    ctx.state.passed.append(t["power"])
    ctx.log("automa_passes", power=t["power"])
    return False
