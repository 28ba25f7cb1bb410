"""Reaction windows (rulebook §12.8-12.10, spec §18.3).

A situation opens a window. The team that did not cause it is asked first; teams
then alternate one reaction at a time; the window closes when both teams pass in
succession. A reaction's effects are pushed above the window, so any situation
they create is resolved first (nesting), then the window resumes.

No leak through prompts: a seat is asked when one of its countries has a usable
face-up Status (public), or has face-down Responses and *some* Response card of
that country's deck list (public knowledge) could answer this situation. Whether
the face-down cards really can is never revealed by being asked.
"""

from __future__ import annotations

from typing import Any

from app.games.protocol import Msg
from app.games.qmg.actions import countries_in_order, discard_revealed, pay, window
from app.games.qmg.board import kind_at
from app.games.qmg.cards.registry import RULES, Sit, effect
from app.games.qmg.data import card, catalogue, other_team
from app.games.qmg.engine import Ctx, Task, answer, task, wait
from app.games.qmg.state import GameState
from app.games.qmg.text import say


def _response_pool(c: str) -> list[str]:
    return sorted({d.key for d in catalogue().values() if d.country == c and d.type == "response"})


def usable(state: GameState, sit: Sit, c: str, used_here: list[str]) -> list[str]:
    """Instance ids of ``c``'s played Status/Response cards that may answer ``sit`` now."""
    cs = state.countries[c]
    out = []
    for iid in [*cs.statuses, *cs.responses]:
        r = RULES.get(card(iid).key)
        if r is None or r.trigger is None or iid in used_here:
            continue
        if r.once_per_turn and r.key in cs.used:
            continue
        try:
            ok = r.trigger(state, sit, c)
        except KeyError:
            ok = False
        if ok:
            out.append(iid)
    return out


def could_respond(state: GameState, sit: Sit, c: str) -> bool:
    if not state.countries[c].responses:
        return False
    for key in _response_pool(c):
        r = RULES.get(key)
        if r and r.trigger:
            try:
                if r.trigger(state, sit, c):
                    return True
            except KeyError:
                continue
    return False


def situation(sit: Sit) -> dict[str, Any]:
    """The situation a reaction window answers, as a nested message of the catalogue."""
    s, c = sit["s"], sit["c"]
    if "area" in sit:
        params: dict[str, Any] = {"country": c, "space": sit["area"]}
        if s == "battle":
            return {"id": f"sit_battle_{sit.get('kind')}", "params": params}
        if s in ("remove", "removed", "built"):
            return {"id": f"sit_{s}_{kind_at(sit['area'])}", "params": params}
        return {"id": "sit_other", "params": {"what": s}}
    if s in ("turn_start", "supply_start", "discard_start", "ew", "status_used", "card_done"):
        return {"id": f"sit_{s}", "params": {"country": c}}
    return {"id": "sit_other", "params": {"what": s}}


@task("window")
def _run_window(ctx: Ctx, t: Task) -> bool:
    st, sit = ctx.state, t["sit"]
    for _ in range(4):
        team = t["on"]
        seats: list[str] = []
        for c in countries_in_order(team):
            if st.seat_of(c) not in seats:
                seats.append(st.seat_of(c))
        for seat in seats:
            if seat in t["asked"]:
                continue
            mine = [c for c in countries_in_order(team) if st.seat_of(c) == seat]
            options: list[tuple[str, Msg | str]] = []
            prompt_anyway = False
            for c in mine:
                for iid in usable(st, sit, c, t["used"]):
                    d = card(iid)
                    options.append((f"use:{iid}", say("use_card", country=c, card=d.key, summary=d.summary)))
                prompt_anyway = prompt_anyway or could_respond(st, sit, c)
            if options or prompt_anyway:
                return wait(t, seat, "react", say("react_prompt", situation=situation(sit)),
                            [*options, ("pass", say("pass"))])
            t["asked"].append(seat)
        t["passes"] += 1
        if t["passes"] >= 2:
            ctx.pop(t)
            return False
        t["on"] = other_team(team)
        t["asked"] = []
    raise RuntimeError("window did not settle")


@answer("window")
def _answer_window(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    if choices[0] == "pass":
        t["asked"].append(t["by_seat"])
        return
    iid = choices[0].split(":", 1)[1]
    t["passes"] = 0
    t["on"] = other_team(t["on"])
    t["asked"] = []
    t["used"].append(iid)
    use_card(ctx, card(iid).country, iid, t["sit"])


def use_card(ctx: Ctx, c: str, iid: str, sit: Sit) -> None:
    """Reveal/use a played Status or Response: cost first, then the effect (§12.9.3)."""
    st = ctx.state
    d = card(iid)
    r = RULES[d.key]
    cs = st.countries[c]
    tasks: list[Task] = []
    if d.type == "response":
        cs.responses.remove(iid)
        discard_revealed(st, c, iid)
        ctx.log("reveals_response", country=c, card=d.key, summary=d.summary)
    else:
        if r.once_per_turn:
            cs.used.append(d.key)
        ctx.log("uses_card", country=c, card=d.key)
    if r.cost_hand or r.cost_deck:
        tasks.append(pay(c, r.cost_hand, r.cost_deck, d.key))
    tasks.append(effect("use", d.key, c, iid, sit))
    if d.type == "status":
        tasks.append(window({"s": "status_used", "c": c, "card": iid}))
    ctx.push(*tasks)
