"""Concentration (spec §6.3.5, §9): the token and its lock, the reward for new soldiers, the order's
three bonuses.

Every placement and every move of a soldier goes through ``arrive`` (orders, abilities, region rules,
events), so the +1 VP for a new soldier in the token's region is counted in one place; every move
asks ``may_leave`` first (a soldier of the token's formation never leaves the token's region)."""

from __future__ import annotations

from app.games.first_to_fight import orders
from app.games.first_to_fight.engine import Ctx, Task, ask, cont
from app.games.first_to_fight.orders import Order, offer, passed, region_choice, scratch, soldier_choice
from app.games.first_to_fight.pack import FORMATIONS, NURSE_CAP, REGIONS, pack
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import say

BONUSES = ("token", "move", "nurse")


def may_leave(state: GameState, soldier: str) -> bool:
    """§9: the concentration token holds the soldiers of its formation in its region."""
    return not state.locked(soldier)


def arrive(ctx: Ctx, seat: str | None, soldier: str, region: str) -> None:
    """``soldier`` is placed (from the deck) or moved into ``region`` by ``seat`` (None: by no player,
    e.g. an event). A new soldier in the token's region gives that seat 1 VP (§9). The caller has
    checked ``may_leave`` for a move; a card still in the soldier deck is taken out of it."""
    state = ctx.state
    here = state.soldiers.get(soldier)
    if here is None:
        card = pack().soldiers[soldier]
        if soldier in state.soldier_deck:
            state.soldier_deck.remove(soldier)
        state.soldiers[soldier] = {"region": region, "s": card.strength, "u": card.underground,
                                   "trained": False, "wounds": 0}
    else:
        if here["region"] == region:
            return
        if state.locked(soldier):
            raise ValueError(f"{soldier} is held in {here['region']} by the concentration token")
        here["region"] = region
    c = state.concentration
    if seat is not None and c is not None and c["region"] == region:
        state.vp[seat] = state.vp.get(seat, 0) + 1
        ctx.log("concentration_vp", seat=seat, soldier=soldier, region=region)


def move_soldier(ctx: Ctx, seat: str, soldier: str, region: str) -> None:
    """A move by any means (orders, bonus, ability, Silent Unseen drops): logged, then ``arrive``."""
    origin = ctx.state.soldiers[soldier]["region"]
    ctx.log("soldier_moves", seat=seat, soldier=soldier, origin=origin, dest=region)
    arrive(ctx, seat, soldier, region)


def movable(state: GameState, exclude: list[str] | tuple[str, ...] = ()) -> list[str]:
    return [s for s in sorted(state.soldiers) if s not in exclude and may_leave(state, s)]


def take_nurse(ctx: Ctx, seat: str) -> None:
    state = ctx.state
    if state.nurses.get(seat, 0) >= NURSE_CAP:
        ctx.log("nurse_full", seat=seat)
        return
    state.nurses[seat] = state.nurses.get(seat, 0) + 1
    ctx.log("nurse_taken", seat=seat, n=state.nurses[seat])


# ------------------------------------------------------------------ the Concentration order (§6.3.5)
def _bonuses(state: GameState, seat: str) -> list[str]:
    taken = scratch(state, "bonuses")
    out = []
    for b in BONUSES:
        if b in taken:
            continue
        if b == "move" and not movable(state):
            continue
        if b == "nurse" and state.nurses.get(seat, 0) >= NURSE_CAP:
            continue
        out.append(b)
    return out


def _turn(ctx: Ctx, seat: str) -> None:
    state = ctx.state
    options = _bonuses(state, seat)
    if not options:
        ctx.log("bonus_none", seat=seat)
        return
    offer(ctx, seat, "bonus", say("prompt_bonus", seat=seat),
          [(b, say("choice_bonus", bonus=f"bonus_{b}")) for b in options], "bonus", undoable=True)


@cont("bonus")
def _bonus(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    seat, bonus = t["seat"], choices[0]
    if passed(ctx, seat, bonus):
        return
    state = ctx.state
    scratch(state, "bonuses").append(bonus)
    ctx.log("bonus_taken", seat=seat, bonus=f"bonus_{bonus}")
    if bonus == "nurse":
        take_nurse(ctx, seat)
    elif bonus == "token":
        ctx.push(ask(seat, say("prompt_token_formation", seat=seat),
                     [(f, say("choice_formation", formation=f"formation_{f}")) for f in FORMATIONS],
                     "token_formation", kind="token_formation", undoable=True))
    else:
        ctx.push(ask(seat, say("prompt_bonus_soldier", seat=seat),
                     [soldier_choice(state, s) for s in movable(state)], "bonus_soldier", kind="move_soldier",
                     undoable=True))


@cont("token_formation")
def _token_formation(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    seat = t["seat"]
    ctx.push(ask(seat, say("prompt_token_region", seat=seat, formation=f"formation_{choices[0]}"),
                 [region_choice(r) for r in REGIONS], "token_region", kind="token_region", undoable=True,
                 formation=choices[0]))


@cont("token_region")
def _token_region(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["seat"]
    old = state.concentration
    state.concentration = {"region": choices[0], "formation": t["formation"]}
    if old is None:
        ctx.log("token_placed", seat=seat, formation=f"formation_{t['formation']}", region=choices[0])
    else:
        ctx.log("token_moved", seat=seat, formation=f"formation_{t['formation']}", region=choices[0],
                old_formation=f"formation_{old['formation']}", old_region=old["region"])


@cont("bonus_soldier")
def _bonus_soldier(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat, soldier = ctx.state, t["seat"], choices[0]
    here = state.soldiers[soldier]["region"]
    ctx.push(ask(seat, say("prompt_move_to", seat=seat, soldier=soldier, region=here),
                 [region_choice(r) for r in pack().neighbours(here)], "bonus_to", kind="move_to", undoable=True,
                 soldier=soldier))


@cont("bonus_to")
def _bonus_to(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    move_soldier(ctx, t["seat"], t["soldier"], choices[0])  # OQ-13: a bonus move into the token's region scores


orders.define(Order("CONCENTRATION", _turn))
