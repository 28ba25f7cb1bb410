"""Administrative step D: strategic bombing (spec §13.1.B, rulebook §11.1 B; advanced rule).

In the round's turn order each power may send each of its ready bombers (not spent on an air
strike this round) against an opponent's home space with a factory or shipyard that the opponent
controls, within 2 spaces by any connection (gap G13; no supply needed). The raid puts a
Destruction marker there, one raid is enough even on a capital, and the bomber is spent. A power's
bombers need different targets; a space already marked is no target (a second marker adds nothing),
which keeps every raid of the step on a different space. Bombing is never mandatory.
"""

from __future__ import annotations

from app.games.total_domination import derived
from app.games.total_domination.attacks import within2
from app.games.total_domination.engine import Ctx, Task, ask, cont, task
from app.games.total_domination.flow import admin_step, turn_order
from app.games.total_domination.pack import side_of
from app.games.total_domination.state import GameState, Unit
from app.games.total_domination.text import say


def targets(state: GameState, bomber: Unit) -> list[str]:
    """The spaces this bomber may bomb now (empty when it is spent or bombers are not in play)."""
    power = state.power_of(bomber.nation)
    if bomber.kind != "bomber" or bomber.spent or power is None or not state.options.get("bombers"):
        return []
    cmap = derived.control_map(state)
    out = []
    for space, sp in sorted(state.geo.spaces.items()):
        owner = state.power_of(sp.nation) if sp.nation else None
        if (sp.factory or sp.shipyard) and owner is not None and side_of(owner) != side_of(power) \
                and cmap.get(space) == owner and space not in state.destroyed and within2(state, bomber.space, space):
            out.append(space)
    return out


@task("strategic_bombing")
def _run_strategic_bombing(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    if not state.options.get("bombers") or not any(u.kind == "bomber" for u in state.units):
        ctx.pop(t)
        return False
    if "queue" not in t:
        # fixed at the start of the step: the bombers in turn order, each power's by id
        t["queue"] = [u.id for p in turn_order(state) for u in sorted(state.units, key=lambda u: int(u.id[1:]))
                      if u.kind == "bomber" and state.power_of(u.nation) == p and not state.automa(p)]
    while t["queue"]:
        uid = t["queue"].pop(0)
        bomber = next((u for u in state.units if u.id == uid), None)
        if bomber is None:
            continue
        options = targets(state, bomber)
        if not options:
            continue
        power = str(state.power_of(bomber.nation))
        ctx.push(ask(state.seat_of(power), say("prompt_bombing", power=power, space=bomber.space),
                     [(s, say("choice_bomb", space=s)) for s in options] + [("none", say("choice_no_bombing"))],
                     "bombing_chosen", kind="bombing", power=power, unit=uid))
        return False
    ctx.pop(t)
    return False


@cont("bombing_chosen")
def _bombing_chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state = ctx.state
    target = choices[0]
    if target == "none":
        ctx.log("bombing_declined", power=t["power"], unit=t["unit"])
        return
    bomber = state.unit(t["unit"])
    bomber.spent = True
    state.destroyed.append(target)
    ctx.log("strategic_bombing", power=t["power"], unit=bomber.id, space=bomber.space, target=target)


admin_step("D", "strategic_bombing")
