"""Training (spec §5.3, §6.3.3): each player clockwise from the chooser may raise one attribute of
one soldier by 1 (never above 5; a soldier trained once while the order resolves is not trained
again in it); the chooser also takes a nurse token unless holding 3 (in addition to the basic effect).

``train`` is every training's single path (the order, the Training ability, the Training camp): it
raises the attribute and marks the training token."""

from __future__ import annotations

from app.games.first_to_fight import orders
from app.games.first_to_fight.concentration import take_nurse
from app.games.first_to_fight.engine import Ctx, Task, ask, cont
from app.games.first_to_fight.orders import Order, offer, passed, scratch, soldier_choice
from app.games.first_to_fight.pack import ATTRIBUTE_CAP
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import Label, say

ATTRIBUTES = ("S", "U")  # Strength, Underground


def trainable(state: GameState, soldier: str) -> list[str]:
    """The attributes of ``soldier`` still below the cap."""
    d = state.soldiers[soldier]
    return [a for a in ATTRIBUTES if d[a.lower()] < ATTRIBUTE_CAP]


def attribute_choices(state: GameState, soldier: str) -> list[tuple[str, Label]]:
    d = state.soldiers[soldier]
    return [(a, say("choice_attribute", attribute=f"attr_{a}", old=d[a.lower()], new=d[a.lower()] + 1))
            for a in trainable(state, soldier)]


def train(ctx: Ctx, seat: str, soldier: str, attribute: str) -> None:
    """+1 to one attribute; the soldier now has a training token (§5.3)."""
    d = ctx.state.soldiers[soldier]
    key = attribute.lower()
    if d[key] >= ATTRIBUTE_CAP:
        raise ValueError(f"{soldier}'s {attribute} is already {ATTRIBUTE_CAP}")
    d[key] += 1
    d["trained"] = True
    ctx.log("soldier_trained", seat=seat, soldier=soldier, attribute=f"attr_{attribute}", value=d[key],
            s=d["s"], u=d["u"])


def _basic(ctx: Ctx, seat: str) -> None:
    state = ctx.state
    done = scratch(state, "trained")
    options = [soldier_choice(state, s) for s in sorted(state.soldiers) if s not in done and trainable(state, s)]
    offer(ctx, seat, "train_soldier", say("prompt_train_soldier", seat=seat), options, "training_soldier",
          undoable=True)


@cont("training_soldier")
def _soldier(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat, soldier = ctx.state, t["seat"], choices[0]
    if passed(ctx, seat, soldier):
        return
    ctx.push(ask(seat, say("prompt_train_attribute", seat=seat, soldier=soldier),
                 attribute_choices(state, soldier), "training_attribute", kind="train_attribute", undoable=True,
                 soldier=soldier))


@cont("training_attribute")
def _attribute(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    scratch(ctx.state, "trained").append(t["soldier"])
    train(ctx, t["seat"], t["soldier"], choices[0])


def _special(ctx: Ctx, seat: str) -> None:
    take_nurse(ctx, seat)


orders.define(Order("TRAINING", _basic, _special))
