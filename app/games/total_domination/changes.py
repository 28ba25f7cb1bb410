"""What follows any change on the board (spec §4.10, §4.13, §19.5, §19.9): control and VP are
recomputed, a Destruction marker goes on an enemy-taken home space with a factory or shipyard,
lone bombers and entered-on Resistance leave, and every VP swing is logged with its cause
("UK −3 VP: capital uncontrolled"). Every rule module that moves, builds or destroys calls
``before = snapshot(state)`` first and ``consequences(ctx, before)`` after."""

from __future__ import annotations

from dataclasses import dataclass

from app.games.total_domination import derived
from app.games.total_domination.engine import Ctx
from app.games.total_domination.pack import POWERS, side_of
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
    geo = state.geo
    for space, was in sorted(before.control.items()):
        now = after.get(space)
        if now == was:
            continue
        ctx.log("control_changes", space=space, was=was or "nobody", now=now or "nobody")
        s = geo.spaces[space]
        # an enemy takes a home space with a factory or shipyard: a Destruction marker (spec §4.13 (b))
        home_power = state.power_of(s.nation) if s.nation else None
        if (now is not None and home_power is not None and was == home_power and (s.factory or s.shipyard)
                and side_of(now) != side_of(home_power)
                and space not in state.destroyed):
            state.destroyed.append(space)
            ctx.log("destruction_marker", space=space, power=now)
    vp = derived.vp(state)
    for power in POWERS:
        delta = vp.get(power, 0) - before.vp.get(power, 0)
        if delta:
            ctx.log("vp_changes", power=power, delta=f"{delta:+d}", total=vp[power])
