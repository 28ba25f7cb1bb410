"""The Ending Phase's first steps (spec §6.4): Treatment, Actions of the Axis, Moving the time marker.

Flow pushes the registered steps in their number order after Maneuvers; the missions (5), losses (6)
and the advanced events (3, 7) are their own modules'. The event card drawn in step 2 is this Ending
Phase's (``state.ending["event"]``; None when the deck is empty) and stays shown in
``state.event_drawn`` until the next one."""

from __future__ import annotations

from app.games.first_to_fight.engine import Ctx, Task, answer, task, wait
from app.games.first_to_fight.flow import EndingStep, ending_step
from app.games.first_to_fight.pack import LAST_MONTH, month_label, pack
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import say

DONE = "done"
FOUR_PLAYERS_PUSH = 2  # §6.4 step 2: 2 squares with 4 players, else 1


def move_marker(state: GameState, region: str, squares: int) -> int:
    """Move ``region``'s domination marker (right: positive), clamped at both ends (OQ-3); the squares
    it really moved."""
    track = pack().regions[region].track
    before = state.domination[region]
    state.domination[region] = max(0, min(len(track) - 1, before + squares))
    return state.domination[region] - before


# ------------------------------------------------------------------ step 1: Treatment
def _wounded(state: GameState) -> list[str]:
    return [s for s, d in sorted(state.soldiers.items()) if d["wounds"]]


@task("treatment")
def _run_treatment(ctx: Ctx, t: Task) -> bool:
    """Clockwise from the leader, each player may discard nurse tokens, one wound off any soldier per
    nurse: one question per nurse, until the player says done (asked only of a player who holds a
    nurse while a soldier is wounded)."""
    state = ctx.state
    if "queue" not in t:
        t["queue"] = state.clockwise(state.leader)
    while t["queue"]:
        seat = t["queue"][0]
        wounded = _wounded(state)
        if state.nurses.get(seat, 0) > 0 and wounded:
            choices = [(s, say("choice_heal", soldier=s, region=state.soldiers[s]["region"])) for s in wounded]
            choices.append((DONE, say("choice_treatment_done")))
            return wait(t, seat, "treatment", say("prompt_treatment", seat=seat, n=state.nurses[seat]), choices)
        t["queue"].pop(0)
    ctx.pop(t)
    return False


@answer("treatment")
def _treated(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat = ctx.state, t["queue"][0]
    if choices[0] == DONE:
        t["queue"].pop(0)
        return
    soldier = choices[0]
    state.nurses[seat] -= 1
    state.soldiers[soldier]["wounds"] -= 1
    ctx.log("soldier_healed", seat=seat, soldier=soldier, region=state.soldiers[soldier]["region"])


# ------------------------------------------------------------------ step 2: Actions of the Axis
@task("axis")
def _run_axis(ctx: Ctx, t: Task) -> bool:
    """The leader draws the top event card and shows it; its region's marker moves right."""
    state = ctx.state
    ctx.pop(t)
    if not state.event_deck:
        # OQ-5: no push and no advance; the time jumps to V 1945 in step 4 so that the game can end
        state.ending["event"] = None
        state.event_drawn = None
        ctx.log("event_deck_empty", seat=state.leader)
        return False
    event = state.event_deck.pop(0)
    state.ending["event"] = state.event_drawn = event
    state.see("*", event)
    card = pack().events[event]
    push = FOUR_PLAYERS_PUSH if len(state.seats) >= 4 else 1
    moved = move_marker(state, card.region, push)
    ctx.log("axis_push", seat=state.leader, event=event, region=card.region, n=moved, level=state.level(card.region))
    return False


# ------------------------------------------------------------------ step 4: Moving the time marker
@task("time")
def _run_time(ctx: Ctx, t: Task) -> bool:
    """The marker moves by the card's number, stopping at V 1945 (OQ-4). In the basic game the card is
    then discarded (with neutral events, step 3 has already placed or discarded it)."""
    state = ctx.state
    ctx.pop(t)
    event = state.ending.get("event")
    before = state.time
    if event is None:
        state.time = LAST_MONTH
        ctx.log("time_to_end", before=month_label(before), month=month_label(state.time))
        return False
    advance = pack().events[event].advance
    state.time = min(LAST_MONTH, state.time + advance)
    ctx.log("time_moves", n=advance, before=month_label(before), month=month_label(state.time))
    if event not in state.event_track and event not in state.events_gone:
        state.events_gone.append(event)
    return False


ending_step(EndingStep(1, "treatment"))
ending_step(EndingStep(2, "axis"))
ending_step(EndingStep(4, "time"))
