"""Playing a card from hand (§11): basic cards, Events, Economic Warfare, Status, Response."""

from __future__ import annotations

from app.games.qmg import board
from app.games.qmg.actions import (
    alt_build_spaces,
    battle,
    battle_spaces,
    build,
    build_spaces,
    declarable,
    discard_from_deck,
    discard_revealed,
    window,
)
from app.games.qmg.cards.registry import RULES, effect
from app.games.qmg.data import card
from app.games.qmg.engine import Ctx, Task, task
from app.games.qmg.state import GameState
from app.games.qmg.supply import status_in_play
from app.games.qmg.text import say


def playable(state: GameState, c: str, iid: str) -> bool:
    """Would playing this card do anything at all? (Otherwise it may only be discarded.)"""
    d = card(iid)
    if d.type in ("build_army", "build_navy"):
        kind = "army" if d.type == "build_army" else "navy"
        return bool(build_spaces(state, c, kind) or declarable(state, c, kind)
                    or alt_build_spaces(state, c, kind, None))
    if d.type in ("land_battle", "sea_battle"):
        return bool(battle_spaces(state, c, "land" if d.type == "land_battle" else "sea"))
    r = RULES.get(d.key)
    if r is not None and r.playable is not None:
        return r.playable(state, c)
    return True


def basic_tasks(c: str, card_type: str, why: str = "") -> list[Task]:
    return {
        "build_army": [build(c, "army", declare=True, why=why)],
        "build_navy": [build(c, "navy", declare=True, why=why)],
        "land_battle": [battle(c, "land", why=why)],
        "sea_battle": [battle(c, "sea", why=why)],
    }[card_type]


def play_card(ctx: Ctx, c: str, iid: str, play_step: bool = True, source: str = "hand") -> None:
    st = ctx.state
    cs = st.countries[c]
    if source == "hand":
        cs.hand.remove(iid)
    elif source == "discard":
        cs.discard.remove(iid)
        if iid in cs.revealed:
            cs.revealed.remove(iid)
    d = card(iid)
    seat = st.seat_of(c)
    if d.type == "status":
        cs.statuses.append(iid)
        st.flags.setdefault("played", []).append(iid)
        ctx.log("plays_status", country=c, card=d.key, summary=d.summary)
        return
    if d.type == "response":
        cs.responses.append(iid)
        ctx.log("plays_response", {seat: say("you_play_face_down", card=d.key)}, country=c)
        return
    st.limbo.append(iid)
    if d.key.split("_", 1)[1] in ("build_army", "build_navy", "land_battle", "sea_battle"):
        ctx.log("plays_card", country=c, card=d.key)
    else:
        ctx.log("plays_card_summary", country=c, card=d.key, summary=d.summary)
    done = {"k": "card_done", "c": c, "iid": iid, "play_step": play_step, "i": 0}
    if d.type in ("build_army", "build_navy", "land_battle", "sea_battle"):
        ctx.push(*basic_tasks(c, d.type), done)
    elif d.type == "event":
        ctx.push(effect("play", d.key, c, iid), done)
    else:  # economic warfare
        st.flags["ew"] = {"iid": iid, "c": c, "cancel": False, "mod": {}}
        ctx.push(window({"s": "ew", "c": c, "card": iid}), {"k": "ew_gate", "c": c, "iid": iid}, done)


@task("ew_gate")
def _run_ew_gate(ctx: Ctx, t: Task) -> bool:
    ctx.pop(t)
    ew = ctx.state.flags.get("ew") or {}
    if ew.get("cancel"):
        ctx.log("no_effect", card=card(t["iid"]).key)
        return False
    ctx.push(effect("play", card(t["iid"]).key, t["c"], t["iid"]))
    return False


@task("card_done")
def _run_card_done(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    if t["i"] == 0:
        t["i"] = 1
        ctx.push(window({"s": "card_done", "c": t["c"], "card": t["iid"], "play_step": t["play_step"]}))
        return False
    ctx.pop(t)
    iid, c = t["iid"], t["c"]
    if iid in st.limbo:
        st.limbo.remove(iid)
    st.flags.pop("ew", None)
    dest = st.flags.pop("redirect", {}).get(iid)
    cs = st.countries[c]
    if dest == "hand":
        cs.hand.append(iid)
        ctx.log("returns_to_hand", card=card(iid).key, country=c)
    elif dest == "deck":
        cs.deck.append(iid)
        ctx.rng.shuffle(cs.deck)
        ctx.log("shuffled_into_deck", card=card(iid).key, country=c)
    else:
        discard_revealed(st, c, iid)
    return False


def target_discards(ctx: Ctx, by: str, target: str, n: int) -> None:
    """An Economic Warfare card makes ``target`` discard ``n`` from its deck, after modifiers."""
    st = ctx.state
    ew = st.flags.get("ew") or {}
    n += ew.get("mod", {}).get(target, 0) + ew.get("mod", {}).get("*", 0)
    if target == "germany" and status_in_play(st, "ger_jet_fighters") == "germany":
        n -= 3
    if by == "usa" and status_in_play(st, "usa_flying_fortresses") == "usa":
        n += 2
    n = max(0, n)
    if n:
        discard_from_deck(ctx, target, n, say("reason_economic_warfare", country=by))
    else:
        ctx.log("discards_nothing", country=target)


def in_or_adjacent(space: str) -> list[str]:
    return [space, *sorted(board.base_adjacent(space))]
