"""The year: Strategic Phase, Action Phase, Administrative Phase (spec §5, §19.6).

This module owns the order of things and nothing else. What happens inside a step lives in
the step's own module, reached through three registries the modules fill at import:

* ``STRATEGIC``: the Strategic Phase's steps in order (draft, swap, espionage...), each a task kind;
* ``PLAYS``: what a power may do on its Action Phase turn besides passing (operations, a tech,
  an event, Lend-Lease, a rocket, an air strike): its choices now, and the task that carries one out;
* ``ADMIN``: the Administrative Phase's steps A–G in order, each a task kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.games.total_domination import engine
from app.games.total_domination.engine import Ctx, Task, ask, cont, task
from app.games.total_domination.pack import POWERS, pack
from app.games.total_domination.state import GameState
from app.games.total_domination.text import Label, say


@dataclass(frozen=True)
class Play:
    """One kind of Action Phase turn. ``choices(state, power)`` lists its answers to "your turn"
    (ids unique across kinds, e.g. "ops:td-07"); ``start(ctx, power, choice)`` pushes the tasks
    that carry the chosen one out (the turn ends when they are done)."""

    kind: str
    choices: Callable[[GameState, str], list[tuple[str, Label]]]
    start: Callable[[Ctx, str, str], None]


STRATEGIC: list[tuple[int, str]] = []  # (order, task kind)
PLAYS: dict[str, Play] = {}
ADMIN: list[tuple[str, str]] = []  # (step letter A..G, task kind)


def strategic_step(order: int, kind: str) -> None:
    STRATEGIC.append((order, kind))
    STRATEGIC.sort()


def admin_step(letter: str, kind: str) -> None:
    ADMIN.append((letter, kind))
    ADMIN.sort()


def register_play(play: Play) -> None:
    PLAYS[play.kind] = play


# ------------------------------------------------------------------ turn order
def year_info(state: GameState) -> tuple[str, str]:
    """(the power that starts this year's phases, the draft's pass direction)."""
    y = pack().years.get(state.year)
    if y is None:
        return "germany", "left" if state.year % 2 else "right"
    return y.starts, y.passes


def turn_order(state: GameState) -> list[str]:
    """The four powers in turn order from the year's starting power (spec §3.3, §5.1)."""
    first = POWERS.index(year_info(state)[0])
    return [POWERS[(first + i) % len(POWERS)] for i in range(len(POWERS))]


def last_year(state: GameState) -> int:
    return int(state.options.get("last_year", 1945))


# ------------------------------------------------------------------ the year
def year_task() -> Task:
    return {"k": "year"}


@task("year")
def _run_year(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    ctx.pop(t)
    ctx.log("year_begins", year=state.year)
    state.phase = "strategic"
    ctx.push(*[{"k": kind} for _, kind in STRATEGIC], {"k": "action_phase"}, {"k": "admin_phase"})
    return False


@task("action_phase")
def _run_action_phase(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    if state.phase != "action":
        state.phase = "action"
        state.passed = [p for p in POWERS if p not in state.seats]  # a power nobody plays never takes turns
        t["next"] = 0
        ctx.log("action_phase_begins", year=state.year)
    order = turn_order(state)
    for _ in range(len(order)):
        power = order[t["next"] % len(order)]
        t["next"] = (t["next"] + 1) % len(order)
        if power in state.passed:
            continue
        state.active = power
        state.turn = {"power": power}
        ctx.push({"k": "turn", "power": power})
        return False
    # every power has passed: the rotated cards holding a saved OP are lost (spec §6.1)
    for power, card in sorted(state.saved.items()):
        state.discard.append(card)
        ctx.log("saved_op_lost", power=power, card=card)
    state.saved = {}
    state.active = ""
    state.turn = {}
    ctx.pop(t)
    return False


def turn_choices(state: GameState, power: str) -> list[tuple[str, Label]]:
    out: list[tuple[str, Label]] = []
    for play in PLAYS.values():
        out.extend(play.choices(state, power))
    out.append(("pass", say("choice_pass")))
    return out


@task("turn")
def _run_turn(ctx: Ctx, t: Task) -> bool:
    state, power = ctx.state, t["power"]
    ctx.pop(t)
    if state.automa(power):
        ctx.push({"k": "automa_turn", "power": power})
        return False
    if not state.hand(power):
        ctx.push({"k": "pass", "power": power})  # a power with no cards must pass (spec §5.3)
        return False
    ctx.push(ask(state.seat_of(power), say("prompt_turn", power=power), turn_choices(state, power), "turn_chosen",
                 kind="turn", power=power))
    return False


@cont("turn_chosen")
def _turn_chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    power, choice = t["power"], choices[0]
    if choice == "pass":
        ctx.push({"k": "pass", "power": power})
        return
    kind = choice.split(":", 1)[0]
    PLAYS[kind].start(ctx, power, choice)


@task("pass")
def _run_pass(ctx: Ctx, t: Task) -> bool:
    """Pass: set one card aside as the reserve (not after Lend-Lease), discard the rest (spec §5.3).
    The 2-player shared hand and its halves are the strategic module's (``PASS_RULES``)."""
    state, power = ctx.state, t["power"]
    ctx.pop(t)
    rule = PASS_RULE.get("rule")
    if rule is not None and rule(ctx, power):
        return False
    hand = state.hand(power)
    if hand and power not in state.lend_lease and not state.automa(power):
        cards: list[tuple[str, Label]] = [(c, say("choice_card", card=c)) for c in hand]
        ctx.push(ask(state.seat_of(power), say("prompt_reserve", power=power),
                     cards + [("none", say("choice_no_reserve"))], "reserve_chosen", kind="reserve", power=power))
        return False
    _discard_hand(ctx, power, keep=())
    return False


# "rule": a replacement for the plain pass above; it returns False to leave a pass to the plain rule
PASS_RULE: dict[str, Callable[[Ctx, str], bool]] = {}


@cont("reserve_chosen")
def _reserve_chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    _discard_hand(ctx, t["power"], keep=tuple(c for c in choices if c != "none"))


def _discard_hand(ctx: Ctx, power: str, keep: tuple[str, ...]) -> None:
    state = ctx.state
    hid = state.hand_of[power]
    hand = state.hands[hid]
    gone = [c for c in hand if c not in keep]
    state.hands[hid] = []
    state.discard.extend(gone)
    state.set_aside.setdefault(hid, []).extend(keep)
    state.passed.append(power)
    seat = state.seats.get(power, "")
    private = {seat: say("log_pass_private", power=power, reserve=list(keep))} if seat and keep else None
    ctx.log("log_pass", private=private, power=power, discarded=gone, reserved=len(keep))


# ------------------------------------------------------------------ the Administrative Phase
@task("admin_phase")
def _run_admin(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    ctx.pop(t)
    state.phase = "admin"
    ctx.push(*[{"k": kind} for _, kind in ADMIN], {"k": "next_year"})
    return False


@task("next_year")
def _run_next_year(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    ctx.pop(t)
    if state.year >= last_year(state):  # the checks of step A end every match by the last year
        raise RuntimeError("the last year's victory check did not end the match")
    state.year += 1
    state.passed, state.lend_lease, state.rockets_used, state.radar_used = [], [], [], []
    # round-scoped marks end with the year; a reshuffle of this very answer stays known to everyone
    # until the next answer (strategic.draw), even when the year turns within the answer
    state.flags = {k: v for k, v in state.flags.items()
                   if k == "reshuffled" and isinstance(v, dict) and v.get("step") == state.step}
    ctx.push(year_task())
    return False


def start(ctx: Ctx) -> None:
    ctx.push(year_task())
    engine.run(ctx)
