"""The order of play: setup, then rounds of an Orders Phase and an Ending Phase until no mission is
left in any hand (spec §3, §6, §10.3).

This module owns the order of things: choosing order tiles, Maneuvers ending the phase, who starts
the next round, the Ending Phase's steps in their exact order. What happens inside a step lives in
the step's own module, reached through registries the modules fill at import:

* ``SETUP``: the setup steps that ask something (keeping red missions, the draft), each a task kind;
* ``ORDERS``: for each of the five orders besides Maneuvers, ``start(ctx, chooser)`` pushes the
  tasks that resolve it round the table (basic effects clockwise from the chooser, the special action);
* ``ENDING``: the Ending Phase's steps in order (§6.4), each a task kind with the step's number;
  advanced steps say which option they need;
* ``CHECKS``: the end-of-game checks, run after each Ending Phase (OQ-15); each may set ``state.outcome``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.games.first_to_fight.engine import Ctx, Task, answer, task, wait
from app.games.first_to_fight.pack import ORDERS
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import Label, say

OrderStart = Callable[[Ctx, str], None]


@dataclass(frozen=True)
class EndingStep:
    number: int  # its place in the advanced game's numbering (§6.4): 1..7
    kind: str  # the task kind that carries it out
    option: str | None = None  # an advanced rule's option id it needs, else always run


SETUP: list[tuple[int, str]] = []  # (order, task kind)
ORDER_STARTS: dict[str, OrderStart] = {}
ENDING: list[EndingStep] = []
CHECKS: list[Callable[[Ctx], None]] = []


def setup_step(order: int, kind: str) -> None:
    SETUP.append((order, kind))
    SETUP.sort()


def register_order(kind: str, start: OrderStart) -> None:
    if kind not in ORDERS or kind == "MANEUVERS":
        raise ValueError(f"{kind} is not an order the table resolves round the table")
    ORDER_STARTS[kind] = start


def ending_step(step: EndingStep) -> None:
    ENDING.append(step)
    ENDING.sort(key=lambda s: s.number)


def end_check(fn: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    CHECKS.append(fn)
    return fn


def start(ctx: Ctx) -> None:
    ctx.push(*[{"k": kind} for _, kind in SETUP], {"k": "rounds"})


# ------------------------------------------------------------------ rounds
@task("rounds")
def _run_rounds(ctx: Ctx, t: Task) -> bool:
    """One round after another: this task stays at the bottom of the stack and runs again when a round's
    tasks are done; the game's end is found by the checks after each Ending Phase."""
    state = ctx.state
    state.round += 1
    state.phase = "orders"
    state.chosen = []
    state.chooser = state.starter
    ctx.log("round_begins", round=state.round, seat=state.starter)
    ctx.push({"k": "choose_order"})
    return False


def active_tiles(state: GameState) -> list[str]:
    return [o for o in ORDERS if state.tiles[o]["active"]]


@task("choose_order")
def _run_choose(ctx: Ctx, t: Task) -> bool:
    """§6.2: the chooser must take an active tile (OQ-8: Maneuvers is always there)."""
    state = ctx.state
    choices: list[tuple[str, Label]] = []
    for o in active_tiles(state):
        vp = state.tiles[o]["vp"]
        choices.append((o, say("choice_order_vp", order=f"order_{o}", vp=vp) if vp else
                        say("choice_order", order=f"order_{o}")))
    return wait(t, state.chooser, "order", say("prompt_order", seat=state.chooser), choices)


@answer("choose_order")
def _chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state = ctx.state
    order, chooser = choices[0], state.chooser
    tile = state.tiles[order]
    ctx.log("order_chosen", seat=chooser, order=f"order_{order}")
    if tile["vp"]:
        state.vp[chooser] = state.vp.get(chooser, 0) + tile["vp"]
        ctx.log("tile_vp_taken", seat=chooser, vp=tile["vp"], order=f"order_{order}")
        tile["vp"] = 0
    state.chosen.append(order)
    if order == "MANEUVERS":
        ctx.pop(t)
        maneuvers(ctx, chooser)
        return
    state.order = {"kind": order, "chooser": chooser}
    t["k"] = "after_order"
    ORDER_STARTS[order](ctx, chooser)


@task("after_order")
def _run_after_order(ctx: Ctx, t: Task) -> bool:
    """The order is resolved: its tile turns inactive and the next player clockwise chooses (§6.2)."""
    state = ctx.state
    ctx.pop(t)
    order = state.order.get("kind")
    if order:
        state.tiles[order]["active"] = False
    state.order = {}
    state.chooser = state.left_of(state.chooser)
    ctx.push({"k": "choose_order"})
    return False


def maneuvers(ctx: Ctx, chooser: str) -> None:
    """§6.3.6: VP on every other active tile, every tile active again, the chooser leads the Ending
    Phase, and the next round's starter is the chooser (Maneuvers was the last active tile) or the
    player to the chooser's left."""
    state = ctx.state
    others = [o for o in active_tiles(state) if o != "MANEUVERS"]
    for o in others:
        state.tiles[o]["vp"] += 1
    if others:
        ctx.log("maneuvers_vp", orders=[f"order_{o}" for o in others])
    for tile in state.tiles.values():
        tile["active"] = True
    state.leader = chooser
    state.starter = chooser if not others else state.left_of(chooser)
    state.phase = "ending"
    state.ending = {}
    ctx.log("ending_begins", seat=chooser, starter=state.starter)
    ctx.push(*[{"k": s.kind} for s in ENDING if s.option is None or state.options.get(s.option)],
             {"k": "round_over"})


@task("round_over")
def _run_round_over(ctx: Ctx, t: Task) -> bool:
    """The Ending Phase is over: the end-of-game checks (OQ-15); else ``rounds`` (below) starts the next."""
    state = ctx.state
    ctx.pop(t)
    state.ending = {}
    for fn in CHECKS:
        if state.outcome is None:
            fn(ctx)
    return False
