"""The order of play: setup, then turns clockwise until the game ends (spec §4, §5, §21).

This module owns the order of things and nothing else. What happens inside a step lives in the
step's own module, reached through registries the modules fill at import:

* ``SETUP``: the setup steps in order (first-player roll, claiming regions, units, capitals), each a task kind;
* ``ACTIONS``: the seven actions of a turn (A-5.5): whether the active seat may take one now, and the
  task that carries it out;
* ``CHECKS``: the end-of-game checks, run after every action and every turn (and by anything that
  removes land units: ``check_end``); each may set ``state.outcome``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.games.attack.engine import Ctx, Task, ask, cont, task
from app.games.attack.pack import MAX_ACTIONS
from app.games.attack.state import GameState
from app.games.attack.text import Label, say


@dataclass(frozen=True)
class ActionKind:
    """One of the seven actions (A-5.5). ``allowed(state, seat)``: may ``seat`` start it now (beyond
    the once-a-turn and three-a-turn limits flow applies itself)? ``start(ctx, seat)`` pushes the
    tasks that carry it out. ``repeatable``: Diplomatic Attack may be taken again (A-5.4).
    ``counts`` False: the action is recorded by its own module, only if it happens (Trade, A-19.2)."""

    kind: str  # MOVE, BLITZ, STRATEGIC, NAVAL, DIPLO, BUILD, TRADE
    order: int  # where it is listed among the choices
    allowed: Callable[[GameState, str], bool]
    start: Callable[[Ctx, str], None]
    repeatable: bool = False
    counts: bool = True


SETUP: list[tuple[int, str]] = []  # (order, task kind)
ACTIONS: dict[str, ActionKind] = {}
CHECKS: list[Callable[[Ctx], None]] = []


def setup_step(order: int, kind: str) -> None:
    SETUP.append((order, kind))
    SETUP.sort()


def register_action(action: ActionKind) -> None:
    ACTIONS[action.kind] = action


def end_check(fn: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    CHECKS.append(fn)
    return fn


def check_end(ctx: Ctx) -> None:
    """Run the end-of-game checks now (elimination ends the game at once, A-21.1)."""
    for fn in CHECKS:
        if ctx.state.outcome is not None:
            return
        fn(ctx)


def start(ctx: Ctx) -> None:
    ctx.push(*[{"k": kind} for _, kind in SETUP], {"k": "rounds"})


# ------------------------------------------------------------------ the turns
def actions_taken(state: GameState) -> list[str]:
    return list(state.turn.get("actions", []))


def record_action(state: GameState, kind: str) -> None:
    """Count ``kind`` as one of this turn's actions (flow does it when one starts; Trade on its first exchange)."""
    state.turn.setdefault("actions", []).append(kind)


def may_take(state: GameState, seat: str, kind: str) -> bool:
    """A-5.2–A-5.4: at most three actions, each kind once, Diplomatic Attack repeatable."""
    taken = actions_taken(state)
    action = ACTIONS[kind]
    if len(taken) >= MAX_ACTIONS or (kind in taken and not action.repeatable):
        return False
    return action.allowed(state, seat)


def turn_choices(state: GameState, seat: str) -> list[tuple[str, Label]]:
    out: list[tuple[str, Label]] = [(a.kind, say(f"action_{a.kind.lower()}"))
                                    for a in sorted(ACTIONS.values(), key=lambda a: a.order)
                                    if may_take(state, seat, a.kind)]
    out.append(("end", say("choice_end_turn")))
    return out


@task("rounds")
def _run_rounds(ctx: Ctx, t: Task) -> bool:
    """Seat after seat in turn order, skipping the eliminated, until the game ends."""
    state = ctx.state
    if state.phase != "play":
        state.phase = "play"
        t["next"] = 0
    live = state.live()
    if not live:
        ctx.pop(t)
        return False
    seat = state.order[t["next"] % len(state.order)]
    if t["next"] % len(state.order) == 0:
        state.round += 1
    t["next"] += 1
    if seat in state.eliminated:
        return False
    state.active = seat
    state.turn = {"seat": seat, "actions": []}
    ctx.log("turn_begins", seat=state.colours[seat], round=state.round)
    ctx.push({"k": "turn", "seat": seat}, {"k": "turn_ends", "seat": seat})
    return False


@task("turn")
def _run_turn(ctx: Ctx, t: Task) -> bool:
    state, seat = ctx.state, t["seat"]
    check_end(ctx)
    if state.outcome is not None:
        return False
    choices = turn_choices(state, seat)
    if len(choices) == 1:  # nothing left to take: the turn ends by itself
        ctx.pop(t)
        return False
    taken = len(actions_taken(state))
    ctx.push(ask(seat, say("prompt_action", seat=state.colours[seat], n=taken + 1, left=MAX_ACTIONS - taken), choices,
                 "action_chosen", kind="action"))
    return False


@cont("action_chosen")
def _action_chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat, kind = ctx.state, t["seat"], choices[0]
    if kind == "end":
        turn = next(x for x in reversed(state.stack) if x["k"] == "turn")
        ctx.pop(turn)
        return
    action = ACTIONS[kind]
    if action.counts:
        record_action(state, kind)
    ctx.log("action_taken", seat=state.colours[seat], action={"id": f"action_{kind.lower()}", "params": {}})
    ctx.push({"k": "action_done", "seat": seat, "action": kind})
    action.start(ctx, seat)


@task("action_done")
def _run_action_done(ctx: Ctx, t: Task) -> bool:
    """Every effect of an action is finished before the next begins (A-5.6): then the end checks."""
    ctx.pop(t)
    check_end(ctx)
    return False


@task("turn_ends")
def _run_turn_ends(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    ctx.pop(t)
    state.turns_taken += 1
    ctx.log("turn_ends", seat=state.colours[t["seat"]])
    state.turn = {}
    state.active = ""
    check_end(ctx)
    return False
