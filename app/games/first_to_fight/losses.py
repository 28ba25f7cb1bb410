"""Losses (spec §8), the Ending Phase's last basic step.

Every region where a mission was resolved this Ending Phase is checked once. The leader may choose
the order of the regions; the order changes nothing but which die is rolled first, so it is fixed
here (the board's order, ``pack.REGIONS``) instead of asked (§16.4 allows it). In each region the
leader rolls a d6; d6 + the region's domination level wounds go round the soldiers in passes, one
wound per soldier per pass, lowest current Underground first. Only the last pass can stop part way,
so at most one Underground tie per region matters: the one that pass splits; only then is the leader
asked which of the tied soldiers take the wounds left. Then every soldier with 2+ wounds, or 1 wound
and no training token, falls."""

from __future__ import annotations

from app.games.first_to_fight.engine import Ctx, Task, answer, task, wait
from app.games.first_to_fight.flow import EndingStep, ending_step
from app.games.first_to_fight.pack import REGIONS
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import say

DIE = 6


def passes(state: GameState, region: str, wounds: int) -> tuple[int, list[str], list[str], int]:
    """The wounds of ``region`` as (every soldier's share from the full passes, the soldiers sure of one
    more in the last pass, the tied soldiers that pass splits, how many of them take one)."""
    soldiers = state.in_region(region)
    if not soldiers:
        return 0, [], [], 0
    u = {s: state.soldiers[s]["u"] for s in soldiers}
    order = sorted(soldiers, key=lambda s: u[s])
    full, last = divmod(wounds, len(order))
    if 0 < last < len(order) and u[order[last - 1]] == u[order[last]]:
        split = u[order[last]]
        sure = [s for s in order if u[s] < split]
        tied = [s for s in order if u[s] == split]
        return full, sure, tied, last - len(sure)
    return full, order[:last], [], 0


@task("losses")
def _run_losses(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    if "todo" not in t:
        checked = state.ending.get("mission_regions", [])
        t["todo"] = [r for r in REGIONS if r in checked]
    if "tied" in t:  # waiting for the leader's tie-break
        return _ask_tie(state, t)
    if not t["todo"]:
        ctx.pop(t)
        return False
    region = t["todo"].pop(0)
    die = ctx.rng.randint(1, DIE)
    level = state.level(region)
    wounds = die + level
    ctx.log("losses_roll", seat=state.leader, region=region, die=die, level=level, n=wounds)
    full, sure, tied, k = passes(state, region, wounds)
    if not state.in_region(region):
        ctx.log("losses_nobody", region=region)
        return False
    if tied:
        t.update(region=region, full=full, sure=sure, tied=tied, wounds_left=k)
        return _ask_tie(state, t)
    _wound(ctx, region, full, sure)
    return False


def _ask_tie(state: GameState, t: Task) -> bool:
    choices = [(s, say("choice_tied_trained" if state.soldiers[s]["trained"] else "choice_tied", soldier=s,
                       u=state.soldiers[s]["u"], n=state.soldiers[s]["wounds"])) for s in t["tied"]]
    n = t["wounds_left"]
    return wait(t, state.leader, "wound_tie", say("prompt_wound_tie", seat=state.leader, region=t["region"], n=n),
                choices, n, n)


@answer("losses")
def _tie_broken(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    region, full, sure = t["region"], t["full"], t["sure"]
    for key in ("region", "full", "sure", "tied", "wounds_left"):
        t.pop(key)
    ctx.log("wound_tie_broken", seat=ctx.state.leader, soldiers=list(choices), n=len(choices))
    _wound(ctx, region, full, [*sure, *choices])


def _wound(ctx: Ctx, region: str, full: int, extra: list[str]) -> None:
    state = ctx.state
    rows = []
    for s in state.in_region(region):
        n = full + (1 if s in extra else 0)
        if n:
            state.soldiers[s]["wounds"] += n
            rows.append(say("wound_row", soldier=s, n=n))
    if rows:
        ctx.log("losses_wounds", region=region, rows=rows)
    for s in state.in_region(region):
        here = state.soldiers[s]
        if here["wounds"] >= 2 or (here["wounds"] == 1 and not here["trained"]):
            del state.soldiers[s]
            state.fallen.append(s)
            ctx.log("soldier_falls", soldier=s, region=region, n=here["wounds"])


ending_step(EndingStep(6, "losses"))
