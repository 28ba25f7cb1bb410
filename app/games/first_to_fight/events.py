"""The advanced Neutral Events rule (spec §11.2): the Ending Phase's steps 3 and 7.

Step 3 places the drawn card by the time track when its date is later than the time (before the
marker moves); a card dated on or before the time is discarded (its push and advance still apply).
Step 7, after Losses, applies every placed event whose date the time has reached, oldest first and,
for one date, in the order drawn (OQ-14), then removes it from the game. The effects are the pack's
small vocabulary (``pack.EVENT_OPS``): ``domination`` (n squares, negative = left; region "" = every
region; no VP), ``recruit`` (the top n soldiers of the deck into the region, no ability; fewer if the
deck is short, OQ-6), ``nurses`` (every player n, up to the cap), ``heal`` (every wound in the
region)."""

from __future__ import annotations

import importlib
from typing import Any

from app.games.first_to_fight.ending import move_marker
from app.games.first_to_fight.engine import Ctx, Task, task
from app.games.first_to_fight.flow import EndingStep, ending_step
from app.games.first_to_fight.pack import NURSE_CAP, REGIONS, Effect, month_label, pack
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.views import view_part

EVENTS = "events"  # the table option


@task("event_place")
def _run_place(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    ctx.pop(t)
    event = state.ending.get("event")
    if event is None:
        return False
    date = pack().events[event].date
    if date > state.time:
        state.event_track.append(event)
        ctx.log("event_placed", event=event, month=month_label(date))
    else:
        state.events_gone.append(event)
        ctx.log("event_discarded", event=event, month=month_label(date))
    return False


def due_events(state: GameState) -> list[str]:
    """The placed events the time has reached, in the order they resolve (OQ-14: drawn order on a date)."""
    due = [e for e in state.event_track if pack().events[e].date <= state.time]
    return sorted(due, key=lambda e: (pack().events[e].date, state.event_track.index(e)))


@task("events_resolve")
def _run_resolve(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    ctx.pop(t)
    for event in due_events(state):
        state.event_track.remove(event)
        ctx.log("event_resolves", event=event, month=month_label(pack().events[event].date))
        for effect in pack().events[event].effects:
            apply_effect(ctx, effect)
        state.events_gone.append(event)
    return False


def apply_effect(ctx: Ctx, effect: Effect) -> None:
    state = ctx.state
    if effect.op == "domination":
        for region in [effect.region] if effect.region else list(REGIONS):
            moved = move_marker(state, region, effect.n)
            way = "left" if moved < 0 else "right" if moved else "none"
            ctx.log(f"event_domination_{way}", region=region, n=abs(moved), level=state.level(region))
    elif effect.op == "recruit":
        for _ in range(effect.n):
            if not state.soldier_deck:
                ctx.log("event_recruit_none", region=effect.region)
                break
            place_soldier(ctx, state.soldier_deck[0], effect.region)
    elif effect.op == "nurses":
        for seat in state.seats:
            state.nurses[seat] = min(NURSE_CAP, state.nurses.get(seat, 0) + effect.n)
        ctx.log("event_nurses", n=effect.n)
    elif effect.op == "heal":
        healed = [s for s in state.in_region(effect.region) if state.soldiers[s]["wounds"]]
        for s in healed:
            state.soldiers[s]["wounds"] = 0
        ctx.log("event_heal", region=effect.region, soldiers=healed, n=len(healed))
    else:  # pack_load refuses any other op: a staged pack's mistake
        raise ValueError(f"unknown event effect {effect.op!r}")


def place_soldier(ctx: Ctx, soldier: str, region: str) -> None:
    """A soldier from the deck enters ``region`` by an event: nobody brings him (no VP, no ability).
    Placements go through ORDERS' ``concentration.arrive`` when that module is installed."""
    state = ctx.state
    ctx.log("event_recruit", soldier=soldier, region=region)
    arrive = _arrive()
    if arrive is not None:
        arrive(ctx, None, soldier, region)  # it takes the card out of the deck and lays it down
        return
    card = pack().soldiers[soldier]
    if soldier in state.soldier_deck:
        state.soldier_deck.remove(soldier)
    state.soldiers[soldier] = {"region": region, "s": card.strength, "u": card.underground, "trained": False,
                               "wounds": 0}


def _arrive() -> Any:
    try:
        module = importlib.import_module("app.games.first_to_fight.concentration")
    except ModuleNotFoundError:
        return None
    return getattr(module, "arrive", None)


@view_part
def _events_view(state: GameState, seat: str | None) -> dict[str, Any]:
    """The event track with each placed card's face (public), and the card drawn last."""
    data = pack()

    def face(e: str) -> dict[str, Any]:
        card = data.events[e]
        return {"id": e, "title": card.title, "title_pl": card.title_pl, "region": card.region,
                "advance": card.advance, "date": card.date, "month": month_label(card.date), "text": card.text,
                "text_pl": card.text_pl}

    shown = [*state.event_track, *([state.event_drawn] if state.event_drawn else [])]
    return {"event_cards": {e: face(e) for e in shown}}


ending_step(EndingStep(3, "event_place", EVENTS))
ending_step(EndingStep(7, "events_resolve", EVENTS))
