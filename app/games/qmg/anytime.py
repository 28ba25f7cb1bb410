"""Voluntary removal at any moment (rulebook: "W dowolnym momencie gry, nawet podczas ruchu
innego gracza, dowolny gracz może usunąć dowolną liczbę własnych jednostek z planszy").

An any-time (optional) decision for every seat with a unit it may take off: nobody waits
for it. It is offered at the safe points between atomic steps, which are the action-phase
prompts of any country: then no card, battle or reaction is half resolved, so nothing on
the stack can refer to the unit that goes. The country whose action prompt it is already
has the same removal among that prompt's choices. Units a card protects this turn stay.
"""

from __future__ import annotations

from app.games.protocol import Choice, Decision, Illegal
from app.games.qmg import board
from app.games.qmg.data import COUNTRIES
from app.games.qmg.engine import Ctx, current, run
from app.games.qmg.state import GameState
from app.games.qmg.text import english, say

PREFIX = "anytime-remove:"


def removal_decisions(state: GameState) -> list[Decision]:
    t = current(state)
    if t is None or t["k"] != "action":
        return []
    acting = t["c"]
    out = []
    for seat in dict.fromkeys(state.seats[c] for c in COUNTRIES):
        choices = [Choice(id=f"{c}:{s}", label=english(m), msg=m)
                   for c in state.countries_of(seat) if c != acting
                   for s in state.units_of(c) if not state.is_protected(s, c)
                   for m in [say(f"take_off_{board.kind_at(s)}_choice", country=c, space=s)]]
        if choices:
            prompt = say("any_time_removal_prompt")
            out.append(Decision(id=f"{PREFIX}{seat}", seat=seat, kind="remove_any_time", prompt=english(prompt),
                                prompt_msg=prompt, choices=tuple(choices), optional=True))
    return out


def is_removal(decision_id: str) -> bool:
    return decision_id.startswith(PREFIX)


def apply_removal(ctx: Ctx, seat: str, decision_id: str, choices: tuple[str, ...]) -> None:
    offered = next((d for d in removal_decisions(ctx.state) if d.id == decision_id), None)
    if offered is None or offered.seat != seat:
        raise Illegal("taking a unit off the board is offered between steps, at an action-phase prompt; not now",
                      msg=say("illegal_removal_not_now"))
    if len(choices) != 1 or choices[0] not in offered.choice_ids():
        raise Illegal(f"choose one of your units to take off: {', '.join(offered.choice_ids())}",
                      msg=say("illegal_removal_pick"))
    country, _, space = choices[0].partition(":")
    ctx.state.lift(space, country)
    ctx.log("takes_unit_off", country=country, unit=board.kind_at(space), space=space)
    # the pending prompt may have offered builds or battles that relied on that unit: ask it again,
    # under a new decision id, so an answer sent before the removal is refused as stale
    ctx.state.step += 1
    run(ctx)
