"""Setup, the round and the five phases of a country's turn (rulebook §4, §8, §13)."""

from __future__ import annotations

from typing import Any

from app.games.protocol import Msg
from app.games.qmg import board
from app.games.qmg.actions import (
    add_vp,
    discard_from_deck,
    discard_hidden,
    remove,
    window,
)
from app.games.qmg.cards.play import play_card, playable
from app.games.qmg.cards.registry import RULES, effect
from app.games.qmg.data import BASIC_TYPES, COUNTRIES, card, team_of
from app.games.qmg.engine import Ctx, Task, answer, task, wait
from app.games.qmg.reactions import use_card
from app.games.qmg.supply import is_supply_space, supplied_spaces
from app.games.qmg.text import as_json, english, keys, say

HAND_SIZE = 7
ROUNDS = 20
INSTANT_LEAD = 30


# ---------------------------------------------------------------- setup
@task("setup_discard")
def _run_setup(ctx: Ctx, t: Task) -> bool:
    c = t["c"]
    hand = ctx.state.countries[c].hand
    return wait(t, ctx.state.seat_of(c), "setup_discard",
                say("setup_discard_prompt", country=c),
                [(i, say("card_summary", card=card(i).key, summary=card(i).summary)) for i in hand], 3, 3,
                undoable=True)


@answer("setup_discard")
def _answer_setup(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    c = t["c"]
    for i in choices:
        ctx.state.countries[c].hand.remove(i)
        discard_hidden(ctx.state, c, i)
    ctx.log("setup_discards", {ctx.state.seat_of(c): say("you_discard", cards=keys(choices))}, country=c)


# ---------------------------------------------------------------- turn skeleton
def turn(c: str) -> Task:
    return {"k": "turn", "c": c}


@task("turn")
def _run_turn(ctx: Ctx, t: Task) -> bool:
    st, c = ctx.state, t["c"]
    ctx.pop(t)
    st.active = c
    st.phase = "turn_start"
    for cs in st.countries.values():
        cs.used.clear()
    st.flags = {"start_units": {s: list(cs) for s, cs in st.units.items()}}
    ctx.log("turn_starts", round=st.round, country=c)
    ctx.push(
        window({"s": "turn_start", "c": c}),
        {"k": "action", "c": c},
        window({"s": "supply_start", "c": c}),
        {"k": "supply", "c": c},
        {"k": "dominance", "c": c},
        window({"s": "discard_start", "c": c}),
        {"k": "discard_phase", "c": c},
        {"k": "draw", "c": c},
        {"k": "end_turn", "c": c},
    )
    return False


# ---------------------------------------------------------------- 1. action phase
def action_choices(ctx: Ctx, t: Task) -> list[tuple[str, Msg | str]]:
    st, c = ctx.state, t["c"]
    cs = st.countries[c]
    out: list[tuple[str, Msg | str]] = []
    if not t.get("started"):
        for iid in cs.statuses:
            r = RULES.get(card(iid).key)
            if r and r.play_start and r.key not in cs.used:
                out.append((f"use:{iid}", say("use_choice", card=card(iid).key, summary=card(iid).summary)))
        if st.options.get("reallocation") and not t.get("realloc") and len(cs.hand) >= 4 and any(
            card(i).type in BASIC_TYPES for i in cs.deck
        ):
            out.append(("realloc", say("realloc_choice")))
    for iid in cs.hand:
        if playable(st, c, iid):
            out.append((f"play:{iid}", say("play_choice", card=card(iid).key, summary=card(iid).summary)))
    for iid in cs.hand:
        out.append((f"discard:{iid}", say("discard_choice", card=card(iid).key)))
    for s in sorted(st.units_of(c)):
        if not st.is_protected(s, c):
            out.append((f"remove:{s}", say(f"remove_own_{board.kind_at(s)}_choice", space=s)))
    for iid in cs.statuses:
        r = RULES.get(card(iid).key)
        if r and r.instead and iid not in st.flags.get("played", []) and (
            r.instead_ok is None or r.instead_ok(st, c)
        ):
            out.append((f"instead:{iid}", say("instead_choice", card=card(iid).key, summary=card(iid).summary)))
    return out


@task("action")
def _run_action(ctx: Ctx, t: Task) -> bool:
    st, c = ctx.state, t["c"]
    st.phase = "action"
    cs = st.countries[c]
    if not cs.hand:
        ctx.pop(t)
        ctx.log("no_cards_in_hand", country=c)
        discard_from_deck(ctx, c, 1, say("reason_empty_hand"))
        return False
    return wait(t, st.seat_of(c), "action", say("action_prompt", country=c),
                action_choices(ctx, t))


@answer("action")
def _answer_action(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    st, c = ctx.state, t["c"]
    verb, _, iid = choices[0].partition(":")
    seat = st.seat_of(c)
    if verb == "use":
        t["used_start"] = True
        use_card(ctx, c, iid, {"s": "play_start", "c": c})
        return
    if verb == "remove":
        st.lift(iid, c)
        ctx.log("takes_unit_off", country=c, unit=board.kind_at(iid), space=iid)
        return
    if verb == "realloc":
        t["realloc"] = True
        cs = st.countries[c]
        ctx.push({"k": "realloc", "c": c, "seat": seat, "i": 0,
                  "hand": list(cs.hand)})
        return
    ctx.pop(t)
    if verb == "discard":
        st.countries[c].hand.remove(iid)
        discard_hidden(st, c, iid)
        ctx.log("discards_instead", {seat: say("you_discard", cards=[card(iid).key])}, country=c)
    elif verb == "play":
        play_card(ctx, c, iid)
    elif verb == "instead":
        d = card(iid)
        r = RULES[d.key]
        ctx.log("uses_instead", country=c, card=d.key)
        from app.games.qmg.actions import pay

        tasks: list[Task] = []
        if r.cost_hand or r.cost_deck:
            tasks.append(pay(c, r.cost_hand, r.cost_deck, d.key))
        tasks.append(effect("instead", d.key, c, iid))
        tasks.append(window({"s": "status_used", "c": c, "card": iid}))
        ctx.push(*tasks)


# ---------------------------------------------------------------- Reallocation of Resources (§10.4)
@task("realloc")
def _run_realloc(ctx: Ctx, t: Task) -> bool:
    st, c = ctx.state, t["c"]
    cs = st.countries[c]
    if t["i"] == 0:
        return wait(t, t["seat"], "realloc_discard", say("realloc_discard_prompt", country=c),
                    [(i, say("card", card=card(i).key)) for i in cs.hand], 4, 4, undoable=True)
    types = sorted({card(i).type for i in cs.deck if card(i).type in BASIC_TYPES})
    from app.games.qmg.data import card_pack

    assert card_pack().basic_card_types  # the basic types are terms of the catalogue
    return wait(t, t["seat"], "realloc_pick", say("realloc_pick_prompt", country=c),
                [(f"type:{ty}", say("card", card=ty)) for ty in types])


@answer("realloc")
def _answer_realloc(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    st, c = ctx.state, t["c"]
    cs = st.countries[c]
    if t["i"] == 0:
        for i in choices:
            cs.hand.remove(i)
            discard_hidden(st, c, i)
        t["i"] = 1
        ctx.log("reallocates", country=c)
        return
    ctx.pop(t)
    ty = choices[0].split(":")[1]
    iid = next(i for i in cs.deck if card(i).type == ty)
    cs.deck.remove(iid)
    cs.hand.append(iid)
    ctx.rng.shuffle(cs.deck)
    ctx.log("takes_from_deck", country=c, card=card(iid).key)


# ---------------------------------------------------------------- 2. supply phase
@task("supply")
def _run_supply(ctx: Ctx, t: Task) -> bool:
    """Remove every unsupplied unit of the active country, repeating until none is left.

    A navy without a port is unsupplied but may have linked other units to a supply
    space; once it is removed those units can be cut off too, so the check repeats.
    Units already tried (protected, or saved by a reaction) are not tried again.
    """
    st, c = ctx.state, t["c"]
    st.phase = "supply"
    ok = supplied_spaces(st, c)
    tried = t.setdefault("tried", [])
    out = sorted(s for s in st.units_of(c) if s not in ok and s not in tried and not st.is_protected(s, c))
    if not out:
        ctx.pop(t)
        return False
    tried.extend(out)
    ctx.push(*[remove(s, c, "supply", c) for s in out])
    return False


# ---------------------------------------------------------------- 3. dominance phase
def dominance_points(st, c: str) -> tuple[int, list[str]]:  # noqa: ANN001
    """VP of the supply spaces ``c`` holds (§13.1); Status VP are the owner's choice, see below."""
    team = team_of(c)
    pts, why = 0, []
    for s in st.units_of(c):
        if is_supply_space(st, s, team):
            alone = len(st.units.get(s, [])) == 1
            pts += 2 if alone else 1
            why.append(f"{board.name(s)} {'+2' if alone else '+1'}")
    return pts, why


def status_vp(st, c: str, iid: str) -> int:  # noqa: ANN001
    """What using ``c``'s face-up Status ``iid`` would score in this dominance phase (0: nothing)."""
    r = RULES.get(card(iid).key)
    return r.victory(st, c) if r and r.victory else 0


def dominance_items(st, c: str) -> list[dict[str, Any]]:  # noqa: ANN001
    """dominance_points' reasons as messages: each supply space and its points."""
    team = team_of(c)
    return [{"id": "points_for", "params": {"what": s, "n": 2 if len(st.units.get(s, [])) == 1 else 1}}
            for s in st.units_of(c) if is_supply_space(st, s, team)]


@task("dominance")
def _run_dominance(ctx: Ctx, t: Task) -> bool:
    st, c = ctx.state, t["c"]
    ctx.pop(t)
    st.phase = "dominance"
    cap = board.capital(c)
    if board.enemy_in(cap, c, st.units):
        ctx.log("skips_dominance", country=c, space=cap)
        return False
    pts, why = dominance_points(st, c)
    if pts:
        add_vp(ctx, team_of(c), pts, say("reason_dominance", country=c, items=dominance_items(st, c)))
    ctx.push({"k": "dominance_status", "c": c, "asked": []})
    return False


@task("dominance_status")
def _run_dominance_status(ctx: Ctx, t: Task) -> bool:
    """Each scoring Status is its owner's decision: "Korzystanie z kart Status! nigdy nie jest
    obowiązkowe". Only a used Status scores and opens the "Status used" window (where the UK's
    Enigma may discard a German one), so a declined Status is never exposed to it."""
    st, c = ctx.state, t["c"]
    for iid in st.countries[c].statuses:
        if iid in t["asked"]:
            continue
        n = status_vp(st, c, iid)
        if n <= 0:
            continue
        t["iid"], t["n"] = iid, n
        d = card(iid)
        return wait(t, st.seat_of(c), "use_status", say("use_status_prompt", country=c, card=d.key, n=n),
                    [(f"use:{iid}", say("use_status_choice", card=d.key, n=n, summary=d.summary)),
                     ("skip", say("skip_status_choice", card=d.key))])
    ctx.pop(t)
    return False


@answer("dominance_status")
def _answer_dominance_status(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    c, iid = t["c"], t["iid"]
    t["asked"].append(iid)
    key = card(iid).key
    if choices[0] == "skip":
        ctx.log("declines_status", country=c, card=key)
        return
    ctx.log("uses_card", country=c, card=key)
    add_vp(ctx, team_of(c), t["n"], say("reason_dominance", country=c,
                                        items=[{"id": "points_for", "params": {"what": key, "n": t["n"]}}]))
    ctx.push(window({"s": "status_used", "c": c, "card": iid}))


# ---------------------------------------------------------------- 4. discard phase
@task("discard_phase")
def _run_discard_phase(ctx: Ctx, t: Task) -> bool:
    st, c = ctx.state, t["c"]
    st.phase = "discard"
    hand = st.countries[c].hand
    if not hand:
        ctx.pop(t)
        return False
    return wait(t, st.seat_of(c), "discard_phase", say("discard_phase_prompt", country=c),
                [(i, say("card", card=card(i).key)) for i in hand], 0, len(hand))


@answer("discard_phase")
def _answer_discard_phase(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    st, c = ctx.state, t["c"]
    ctx.pop(t)
    for i in choices:
        st.countries[c].hand.remove(i)
        discard_hidden(st, c, i)
    if choices:
        ctx.log("discards_cards", {st.seat_of(c): say("you_discard", cards=keys(choices))}, country=c,
                n=len(choices))


# ---------------------------------------------------------------- 5. draw phase
@task("draw")
def _run_draw(ctx: Ctx, t: Task) -> bool:
    st, c = ctx.state, t["c"]
    ctx.pop(t)
    st.phase = "draw"
    draw(ctx, c, HAND_SIZE - len(st.countries[c].hand))
    return False


def draw(ctx: Ctx, c: str, n: int) -> None:
    cs = ctx.state.countries[c]
    got = cs.deck[: max(0, n)]
    del cs.deck[: len(got)]
    cs.hand.extend(got)
    if got:
        ctx.log("draws_cards", {ctx.state.seat_of(c): say("you_draw", cards=keys(got))}, country=c, n=len(got))


# ---------------------------------------------------------------- end of turn / round
@task("end_turn")
def _run_end_turn(ctx: Ctx, t: Task) -> bool:
    st, c = ctx.state, t["c"]
    ctx.pop(t)
    st.protected.clear()
    st.flags = {}
    i = COUNTRIES.index(c)
    if i + 1 < len(COUNTRIES):
        ctx.push(turn(COUNTRIES[i + 1]))
        return False
    end_of_round(ctx)
    return False


def end_of_round(ctx: Ctx) -> None:
    st = ctx.state
    ax, al = st.vp["axis"], st.vp["allies"]
    if abs(ax - al) >= INSTANT_LEAD:
        win = "axis" if ax > al else "allies"
        finish(ctx, win, say("win_by_lead", team=win, lead=abs(ax - al), round=st.round))
        return
    if st.round >= ROUNDS:
        win = "axis" if ax >= al else "allies"
        finish(ctx, win, say("win_on_points_tie" if ax == al else "win_on_points", team=win, round=ROUNDS,
                             axis=ax, allies=al))
        return
    st.round += 1
    ctx.push(turn(COUNTRIES[0]))


def finish(ctx: Ctx, team: str, summary: Msg) -> None:
    st = ctx.state
    st.outcome = {"team": team, "summary": english(summary), "summary_msg": as_json(summary), "scores": dict(st.vp)}
    st.phase = "over"
    st.stack.clear()
    ctx.log(summary.id, **summary.params)

