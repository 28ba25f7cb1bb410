"""Recruiting new units (spec §12, U-13.1): the "recruit:<producer>" menu entry.

A producer is a city (the pack's city id: infantry and sappers) or a placed factory (its id: armoured
units and artillery), whichever kinds the Troops Table's "built at" column gives them. It recruits for the
side that controls its area, while that area is not under war status (U-12.1, U-6.2.4: the producer's
area is the one that counts, README). A recruit costs its price (a ledger line), goes onto a free square
of the producer's [BO] where its kind may stand, facing the enemy, and may not act until the turn ends
(``units[..]["new"]``). One unit per move, unless the producer lies in the side's HQ's [BO]: then any
number in that one move (U-12.3), a "recruit another / done" loop. Enemies nearby do not forbid it
(spec §19). A city whose every square is destroyed recruits no more; a factory is one until destroyed."""

from __future__ import annotations

import functools

from app.games.autarcha.deployment import may_stand
from app.games.autarcha.engine import Ctx, Task, answer, task, wait
from app.games.autarcha.flow import MenuEntry, menu_entry
from app.games.autarcha.gold import book, economy
from app.games.autarcha.pack import UNITS, Square, close_surroundings, pack
from app.games.autarcha.setup import FACING_AT_START
from app.games.autarcha.state import SIDE_OF, GameState, at, sid
from app.games.autarcha.text import Label, say, square_choices


def _kinds(built_at: str) -> list[str]:
    data = pack()
    return [k for k in UNITS if data.troops[k].built_at.value == built_at]


def producer_squares(state: GameState, producer: str) -> list[Square] | None:
    """The squares a producer stands on (None: no such producer, or it no longer produces)."""
    data = pack()
    city = data.cities.get(producer)
    if city is not None:
        squares = data.city_squares(city)
        if all(state.is_destroyed(sid(sq), "city") for sq in squares):
            return None
        return squares
    f = state.factories.get(producer)
    if f is None or f["sq"] is None or f["hits"] >= (data.troops["F"].hp.value or 0):
        return None
    return [at(f["sq"])]


def producer_kinds(producer: str) -> list[str]:
    return _kinds("city" if producer in pack().cities else "factory")


def producer_area(producer_sq: list[Square]) -> str | None:
    a = pack().area_of(producer_sq[0])
    return a.id if a else None


@functools.lru_cache(maxsize=256)
def _near(squares: tuple[Square, ...]) -> tuple[str, ...]:
    """The [BO] of a producer's squares, as square ids (the board never changes)."""
    board = pack().board
    near: set[Square] = set()
    for sq in squares:
        near.update(close_surroundings(board, sq))
    return tuple(sid(sq) for sq in sorted(near))


def _taken(state: GameState) -> set[str]:
    return set(state.occupied()) | {f["sq"] for f in state.factories.values() if f["sq"]}


def placements(state: GameState, producer: str, kind: str, taken: set[str] | None = None) -> list[str]:
    """Free squares of the producer's [BO] where ``kind`` may stand (no unit, no factory)."""
    taken = _taken(state) if taken is None else taken
    near = _near(tuple(producer_squares(state, producer) or ()))
    return [s for s in near if s not in taken and may_stand(state, kind, s)]


def may_recruit_at(state: GameState, seat: str, producer: str) -> bool:
    squares = producer_squares(state, producer)
    if squares is None:
        return False
    area = producer_area(squares)
    return area is not None and state.control.get(area) == seat and area not in state.war


def recruitable(state: GameState, seat: str, producer: str, taken: set[str] | None = None) -> list[str]:
    """The kinds ``seat`` can recruit at ``producer`` now: allowed there, paid for, with room to place."""
    if not economy(state) or not may_recruit_at(state, seat, producer):
        return []
    data = pack()
    kinds = [k for k in producer_kinds(producer) if (data.troops[k].cost.value or 0) <= state.gold.get(seat, 0)]
    if not kinds:
        return []
    taken = _taken(state) if taken is None else taken
    near = _near(tuple(producer_squares(state, producer) or ()))
    return [k for k in kinds if any(s not in taken and may_stand(state, k, s) for s in near)]


def hq_bonus(state: GameState, seat: str, producer: str) -> bool:
    """U-12.3: the producer lies in the HQ's [BO]."""
    hq = state.hq(seat)
    squares = producer_squares(state, producer)
    if hq is None or squares is None or state.units[hq]["sq"] is None:
        return False
    near = set(close_surroundings(pack().board, at(state.units[hq]["sq"])))
    return any(sq in near for sq in squares)


def producers(state: GameState) -> list[str]:
    return sorted(pack().cities) + sorted(f for f, d in state.factories.items() if d["sq"] is not None)


def producer_label(state: GameState, producer: str) -> Label:
    city = pack().cities.get(producer)
    if city is not None:
        return say("producer_city", name=city.name)
    return say("producer_factory", square=state.factories[producer]["sq"])


def _offers(state: GameState, seat: str) -> list[tuple[str, Label]]:
    if state.phase != "play" or seat != state.active or not economy(state):
        return []
    taken = _taken(state)
    return [(f"recruit:{p}", say("choice_recruit", producer=producer_label(state, p),
                                  bonus="recruit_bonus" if hq_bonus(state, seat, p) else "recruit_single"))
            for p in producers(state) if recruitable(state, seat, p, taken)]


def _start(ctx: Ctx, seat: str, producer: str) -> None:
    ctx.push({"k": "recruit", "seat": seat, "producer": producer, "bonus": hq_bonus(ctx.state, seat, producer),
              "count": 0})


menu_entry(MenuEntry("recruit", _offers, _start))


@task("recruit")
def _run_recruit(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    seat, producer = t["seat"], t["producer"]
    kinds = recruitable(state, seat, producer)
    if not kinds or (t["count"] and not t["bonus"]):
        ctx.pop(t)
        return False
    label = producer_label(state, producer)
    if "kind" not in t:
        choices: list[tuple[str, Label]] = [(k, say("choice_buy", kind=f"kind_{k}", cost=pack().troops[k].cost.value))
                                            for k in kinds]
        if t["count"]:
            choices.append(("done", say("choice_recruit_done", n=t["count"])))
        t["stage"] = "kind"
        return wait(t, seat, "recruit", say("prompt_recruit", seat=seat, producer=label, gold=state.gold[seat]),
                    choices, undoable=True)
    t["stage"] = "place"
    return wait(t, seat, "place", say("prompt_place", seat=seat, kind=f"kind_{t['kind']}", producer=label),
                square_choices(placements(state, producer, t["kind"])))


@answer("recruit")
def _answer_recruit(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state = ctx.state
    choice = choices[0]
    if t.pop("stage") == "kind":
        if choice == "done":
            ctx.pop(t)
        else:
            t["kind"] = choice
        return
    seat, kind = t["seat"], t.pop("kind")
    cost = pack().troops[kind].cost.value or 0
    unit = state.new_unit(seat, kind, choice, FACING_AT_START[SIDE_OF[seat]])
    state.units[unit]["new"] = True
    book(state, seat, say("ledger_recruit", kind=f"kind_{kind}"), expense=cost)
    t["count"] += 1
    ctx.log("recruited", seat=seat, unit=unit, kind=f"kind_{kind}", square=choice, gold=cost,
            balance=state.gold[seat])
