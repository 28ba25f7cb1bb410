"""Setup's red missions (spec §3 step 6, §11.1): every player keeps 3 or 4 of the 4 dealt, all at once
and in secret; with the "draft" option the draft replaces it: keep 1 of 4 and pass 3 to the left, keep
1 of those 3 and pass 2, then keep 1 or both of the last 2. Cards not kept leave the game unrevealed
(``state.removed_missions``); a player who keeps 4 "started with 4" (§7.6).

A packet in transit lives in the draft task (``t["packets"]``: seat -> the cards it picks from now);
its cards are secret to everyone but the seat holding it and the seats that held it before."""

from __future__ import annotations

from typing import Any

from app.games.first_to_fight.engine import Ctx, Task, answers, question, task, wait_all
from app.games.first_to_fight.flow import setup_step
from app.games.first_to_fight.pack import month_label, pack
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import say
from app.games.first_to_fight.views import card_secrets, secret_part

KEEP_MIN, KEEP_MAX = 3, 4
DRAFT = "draft"  # the table option
DRAFT_PICKS = 3  # keep 1 of 4, keep 1 of 3, keep 1 or 2 of 2


def _choices(cards: list[str]) -> list[tuple[str, Any]]:
    data = pack()
    return [(m, say("choice_mission_dated", mission=m, month=month_label(data.missions[m].date)))
            for m in sorted(cards, key=lambda m: (data.missions[m].date, m))]


@task("keep_missions")
def _run_keep(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    if state.options.get(DRAFT):
        t["k"] = "draft"
        return _run_draft(ctx, t)
    for seat in state.seats:
        state.see(seat, *state.hands[seat])
    qs = {seat: question(seat, "keep_missions", say("prompt_keep", seat=seat), _choices(state.hands[seat]),
                         min(KEEP_MIN, len(state.hands[seat])), KEEP_MAX, undoable=True)
          for seat in state.seats if state.hands[seat]}
    if not qs:
        ctx.pop(t)
        return False
    return wait_all(t, "keep_missions", qs)


@answers("keep_missions")
def _kept(ctx: Ctx, t: Task, got: dict[str, tuple[str, ...]]) -> None:
    state = ctx.state
    ctx.pop(t)
    for seat in state.seats:
        kept = list(got.get(seat, ()))
        _settle(ctx, seat, kept, [m for m in state.hands[seat] if m not in kept])


def _settle(ctx: Ctx, seat: str, kept: list[str], removed: list[str]) -> None:
    state = ctx.state
    state.hands[seat] = sorted(kept, key=lambda m: (pack().missions[m].date, m))
    state.removed_missions.extend(removed)
    state.started_four[seat] = len(kept) == KEEP_MAX
    own = say("missions_kept_removed_own", seat=seat, missions=kept, removed=removed, n=len(kept)) if removed else \
        say("missions_kept_own", seat=seat, missions=kept, n=len(kept))
    private = {seat: own}
    ctx.log("missions_kept", private=private, seat=seat, n=len(kept))


# ------------------------------------------------------------------ the draft (§11.1)
@task("draft")
def _run_draft(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    if "packets" not in t:
        t["pick"] = 1
        t["packets"] = {seat: list(state.hands[seat]) for seat in state.seats}
        for seat in state.seats:
            state.hands[seat] = []
    qs: dict[str, dict[str, Any]] = {}
    last = t["pick"] == DRAFT_PICKS
    for seat in state.seats:
        packet = t["packets"][seat]
        if not packet:
            continue
        state.see(seat, *packet)
        if last:
            prompt = say("prompt_draft_last", seat=seat, n=len(packet))
            qs[seat] = question(seat, "draft_keep", prompt, _choices(packet), 1, len(packet), undoable=True)
        else:
            prompt = say("prompt_draft_pick", seat=seat, pick=t["pick"], n=len(packet) - 1)
            qs[seat] = question(seat, "draft_pick", prompt, _choices(packet), 1, 1, undoable=True)
    if not qs:
        _finish_draft(ctx, t, {})
        return False
    return wait_all(t, f"draft:{t['pick']}", qs)


@answers("draft")
def _drafted(ctx: Ctx, t: Task, got: dict[str, tuple[str, ...]]) -> None:
    state = ctx.state
    if t["pick"] == DRAFT_PICKS:
        _finish_draft(ctx, t, got)
        return
    passed: dict[str, list[str]] = {}
    for seat in state.seats:
        picked = list(got.get(seat, ()))
        state.hands[seat] += picked
        passed[state.left_of(seat)] = [m for m in t["packets"][seat] if m not in picked]
        if picked:
            own = say("draft_passed_own", seat=seat, mission=picked[0], left=state.left_of(seat),
                      n=len(passed[state.left_of(seat)]))
            ctx.log("draft_passed", private={seat: own}, seat=seat, left=state.left_of(seat),
                    n=len(passed[state.left_of(seat)]))
    t["packets"] = passed
    t["pick"] += 1


def _finish_draft(ctx: Ctx, t: Task, got: dict[str, tuple[str, ...]]) -> None:
    state = ctx.state
    ctx.pop(t)
    for seat in state.seats:
        packet = t["packets"].get(seat, [])
        kept = list(got.get(seat, ()))
        _settle(ctx, seat, state.hands[seat] + kept, [m for m in packet if m not in kept])


@secret_part
def _packets_secret(state: GameState, seat: str) -> list[str]:
    """The packets other seats hold now (views.secrets excuses the cards this seat saw before)."""
    out: list[str] = []
    for t in state.stack:
        if t.get("k") == "draft":
            for holder, packet in t.get("packets", {}).items():
                if holder != seat:
                    for m in packet:
                        out += card_secrets(m)
    return out


setup_step(60, "keep_missions")  # §3 step 6
