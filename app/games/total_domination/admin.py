"""The Administrative Phase, steps A–G in this exact order (spec §5.4, rulebook §4.3).

A victory check (§10; Rise of the Axis §14.1; solo §15.1), B France and Italy change sides
(``france_italy.py``), C Destruction markers come off the home spaces their owner controls again,
D strategic bombing (``bombing.py``), E bombers, rockets and Radar are ready again, F the techs are
revealed (the EVENTS module's step, so tech VP of this year count at NEXT year's A), G the round
marker advances (``flow.next_year``; the Tactics cards go at G, the EVENTS module's step).
The order is the letters' order: ``flow.admin_step`` keeps the registry sorted.
"""

from __future__ import annotations

from typing import Any

from app.games.total_domination import bombing, derived, france_italy  # noqa: F401  (they register B and D)
from app.games.total_domination.engine import Ctx, Task, task
from app.games.total_domination.flow import admin_step, last_year
from app.games.total_domination.pack import AXIS, POWERS, side_of
from app.games.total_domination.state import GameState
from app.games.total_domination.views import view_part

RISE_OF_THE_AXIS = "rise_of_the_axis"


# ------------------------------------------------------------------ A. victory check
def solo_conquest(state: GameState) -> str | None:
    """The Axis country all of whose home spaces the solo player controls, if any (§15.1).

    Germany's home spaces are its own plus Italy's while Italy is Axis (the Defence Priority list
    names Germany, Italy, Austria, Czechoslovakia, §15.7); a France switched to the Axis does not
    count (gap: the book's list names four spaces). A capital is controlled only with 2 units (the
    control rule already says so)."""
    cmap = derived.control_map(state)
    for country in AXIS:
        spaces = state.geo.home_spaces(country)
        if country == "germany" and state.controller.get("italy") in AXIS:
            spaces += state.geo.home_spaces("italy")
        if spaces and all(cmap.get(s) is not None and side_of(str(cmap[s])) == "allies" for s in spaces):
            return country
    return None


def verdict(state: GameState) -> tuple[str | None, str, dict[str, Any]] | None:
    """The result of step A now: (winning side or None for a draw, message id, params), or None
    when play goes on. Pure, so tests and bots may ask it without running the step."""
    totals = derived.side_totals(state)
    axis, allies = totals["axis"], totals["allies"]
    final = state.year >= last_year(state)
    if state.options.get("scenario") == RISE_OF_THE_AXIS:
        # no thresholds: the totals are compared at the end of 1942 only (gap G18)
        if not final:
            return None
        if axis == allies:
            return None, "outcome_rise_draw", {"axis": axis, "allies": allies}
        side = "axis" if axis > allies else "allies"
        return side, "outcome_rise_" + side, {"axis": axis, "allies": allies}
    if axis >= derived.AXIS_THRESHOLD:  # the Axis is checked first: it wins if both qualify (§10.1)
        return "axis", "outcome_axis_threshold", {"axis": axis, "threshold": derived.AXIS_THRESHOLD}
    if state.solo_game():
        # solo: no Allied threshold; the player wins by conquering one Axis country (§15.1)
        country = solo_conquest(state)
        if country is not None:
            return "allies", "outcome_solo_conquest", {"country": country}
        if final:
            return "axis", "outcome_solo_last_year", {"year": state.year}  # gap G17: the player loses
        return None
    threshold = derived.allied_threshold(state)
    if allies >= threshold:
        return "allies", "outcome_allies_threshold", {"allies": allies, "threshold": threshold}
    if final:
        return "axis", "outcome_axis_last_year", {"year": state.year}
    return None


def side_scores(state: GameState) -> dict[str, int]:
    """Each seat's side total (a seat plays powers of one side only)."""
    totals = derived.side_totals(state)
    out: dict[str, int] = {}
    for power in POWERS:
        seat = state.seats.get(power)
        if seat:
            out[seat] = totals[side_of(power)]
    return dict(sorted(out.items()))


@task("victory_check")
def _run_victory_check(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    ctx.pop(t)
    totals = derived.side_totals(state)
    if state.options.get("scenario") == RISE_OF_THE_AXIS or state.solo_game():
        ctx.log("victory_totals_plain", year=state.year, axis=totals["axis"], allies=totals["allies"])
    else:
        ctx.log("victory_totals", year=state.year, axis=totals["axis"], allies=totals["allies"],
                threshold=derived.allied_threshold(state))
    found = verdict(state)
    if found is None:
        return False
    side, msg_id, params = found
    state.outcome = {"side": side, "summary_msg": {"id": msg_id, "params": params}, "scores": side_scores(state)}
    state.phase = "over"
    state.active = ""
    ctx.log(msg_id, **params)
    return False


# ------------------------------------------------------------------ C. Destruction markers
@task("remove_destruction")
def _run_remove_destruction(ctx: Ctx, t: Task) -> bool:
    """Each power takes its markers off the home spaces it controls now (rulebook §4.3 C); a capital
    with one enemy unit is controlled by nobody, so its marker stays."""
    state = ctx.state
    ctx.pop(t)
    cmap = derived.control_map(state)
    kept: list[str] = []
    for space in state.destroyed:
        nation = state.geo.spaces[space].nation
        owner = state.power_of(nation) if nation else None
        if owner is not None and cmap.get(space) == owner:
            ctx.log("destruction_removed", space=space, power=owner)
        else:
            kept.append(space)
    state.destroyed = kept
    return False


# ------------------------------------------------------------------ E. ready bombers, rockets, Radar
@task("ready_units")
def _run_ready_units(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    ctx.pop(t)
    spent = [u for u in state.units if u.kind == "bomber" and u.spent]
    for u in spent:
        u.spent = False
    if spent or state.rockets_used or state.radar_used:
        ctx.log("ready_again", bombers=len(spent), rockets=list(state.rockets_used))
    state.rockets_used, state.radar_used = [], []
    return False


@view_part
def victory_rule(state: GameState, seat: str | None) -> dict[str, Any]:
    """How this match is won, for the VP track: "thresholds" (29 / the Allied threshold), "compare" (Rise
    of the Axis: more VP at the end of its last year), "solo" (29 loses; conquering an Axis country wins)."""
    if state.options.get("scenario") == RISE_OF_THE_AXIS:
        mode = "compare"
    elif state.solo_game():
        mode = "solo"
    else:
        mode = "thresholds"
    return {"victory_rule": {"mode": mode, "last_year": last_year(state)}}


admin_step("A", "victory_check")
admin_step("C", "remove_destruction")
admin_step("E", "ready_units")
