"""Land mines (spec §11.2-11.3, §13.7): sappers lay them in secret, they go off when an enemy unit enters
their square and their owner calls them, sappers sweep for them.

A mine is ``{"id", "sq", "call"}`` in ``state.mines[owner]``, the owner's handheld map: nobody else learns
its square until it goes off or a sweep finds it. Its ``id`` ("mine-white-3") travels with its square
wherever the square is shown (the owner's view, the owner's private log lines, the owner's decisions), so
the value-level secret (``secret_part``: the square, near the id) catches the square in any channel the
other seat receives, while the same square under a unit, in a movement choice or in a log line about
movement stays the public fact it is.

The call (U-10.3.3, U-11.2.5-6) is the owner's: each mine has a standing answer, "fire" (the default) or
"hold" (stay silent, let the unit pass), that the owner may change at any moment through an any-time
decision ("mine-call:<seat>"); when an enemy unit enters the square the standing answer is applied at
once. README ("Rules: attacks, mines and sappers") says why it is a standing call and not a live window.
"""

from __future__ import annotations

from typing import Any

from app.games.autarcha import anytime, attacks, flow
from app.games.autarcha.engine import Ctx, Task, answer, task, wait
from app.games.autarcha.pack import DEMINE_SQUARES, MINE_STRENGTH, Square, pack
from app.games.autarcha.state import GameState, at
from app.games.autarcha.text import english, say
from app.games.autarcha.views import secret_part, view_part
from app.games.protocol import Choice, Decision
from app.games.secrets import Secret

CALLS: tuple[str, ...] = ("fire", "hold")
CALL_PREFIX = "mine-call:"


# ------------------------------------------------------------------ laying (U-11.2.1-4)
def mine_cost(state: GameState) -> int:
    """The mine's price in the Troops Table (1 G), paid where the scenario has an economy."""
    cost = pack().troops["MINE"].cost.value
    return cost if cost is not None and pack().scenarios[state.scenario].economy else 0


def mine_squares(state: GameState, unit: str) -> list[str]:
    """Where the sapper may lay a mine now: a square of its [BO] no unit stands on, that is not in any
    enemy unit's [BO], whose landscape takes a mine, and that its side has not mined already. The enemy's
    mines are not considered: refusing their squares would give them away (spec §20.2)."""
    state_u = state.units[unit]
    seat = state_u["seat"]
    mine = pack().troops["MINE"]
    occupied = state.occupied()
    banned = attacks.enemy_zone(state, seat)
    return sorted(s for s in attacks.close_to(state_u["sq"])
                  if s not in occupied and s not in banned and state.mine_at(seat, s) is None
                  and mine.may_stand_on(attacks.landscape(state, s)))


def sapper_may_work(state: GameState, unit: str) -> bool:
    """A sapper on the board, not in any enemy unit's [BO] (U-11.1.4; spec §19: the sapper's square too)."""
    d = state.units[unit]
    return d["kind"] == "SAP" and d["sq"] is not None and not attacks.near_enemy(state, d["seat"], d["sq"])


def may_mine(state: GameState, unit: str) -> bool:
    d = state.units[unit]
    return (sapper_may_work(state, unit) and state.flags.get("mined", {}).get(unit) != state.turn
            and state.gold.get(d["seat"], 0) >= mine_cost(state) and bool(mine_squares(state, unit)))


@task("mine")
def _run_mine(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    u = t["unit"]
    d = state.units[u]
    choices = [(s, say("choice_mine_square", square=s)) for s in mine_squares(state, u)]
    return wait(t, d["seat"], "mine_at", say("prompt_mine_at", unit=u, kind=f"kind_{d['kind']}", square=d["sq"]),
                choices)


@answer("mine")
def _mine_laid(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    lay_mine(ctx, t["unit"], choices[0])


def lay_mine(ctx: Ctx, unit: str, square: str) -> str:
    """The sapper ``unit`` lays a mine on ``square`` (already found legal): its side's handheld map gets it
    with a fresh id and the standing "fire" call, the price goes in the ledger, the public line names no
    square. Single mining and a formation's mining (U-8.1.11) both lay through here. Returns the mine's id."""
    state = ctx.state
    seat = state.units[unit]["seat"]
    laid = state.flags.setdefault("mines_laid", {})
    laid[seat] = laid.get(seat, 0) + 1
    mine_id = f"mine-{seat}-{laid[seat]}"
    state.mines.setdefault(seat, []).append({"id": mine_id, "sq": square, "call": "fire"})
    state.flags.setdefault("mined", {})[unit] = state.turn
    cost = mine_cost(state)
    if cost:
        attacks.note(state, seat, say("ledger_mine"), expense=cost)
    ctx.log("mine_laid", private={seat: say("mine_laid_private", seat=seat, unit=unit, square=square, mine=mine_id)},
            seat=seat, unit=unit, kind=f"kind_{state.units[unit]['kind']}")
    return mine_id


# ------------------------------------------------------------------ mining by a formation (U-8.1.11, U-11.2.2)
def mine_layers(state: GameState, members: list[str]) -> list[str]:
    """The members of a formation that lay a mine when it mines: its sappers (the others lay nothing)."""
    return [u for u in members if state.units[u]["kind"] == "SAP"]


def formation_mine_offsets(state: GameState, members: list[str]) -> list[Square]:
    """Where a formation may mine now, as offsets from each sapper (U-8.1.9 applied to mining): every
    sapper member lays its mine at the same place relative to itself, so an offset is offered only when it
    is a square ``mine_squares`` allows for every one of them (its [BO], no unit, not in an enemy's [BO],
    a landscape a mine may be on), each sapper may work and has not mined this turn, and the side can pay
    for every mine. No sapper: nothing."""
    sappers = mine_layers(state, members)
    if not sappers:
        return []
    seat = state.units[sappers[0]]["seat"]
    if state.gold.get(seat, 0) < mine_cost(state) * len(sappers):
        return []
    shared: set[Square] | None = None
    for u in sappers:
        if not sapper_may_work(state, u) or state.flags.get("mined", {}).get(u) == state.turn:
            return []
        r, c = at(state.units[u]["sq"])
        own = {(at(s)[0] - r, at(s)[1] - c) for s in mine_squares(state, u)}
        shared = own if shared is None else shared & own
    return sorted(shared or ())


# ------------------------------------------------------------------ the call (U-10.3.3, U-11.2.5-7)
def _call_offers(state: GameState) -> list[Decision]:
    if state.phase != "play":
        return []
    out = []
    for seat in state.seats:
        choices = []
        for m in state.mines.get(seat, []):
            other = "hold" if m["call"] == "fire" else "fire"
            msg = say(f"choice_mine_{other}", square=m["sq"], mine=m["id"])
            choices.append(Choice(id=f"{m['id']}:{other}", label=english(msg), msg=msg))
        if choices:
            prompt = say("prompt_mine_call")
            out.append(Decision(id=f"{CALL_PREFIX}{seat}", seat=seat, kind="mine_call", prompt=english(prompt),
                                prompt_msg=prompt, choices=tuple(choices), min=1, max=len(choices), optional=True))
    return out


def _take_call(ctx: Ctx, seat: str, decision_id: str, choices: tuple[str, ...]) -> None:
    # no log line: even a public "a call changed" would tell the other seat when its units are watched
    for c in choices:
        mine_id, _, call = c.rpartition(":")
        for m in ctx.state.mines.get(seat, []):
            if m["id"] == mine_id:
                m["call"] = call


anytime.reaction(CALL_PREFIX, _call_offers, _take_call)


@flow.on_enter
def _entered(ctx: Ctx, unit: str, square: str) -> bool:
    """An enemy unit entered ``square``: the owner's standing call decides at once. Own mines never hit own
    units (spec §19); a mine that goes off ends the victim's movement (spec §19)."""
    state = ctx.state
    owner = state.other(state.units[unit]["seat"])
    m = state.mine_at(owner, square)
    if m is None or m["call"] != "fire":
        return False  # bypassed (U-11.2.6): it stays, and nothing is said
    state.mines[owner].remove(m)
    state.see(state.other(owner), m["id"])
    d = state.units[unit]
    ctx.log("mine_fired", seat=owner, unit=unit, kind=f"kind_{d['kind']}", square=square)
    attacks.hit(ctx, square, MINE_STRENGTH, "mine", reach="all")  # the unit and the object under it (U-11.2.7)
    return True


# ------------------------------------------------------------------ demining (U-11.3)
def demine_squares(state: GameState, unit: str) -> list[str]:
    """The squares a sweep may name: the sapper's [BO], outside every enemy unit's [BO]."""
    d = state.units[unit]
    return sorted(attacks.close_to(d["sq"]) - attacks.enemy_zone(state, d["seat"]))


def may_demine(state: GameState, unit: str) -> bool:
    return sapper_may_work(state, unit) and bool(demine_squares(state, unit))


@task("demine")
def _run_demine(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    u = t["unit"]
    d = state.units[u]
    squares = demine_squares(state, u)
    n = min(DEMINE_SQUARES, len(squares))
    return wait(t, d["seat"], "demine_at", say("prompt_demine_at", unit=u, kind=f"kind_{d['kind']}",
                                               square=d["sq"], count=n),
                [(s, say("choice_demine_square", square=s)) for s in squares], lo=n, hi=n)


@answer("demine")
def _swept(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state = ctx.state
    ctx.pop(t)
    u = t["unit"]
    seat = state.units[u]["seat"]
    foe = state.other(seat)
    found = [m for m in state.mines.get(foe, []) if m["sq"] in choices]
    for m in found:
        state.mines[foe].remove(m)
    state.see(seat, *(m["id"] for m in found))
    swept = ", ".join(sorted(choices))
    if found:
        ctx.log("demine_found", seat=seat, unit=u, squares=swept, found=", ".join(sorted(m["sq"] for m in found)),
                n=len(found))
    else:
        ctx.log("demine_nothing", seat=seat, unit=u, squares=swept)


# ------------------------------------------------------------------ the unit actions
flow.unit_action(flow.UnitAction("mine", may_mine, lambda u: [{"k": "mine", "unit": u}]))
flow.unit_action(flow.UnitAction("demine", may_demine, lambda u: [{"k": "demine", "unit": u}]))


# ------------------------------------------------------------------ what each seat sees
@view_part
def _own_mines(state: GameState, seat: str | None) -> dict[str, Any]:
    """A seat's own handheld map; nobody else's (U-11.2.4)."""
    return {"mines": [dict(m) for m in state.mines.get(seat, [])] if seat is not None else []}


@secret_part
def _enemy_mines(state: GameState, seat: str) -> list[Secret]:
    known = state.seen.get(seat, [])
    return [Secret(place=f"{owner}'s mine {m['id']}", value=m["sq"], near=m["id"])
            for owner in state.seats if owner != seat
            for m in state.mines.get(owner, []) if m["id"] not in known]
