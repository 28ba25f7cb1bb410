"""The order of play: setup (buying, deployment, the start roll), then turns of moves until a win
condition ends the game (spec §4, §5).

This module owns the order of things and the move budget: the active seat's menu of moves, the five
moves (U-5.3), once per turn per unit (U-5.6), the end of the turn. What a move does lives in the
move's own module, reached through registries the modules fill at import:

* ``SETUP``: the setup steps in order, each a task kind (it pops itself at once when its scenario
  does not use it);
* ``MENU``: top-level entries of the active seat's menu besides a unit's own moves (collecting gold,
  recruiting, a formation, a column): ``offers(state, seat)`` lists the choices, ``start(ctx, seat,
  arg)`` pushes the tasks; ``costs_move(state, arg)`` says whether it spends one of the five moves;
* ``UNIT_ACTIONS``: what one unit can do as its move (movement, attack, the two orders of both,
  the sappers' special operations): ``available(state, unit)``, ``tasks(unit)``;
* ``AFTER_MOVE``: run after every move (area control, war status, cards: U-6.1-6.2);
* ``TURN_START`` / ``TURN_END``: per-turn bookkeeping;
* ``CHECKS``: the win conditions; ``end_checks(ctx)`` runs them after every move and every loss;
* ``ENTER``: a unit entered a square mid-move (``entered(ctx, unit, square)``: the mines).

Halves of a unit's move other modules provide, by task kind: ``walk`` {unit, may_skip} (movement.py:
the unit's steps) and ``fire`` {unit, may_skip} (attacks.py: one attack). ``lose_unit`` is how any rule
removes a destroyed unit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.games.autarcha.engine import Ctx, Task, answer, task, wait
from app.games.autarcha.pack import MOVES_PER_TURN
from app.games.autarcha.state import GameState
from app.games.autarcha.text import Label, as_json, say

# a guard, not a rule: the book's games end only by a win condition; a game of bots that never meet
# must still end (README: the turn limit)
TURN_LIMIT = 200

Offers = Callable[[GameState, str], list[tuple[str, Label]]]
Start = Callable[[Ctx, str, str], None]


@dataclass(frozen=True)
class MenuEntry:
    prefix: str  # the choice ids it offers are "prefix" or "prefix:arg"
    offers: Offers
    start: Start
    costs_move: Callable[[GameState, str], bool] = lambda state, arg: True


@dataclass(frozen=True)
class UnitAction:
    id: str  # the choice id in a unit's menu
    available: Callable[[GameState, str], bool]
    tasks: Callable[[str], list[Task]]


SETUP: list[tuple[int, str]] = []  # (order, task kind)
MENU: dict[str, MenuEntry] = {}
UNIT_ACTIONS: dict[str, UnitAction] = {}
AFTER_MOVE: list[Callable[[Ctx], None]] = []
TURN_START: list[Callable[[Ctx], None]] = []
TURN_END: list[Callable[[Ctx], None]] = []
CHECKS: list[Callable[[Ctx], None]] = []
# a unit has just entered a square during a move (mines, U-11.2.5): True stops its movement there
ENTER: list[Callable[[Ctx, str, str], bool]] = []
# which halves a unit's move is made of (U-5.4): each is optional after the first
COMPOSITES: dict[str, tuple[str, ...]] = {"move": ("walk",), "attack": ("fire",), "move_attack": ("walk", "fire"),
                                          "attack_move": ("fire", "walk")}
HALF_READY: dict[str, Callable[[GameState, str], bool]] = {}  # "walk" / "fire" -> may the unit do it now


def setup_step(order: int, kind: str) -> None:
    SETUP.append((order, kind))
    SETUP.sort()


def menu_entry(entry: MenuEntry) -> None:
    MENU[entry.prefix] = entry


def unit_action(action: UnitAction) -> None:
    UNIT_ACTIONS[action.id] = action


def half(kind: str) -> Callable[[Callable[[GameState, str], bool]], Callable[[GameState, str], bool]]:
    """Register whether a unit may do the ``walk`` or ``fire`` half of a move now."""
    def deco(fn: Callable[[GameState, str], bool]) -> Callable[[GameState, str], bool]:
        HALF_READY[kind] = fn
        return fn
    return deco


def after_move(fn: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    AFTER_MOVE.append(fn)
    return fn


def turn_start(fn: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    TURN_START.append(fn)
    return fn


def turn_end(fn: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    TURN_END.append(fn)
    return fn


def end_check(fn: Callable[[Ctx], None]) -> Callable[[Ctx], None]:
    CHECKS.append(fn)
    return fn


def on_enter(fn: Callable[[Ctx, str, str], bool]) -> Callable[[Ctx, str, str], bool]:
    ENTER.append(fn)
    return fn


def entered(ctx: Ctx, unit: str, square: str) -> bool:
    """Movement calls this for every square a unit enters (after it stands there): True when the unit's
    movement ends there (a mine went off; the unit may be gone: check ``unit in state.units``)."""
    stop = False
    for fn in ENTER:
        if unit in ctx.state.units:
            stop = fn(ctx, unit, square) or stop
    return stop or unit not in ctx.state.units


def end_checks(ctx: Ctx) -> None:
    for fn in CHECKS:
        if ctx.state.outcome is None:
            fn(ctx)


def lose_unit(ctx: Ctx, unit: str, why: str, **params: object) -> None:
    """A unit is destroyed (hits reach its durability, forbidden terrain, a mine): off the board and out
    of the game; ``why`` is the log line's message id (given ``unit``, ``kind``, ``seat``, ``square``)."""
    state = ctx.state
    d = state.units.pop(unit)
    state.flags.setdefault("lost", {}).setdefault(d["seat"], []).append(d["kind"])
    ctx.log(why, unit=unit, kind=f"kind_{d['kind']}", seat=d["seat"], square=d["sq"], **params)
    end_checks(ctx)


def start(ctx: Ctx) -> None:
    ctx.push(*[{"k": kind} for _, kind in SETUP], {"k": "turns"})


# ------------------------------------------------------------------ turns
@task("turns")
def _run_turns(ctx: Ctx, t: Task) -> bool:
    """One turn after another: this task stays at the bottom of the stack and runs again when a turn's
    tasks are done (U-5.2)."""
    state = ctx.state
    if state.turn >= TURN_LIMIT:
        state.phase = "over"
        state.outcome = {"winners": [], "summary_msg": {"id": "summary_turn_limit", "params": {"turns": TURN_LIMIT}},
                         "scores": {}}
        ctx.log("turn_limit_reached", turns=TURN_LIMIT)
        return False
    state.phase = "play"
    state.turn += 1
    state.active = state.first if state.turn == 1 else state.other(state.active)
    # the HQ gives the five moves (U-13.1); losing it ends every scenario, so it is there
    state.moves_left = MOVES_PER_TURN if state.hq(state.active) else 0
    state.collected = False
    state.gained = []
    state.move = {}
    for d in state.units.values():
        d["acted"] = False
    ctx.log("turn_begins", turn=state.turn, seat=state.active)
    for fn in TURN_START:
        fn(ctx)
    ctx.push({"k": "menu"})
    return False


def menu_choices(state: GameState, seat: str) -> list[tuple[str, Label]]:
    """The active seat's menu: what it may do next (a move, a free action), then ending the turn."""
    out: list[tuple[str, Label]] = []
    if state.moves_left > 0:
        for u in state.units_of(seat):
            d = state.units[u]
            if d["acted"] or d["new"]:
                continue
            if any(a.available(state, u) for a in UNIT_ACTIONS.values()):
                out.append((f"unit:{u}", say("choice_unit", unit=u, kind=f"kind_{d['kind']}", square=d["sq"])))
    for entry in MENU.values():
        for choice, label in entry.offers(state, seat):
            arg = choice.partition(":")[2]
            if state.moves_left > 0 or not entry.costs_move(state, arg):
                out.append((choice, label))
    out.append(("end", say("choice_end_turn", moves=state.moves_left)))
    return out


@task("menu")
def _run_menu(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    choices = menu_choices(state, state.active)
    if len(choices) == 1 and state.moves_left == 0:  # the five moves are spent and nothing free is left
        _end_turn(ctx, t)
        return False
    return wait(t, state.active, "move", say("prompt_move", seat=state.active, moves=state.moves_left), choices)


def _end_turn(ctx: Ctx, t: Task) -> None:
    state = ctx.state
    ctx.pop(t)
    for fn in TURN_END:
        fn(ctx)
    for d in state.units.values():
        if d["seat"] == state.active:
            d["new"] = False
    ctx.log("turn_ends", seat=state.active)


@answer("menu")
def _chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state = ctx.state
    choice = choices[0]
    if choice == "end":
        _end_turn(ctx, t)
        return
    prefix, _, arg = choice.partition(":")
    if prefix == "unit":
        ctx.push({"k": "unit_menu", "unit": arg})
        return
    entry = MENU[prefix]
    if entry.costs_move(state, arg):
        spend_move(ctx)
    ctx.push({"k": "after_move"})
    entry.start(ctx, state.active, arg)


def spend_move(ctx: Ctx, *units: str) -> None:
    """One of the five moves is used (U-5.3); the units taking part may not act again this turn (U-5.6)."""
    state = ctx.state
    state.moves_left -= 1
    for u in units:
        state.units[u]["acted"] = True


def unit_actions(state: GameState, unit: str) -> list[str]:
    return [a.id for a in UNIT_ACTIONS.values() if a.available(state, unit)]


@task("unit_menu")
def _run_unit_menu(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    u = t["unit"]
    d = state.units[u]
    choices: list[tuple[str, Label]] = [(a, say(f"action_{a}")) for a in unit_actions(state, u)]
    choices.append(("back", say("choice_back")))
    return wait(t, state.active, "unit_move", say("prompt_unit_move", unit=u, kind=f"kind_{d['kind']}",
                                                  square=d["sq"]), choices, undoable=True)


@answer("unit_menu")
def _unit_chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    if choices[0] == "back":
        return
    u = t["unit"]
    spend_move(ctx, u)
    ctx.state.move = {"unit": u, "action": choices[0]}
    ctx.log("move_announced", seat=ctx.state.active, unit=u, kind=f"kind_{ctx.state.units[u]['kind']}",
            action=as_json(say(f"action_{choices[0]}")), left=ctx.state.moves_left)
    ctx.push(*UNIT_ACTIONS[choices[0]].tasks(u), {"k": "after_move"})


def composite(action: str) -> UnitAction:
    halves = COMPOSITES[action]

    def available(state: GameState, unit: str) -> bool:
        # the first half must be possible now; a second half is optional (it may find nothing to do)
        return all(h in HALF_READY for h in halves) and HALF_READY[halves[0]](state, unit) and \
            (len(halves) == 1 or _may_also(state, unit, halves[1]))

    def tasks(unit: str) -> list[Task]:
        return [{"k": h, "unit": unit, "may_skip": i > 0} for i, h in enumerate(halves)]

    return UnitAction(action, available, tasks)


def _may_also(state: GameState, unit: str, half_kind: str) -> bool:
    """Whether a second half could ever follow: the unit can move at all / has an attack at all."""
    probe = HALF_READY.get(f"{half_kind}_at_all")
    return probe(state, unit) if probe else True


for _a in COMPOSITES:
    unit_action(composite(_a))


@task("after_move")
def _run_after_move(ctx: Ctx, t: Task) -> bool:
    ctx.pop(t)
    ctx.state.move = {}
    for fn in AFTER_MOVE:
        fn(ctx)
    end_checks(ctx)
    return False
