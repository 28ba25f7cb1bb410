"""Sabotage (spec §6.3.2): each player clockwise from the chooser may sabotage one region; after their
own sabotage (or declining it) the chooser may use the special rule of one region that is not
occupied (regions.py).

A sabotage succeeds when the Underground of every soldier in the region (wounded too) is strictly
higher than the arrow left of the domination marker: the marker moves one square left, and a marker
that stood on a dark (occupied) square gives 3 VP. Only regions where the test passes are offered
(OQ-9: a failed attempt would change nothing and block nothing), never from the leftmost square
(OQ-3), and a region once per order."""

from __future__ import annotations

from app.games.first_to_fight import orders, regions
from app.games.first_to_fight.engine import Ctx, Task, cont
from app.games.first_to_fight.orders import Order, offer, passed, scratch
from app.games.first_to_fight.pack import REGIONS, SABOTAGE_OCCUPIED_VP, pack
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import say


def underground(state: GameState, region: str) -> int:
    return sum(state.soldiers[s]["u"] for s in state.in_region(region))


def arrow(state: GameState, region: str) -> int | None:
    """The threshold on the arrow left of the marker; None on the leftmost square."""
    square = state.domination[region]
    return pack().regions[region].thresholds[square - 1] if square > 0 else None


def can_sabotage(state: GameState, region: str) -> bool:
    threshold = arrow(state, region)
    return threshold is not None and underground(state, region) > threshold


def _basic(ctx: Ctx, seat: str) -> None:
    state = ctx.state
    done = scratch(state, "sabotaged")
    options = [(r, say("choice_sabotage", region=r, u=underground(state, r), arrow=arrow(state, r)))
               for r in REGIONS if r not in done and can_sabotage(state, r)]
    offer(ctx, seat, "sabotage", say("prompt_sabotage", seat=seat), options, "sabotage", undoable=True)


@cont("sabotage")
def _sabotage(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat, region = ctx.state, t["seat"], choices[0]
    if passed(ctx, seat, region):
        return
    scratch(state, "sabotaged").append(region)
    was_occupied = state.occupied(region)
    u, threshold = underground(state, region), arrow(state, region)
    state.domination[region] -= 1
    ctx.log("sabotage_done", seat=seat, region=region, u=u, arrow=threshold, level=state.level(region))
    if was_occupied:
        state.vp[seat] = state.vp.get(seat, 0) + SABOTAGE_OCCUPIED_VP
        ctx.log("sabotage_vp", seat=seat, vp=SABOTAGE_OCCUPIED_VP)


orders.define(Order("SABOTAGE", _basic, regions.offer_rule))
