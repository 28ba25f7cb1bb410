"""Missions (spec §7): resolving the due missions in the Ending Phase, the stage II draws, and the
Main front discard ORDERS' Sabotage special action calls (§4.4).

A mission leaves its holder's hand the moment it is revealed (step 5 starts by revealing every due
card, OQ-7): from then on it is public. A stage II card drawn during the step is therefore never
resolved in the same step. The stage II draw applies both caps of OQ-10: no draw while the hand
holds 3 yellow cards, nor once the player has received 3 yellow cards in the game (the book's
"started with 4 red cards" box, which differs from the first cap when a yellow card leaves the hand
before the last red one: a Main front discard, or one time jump revealing both)."""

from __future__ import annotations

from typing import Any

from app.games.first_to_fight.engine import Ctx, Task, answer, task, wait
from app.games.first_to_fight.flow import EndingStep, ending_step
from app.games.first_to_fight.pack import STAGE_II_CAP, month_label, pack
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import say
from app.games.first_to_fight.views import view_part

STAGE2_DRAWN = 2  # draw 2, keep 1 (§7.4)


def strength(state: GameState, mission_id: str) -> int:
    """§7.3: every soldier in the region adds 1; a non-wounded soldier of the required formation adds
    his current Strength instead."""
    card = pack().missions[mission_id]
    total = 0
    for s in state.in_region(card.region):
        here = state.soldiers[s]
        matching = pack().soldiers[s].formation == card.formation and not here["wounds"]
        total += here["s"] if matching else 1
    return total


def target(state: GameState, mission_id: str) -> int:
    card = pack().missions[mission_id]
    return card.difficulty + state.level(card.region)


def may_draw_stage2(state: GameState, seat: str) -> bool:
    """OQ-10: both caps."""
    return state.stage2_in_hand(seat) < STAGE_II_CAP and state.stage2_received.get(seat, 0) < STAGE_II_CAP


def draw_stage2(ctx: Ctx, seat: str) -> None:
    """A stage I card has left ``seat``'s hand: draw 2 stage II cards, keep 1, the other to the bottom,
    unless a cap says no (checked when the draw happens). Pushes a task: it runs before whatever was
    on the stack (and after anything the caller pushes later)."""
    ctx.push({"k": "stage2_draw", "seat": seat})


def discard_mission(ctx: Ctx, seat: str, mission_id: str) -> None:
    """Main front (§4.4): the card is shown to everyone and discarded (0 VP); a stage I card draws its
    stage II replacement under the same caps."""
    state = ctx.state
    state.hands[seat].remove(mission_id)
    state.discarded.setdefault(seat, []).append(mission_id)
    state.see("*", mission_id)
    ctx.log("mission_shown_discarded", seat=seat, mission=mission_id)
    if pack().missions[mission_id].stage == 1:
        draw_stage2(ctx, seat)


@task("stage2_draw")
def _run_stage2_draw(ctx: Ctx, t: Task) -> bool:
    state, seat = ctx.state, t["seat"]
    if "drawn" not in t:
        if not may_draw_stage2(state, seat):
            ctx.pop(t)
            ctx.log("stage2_capped", seat=seat)
            return False
        if not state.stage2_deck:
            ctx.pop(t)
            ctx.log("stage2_deck_empty", seat=seat)
            return False
        # the drawn cards stay on top of the deck until the choice: hidden from the others as the deck
        # is, and known to the drawer (see), whatever it keeps
        t["drawn"] = state.stage2_deck[:STAGE2_DRAWN]
        state.see(seat, *t["drawn"])
        if len(t["drawn"]) == 1:
            ctx.pop(t)
            _keep(ctx, seat, t["drawn"][0], t["drawn"])
            return False
    choices = [(m, say("choice_mission_dated", mission=m, month=month_label(pack().missions[m].date)))
               for m in t["drawn"]]
    return wait(t, seat, "keep_stage2", say("prompt_keep_stage2", seat=seat), choices)


@answer("stage2_draw")
def _kept_stage2(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    _keep(ctx, t["seat"], choices[0], t["drawn"])


def _keep(ctx: Ctx, seat: str, kept: str, drawn: list[str]) -> None:
    state = ctx.state
    for m in drawn:
        state.stage2_deck.remove(m)
    state.hands[seat].append(kept)
    state.stage2_received[seat] = state.stage2_received.get(seat, 0) + 1
    bottom = [m for m in drawn if m != kept]
    state.stage2_deck.extend(bottom)
    if bottom:
        ctx.log("stage2_drawn", private={seat: say("stage2_drawn_own", seat=seat, mission=kept, bottom=bottom[0])},
                seat=seat)
    else:
        ctx.log("stage2_drawn_last", private={seat: say("stage2_drawn_last_own", seat=seat, mission=kept)}, seat=seat)


# ------------------------------------------------------------------ step 5: resolving missions
@task("missions")
def _run_missions(ctx: Ctx, t: Task) -> bool:
    """§7.3: reveal first (clockwise from the leader, every due card), then resolve one card at a time,
    each stage I card followed by its owner's stage II draw."""
    state = ctx.state
    if "queue" not in t:
        t["queue"] = _reveal(ctx)
    if not t["queue"]:
        ctx.pop(t)
        state.ending.pop("revealed", None)
        return False
    seat, mission = t["queue"].pop(0)
    resolve(ctx, seat, mission)
    if pack().missions[mission].stage == 1:
        draw_stage2(ctx, seat)
    return False


def _reveal(ctx: Ctx) -> list[list[str]]:
    state = ctx.state
    queue: list[list[str]] = []
    revealed: dict[str, list[str]] = {}
    for seat in state.clockwise(state.leader):
        due = [m for m in state.hands.get(seat, []) if pack().missions[m].date <= state.time]
        # the earliest first: the order changes no result, only the order of the stage II draws (§7.3)
        due.sort(key=lambda m: (pack().missions[m].date, state.hands[seat].index(m)))
        for m in due:
            state.hands[seat].remove(m)
            state.see("*", m)
            queue.append([seat, m])
        if due:
            revealed[seat] = list(due)  # emptied as they resolve: the log line keeps its own list
            ctx.log("missions_revealed", seat=seat, missions=due, n=len(due))
    state.ending["revealed"] = revealed
    return queue


def resolve(ctx: Ctx, seat: str, mission_id: str) -> bool:
    """One revealed mission: success face up, failure face down (−5 at the end). Its region's losses are
    checked this Ending Phase (§8)."""
    state = ctx.state
    card = pack().missions[mission_id]
    total, needed = strength(state, mission_id), target(state, mission_id)
    won = total >= needed
    (state.succeeded if won else state.failed).setdefault(seat, []).append(mission_id)
    regions = state.ending.setdefault("mission_regions", [])
    if card.region not in regions:
        regions.append(card.region)
    revealed = state.ending.get("revealed", {}).get(seat, [])
    if mission_id in revealed:
        revealed.remove(mission_id)
    ctx.log("mission_won" if won else "mission_failed", seat=seat, mission=mission_id, region=card.region,
            strength=total, difficulty=card.difficulty, level=state.level(card.region), target=needed)
    return won


ending_step(EndingStep(5, "missions"))


# ------------------------------------------------------------------ what each seat sees
def mission_card(mission_id: str) -> dict[str, Any]:
    m = pack().missions[mission_id]
    return {"id": m.id, "title": m.title, "title_pl": m.title_pl, "date": m.date, "month": month_label(m.date),
            "stage": m.stage, "region": m.region, "formation": m.formation, "difficulty": m.difficulty, "vp": m.vp,
            "note": m.note, "note_pl": m.note_pl}


@view_part
def _missions_view(state: GameState, seat: str | None) -> dict[str, Any]:
    """The seat's own hand with the cards' faces (dates first: what is coming up), and every public
    mission with its face: resolved (a failure was revealed before it went face down), discarded,
    revealed and waiting to be resolved this step."""
    own = sorted(state.hands.get(seat, []), key=lambda m: (pack().missions[m].date, m)) if seat else []
    public: list[str] = []
    for s in state.seats:
        public += state.succeeded.get(s, []) + state.failed.get(s, []) + state.discarded.get(s, [])
    revealed = {s: list(ms) for s, ms in state.ending.get("revealed", {}).items() if ms}
    for ms in revealed.values():
        public += ms
    return {"hand_cards": [mission_card(m) for m in own],
            "mission_cards": {m: mission_card(m) for m in sorted(set(public))},
            "revealed": revealed,
            "mission_regions": list(state.ending.get("mission_regions", [])),
            "stage2_received": dict(state.stage2_received),
            "started_four": dict(state.started_four)}

