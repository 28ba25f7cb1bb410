"""Operations (spec §6.1–6.5, §13.2): a card played for its OP, spent one step at a time on
builds, moves and attacks, with the saved 1 OP; and the steps other modules reuse (a build, a
move, an attack with everything that follows it on the board).

The turn in progress lives in ``state.turn["ops"]`` (the card, the OP left, whether it may save)
so every seat sees it. Each step is one decision of kind "operation" whose choice ids the board
parses: ``build:<nation>:<kind>:<space>``, ``move:<unit>:<space>``, ``attack:<origin>:<unit>``
(origin a unit id or the capital's space), ``remove:<unit>`` (taken off to be rebuilt at once),
``saved`` (add the saved 1 OP), ``save`` (rotate the card, end) and ``done``. Only steps the OP
left can pay are offered. A step draws no randomness and reveals nothing, so it may be taken
back, except one that invades the USA or China (the invasion shuffles a card into the deck).
"""

from __future__ import annotations

from typing import Any

from app.games.total_domination import tracks
from app.games.total_domination.attacks import apply_attack, attack_targets
from app.games.total_domination.changes import consequences, snapshot
from app.games.total_domination.costs import card_value, cost
from app.games.total_domination.derived import Fact, joined
from app.games.total_domination.engine import Ctx, Task, answer, ask, cont, task, wait
from app.games.total_domination.flow import Play, register_play, turn_order
from app.games.total_domination.movement import apply_move, build_spaces, destinations, nonaligned_home
from app.games.total_domination.pack import AXIS, NONALIGNED
from app.games.total_domination.state import GameState, Unit
from app.games.total_domination.text import Label, say
from app.games.total_domination.views import view_part

Choice = tuple[str, Label]


# ---------------------------------------------------------------- what a power may do now
def own_units(state: GameState, power: str) -> list[Unit]:
    return [u for u in state.units if state.power_of(u.nation) == power]


def build_choices(state: GameState, power: str, left: int | None, kinds: set[str] | None = None,
                  free: bool = False) -> list[Choice]:
    """Legal builds (§6.3) the OP left can pay (``left`` None: no limit); ``kinds`` narrows the
    unit types (a Logistics event's icons); ``free``: labelled without a cost."""
    out: list[Choice] = []
    for nation, kind, space in build_spaces(state, power):
        if kinds is not None and kind not in kinds:
            continue
        price = 0 if free else cost(state, power, "build_" + kind)
        if left is None or price <= left:
            out.append((f"build:{nation}:{kind}:{space}",
                        say("choice_build", nation=nation, kind=kind, space=space, cost=price)))
    return out


def move_choices(state: GameState, power: str, left: int | None, free: bool = False) -> list[Choice]:
    """Every legal move (§6.4) of the power's units that the OP left can pay."""
    out: list[Choice] = []
    for u in own_units(state, power):
        if u.kind == "resistance":
            continue  # Resistance never moves
        price = 0 if free else cost(state, power, "move_" + u.kind)
        if left is not None and price > left:
            continue
        for dest in sorted(destinations(state, u)):
            out.append((f"move:{u.id}:{dest}", say("choice_move", nation=u.nation, kind=u.kind, start=u.space,
                                                      dest=dest, cost=price)))
    return out


def attack_choices(state: GameState, power: str, left: int) -> list[Choice]:
    """One choice per unit the power may destroy (§6.5) within the OP left: the cost depends on
    the target only, so one origin per target is enough (the first one offered)."""
    out: list[Choice] = []
    seen: set[str] = set()
    for origin, target, price in attack_targets(state, power):
        if price > left or target in seen:
            continue
        seen.add(target)
        u = state.unit(target)
        out.append((f"attack:{origin}:{target}", say("choice_attack", nation=u.nation, kind=u.kind, space=u.space,
                                                      cost=price)))
    return out


def rebuild_spaces(state: GameState, power: str, unit: Unit) -> list[str]:
    """Where the unit could be built again at once if taken off the board now (§6.3)."""
    at = state.units.index(unit)
    del state.units[at]
    try:
        return [s for n, k, s in build_spaces(state, power) if n == unit.nation and k == unit.kind]
    finally:
        state.units.insert(at, unit)


def remove_choices(state: GameState, power: str, left: int) -> list[Choice]:
    """Voluntary removal (§6.3): only to build the same unit again this turn, so only when the OP
    left pay that build and it has somewhere to go. A spent bomber stays spent: it is not offered."""
    out: list[Choice] = []
    rebuildable: dict[tuple[str, str, str], bool] = {}  # units alike (nation, kind, space) answer alike
    for u in own_units(state, power):
        if u.kind == "resistance" or (u.kind == "bomber" and u.spent):
            continue
        if cost(state, power, "build_" + u.kind) > left:
            continue
        alike = (u.nation, u.kind, u.space)
        if alike not in rebuildable:
            rebuildable[alike] = bool(rebuild_spaces(state, power, u))
        if not rebuildable[alike]:
            continue
        out.append((f"remove:{u.id}", say("choice_remove", nation=u.nation, kind=u.kind, space=u.space)))
    return out


def invades(state: GameState, power: str, choice: str) -> bool:
    """Whether this step would be an Axis Invasion of the USA or China (§9.3): it draws randomness."""
    if power not in AXIS:
        return False
    verb, _, rest = choice.partition(":")
    if verb == "move":
        return nonaligned_home(state, rest.split(":")[1]) is not None
    if verb == "attack":
        nation = state.unit(rest.split(":")[1]).nation
        return nation in NONALIGNED and not joined(state, nation)
    return False


def turn_end_quiet(state: GameState) -> bool:
    """Whether ending the active power's turn now reveals nothing and draws nothing, so the answer
    that ends it may be taken back: the next thing is a player's turn question. It may instead run
    an automa turn (a solo card is revealed) or end the Action Phase (what follows deals cards)."""
    phase = next((t for t in reversed(state.stack) if t.get("k") == "action_phase"), None)
    if phase is None:
        return True
    order = turn_order(state)
    passed = set(state.passed)
    for i in range(len(order)):
        p = order[(phase.get("next", 0) + i) % len(order)]
        if p in passed:
            continue
        if state.automa(p):
            return False
        if state.hand(p):
            return True
        passed.add(p)  # no card: it passes at once, drawing and revealing nothing
    return False


def end_turn(ctx: Ctx, power: str) -> None:
    """The card play is over. When what comes next is not quiet, the player confirms first, so
    every step before stays undoable and only this confirmation is final."""
    if not turn_end_quiet(ctx.state):
        ctx.push({"k": "confirm_end", "power": power})


@task("confirm_end")
def _run_confirm(ctx: Ctx, t: Task) -> bool:
    return wait(t, ctx.state.seat_of(t["power"]), "end_turn", say("prompt_end_turn", power=t["power"]),
                [("end", say("choice_end_turn"))])


@answer("confirm_end")
def _confirmed(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)


# ---------------------------------------------------------------- carrying a step out
def invasions(ctx: Ctx, facts: list[Fact]) -> None:
    for fact in facts:
        if fact[0] == "axis_invasion":
            before = snapshot(ctx.state)
            tracks.advance(ctx, fact[1], "invasion")
            consequences(ctx, before)


def build(ctx: Ctx, power: str, nation: str, kind: str, space: str, price: int) -> Unit:
    """Put a unit on the board (the caller checked it is legal) and apply what follows."""
    state = ctx.state
    before = snapshot(state)
    unit = state.new_unit(nation, kind, space)
    ctx.log("ops_built", power=power, nation=nation, kind=kind, space=space, cost=price)
    consequences(ctx, before)
    return unit


def move(ctx: Ctx, power: str, unit_id: str, dest: str, price: int) -> None:
    """Move a unit (movement.apply_move checks it), then control, VP, Destruction markers,
    Resistance (changes.consequences), and an Axis Invasion (§6.4's effects, in that order)."""
    state = ctx.state
    unit = state.unit(unit_id)
    before = snapshot(state)
    facts = apply_move(state, unit, dest)
    state.turn.setdefault("moved", []).append(unit_id)
    for fact in facts:
        if fact[0] == "moved":
            ctx.log("ops_moved", power=power, nation=unit.nation, kind=unit.kind, start=fact[2], dest=fact[3],
                    cost=price)
        elif fact[0] == "bomber_destroyed":
            ctx.log("ops_bomber_taken", space=fact[2])
    consequences(ctx, before)
    invasions(ctx, facts)


def attack(ctx: Ctx, power: str, origin: str, target: str, price: int) -> None:
    state = ctx.state
    before = snapshot(state)
    facts = apply_attack(state, power, origin, target)
    log_destroyed(ctx, power, facts, price)
    consequences(ctx, before)
    invasions(ctx, facts)


def log_destroyed(ctx: Ctx, power: str, facts: list[Fact], price: int) -> None:
    for fact in facts:
        if fact[0] == "destroyed":
            ctx.log("ops_destroyed", power=power, nation=fact[2], kind=fact[3], space=fact[4], cost=price)


# ---------------------------------------------------------------- the Operations turn
def ops_choices(state: GameState, power: str) -> list[Choice]:
    return [(f"ops:{c}", say("choice_ops", card=c, op=card_value(state, power, c))) for c in state.hand(power)]


def start_ops(ctx: Ctx, power: str, choice: str) -> None:
    state = ctx.state
    card = choice.split(":", 1)[1]
    state.hand(power).remove(card)
    budget = card_value(state, power, card)  # Tactics ±1 included, never below 0 (§6.1, G5)
    ctx.log("ops_played", power=power, card=card, op=budget)
    push_operations(ctx, power, budget, card)


def push_operations(ctx: Ctx, power: str, budget: int, card: str | None, may_save: bool = True) -> None:
    """Spend ``budget`` OP on operations now (an Operations play; a 5/6/7 Tactics event and a
    Peace card pass their own total). The caller has taken ``card`` out of the hand: at the end it
    goes to the discard pile, or lies rotated holding 1 saved OP (``may_save``, §6.1). The power's
    saved OP from an earlier card may be added on the way (even to a 7)."""
    ctx.state.turn["ops"] = {"power": power, "card": card, "op": max(0, budget), "may_save": may_save}
    ctx.push({"k": "operations", "power": power})


def operation_choices(state: GameState, power: str) -> list[Choice]:
    ops = state.turn["ops"]
    left: int = ops["op"]
    out: list[Choice] = []
    if power in state.saved:
        out.append(("saved", say("choice_add_saved", card=state.saved[power])))
    out += build_choices(state, power, left)
    out += move_choices(state, power, left)
    out += attack_choices(state, power, left)
    out += remove_choices(state, power, left)
    # one rotated card at a time: a power still holding one saves nothing more (§6.1)
    if left > 0 and ops["may_save"] and ops["card"] and power not in state.saved:
        out.append(("save", say("choice_save", card=ops["card"])))
    out.append(("done", say("choice_done", op=left)))
    return out


@task("operations")
def _run_operations(ctx: Ctx, t: Task) -> bool:
    state, power = ctx.state, t["power"]
    choices = operation_choices(state, power)
    if len(choices) == 1:  # nothing to spend on, nothing to add or save
        _finish(ctx, t, save=False)
        return False
    undoable = not any(invades(state, power, c) for c, _ in choices)
    return wait(t, state.seat_of(power), "operation",
                say("prompt_operation", power=power, op=state.turn["ops"]["op"], card=state.turn["ops"]["card"]
                    or "none"), choices, undoable=undoable)


@answer("operations")
def _answer_operation(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power = ctx.state, t["power"]
    ops = state.turn["ops"]
    verb, _, rest = choices[0].partition(":")
    if verb == "done":
        _finish(ctx, t, save=False)
    elif verb == "save":
        _finish(ctx, t, save=True)
    elif verb == "saved":
        held = state.saved.pop(power)
        state.discard.append(held)
        ops["op"] += 1
        ctx.log("ops_saved_added", power=power, card=held, op=ops["op"])
    elif verb == "build":
        nation, kind, space = rest.split(":")
        price = cost(state, power, "build_" + kind)
        ops["op"] -= price
        build(ctx, power, nation, kind, space, price)
    elif verb == "move":
        unit_id, dest = rest.split(":")
        price = cost(state, power, "move_" + state.unit(unit_id).kind)
        ops["op"] -= price
        move(ctx, power, unit_id, dest, price)
    elif verb == "attack":
        origin, target = rest.split(":")
        price = next(c for o, x, c in attack_targets(state, power) if o == origin and x == target)
        ops["op"] -= price
        attack(ctx, power, origin, target, price)
    elif verb == "remove":
        _remove(ctx, power, rest)
    else:  # the engine only passes offered choices
        raise ValueError(choices[0])


def _remove(ctx: Ctx, power: str, unit_id: str) -> None:
    """Take the unit off; the next question builds it again (its only purpose, §6.3)."""
    state = ctx.state
    unit = state.unit(unit_id)
    spaces = rebuild_spaces(state, power, unit)
    before = snapshot(state)
    state.units.remove(unit)
    ctx.log("ops_removed", power=power, nation=unit.nation, kind=unit.kind, space=unit.space)
    consequences(ctx, before)
    price = cost(state, power, "build_" + unit.kind)
    options: list[Choice] = [(f"build:{unit.nation}:{unit.kind}:{s}",
                              say("choice_build", nation=unit.nation, kind=unit.kind, space=s, cost=price))
                             for s in spaces]
    ctx.push(ask(state.seat_of(power), say("prompt_rebuild", power=power, kind=unit.kind), options, "ops_rebuild",
                 kind="rebuild", undoable=True, power=power))


@cont("ops_rebuild")
def _rebuild(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power = ctx.state, t["power"]
    _, nation, kind, space = choices[0].split(":")
    price = cost(state, power, "build_" + kind)
    state.turn["ops"]["op"] -= price
    build(ctx, power, nation, kind, space, price)


def _finish(ctx: Ctx, t: Task, save: bool) -> None:
    state, power = ctx.state, t["power"]
    ops = state.turn.pop("ops")
    ctx.pop(t)
    end_turn(ctx, power)
    card = ops["card"]
    if card is None:
        return
    if save:
        state.saved[power] = card
        ctx.log("ops_saved", power=power, card=card, lost=ops["op"] - 1)
    else:
        state.discard.append(card)
        ctx.log("ops_done", power=power, card=card, op=ops["op"])


@view_part
def _ops_view(state: GameState, seat: str | None) -> dict[str, Any]:
    """The card play in progress, public (the card was played face up; the rotated card lies on
    the table, §19.1)."""
    ops = state.turn.get("ops")
    shown = None
    if ops is not None:
        shown = {"power": ops["power"], "card": ops["card"], "op": ops["op"],
                 "saved_op": ops["power"] in state.saved}
    return {"operations": shown}


register_play(Play("ops", ops_choices, start_ops))
