"""Areas: control, war status and the area cards (spec §6.1-6.2, §19), after every move and after setup.

* U-6.1: a side controls an area where only its own land units are, or were last; leaving keeps control
  until an enemy enters. While both sides stand in an area nobody controls it.
* U-6.2.2: both sides' units in one area put it under war status: no income from it, its card back to
  the pool.
* U-6.2.1: a unit that enters an area with no enemy in it (moved, carried or recruited there from outside
  it) takes the area's card for its side, from the pool or from the opponent who left it.
* U-6.2.3 and §19's default for a vacated war area: when only one side is left in it (the other destroyed
  or gone), that side takes the card.

A card the active side takes goes into ``state.gained``: it pays from the next turn (U-6.3.3). Every
transfer is logged (spec §20.3: "worth showing as events"). Skirmish has no economy: nothing here runs.
The areas each unit stood in after the last check are kept in ``state.flags["unit_areas"]`` to tell
entering from staying."""

from __future__ import annotations

from app.games.autarcha.engine import Ctx
from app.games.autarcha.flow import after_move
from app.games.autarcha.pack import pack
from app.games.autarcha.state import GameState, at


def area_of_square(square: str) -> str | None:
    a = pack().area_of(at(square))
    return a.id if a else None


def presence(state: GameState) -> dict[str, set[str]]:
    """Area -> the seats with land units in it (every unit of the game is a land unit)."""
    out: dict[str, set[str]] = {}
    for d in state.units.values():
        if d["sq"] is not None:
            area = area_of_square(d["sq"])
            if area:
                out.setdefault(area, set()).add(d["seat"])
    return out


def update_areas(ctx: Ctx, *, gains: bool = True) -> None:
    """Bring control, war status and the cards up to date with the units on the board. ``gains=False``
    (after deployment) sets control and war status only: placing is not entering (U-6.2.1)."""
    state = ctx.state
    data = pack()
    if not data.scenarios[state.scenario].economy:
        return
    where = {u: area_of_square(d["sq"]) for u, d in state.units.items() if d["sq"] is not None}
    before: dict[str, str | None] = state.flags.get("unit_areas", {})
    entered: dict[str, set[str]] = {}
    for u, area in where.items():
        if area and (u not in before or before[u] != area):
            entered.setdefault(area, set()).add(state.units[u]["seat"])
    present = presence(state)
    for area in sorted(data.areas):
        seats = present.get(area, set())
        if len(seats) > 1:
            if area not in state.war:
                state.war.append(area)
                ctx.log("war_begins", area=area)
                holder = state.cards.get(area)
                if holder:
                    state.cards[area] = None
                    ctx.log("card_to_pool", seat=holder, area=area)
            if state.control.get(area) is not None:
                state.control[area] = None
            continue
        was_war = area in state.war
        if was_war:
            state.war.remove(area)
            ctx.log("war_ends", area=area)
        if not seats:
            if was_war:
                state.control[area] = None
            continue
        (seat,) = seats
        if state.control.get(area) != seat:
            state.control[area] = seat
            ctx.log("control_gained", seat=seat, area=area)
        if gains and (was_war or seat in entered.get(area, ())) and state.cards.get(area) != seat:
            _take_card(ctx, seat, area)
    state.flags["unit_areas"] = where


def _take_card(ctx: Ctx, seat: str, area: str) -> None:
    state = ctx.state
    holder = state.cards.get(area)
    state.cards[area] = seat
    if seat == state.active and area not in state.gained:
        state.gained.append(area)
    gold = pack().areas[area].gold
    if holder:
        ctx.log("card_handed_over", seat=seat, other=holder, area=area, gold=gold)
    else:
        ctx.log("card_taken", seat=seat, area=area, gold=gold)


@after_move
def _after_move(ctx: Ctx) -> None:
    update_areas(ctx)
