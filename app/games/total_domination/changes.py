"""What follows any change on the board (spec §4.10, §4.13, §19.5, §19.9): control and VP are
recomputed, a Destruction marker goes on an enemy-taken home space with a factory or shipyard,
lone bombers and entered-on Resistance leave, and every VP swing is logged with its cause
("UK −3 VP: capital uncontrolled"). Every rule module that moves, builds or destroys calls
``before = snapshot(state)`` first and ``consequences(ctx, before)`` after."""

from __future__ import annotations

from dataclasses import dataclass

from app.games.total_domination import derived
from app.games.total_domination.engine import Ctx
from app.games.total_domination.pack import POWERS
from app.games.total_domination.state import GameState


@dataclass(frozen=True)
class Snapshot:
    control: dict[str, str | None]
    vp: dict[str, int]


def snapshot(state: GameState) -> Snapshot:
    return Snapshot(control=derived.control_map(state), vp=derived.vp(state))


def consequences(ctx: Ctx, before: Snapshot) -> None:
    state = ctx.state
    for fact in derived.settle(state):
        ctx.log("settled_" + fact[0], unit=fact[1], space=fact[2])
    after = derived.control_map(state)
    for space, was in sorted(before.control.items()):
        now = after.get(space)
        if now != was:
            ctx.log("control_changes", space=space, was=was or "nobody", now=now or "nobody")
    # an enemy takes a home space with a factory or shipyard: a Destruction marker (spec §4.13 (b));
    # a capital is taken by its second enemy unit, from nobody
    for space in derived.destruction_due(state, before.control, after):
        state.destroyed.append(space)
        ctx.log("destruction_marker", space=space, power=after[space])
    vp = derived.vp(state)
    for power in POWERS:
        delta = vp.get(power, 0) - before.vp.get(power, 0)
        if delta:
            ctx.log("vp_changes", power=power, delta=f"{delta:+d}", total=vp[power])
