"""The three movement actions (spec §7, §8, §9): Move, Blitzkrieg move and Strategic move.

A group of units is declared in two small answers: where it goes (``origin>dest`` by land,
``origin~dest`` by sea; when that list would be long, ``from:origin`` first and the destination
next), then how many of each type (``INF:3``, one pick per type). Declared units leave their region
at once. Into an own region they stand there and may not move again this action (A-7.1.6); into a
neutral or another player's region they wait, off the map, as the attacking force (several groups
into one region make one force, A-7.1.5); on a sea route that the sea controller may refuse they
wait on the lane. Only when the mover has finished is the sea controller asked, one decision per
group (A-7.3.4, spec §24), and only then are the battles fought, one by one, in the order the mover
picks (A-7.2, spec §24), each by ``battle.land_battle``.

Every answer before the sea controller is asked or a battle starts reveals nothing and rolls
nothing, so the mover may take it back. Finishing never starts a battle by itself: with battles to
fight, the mover confirms the first one (or goes back to moving), since after it no unit may move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.games.attack.engine import Ctx, Task, answer, ask, cont, task, wait
from app.games.attack.flow import ActionKind, actions_taken, register_action
from app.games.attack.movement import (
    BLITZ,
    MOVE,
    STRATEGIC,
    Target,
    Units,
    add,
    all_targets,
    find_target,
    free_units,
    group_caps,
    needs_permission,
    owns,
    spare,
    targets_from,
)
from app.games.attack.pack import LAND_TYPES
from app.games.attack.state import GameState
from app.games.attack.text import Label, say
from app.games.attack.views import view_part

SPLIT = 40  # more group destinations than this: the mover picks the origin first, then the destination
ACTION_TERM = {MOVE: "action_move", BLITZ: "action_blitz", STRATEGIC: "action_strategic"}


def land_battle(region: str, attacker: str, units: Units) -> Task:
    """BATTLE's task for a land battle; imported here, when the first battle is fought."""
    from app.games.attack import battle

    return battle.land_battle(region, attacker, units)


# ------------------------------------------------------------------ the turn's records
def action(state: GameState) -> dict[str, Any]:
    """The movement action in progress: its groups, the units that moved in, the attacking forces."""
    return state.turn["move_action"]  # type: ignore[no-any-return]


def blocked(state: GameState) -> dict[str, Units]:
    """Units refused at sea this turn, by the region they went back to (A-7.3.4 item 4)."""
    return state.turn.setdefault("move_blocked", {})  # type: ignore[no-any-return]


def units_msg(units: Units) -> list[dict[str, Any]]:
    """Units as a log parameter: "3 × infantry, 1 × tank" in the reader's language."""
    return [{"id": "move_units_n", "params": {"n": units[t], "unit": f"unit_{t}"}} for t in LAND_TYPES
            if units.get(t)]


def colour(state: GameState, seat: str) -> str:
    return state.colours[seat]


# ------------------------------------------------------------------ the actions
def starter(kind: str) -> Callable[[Ctx, str], None]:
    def start(ctx: Ctx, seat: str) -> None:
        ctx.state.turn["move_action"] = {"kind": kind, "groups": [], "moved_in": {}, "attacks": {}, "order": [],
                                         "asked": False, "fought": []}
        blocked(ctx.state)
        ctx.push({"k": "move_pick", "seat": seat}, {"k": "move_sea", "seat": seat},
                 {"k": "move_battles", "seat": seat}, {"k": "move_close", "seat": seat})

    return start


def _blitz_allowed(state: GameState, seat: str) -> bool:
    """A-8.1: only after this turn's Move (whose battles are over before the next action starts)."""
    return MOVE in actions_taken(state)


register_action(ActionKind(MOVE, 10, lambda state, seat: True, starter(MOVE)))
register_action(ActionKind(BLITZ, 20, _blitz_allowed, starter(BLITZ)))
register_action(ActionKind(STRATEGIC, 30, lambda state, seat: True, starter(STRATEGIC)))


# ------------------------------------------------------------------ declaring groups
def target_label(state: GameState, seat: str, target: Target, kind: str) -> Label:
    o, d = target.origin, target.dest
    if kind == STRATEGIC:
        return say("move_choice_strategic_sea" if target.sea else "move_choice_strategic", origin=o, dest=d,
                   n=target.dist)
    attack = "_attack" if not owns(state, seat, d) else ""
    if target.sea:
        return say(f"move_choice_sea{attack}", origin=o, dest=d)
    if target.dist == 1:
        return say(f"move_choice_land{attack}", origin=o, dest=d)
    return say(f"move_choice_land2{attack}", origin=o, dest=d, via=target.via or "",
               units=[f"unit_{t}" for t in target.types])


@task("move_pick")
def _run_pick(ctx: Ctx, t: Task) -> bool:
    state, seat = ctx.state, t["seat"]
    act = action(state)
    kind, moved_in, held = act["kind"], act["moved_in"], blocked(state)
    term = {"id": ACTION_TERM[kind], "params": {}}
    if "from" in t:
        targets = targets_from(state, seat, t["from"], kind, moved_in, held)
        if targets:
            choices = [(x.id, target_label(state, seat, x, kind)) for x in targets]
            choices.append(("back", say("move_choice_back")))
            return wait(t, seat, "move_dest", say("move_prompt_dest", seat=colour(state, seat), action=term,
                                                   origin=t["from"]), choices, undoable=True)
        del t["from"]
    targets = all_targets(state, seat, kind, moved_in, held)
    if not targets:  # nothing left that may move: the moving is over
        ctx.pop(t)
        return False
    if len(targets) > SPLIT:
        origins = list(dict.fromkeys(x.origin for x in targets))
        choices = [(f"from:{o}", say("move_choice_from", origin=o,
                                     n=min(spare(state, o), sum(free_units(state, seat, o, kind, moved_in,
                                                                           held).values()))))
                   for o in origins]
    else:
        choices = [(x.id, target_label(state, seat, x, kind)) for x in targets]
    choices.append(("done", say("move_choice_done")))
    return wait(t, seat, "move", say("move_prompt_pick", seat=colour(state, seat), action=term), choices,
                undoable=True)


@answer("move_pick")
def _picked(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    choice = choices[0]
    if choice == "done":
        ctx.pop(t)
    elif choice == "back":
        t.pop("from", None)
    elif choice.startswith("from:"):
        t["from"] = choice.removeprefix("from:")
    else:
        t.pop("from", None)
        ctx.push({"k": "move_count", "seat": t["seat"], "target": choice})


@task("move_count")
def _run_count(ctx: Ctx, t: Task) -> bool:
    state, seat = ctx.state, t["seat"]
    act = action(state)
    kind = act["kind"]
    target = find_target(state, seat, t["target"], kind, act["moved_in"], blocked(state))
    caps = group_caps(state, seat, target, kind, act["moved_in"], blocked(state)) if target else {}
    if target is None or not caps:  # cannot happen: the target was offered a moment ago
        ctx.pop(t)
        return False
    choices: list[tuple[str, Label]] = [(f"{u}:{n}", say("move_units_n", n=n, unit=f"unit_{u}"))
                                        for u, cap in caps.items() for n in range(1, cap + 1)]
    if len(choices) == 1:
        ctx.pop(t)
        declare(ctx, seat, target, {next(iter(caps)): 1})
        return False
    prompt = "move_prompt_count_again" if t.get("again") else "move_prompt_count"
    return wait(t, seat, "move_count", say(prompt, seat=colour(state, seat), origin=target.origin,
                                           dest=target.dest, n=spare(state, target.origin)),
                choices, lo=1, hi=len(caps), undoable=True)


@answer("move_count")
def _counted(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["seat"]
    act = action(state)
    units: Units = {}
    for choice in choices:  # one pick per type is asked for; of two, the larger stands
        kind, _, n = choice.partition(":")
        units[kind] = max(units.get(kind, 0), int(n))
    target = find_target(state, seat, t["target"], act["kind"], act["moved_in"], blocked(state))
    if target is None:
        ctx.pop(t)
        return
    if sum(units.values()) > spare(state, target.origin):  # the region would be left empty; ask again
        t["again"] = True
        return
    ctx.pop(t)
    declare(ctx, seat, target, units)


def declare(ctx: Ctx, seat: str, target: Target, units: Units) -> None:
    """Units leave ``target.origin``: onto the lane (to wait for the sea controller), into an own region,
    or into the attacking force of a neutral or enemy region."""
    state = ctx.state
    act = action(state)
    state.remove_units(target.origin, units)
    params = {"seat": colour(state, seat), "units": units_msg(units), "origin": target.origin, "dest": target.dest}
    if target.sea and needs_permission(state, seat, units):
        ctx.log("move_on_lane", ruler=colour(state, str(state.sea_controller)), **params)
        # one question per origin and destination (spec §24): a second group on the same lane joins the first
        same = next((g for g in act["groups"] if g["status"] == "on_lane" and (g["from"], g["to"])
                     == (target.origin, target.dest)), None)
        if same is not None:
            for u, n in units.items():
                same["units"][u] = same["units"].get(u, 0) + n
            return
        act["groups"].append({"from": target.origin, "to": target.dest, "sea": True, "via": None,
                              "units": dict(units), "status": "on_lane"})
        return
    group: dict[str, Any] = {"from": target.origin, "to": target.dest, "sea": target.sea, "via": target.via,
                             "units": dict(units), "status": ""}
    act["groups"].append(group)
    attack = arrive(state, seat, target.dest, units)
    group["status"] = "attacking" if attack else "moved"
    ctx.log(f"move_{'sails' if target.sea else 'moves'}{'_attack' if attack else ''}", **params)


def arrive(state: GameState, seat: str, dest: str, units: Units) -> bool:
    """Units reach ``dest``: an own region takes them at once; anywhere else they join the attacking
    force (True) that fights there after all the moves (A-7.1.5, A-7.2)."""
    act = action(state)
    if owns(state, seat, dest):
        state.add_units(dest, seat, units)
        add(act["moved_in"], dest, units)
        return False
    add(act["attacks"], dest, units)
    if dest not in act["order"]:
        act["order"].append(dest)
    return True


# ------------------------------------------------------------------ the sea controller
@task("move_sea")
def _run_sea(ctx: Ctx, t: Task) -> bool:
    """A-7.3.4 items 2–5: after all the moves, before any battle, the sea controller permits or refuses
    each group on a lane."""
    state, seat = ctx.state, t["seat"]
    act = action(state)
    i = next((i for i, g in enumerate(act["groups"]) if g["status"] == "on_lane"), None)
    if i is None:
        ctx.pop(t)
        return False
    group = act["groups"][i]
    if not needs_permission(state, seat, group["units"]):  # cannot happen: sea control holds through an action
        group["status"] = "attacking" if arrive(state, seat, group["to"], group["units"]) else "moved"
        return False
    act["asked"] = True
    t["group"] = i
    ruler = str(state.sea_controller)
    prompt = say("move_prompt_permit", ruler=colour(state, ruler), seat=colour(state, seat),
                 units=units_msg(group["units"]), origin=group["from"], dest=group["to"])
    return wait(t, ruler, "sea_permission", prompt,
                [("permit", say("move_choice_permit")), ("refuse", say("move_choice_refuse"))])


@answer("move_sea")
def _sea_answered(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["seat"]
    i = t.pop("group")
    group = action(state)["groups"][i]
    ruler = colour(state, str(state.sea_controller))
    params = {"ruler": ruler, "seat": colour(state, seat), "origin": group["from"], "dest": group["to"]}
    if choices[0] == "permit":
        attack = arrive(state, seat, group["to"], group["units"])
        group["status"] = "attacking" if attack else "moved"
        ctx.log("move_permitted", units=units_msg(group["units"]), **params)
        return
    planes = group["units"].get("PLN", 0)
    back = {u: n for u, n in group["units"].items() if u != "PLN" and n}
    state.add_units(group["from"], seat, back)
    add(blocked(state), group["from"], back)
    group["status"] = "refused"
    ctx.log("move_refused", units=units_msg(back), **params)
    if planes:  # item 5: planes cannot be refused; their owner says whether they fly on
        group["planes"] = "asked"
        ctx.push(ask(seat, say("move_prompt_planes", seat=colour(state, seat), units=units_msg({"PLN": planes}),
                               origin=group["from"], dest=group["to"]),
                     [("on", say("move_choice_planes_on", dest=group["to"])),
                      ("back", say("move_choice_planes_back", origin=group["from"]))],
                     "move_planes", kind="planes_refused", group=i))


@cont("move_planes")
def _planes(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["seat"]
    group = action(state)["groups"][t["group"]]
    planes = {"PLN": group["units"]["PLN"]}
    params = {"seat": colour(state, seat), "units": units_msg(planes), "origin": group["from"], "dest": group["to"]}
    if choices[0] == "on":
        group["planes"] = "on"
        attack = arrive(state, seat, group["to"], planes)
        ctx.log("move_planes_on_attack" if attack else "move_planes_on", **params)
    else:  # the planes turn back with the army; they were not refused, so they are not held (item 5)
        group["planes"] = "back"
        state.add_units(group["from"], seat, planes)
        ctx.log("move_planes_back", **params)


# ------------------------------------------------------------------ the battles
@task("move_battles")
def _run_battles(ctx: Ctx, t: Task) -> bool:
    """A-7.2: the battles come after every move and every sea permission, one at a time, in the order
    the mover chooses (spec §24). Before the first, the mover may still go back to moving, unless the
    sea controller has already been asked."""
    state, seat = ctx.state, t["seat"]
    act = action(state)
    left = [r for r in act["order"] if r in act["attacks"]]
    if not left:
        ctx.pop(t)
        return False
    choices: list[tuple[str, Label]] = [(f"battle:{r}", say("move_choice_battle", region=r)) for r in left]
    confirm = not act["asked"] and not act["fought"]
    if confirm:
        choices.append(("back", say("move_choice_keep_moving")))
    elif len(left) == 1:
        fight(ctx, seat, left[0])
        return False
    prompt = "move_prompt_battles" if confirm else "move_prompt_next_battle"
    return wait(t, seat, "battle_order", say(prompt, seat=colour(state, seat), n=len(left)), choices)


@answer("move_battles")
def _battle_chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    seat = t["seat"]
    if choices[0] == "back":
        ctx.push({"k": "move_pick", "seat": seat}, {"k": "move_sea", "seat": seat})
        return
    fight(ctx, seat, choices[0].removeprefix("battle:"))


def fight(ctx: Ctx, seat: str, region: str) -> None:
    """The attacking force leaves the record for BATTLE, which puts the survivors in the region."""
    act = action(ctx.state)
    units = act["attacks"].pop(region)
    act["fought"].append(region)
    ctx.push(land_battle(region, seat, units))


@task("move_close")
def _run_close(ctx: Ctx, t: Task) -> bool:
    ctx.pop(t)
    ctx.state.turn.pop("move_action", None)
    return False


# ------------------------------------------------------------------ what every seat sees
@view_part
def _movement_view(state: GameState, seat: str | None) -> dict[str, Any]:
    """The groups declared so far this action (arrows on the map; a group ``on_lane`` waits for the sea
    controller), the forces waiting to attack, and the units held back at sea this turn: all public."""
    act = state.turn.get("move_action") if state.turn else None
    return {"movement": {
        "action": act["kind"] if act else None,
        "groups": [dict(g) for g in act["groups"]] if act else [],
        "attacks": [{"region": r, "units": dict(act["attacks"][r])} for r in act["order"] if r in act["attacks"]]
        if act else [],
        "blocked": {r: dict(u) for r, u in sorted((state.turn or {}).get("move_blocked", {}).items()) if u},
    }}
