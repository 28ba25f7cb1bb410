"""Recruitment (spec §6.3.4): each player clockwise from the chooser may recruit in one region (never
North Africa and Italy, never a region another player recruited in during this order; a pass blocks
nothing): draw 2 soldier cards, place 1 in the region, the rest to the bottom of the soldier deck in
the order drawn; then the new soldier's ability may be used at once (abilities.py). The chooser draws
3 instead of 2 (the special action replaces the basic effect). A short deck draws what it has; an
empty one offers no recruitment (OQ-6).

The drawn cards stay on top of the deck until one is kept, so the deck's secrets cover them; only the
drawer has seen them (``state.see``) and only the drawer's log line names them."""

from __future__ import annotations

from app.games.first_to_fight import abilities, orders
from app.games.first_to_fight.concentration import arrive
from app.games.first_to_fight.engine import Ctx, Task, ask, cont
from app.games.first_to_fight.orders import Order, offer, passed, region_choice, scratch
from app.games.first_to_fight.pack import REGIONS, pack
from app.games.first_to_fight.text import Label, say

DRAW = 2
CHOOSER_DRAW = 3


def card_choice(soldier: str) -> tuple[str, Label]:
    card = pack().soldiers[soldier]
    return soldier, say("choice_card", soldier=soldier, formation=f"formation_{card.formation}", s=card.strength,
                        u=card.underground, ability=f"ability_{card.ability}")


def _turn(ctx: Ctx, seat: str, n: int) -> None:
    state = ctx.state
    taken = scratch(state, "regions")
    options = [region_choice(r) for r in REGIONS
               if pack().regions[r].recruitable and r not in taken] if state.soldier_deck else []
    offer(ctx, seat, "recruit_region", say("prompt_recruit_region", seat=seat, n=n), options, "recruit_region",
          draw=n)


def _basic(ctx: Ctx, seat: str) -> None:
    _turn(ctx, seat, DRAW)


def _special(ctx: Ctx, seat: str) -> None:
    _turn(ctx, seat, CHOOSER_DRAW)


@cont("recruit_region")
def _region(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    seat, region = t["seat"], choices[0]
    if passed(ctx, seat, region):
        return
    scratch(ctx.state, "regions").append(region)
    draw(ctx, seat, region, t["draw"], ability=True)


def draw(ctx: Ctx, seat: str, region: str, n: int, ability: bool) -> None:
    """Draw ``n`` (what the deck has) and ask which one to place in ``region``."""
    state = ctx.state
    drawn = state.soldier_deck[:n]
    state.see(seat, *drawn)
    private = say("recruit_draws_private", seat=seat, region=region, soldiers=list(drawn))
    ctx.log("recruit_draws", private={seat: private}, seat=seat, region=region, n=len(drawn))
    ctx.push(ask(seat, say("prompt_recruit_keep", seat=seat, region=region), [card_choice(s) for s in drawn],
                 "recruit_keep", kind="recruit_keep", region=region, drawn=drawn, ability=ability))


@cont("recruit_keep")
def _keep(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat, region, kept = ctx.state, t["seat"], t["region"], choices[0]
    rest = [s for s in t["drawn"] if s != kept]
    for s in t["drawn"]:
        state.soldier_deck.remove(s)
    state.soldier_deck.extend(rest)
    ctx.log("recruit_places", seat=seat, soldier=kept, region=region, n=len(rest))
    arrive(ctx, seat, kept, region)
    if t["ability"]:
        abilities.offer_ability(ctx, seat, kept, region)


orders.define(Order("RECRUITMENT", _basic, _special, replaces=True))
