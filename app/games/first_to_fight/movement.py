"""Movement (spec §6.3.1): each player clockwise from the chooser may move one soldier to a
neighbouring region; the chooser instead moves one soldier to any region (the special action
replaces the basic effect). A soldier moves at most once while the order resolves, and never out of
the concentration token's hold (§9)."""

from __future__ import annotations

from app.games.first_to_fight import orders
from app.games.first_to_fight.concentration import movable, move_soldier
from app.games.first_to_fight.engine import Ctx, Task, ask, cont
from app.games.first_to_fight.orders import Order, offer, passed, region_choice, scratch, soldier_choice
from app.games.first_to_fight.pack import REGIONS, pack
from app.games.first_to_fight.text import say


def _turn(ctx: Ctx, seat: str, anywhere: bool) -> None:
    state = ctx.state
    options = [soldier_choice(state, s) for s in movable(state, scratch(state, "moved"))]
    prompt = say("prompt_move_any" if anywhere else "prompt_move_soldier", seat=seat)
    offer(ctx, seat, "move_soldier", prompt, options, "movement_soldier", undoable=True, anywhere=anywhere)


def _basic(ctx: Ctx, seat: str) -> None:
    _turn(ctx, seat, anywhere=False)


def _special(ctx: Ctx, seat: str) -> None:
    _turn(ctx, seat, anywhere=True)


@cont("movement_soldier")
def _soldier(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat, soldier = ctx.state, t["seat"], choices[0]
    if passed(ctx, seat, soldier):
        return
    here = state.soldiers[soldier]["region"]
    dests = [r for r in REGIONS if r != here] if t["anywhere"] else pack().neighbours(here)
    ctx.push(ask(seat, say("prompt_move_to", seat=seat, soldier=soldier, region=here),
                 [region_choice(r) for r in dests], "movement_to", kind="move_to", undoable=True, soldier=soldier))


@cont("movement_to")
def _to(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    scratch(ctx.state, "moved").append(t["soldier"])
    move_soldier(ctx, t["seat"], t["soldier"], choices[0])


orders.define(Order("MOVEMENT", _basic, _special, replaces=True))
