"""Gold and the handheld ledger (spec §6.3-6.4).

Collecting is a menu entry ("collect"), once per active turn, at any point of it (issue 14: not only at
its start), and one of the five moves only when the table's option ``collect_costs_move`` says so (the
book is torn between "zbieranie złota i pięć ruchów" and "the first special operation"). The income is
the gold on the seat's area cards, less the areas gained this turn (U-6.3.3) and those under war status
(whose cards are back in the pool anyway, U-6.2.2); without the HQ there is none (U-6.3.5). A turn that
ends without collecting forfeits it (U-6.3.4), and the log says so.

Every change of a balance goes through ``book``: one ledger line per start, purchase, income or expense,
with the balance after it (U-6.4.1; the book's sample ledger is test LEDGER-EX)."""

from __future__ import annotations

from typing import Any

from app.games.autarcha.engine import Ctx
from app.games.autarcha.flow import MenuEntry, menu_entry, turn_end
from app.games.autarcha.pack import pack
from app.games.autarcha.state import GameState
from app.games.autarcha.text import Label, as_json, say


def book(state: GameState, seat: str, what: Label, income: int = 0, expense: int = 0) -> dict[str, Any]:
    """Write one ledger line and move the balance by it."""
    state.gold[seat] = state.gold.get(seat, 0) + income - expense
    line = {"turn": state.turn, "what": as_json(what), "income": income, "expense": expense,
            "balance": state.gold[seat]}
    state.ledger.setdefault(seat, []).append(line)
    return line


def economy(state: GameState) -> bool:
    return pack().scenarios[state.scenario].economy


def income(state: GameState, seat: str) -> int:
    """What ``seat`` would collect now."""
    if not economy(state) or state.hq(seat) is None:
        return 0
    areas = pack().areas
    skip = set(state.war) | (set(state.gained) if seat == state.active else set())
    return sum(areas[a].gold for a, holder in state.cards.items() if holder == seat and a not in skip)


def _offers(state: GameState, seat: str) -> list[tuple[str, Label]]:
    if state.phase != "play" or seat != state.active or state.collected:
        return []
    gold = income(state, seat)
    return [("collect", say("choice_collect", gold=gold))] if gold > 0 else []


def _collect(ctx: Ctx, seat: str, arg: str) -> None:
    state = ctx.state
    gold = income(state, seat)
    state.collected = True
    n = sum(1 for a, h in state.cards.items() if h == seat and a not in state.war and a not in state.gained)
    book(state, seat, say("ledger_areas", n=n), income=gold)
    ctx.log("gold_collected", seat=seat, gold=gold, n=n, balance=state.gold[seat])


menu_entry(MenuEntry("collect", _offers, _collect,
                     costs_move=lambda state, arg: bool(state.options.get("collect_costs_move"))))


@turn_end
def _forfeit(ctx: Ctx) -> None:
    state = ctx.state
    if state.collected or not economy(state):
        return
    gold = income(state, state.active)
    if gold > 0:
        ctx.log("gold_forfeited", seat=state.active, gold=gold)
