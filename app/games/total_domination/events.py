"""Events (spec §7, rulebook §7.0–§7.5): a card played for the event on its coloured field.

Who may play which (§7.0): the colour must be a country the power controls NOW — its own, France
or Italy while it runs them, the USA / China only once they joined it. No events at all in Rise of
the Axis (§14.1). The five kinds:

* Tactics ±1: the card lies in front of the power it affects (+1: the player or an ally, −1: an
  opponent) until the Administrative Phase (gap G21: discarded at step G); ``costs.card_value``
  reads them. Tactics 5/6/7: the event's value replaces the printed OP for one operations play.
* Logistics: the card is discarded and its icons resolved by ``logistics.push_logistics``.
* Research: the whole discard pile is taken and one card of it is chosen secretly to lie face down
  as the power's tech of the round (every tech rule applies); the Research card goes to the
  discard pile only after the choice, so it cannot choose itself (G9).
* Diplomacy: face up by the sheet, its VP at once (derived from ``state.diplomacy``); a card of a
  flag already in play is compared with the highest of that flag and the result applies to every
  card of the flag (§7.4, G8).
* Peace: the top card of the draw pile is turned up and both cards' OP make one operations budget,
  the Tactics modifiers applied once to the total; both go to the discard pile, and saving an OP
  rotates the Peace card (G15).
"""

from __future__ import annotations

from typing import Any

from app.games.total_domination import derived, logistics, operations, strategic
from app.games.total_domination.changes import consequences, snapshot
from app.games.total_domination.costs import card_value
from app.games.total_domination.engine import Ctx, Task, ask, cont, task
from app.games.total_domination.flow import Play, admin_step, register_play
from app.games.total_domination.pack import COALITION, NONALIGNED, POWERS, card, side_of
from app.games.total_domination.state import GameState, allies_of, enemies_of
from app.games.total_domination.techs import play_face_down, playable_cards
from app.games.total_domination.text import Label, say


# ------------------------------------------------------------------ the operations modules' entry points
def push_operations(ctx: Ctx, power: str, budget: int, card_id: str, may_save: bool = True) -> None:
    """Spend ``budget`` OP on operations; the card ends discarded, or rotated if an OP is saved."""
    operations.push_operations(ctx, power, budget, card_id, may_save)


def push_logistics(ctx: Ctx, power: str, icons: dict[str, int], card_id: str) -> None:
    """Resolve a Logistics event's icons (builds, moves, satellites or Resistance) free of OP; the
    card itself is the caller's to dispose of."""
    logistics.push_logistics(ctx, power, icons, card_id)


def draw_top(ctx: Ctx) -> str | None:
    """The top card of the draw pile, through the Strategic Phase's draw, which refills an empty
    pile from the shuffled discards (G1)."""
    got = strategic.draw(ctx.state, 1, ctx.rng, ctx)
    return got[0] if got else None


# ------------------------------------------------------------------ who may play which event
def colour_playable(state: GameState, power: str, colour: str) -> bool:
    """§7.0: the event's colour is a country the power controls now."""
    if colour == power:
        return True
    if colour in COALITION:
        return state.controller.get(colour) == power
    if colour in NONALIGNED:
        return derived.joined(state, colour) and state.controller.get(colour) == power
    return False


def tactics_targets(state: GameState, power: str, value: int) -> list[str]:
    """+1 on the player or an ally, −1 on an opponent (§7.1.A). The solo automa pays no OP, so a
    −1 on it is the ignored event of solo rule 9."""
    if value > 0:
        return [p for p in POWERS if p in allies_of(power)]
    return [p for p in POWERS if p in enemies_of(power) and not state.automa(p)]


def event_possible(state: GameState, power: str, card_id: str) -> bool:
    """Whether the event can take effect now (its colour aside)."""
    ev = card(card_id).event
    if ev.kind == "tactics" and ev.value in (1, -1):
        return bool(tactics_targets(state, power, ev.value))
    if ev.kind == "research":  # an empty discard pile, or nothing in it the power may develop now
        return bool(playable_cards(state, power, state.discard))
    return True


def playable_events(state: GameState, power: str) -> list[str]:
    if state.automa(power) or state.options.get("scenario") == "rise_of_the_axis":
        return []
    return [c for c in state.hand(power)
            if colour_playable(state, power, card(c).colour) and event_possible(state, power, c)]


def _choices(state: GameState, power: str) -> list[tuple[str, Label]]:
    return [(f"event:{c}", say("choice_event", card=c, kind=card(c).event.kind)) for c in playable_events(state, power)]


def _start(ctx: Ctx, power: str, choice: str) -> None:
    """The event's questions end the turn when answered: they may be taken back only when what
    follows reveals and draws nothing (a player's turn question, not an automa's card or the
    Administrative Phase)."""
    state = ctx.state
    card_id = choice.split(":", 1)[1]
    state.hand(power).remove(card_id)
    ev = card(card_id).event
    ctx.log("log_event", power=power, card=card_id, kind=ev.kind)
    if ev.kind == "tactics":
        if ev.value in (1, -1):
            targets = [(p, say("choice_target_power", power=p)) for p in tactics_targets(state, power, ev.value)]
            ctx.push(ask(state.seat_of(power), say("prompt_tactics_target", card=card_id, value=f"{ev.value:+d}"),
                         targets, "tactics_target", kind="tactics_target", undoable=operations.turn_end_quiet(state),
                         power=power, card=card_id))
            return
        budget = card_value(state, power, card_id, base=ev.value)
        ctx.log("log_tactics_value", power=power, value=ev.value, budget=budget)
        push_operations(ctx, power, budget, card_id, may_save=True)
    elif ev.kind == "logistics":
        icons = {k: n for k, n in sorted(ev.icons.items()) if n > 0 and not _wrong_side(power, k)}
        state.discard.append(card_id)  # face up and spent; its icons resolve after
        push_logistics(ctx, power, icons, card_id)
    elif ev.kind == "research":
        discard = playable_cards(state, power, state.discard)
        ctx.push(ask(state.seat_of(power), say("prompt_research", power=power),
                     [(c, say("choice_research", card=c, tech=card(c).tech)) for c in discard], "research_chosen",
                     kind="research", undoable=operations.turn_end_quiet(state), power=power, card=card_id))
    elif ev.kind == "diplomacy":
        _diplomacy(ctx, power, card_id)
    elif ev.kind == "peace":
        _peace(ctx, power, card_id)
    else:  # a kind the pack does not know: the card is spent for nothing rather than lost
        state.discard.append(card_id)


def _wrong_side(power: str, icon: str) -> bool:
    """Satellite armies are the Axis's, Resistance the Allies' (§7.2.C–D), whatever the card's colour."""
    return (icon == "satellite" and side_of(power) != "axis") or (icon == "resistance" and side_of(power) != "allies")


register_play(Play("event", _choices, _start))


# ------------------------------------------------------------------ Tactics ±1
@cont("tactics_target")
def _tactics_target(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, card_id, target = ctx.state, t["card"], choices[0]
    value = card(card_id).event.value or 0
    state.tactics.append({"card": card_id, "power": target, "value": value})
    ctx.log("log_tactics_placed", power=t["power"], card=card_id, target=target, value=f"{value:+d}")


@task("tactics_discard")
def _run_tactics_discard(ctx: Ctx, t: Task) -> bool:
    """The ±1 cards act until the end of the round (§7.1.A): gone at step G (G21)."""
    state = ctx.state
    ctx.pop(t)
    if state.tactics:
        gone = [x["card"] for x in state.tactics]
        state.discard.extend(gone)
        state.tactics = []
        ctx.log("log_tactics_discarded", cards=gone)
    return False


admin_step("G", "tactics_discard")


# ------------------------------------------------------------------ Research
@cont("research_chosen")
def _research_chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power, chosen = ctx.state, t["power"], choices[0]
    state.discard.remove(chosen)
    play_face_down(ctx, power, chosen, "from_discard")
    state.discard.append(t["card"])  # only now (G9): the Research card could not be its own pick


# ------------------------------------------------------------------ Diplomacy
def _diplomacy(ctx: Ctx, power: str, card_id: str) -> None:
    state = ctx.state
    ev = card(card_id).event
    before = snapshot(state)
    same = [d for d in state.diplomacy if card(d["card"]).event.flag == ev.flag]
    best = max((card(d["card"]).event.vp for d in same), default=None)
    if best is None or ev.vp == best:
        state.diplomacy.append({"card": card_id, "power": power})
        ctx.log("log_diplomacy_placed", power=power, card=card_id, flag=ev.flag, vp=ev.vp)
    elif ev.vp > best:
        _discard_diplomacy(ctx, same, "log_diplomacy_outbid")
        state.diplomacy.append({"card": card_id, "power": power})
        ctx.log("log_diplomacy_placed", power=power, card=card_id, flag=ev.flag, vp=ev.vp)
    else:
        _discard_diplomacy(ctx, same, "log_diplomacy_outbid")
        state.discard.append(card_id)
        ctx.log("log_diplomacy_lower", power=power, card=card_id, flag=ev.flag)
    consequences(ctx, before)


def _discard_diplomacy(ctx: Ctx, gone: list[dict[str, Any]], msg: str) -> None:
    state = ctx.state
    ids = {d["card"] for d in gone}
    state.diplomacy = [d for d in state.diplomacy if d["card"] not in ids]
    for d in gone:
        state.discard.append(d["card"])
        ctx.log(msg, owner=d["power"], card=d["card"], flag=card(d["card"]).event.flag)


# ------------------------------------------------------------------ Peace
def _peace(ctx: Ctx, power: str, card_id: str) -> None:
    state = ctx.state
    top = draw_top(ctx)
    base = card(card_id).event.op + (card(top).op if top else 0)
    budget = card_value(state, power, card_id, base=base)  # the ±1 modifiers once, on the total (G15)
    if top is None:  # no draw pile and no discards to refill it: the Peace card alone
        ctx.log("log_peace_alone", power=power, card=card_id, budget=budget)
    else:
        state.discard.append(top)  # turned up for all to see, and spent with the Peace card
        ctx.log("log_peace", power=power, card=card_id, top=top, op=card(card_id).event.op, top_op=card(top).op,
                budget=budget)
    push_operations(ctx, power, budget, card_id, may_save=True)
