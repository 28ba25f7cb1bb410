"""Buying the army before deployment (Autarchy, Civil War: spec §4.2-4.3, U-6.4).

Both sides shop at once, as at the table: a simultaneous step per purchase (``wait_all``), each side
answering "buy one more <kind>" or "done"; a side's cart is its own until both are done (its view shows
it, the other's does not), then both armies come out together. The HQ is issued, never bought (its cost is
"–"); factories and mines are built by sappers, not bought. The whole purchase is one ledger line, the
book's "0 armia 250" (U-6.4.2)."""

from __future__ import annotations

from typing import Any

from app.games.autarcha.engine import Ctx, Task, answers, question, task, wait_all
from app.games.autarcha.flow import setup_step
from app.games.autarcha.gold import book
from app.games.autarcha.pack import UNITS, pack
from app.games.autarcha.state import GameState
from app.games.autarcha.text import as_json, say
from app.games.autarcha.views import view_part


def for_sale() -> list[str]:
    data = pack()
    return [k for k in UNITS if data.troops[k].cost.value is not None]


def price(kinds: list[str]) -> int:
    data = pack()
    return sum(data.troops[k].cost.value or 0 for k in kinds)


def cart_cost(state: GameState, seat: str) -> int:
    return price(state.setup.get("cart", {}).get(seat, []))


def affordable(state: GameState, seat: str) -> list[str]:
    left = state.gold.get(seat, 0) - cart_cost(state, seat)
    return [k for k in for_sale() if (pack().troops[k].cost.value or 0) <= left]


@task("buying")
def _run_buying(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    if not pack().scenarios[state.scenario].buy:
        ctx.pop(t)
        return False
    carts = state.setup.setdefault("cart", {s: [] for s in state.seats})
    done = state.setup.setdefault("bought", [])
    qs: dict[str, dict[str, Any]] = {}
    for seat in state.seats:
        if seat in done:
            continue
        kinds = affordable(state, seat)
        if not kinds:
            done.append(seat)
            continue
        left = state.gold[seat] - cart_cost(state, seat)
        choices = [(k, say("choice_buy", kind=f"kind_{k}", cost=pack().troops[k].cost.value)) for k in kinds]
        choices.append(("done", say("choice_buy_done", n=len(carts[seat]))))
        qs[seat] = question(seat, "buy", say("prompt_buy", seat=seat, gold=left, n=len(carts[seat])), choices)
    if qs:
        return wait_all(t, "buy", qs)
    ctx.pop(t)
    _deliver(ctx)
    return False


@answers("buying")
def _answer_buying(ctx: Ctx, t: Task, got: dict[str, tuple[str, ...]]) -> None:
    state = ctx.state
    for seat, (choice,) in sorted(got.items()):
        if choice == "done":
            state.setup["bought"].append(seat)
        else:
            state.setup["cart"][seat].append(choice)


def _deliver(ctx: Ctx) -> None:
    """Both are done: the armies come out of the box together and the purchase goes into each ledger."""
    state = ctx.state
    carts = state.setup.pop("cart", {})
    state.setup.pop("bought", None)
    facing = {u["seat"]: u["facing"] for u in state.units.values()}
    for seat in state.seats:
        cart = carts.get(seat, [])
        cost = price(cart)
        for kind in cart:
            state.new_unit(seat, kind, None, facing.get(seat, "N"))
        if cost:
            book(state, seat, say("ledger_army"), expense=cost)
        counts = [as_json(say("kind_count", kind=f"kind_{k}", n=cart.count(k))) for k in for_sale() if k in cart]
        ctx.log("army_bought", seat=seat, n=len(cart), gold=cost, balance=state.gold[seat], army=counts)


setup_step(20, "buying")


@view_part
def _cart_view(state: GameState, seat: str | None) -> dict[str, Any]:
    """A side's own shopping while both shop: not the other's (they buy at the same time)."""
    carts = state.setup.get("cart")
    if carts is None or seat not in carts:
        return {}
    return {"cart": list(carts[seat]), "cart_cost": cart_cost(state, seat)}
