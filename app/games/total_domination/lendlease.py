"""Lend-Lease, the Allies' special action (spec §9.2, §13.2; rulebook §9.1, §11.2).

Once per round, as its whole turn, the UK (USA track) or the USSR (China track) discards exactly one
card to move the country's marker one space towards joining; the card on top of the country's deck
is set aside for the next draft (hidden from the others; the draft adds it to the first pick), and
a power that did Lend-Lease keeps no reserve when it passes (flow's pass rule). Not once the
country has joined, nor in Rise of the Axis. With U-boats on the board the discarded card must be
worth 4 / 5 / 6 OP for 1 / 2 / 3 flotillas (a 4th or later changes nothing: gap G6); the Tactics
cards count, a saved OP never does.
"""

from __future__ import annotations

from typing import Any

from app.games.total_domination import tracks
from app.games.total_domination.changes import consequences, snapshot
from app.games.total_domination.costs import card_value
from app.games.total_domination.engine import Ctx
from app.games.total_domination.flow import Play, register_play
from app.games.total_domination.state import GameState
from app.games.total_domination.text import Label, say
from app.games.total_domination.views import view_part

TRACK_OF = {"uk": "usa", "ussr": "china"}


def uboats_on_board(state: GameState) -> int:
    return sum(1 for u in state.units if u.kind == "uboat")


def minimum(state: GameState) -> int:
    """The least card value Lend-Lease takes: any card, or 4 / 5 / 6 with 1 / 2 / 3+ U-boats."""
    n = uboats_on_board(state)
    return 0 if n == 0 else min(6, 3 + n)


def may_lend_lease(state: GameState, power: str) -> bool:
    nation = TRACK_OF.get(power)
    return (nation is not None and not state.automa(power) and power not in state.lend_lease
            and state.options.get("scenario") != "rise_of_the_axis"
            and state.controller.get(nation) == "nonaligned")


def eligible_cards(state: GameState, power: str) -> list[str]:
    if not may_lend_lease(state, power):
        return []
    least = minimum(state)
    return [c for c in state.hand(power) if card_value(state, power, c) >= least]


def _choices(state: GameState, power: str) -> list[tuple[str, Label]]:
    return [(f"lendlease:{c}", say("choice_lend_lease", card=c, nation=TRACK_OF[power]))
            for c in eligible_cards(state, power)]


def _start(ctx: Ctx, power: str, choice: str) -> None:
    state = ctx.state
    card_id = choice.split(":", 1)[1]
    nation = TRACK_OF[power]
    state.hand(power).remove(card_id)
    state.discard.append(card_id)
    state.lend_lease.append(power)
    ctx.log("log_lend_lease", power=power, card=card_id, nation=nation)
    before = snapshot(state)  # joining hands the country's spaces and VP to the Allies at once
    got = tracks.advance(ctx, nation, "lend_lease")
    if got is not None:
        hid = state.hand_of[power]
        state.set_aside.setdefault(hid, []).append(got)
        seat = state.seats.get(power, "")
        ctx.log("log_lend_lease_card", private={seat: say("log_lend_lease_card_private", card=got)} if seat else None,
                power=power, nation=nation)
    consequences(ctx, before)


register_play(Play("lendlease", _choices, _start))


@view_part
def _view(state: GameState, seat: str | None) -> dict[str, Any]:
    return {"lend_lease_minimum": minimum(state)}
