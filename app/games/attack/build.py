"""The Build action (spec §20, A-18.3, A-17.6): count production points, spend them, place the new units.

Production points exist only inside the action (A-20.4): the pool, what was bought and what is
still to be placed live in ``state.turn["build"]`` while it runs and go with it. Purchases are made
one line at a time ("INF:3": three infantry), so every answer is small and may be taken back."""

from __future__ import annotations

from typing import Any

from app.games.attack.engine import Ctx, Task, answer, task, wait
from app.games.attack.flow import ActionKind, register_action
from app.games.attack.pack import CAPITAL_PP, COSTS, LAND_TYPES, NAVY_TYPES, SET_TYPES, pack
from app.games.attack.state import GameState
from app.games.attack.text import Label, say
from app.games.attack.views import view_part

BUY_STEPS = 10  # the largest count offered on one line: more is a second purchase
CHEAPEST = min(COSTS.values())


def production(state: GameState, seat: str) -> dict[str, Any]:
    """A-20.2: the PP ``seat`` would have now. ``capitals``: capitals it controls, its own or captured
    (A-18.3); ``sets``: the disjoint OIL+MIN+FAC+RAIL sets counted double (A-17.6), the combination
    worth most (spec §24: any number of sets); ``single``: the cards counted once (Population always)."""
    capitals = sum(1 for region in state.capitals.values() if state.owner.get(region) == seat)
    econ = pack().econ
    hand = [c for c in state.hands.get(seat, []) if c in econ]
    # best first (value, then id so the pick is the same on every machine)
    by_type = {t: sorted((c for c in hand if econ[c].type == t), key=lambda c: (-econ[c].value, c)) for t in SET_TYPES}
    # every card is worth at least 1, so the most sets, each made of the highest cards of its type, is best
    n_sets = min(len(cards) for cards in by_type.values())
    sets = [[by_type[t][i] for t in SET_TYPES] for i in range(n_sets)]
    in_sets = {c for s in sets for c in s}
    single = sorted((c for c in hand if c not in in_sets), key=lambda c: (econ[c].type, -econ[c].value, c))
    pp = CAPITAL_PP * capitals + sum(2 * econ[c].value for c in in_sets) + sum(econ[c].value for c in single)
    return {"pp": pp, "capitals": capitals, "sets": sets, "single": single}


def navy_left(state: GameState, kind: str) -> int | None:
    """Navy cards of ``kind`` left to buy (None: no limit, the spec §24 default)."""
    limit = pack().navy_limit
    if limit is None:
        return None
    return max(0, limit.get(kind, 0) - sum(n.get(kind, 0) for n in state.navy.values()))


def buyable(state: GameState, left: int) -> list[tuple[str, int]]:
    """(type, most affordable) for each item the pool still pays for."""
    out: list[tuple[str, int]] = []
    for kind in (*LAND_TYPES, *NAVY_TYPES):
        most = left // COSTS[kind]
        stock = navy_left(state, kind) if kind in NAVY_TYPES else None
        if stock is not None:
            most = min(most, stock)
        if most > 0:
            out.append((kind, min(most, BUY_STEPS)))
    return out


def _allowed(state: GameState, seat: str) -> bool:
    # a Build with less than the cheapest item buys nothing: not offered (README, ECONOMY)
    return production(state, seat)["pp"] >= CHEAPEST


def _start(ctx: Ctx, seat: str) -> None:
    state = ctx.state
    prod = production(state, seat)
    state.turn["build"] = {"seat": seat, "pp": prod["pp"], "left": prod["pp"], "bought": {}, "to_place": {}}
    colour = state.colours[seat]
    ctx.log("build_begins", private={seat: say("build_pp", seat=colour, pp=prod["pp"], capitals=prod["capitals"],
                                               capital_pp=CAPITAL_PP * prod["capitals"], sets=len(prod["sets"]),
                                               set_pp=_set_pp(prod), single_pp=prod["pp"] - CAPITAL_PP
                                               * prod["capitals"] - _set_pp(prod))},
            seat=colour)
    ctx.push({"k": "build_buy", "seat": seat}, {"k": "build_place", "seat": seat}, {"k": "build_end", "seat": seat})


def _set_pp(prod: dict[str, Any]) -> int:
    econ = pack().econ
    return sum(2 * econ[c].value for s in prod["sets"] for c in s)


@task("build_buy")
def _run_buy(ctx: Ctx, t: Task) -> bool:
    """A-20.5: one purchase line at a time from the one pool, until the seat stops or nothing is affordable."""
    state, seat = ctx.state, t["seat"]
    b = state.turn["build"]
    lines = buyable(state, b["left"])
    if not lines:
        ctx.pop(t)
        return False
    colour = state.colours[seat]
    choices: list[tuple[str, Label]] = [
        (f"{kind}:{n}", say("choice_buy", n=n, unit=f"unit_{kind}", cost=n * COSTS[kind]))
        for kind, most in lines for n in range(1, most + 1)]
    choices.append(("done", say("choice_buy_done", left=b["left"])))
    return wait(t, seat, "build_buy", say("prompt_buy", seat=colour, left=b["left"], pp=b["pp"]), choices,
                undoable=True)


@answer("build_buy")
def _bought(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["seat"]
    if choices[0] == "done":
        ctx.pop(t)
        return
    kind, n = choices[0].split(":")
    count = int(n)
    b = state.turn["build"]
    b["left"] -= count * COSTS[kind]
    b["bought"][kind] = b["bought"].get(kind, 0) + count
    if kind in NAVY_TYPES:
        # the same pool of cards whether they lie in the centre (the sea controller's) or in front of the buyer
        fleet = state.navy.setdefault(seat, {})
        fleet[kind] = fleet.get(kind, 0) + count
    else:
        b["to_place"][kind] = b["to_place"].get(kind, 0) + count
    ctx.log("build_bought", seat=state.colours[seat], n=count, unit=f"unit_{kind}", cost=count * COSTS[kind])


@task("build_place")
def _run_place(ctx: Ctx, t: Task) -> bool:
    """A-20.6: the new land units go into any regions the seat controls, no limit per region."""
    state, seat = ctx.state, t["seat"]
    b = state.turn["build"]
    todo = {k: n for k, n in b["to_place"].items() if n}
    regions = state.regions_of(seat)
    if not todo or not regions:
        ctx.pop(t)
        return False
    if len(regions) == 1:
        _place(ctx, seat, regions[0], todo)
        return False
    choices: list[tuple[str, Label]] = []
    for region in regions:
        choices += [(f"{region}:{k}", say("choice_place_one", unit=f"unit_{k}", region=region))
                    for k in LAND_TYPES if todo.get(k)]
        if sum(todo.values()) > 1:
            choices.append((f"{region}:all", say("choice_place_all", region=region)))
    left = sum(todo.values())
    return wait(t, seat, "build_place", say("prompt_build_place", seat=state.colours[seat], n=left), choices,
                undoable=True)


@answer("build_place")
def _placed(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["seat"]
    region, what = choices[0].split(":")
    todo = {k: n for k, n in state.turn["build"]["to_place"].items() if n}
    _place(ctx, seat, region, todo if what == "all" else {what: 1})


def _place(ctx: Ctx, seat: str, region: str, units: dict[str, int]) -> None:
    state = ctx.state
    b = state.turn["build"]
    state.add_units(region, seat, units)
    for k, n in units.items():
        b["to_place"][k] -= n
        if not b["to_place"][k]:
            del b["to_place"][k]
    for k in LAND_TYPES:
        if units.get(k):
            ctx.log("build_placed", seat=state.colours[seat], n=units[k], unit=f"unit_{k}", region=region)


@task("build_end")
def _run_end(ctx: Ctx, t: Task) -> bool:
    """A-20.4: what is not spent is lost."""
    state, seat = ctx.state, t["seat"]
    ctx.pop(t)
    b = state.turn.pop("build", None) or {}
    colour = state.colours[seat]
    # how much was lost says something of the hand's worth: only the builder reads it
    ctx.log("build_ends", private={seat: say("build_ends_private", seat=colour, left=b.get("left", 0))}, seat=colour)
    return False


@view_part
def _economy_view(state: GameState, seat: str | None) -> dict[str, Any]:
    """The seat's own hand in full and what it would produce; a Build in progress (its pool only to the builder)."""
    out: dict[str, Any] = {}
    if seat is not None and seat in state.hands:
        econ = pack().econ
        out["hand_cards"] = [{"id": c, "type": econ[c].type, "value": econ[c].value, "name": econ[c].name,
                              "name_pl": econ[c].name_pl} for c in state.hands[seat] if c in econ]
        out["production"] = production(state, seat)
    b = state.turn.get("build")
    if b:
        out["build"] = {"seat": b["seat"], "bought": dict(b["bought"]), "to_place": dict(b["to_place"]),
                        "costs": dict(COSTS)}
        if seat == b["seat"]:
            out["build"].update(pp=b["pp"], left=b["left"], breakdown=production(state, seat))
    return out


register_action(ActionKind("BUILD", order=60, allowed=_allowed, start=_start))
