"""Rocket launch (spec §6.6, rulebook §6.4, §8.1 E, §10.1 Radar).

A power with a Rocketry tech revealed in an earlier round may, once per round (whatever number of
rocket techs it has), take its turn to discard a card worth at least the rocket's minimum and make
one opponent discard cards at random from the hand. The card's value counts the Tactics ±1 cards
but never a saved OP, nor a 5/6/7 event value (the card is discarded for its printed OP, not played
as an event); no OP is saved from it, and a saved card stays rotated.

Radar (C3) makes the target discard one card fewer: at once wherever each power has its own hand.
In the 2-player game with shared hands the target is the player (the hand), who may choose to use
the Radar of one of its countries that has not used it this round (an interrupt decision), so a
side with Radar in both countries can soften two rockets in a round. A passed player holds no
cards and loses nothing. The solo automa has no hand: no rocket has a target there (§15.4 gap).
"""

from __future__ import annotations

from typing import Any

from app.games.total_domination.costs import card_value
from app.games.total_domination.engine import Ctx, Task, ask, cont
from app.games.total_domination.flow import Play, register_play
from app.games.total_domination.pack import POWERS
from app.games.total_domination.state import GameState, enemies_of
from app.games.total_domination.text import Label, say
from app.games.total_domination.views import view_part

ROCKETS: dict[str, tuple[int, int]] = {"E1": (5, 1), "E2": (5, 2), "E3": (6, 3)}  # tech -> (card minimum, discards)
RADAR = "C3"
SHARED = ("axis", "allies")  # the hand ids of the 2-player game's shared hands


def rocket_types(state: GameState, power: str) -> list[str]:
    return [r for r in ROCKETS if r in state.techs.get(power, [])]


def targets(state: GameState, power: str) -> list[str]:
    """The opponents' hands, in turn order (a shared hand once)."""
    out: list[str] = []
    for p in POWERS:
        hid = state.hand_of.get(p)
        if p in enemies_of(power) and hid is not None and hid not in out:
            out.append(hid)
    return out


def can_launch(state: GameState, power: str) -> bool:
    return (not state.automa(power) and power not in state.rockets_used and bool(rocket_types(state, power))
            and bool(targets(state, power)))


def types_for(state: GameState, power: str, card_id: str) -> list[str]:
    """The rockets this card can fire: its value with the Tactics cards, nothing else, meets the minimum."""
    value = card_value(state, power, card_id)
    return [r for r in rocket_types(state, power) if value >= ROCKETS[r][0]]


def _choices(state: GameState, power: str) -> list[tuple[str, Label]]:
    if not can_launch(state, power):
        return []
    return [(f"rocket:{c}", say("choice_rocket", card=c)) for c in state.hand(power) if types_for(state, power, c)]


def _start(ctx: Ctx, power: str, choice: str) -> None:
    state = ctx.state
    card_id = choice.split(":", 1)[1]
    state.hand(power).remove(card_id)
    ctx.push(ask(state.seat_of(power), say("prompt_rocket_type", power=power, card=card_id),
                 [(r, say("choice_rocket_type", tech=r, n=ROCKETS[r][1])) for r in types_for(state, power, card_id)],
                 "rocket_type", kind="rocket_type", undoable=len(targets(state, power)) > 1, power=power,
                 card=card_id))


register_play(Play("rocket", _choices, _start))


# The type may be taken back while the target question follows; the target's answer draws the
# random discards (or hands the target its Radar question), so it is final.
@cont("rocket_type")
def _rocket_type(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power = ctx.state, t["power"]
    ctx.push(ask(state.seat_of(power), say("prompt_rocket_target", power=power, tech=choices[0]),
                 [(h, say("choice_target_power", power=h)) for h in targets(state, power)], "rocket_target",
                 kind="rocket_target", power=power, card=t["card"], rocket=choices[0]))


@cont("rocket_target")
def _rocket_target(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power, rocket, hid = ctx.state, t["power"], t["rocket"], choices[0]
    state.discard.append(t["card"])
    state.rockets_used.append(power)  # the rocket card is rotated: no other rocket from this power this round
    ctx.log("log_rocket", power=power, tech=rocket, card=t["card"], target=hid)
    n = ROCKETS[rocket][1]
    if hid in SHARED:
        radars = shared_radars(state, hid)
        if radars and state.hands.get(hid):
            seat = state.seat_of(radars[0])
            ctx.push(ask(seat, say("prompt_radar", target=hid, tech=rocket, n=n),
                         [(f"radar:{p}", say("choice_radar", power=p)) for p in radars]
                         + [("no_radar", say("choice_no_radar"))],
                         "radar_answer", kind="radar", hand=hid, n=n))
            return
    elif RADAR in state.techs.get(hid, []):
        n -= 1
        ctx.log("log_radar", power=hid)
    _hit(ctx, hid, n)


def shared_radars(state: GameState, hid: str) -> list[str]:
    """The countries of a shared hand whose Radar has not turned a rocket this round."""
    return [p for p in POWERS if state.hand_of.get(p) == hid and RADAR in state.techs.get(p, [])
            and p not in state.radar_used]


@cont("radar_answer")
def _radar_answer(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    n = t["n"]
    if choices[0] != "no_radar":
        power = choices[0].split(":", 1)[1]
        ctx.state.radar_used.append(power)  # the Radar card is rotated until step E
        ctx.log("log_radar", power=power)
        n -= 1
    _hit(ctx, t["hand"], n)


def _hit(ctx: Ctx, hid: str, n: int) -> None:
    state = ctx.state
    hand = state.hands.get(hid, [])
    lost = ctx.rng.sample(hand, min(n, len(hand))) if n > 0 else []
    for c in lost:
        hand.remove(c)
    state.discard.extend(lost)  # face up: everyone sees what the rocket destroyed
    ctx.log("log_rocket_hit", target=hid, cards=lost, n=len(lost))


@view_part
def _view(state: GameState, seat: str | None) -> dict[str, Any]:
    return {"radar_used": list(state.radar_used),
            "rockets": {p: rocket_types(state, p) for p in POWERS if rocket_types(state, p)}}
