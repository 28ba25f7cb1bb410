"""The five orders that resolve round the table (spec §6.2, §6.3.1–§6.3.5): one loop for all of them.

Once the chooser has taken a tile (flow.py), every player, clockwise from the chooser, may use the
order's basic effect once or pass. The chooser's special action either replaces the basic effect
(Movement, Recruitment) or follows it in the chooser's own turn (Sabotage, Training); Concentration
has none. Each order module describes itself with an ``Order`` and ``define`` registers it with the
flow; this module walks the table and offers each question with its "pass" choice.

The order's scratch (``state.order``) keeps what the rules limit to once per order: soldiers moved
(``moved``), regions sabotaged (``sabotaged``), soldiers trained (``trained``), regions recruited in
(``regions``), bonuses taken (``bonuses``). All of it is public."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.games.first_to_fight import flow
from app.games.first_to_fight.engine import Ctx, Task, ask, task
from app.games.first_to_fight.pack import pack
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import Label, say
from app.games.first_to_fight.views import view_part

Turn = Callable[[Ctx, str], None]
PASS = "pass"
SCRATCH = ("moved", "sabotaged", "trained", "regions", "bonuses")


@dataclass(frozen=True)
class Order:
    kind: str
    basic: Turn  # one seat's turn of the basic effect: pushes its questions
    special: Turn | None = None  # the chooser's special action
    replaces: bool = False  # the special action is the chooser's turn instead of the basic effect


ORDERS: dict[str, Order] = {}


def define(order: Order) -> None:
    ORDERS[order.kind] = order
    flow.register_order(order.kind, _start)


def _start(ctx: Ctx, chooser: str) -> None:
    ctx.push({"k": "order_round", "seats": ctx.state.clockwise(chooser), "i": 0})


@task("order_round")
def _run_round(ctx: Ctx, t: Task) -> bool:
    """The next seat clockwise takes its turn; the task stays below that turn's questions."""
    state = ctx.state
    if t["i"] >= len(t["seats"]):
        ctx.pop(t)
        return False
    seat = t["seats"][t["i"]]
    t["i"] += 1
    order = ORDERS[state.order["kind"]]
    steps = ["basic"]
    if seat == state.order["chooser"] and order.special is not None:
        steps = ["special"] if order.replaces else ["basic", "special"]
    ctx.push(*[{"k": "order_step", "seat": seat, "step": s} for s in steps])
    return False


@task("order_step")
def _run_step(ctx: Ctx, t: Task) -> bool:
    ctx.pop(t)
    order = ORDERS[ctx.state.order["kind"]]
    turn = order.basic if t["step"] == "basic" else order.special
    assert turn is not None
    turn(ctx, t["seat"])
    return False


# ------------------------------------------------------------------ helpers for the order modules
def scratch(state: GameState, key: str) -> list[Any]:
    """One of the order's once-only lists (``SCRATCH``)."""
    found: list[Any] = state.order.setdefault(key, [])
    return found


def offer(ctx: Ctx, seat: str, kind: str, prompt: Label, options: list[tuple[str, Label]], then: str,
          undoable: bool = False, nothing: str = "order_nothing", **data: Any) -> None:
    """An optional step: the options and "pass"; with nothing to offer the seat is skipped (logged with
    the message ``nothing``)."""
    if not options:
        ctx.log(nothing, seat=seat, order=f"order_{ctx.state.order.get('kind', '')}")
        return
    ctx.push(ask(seat, prompt, [*options, (PASS, say("choice_pass"))], then, kind=kind, undoable=undoable, **data))


def passed(ctx: Ctx, seat: str, choice: str) -> bool:
    if choice != PASS:
        return False
    ctx.log("order_pass", seat=seat)
    return True


def soldier_choice(state: GameState, soldier: str) -> tuple[str, Label]:
    d = state.soldiers[soldier]
    return soldier, say("choice_soldier", soldier=soldier, region=d["region"], s=d["s"], u=d["u"],
                        formation=f"formation_{pack().soldiers[soldier].formation}")


def region_choice(region: str) -> tuple[str, Label]:
    return region, say("choice_region", region=region)


@view_part
def _order_view(state: GameState, seat: str | None) -> dict[str, Any]:
    """The resolving order's once-only lists: everyone sees what was moved, sabotaged, trained..."""
    if not state.order:
        return {"order": None}
    return {"order": {"kind": state.order.get("kind"), "chooser": state.order.get("chooser"),
                      **{k: list(state.order.get(k, [])) for k in SCRATCH}}}
