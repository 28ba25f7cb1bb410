"""Atomic game operations as tasks: build, deploy, battle, remove, eliminate, pay, discard.

Each follows the rulebook procedure (§11, §12.5, §12.6) and opens the reaction
windows that the situation calls for.
"""

from __future__ import annotations

from typing import Any

from app.games.protocol import Msg
from app.games.qmg import board
from app.games.qmg.board import kind_at
from app.games.qmg.data import COUNTRIES, COUNTRY_NAME, card, team_of
from app.games.qmg.engine import Ctx, Task, answer, ask, cont, task, wait
from app.games.qmg.state import GameState
from app.games.qmg.supply import (
    is_supplied,
    linked_spaces,
    status_in_play,
    supplied_spaces,
    would_be_supplied,
)
from app.games.qmg.text import as_json, english, keys, say

ALL = None  # "anywhere" for a where-list


def cname(c: str) -> str:
    return COUNTRY_NAME[c]


def Cname(c: str) -> str:  # noqa: N802 - capitalised country name for sentence starts
    n = COUNTRY_NAME[c]
    return n[0].upper() + n[1:]


def owns(c: str) -> str:
    """Possessive country name for sentence starts: "Germany's", "The UK's"."""
    return f"{Cname(c)}'s"


def unit_in(country: str, space: str) -> dict[str, Any]:
    """"Germany's army in Western Europe" as a nested message."""
    return {"id": f"unit_in_{kind_at(space)}", "params": {"country": country, "space": space}}


def why(t: Task) -> dict[str, Any] | str:
    """A task's reason (the card that asks for it) as a nested message, or nothing."""
    return {"id": "because", "params": {"what": t["why"]}} if t.get("why") else ""


def where_list(where: list[str] | None) -> list[str]:
    return list(board.spaces()) if where is None else list(where)


# ---------------------------------------------------------------- score and cards
def add_vp(ctx: Ctx, team: str, n: int, reason: Msg | str) -> None:
    if n:
        ctx.state.add_vp(team, n, english(reason))
        ctx.log("vp_gain" if n > 0 else "vp_loss", team=team, n=abs(n), reason=as_json(reason))


def discard_from_deck(ctx: Ctx, c: str, n: int, reason: Msg | str) -> int:
    """Discard the top ``n`` deck cards unrevealed; the team loses 1 VP per missing card."""
    cs = ctx.state.countries[c]
    taken = cs.deck[:n]
    del cs.deck[:n]
    cs.discard[0:0] = taken  # unrevealed discards go to the bottom of the pile (§10.3)
    missing = n - len(taken)
    if taken:
        ctx.log("discards_from_deck", country=c, n=len(taken), reason=as_json(reason))
    if missing:
        add_vp(ctx, team_of(c), -missing, say("reason_deck_empty", country=c, n=missing))
    return len(taken)


def discard_revealed(state: GameState, c: str, iid: str) -> None:
    cs = state.countries[c]
    cs.discard.append(iid)
    cs.revealed.append(iid)


def discard_hidden(state: GameState, c: str, iid: str) -> None:
    state.countries[c].discard.insert(0, iid)


# ---------------------------------------------------------------- legality
def build_spaces(state: GameState, c: str, kind: str, where: list[str] | None = ALL) -> list[str]:
    if state.available(c, kind) <= 0:
        return []
    team = team_of(c)
    mine = set(state.units_of(c))
    cap = board.capital(c)
    adj = board.adjacency(team, state.units)
    linked = linked_spaces(state, c)
    out = []
    for s in where_list(where):
        if kind_at(s) != kind or c in state.units.get(s, []) or board.enemy_in(s, c, state.units):
            continue
        if not (kind == "army" and s == cap) and not (adj[s] & mine):
            continue
        if would_be_supplied(state, s, c, linked):
            out.append(s)
    return out


def alt_build_spaces(state: GameState, c: str, kind: str, where: list[str] | None) -> list[str]:
    """UK Status cards that let an army 'build' go straight to Australia / India."""
    if c != "uk" or kind != "army" or state.available(c, kind) <= 0:
        return []
    out = []
    for key, s in (("uk_australia_directorate_of_manpower", "australia"), ("uk_lord_linlithgow", "india")):
        if status_in_play(state, key) == "uk" and (where is None or s in where) and deployable(state, c, s):
            out.append(s)
    return out


def declarable(state: GameState, c: str, kind: str, where: list[str] | None = ALL) -> list[str]:
    sup = supplied_spaces(state, c)
    return [s for s in state.units_of(c) if kind_at(s) == kind and s in sup and (where is None or s in where)]


def deployable(state: GameState, c: str, s: str) -> bool:
    return (
        state.available(c, kind_at(s)) > 0
        and c not in state.units.get(s, [])
        and not board.enemy_in(s, c, state.units)
    )


def battle_spaces(state: GameState, c: str, kind: str, where: list[str] | None = ALL) -> list[str]:
    """Spaces ``c`` may battle: right type, next to any own unit (§11.3), no own or allied unit.

    With the table option ``battle_needs_supply`` the adjacent own unit must be supplied
    (the English-language reading); the Polish rulebook does not require it.
    """
    mine = set(state.units_of(c))
    if state.options.get("battle_needs_supply"):
        mine &= supplied_spaces(state, c)
    adj = board.adjacency(team_of(c), state.units)
    out = []
    for s in where_list(where):
        if board.is_land(s) != (kind == "land") or board.friendly_in(s, c, state.units):
            continue
        if adj[s] & mine:
            out.append(s)
    return out


def enemies_in(state: GameState, s: str, c: str) -> list[str]:
    t = team_of(c)
    return [x for x in state.units.get(s, []) if team_of(x) != t]


# ---------------------------------------------------------------- windows
def window(sit: dict[str, Any]) -> Task:
    cause = sit.get("by") or sit["c"]
    first = "allies" if team_of(cause) == "axis" else "axis"
    return {"k": "window", "sit": sit, "on": first, "passes": 0, "asked": [], "used": []}


# ---------------------------------------------------------------- build
def build(c: str, kind: str, where: list[str] | None = ALL, optional: bool = False,
          declare: bool = False, why: str = "") -> Task:
    return {"k": "build", "c": c, "kind": kind, "where": where, "optional": optional,
            "declare": declare, "why": why}


@task("build")
def _run_build(ctx: Ctx, t: Task) -> bool:
    st, c, kind = ctx.state, t["c"], t["kind"]
    spaces = build_spaces(st, c, kind, t["where"])
    choices: list[tuple[str, Msg | str]] = [(f"at:{s}", say(f"build_{kind}_in", space=s)) for s in spaces]
    choices += [(f"at:{s}", say("build_army_in_status", space=s))
                for s in alt_build_spaces(st, c, kind, t["where"]) if s not in spaces]
    if t["declare"]:
        choices += [(f"declare:{s}", say(f"declare_{kind}_in", space=s))
                    for s in declarable(st, c, kind, t["where"])]
    if not choices:
        ctx.log(f"no_space_to_build_{kind}", country=c)
        ctx.pop(t)
        return False
    if t["optional"]:
        choices.append(("skip", say("build_nothing")))
    elif len(choices) == 1:
        _answer_build(ctx, t, (choices[0][0],))
        return False
    return wait(t, st.seat_of(c), "build", say(f"build_{kind}_prompt", country=c, why=why(t)), choices)


@answer("build")
def _answer_build(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    verb, _, s = choices[0].partition(":")
    if verb == "skip":
        return
    c, kind = t["c"], t["kind"]
    if verb == "at":
        ctx.state.place(s, c)
        ctx.log(f"builds_{kind}", country=c, space=s)
    else:
        ctx.log(f"declares_{kind}", country=c, space=s)
    ctx.push(window({"s": "built", "c": c, "kind": kind, "area": s, "declared": verb == "declare"}))


# ---------------------------------------------------------------- deploy
def deploy(owners: list[str] | str, kind: str, where: list[str] | None, chooser: str,
           optional: bool = False, why: str = "") -> Task:
    owners = [owners] if isinstance(owners, str) else owners
    return {"k": "deploy", "owners": owners, "kind": kind, "where": where, "chooser": chooser,
            "optional": optional, "why": why}


@task("deploy")
def _run_deploy(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    choices = []
    for o in t["owners"]:
        for s in where_list(t["where"]):
            if kind_at(s) == t["kind"] and deployable(st, o, s):
                who = f"{cname(o)} " if len(t["owners"]) > 1 or o != t["chooser"] else ""
                choices.append((f"at:{s}:{o}", say(f"deploy_{t['kind']}_of_in", country=o, space=s) if who
                                else say(f"deploy_{t['kind']}_in", space=s)))
    if not choices:
        ctx.log(f"no_{t['kind']}_to_deploy", why=why(t))
        ctx.pop(t)
        return False
    if t["optional"]:
        choices.append(("skip", say("deploy_nothing")))
    elif len(choices) == 1:
        _answer_deploy(ctx, t, (choices[0][0],))
        return False
    c = t["chooser"]
    return wait(t, st.seat_of(c), "deploy", say(f"deploy_{t['kind']}_prompt", country=c, why=why(t)), choices)


@answer("deploy")
def _answer_deploy(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    if choices[0] == "skip":
        return
    _, s, o = choices[0].split(":")
    ctx.state.place(s, o)
    ctx.log(f"deploys_{t['kind']}", country=o, space=s)


# ---------------------------------------------------------------- battle
def battle(c: str, kind: str, where: list[str] | None = ALL, optional: bool = False, why: str = "") -> Task:
    return {"k": "battle", "c": c, "kind": kind, "where": where, "optional": optional, "why": why}


@task("battle")
def _run_battle(ctx: Ctx, t: Task) -> bool:
    st, c = ctx.state, t["c"]
    spaces = battle_spaces(st, c, t["kind"], t["where"])
    if not spaces:
        ctx.log(f"no_{t['kind']}_battle_target", country=c)
        ctx.pop(t)
        return False
    choices = []
    for s in spaces:
        foes = enemies_in(st, s, c)
        units = [{"id": "unit_of", "params": {"country": f, "unit": kind_at(s)}} for f in foes]
        choices.append((f"at:{s}", say("battle_in", space=s, foes=units) if units else say("battle_in_empty", space=s)))
    if t["optional"]:
        choices.append(("skip", say("no_battle")))
    elif len(choices) == 1:
        _answer_battle(ctx, t, (choices[0][0],))
        return False
    return wait(t, st.seat_of(c), "battle", say(f"{t['kind']}_battle_prompt", country=c, why=why(t)), choices)


@answer("battle")
def _answer_battle(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    if choices[0] == "skip":
        return
    s = choices[0].split(":")[1]
    c = t["c"]
    foes = enemies_in(ctx.state, s, c)
    if len(foes) > 1:
        ctx.push(ask(c, ctx.state, say(f"which_enemy_{kind_at(s)}", space=s),
                     [(f, say(f"owners_{kind_at(s)}", country=f)) for f in foes], "battle_victim",
                     kind="battle_target", area=s, bkind=t["kind"]))
        return
    ctx.push(battle_resolve(c, t["kind"], s, foes[0] if foes else None))


@cont("battle_victim")
def _battle_victim(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.push(battle_resolve(t["c"], t["bkind"], t["area"], choices[0]))


def battle_resolve(c: str, kind: str, s: str, victim: str | None) -> Task:
    return {"k": "battle_resolve", "c": c, "kind": kind, "area": s, "victim": victim, "i": 0}


@task("battle_resolve")
def _run_battle_resolve(ctx: Ctx, t: Task) -> bool:
    c, s = t["c"], t["area"]
    if t["i"] == 0:
        t["i"] = 1
        ctx.log(f"starts_{t['kind']}_battle", country=c, space=s)
        if t["victim"]:
            ctx.push(remove(s, t["victim"], "battle", c))
        return False
    ctx.pop(t)
    ctx.push(window({"s": "battle", "c": c, "kind": t["kind"], "area": s, "victim": t["victim"]}))
    return False


# ---------------------------------------------------------------- removal
def remove(s: str, owner: str, cause: str, by: str) -> Task:
    return {"k": "remove", "area": s, "c": owner, "cause": cause, "by": by, "i": 0}


@task("remove")
def _run_remove(ctx: Ctx, t: Task) -> bool:
    st, s, o = ctx.state, t["area"], t["c"]
    what = unit_in(o, s)
    if not st.has_unit(s, o):
        ctx.pop(t)
        return False
    if t["i"] == 0:
        if st.is_protected(s, o):
            ctx.log("cannot_be_removed", what=what)
            ctx.pop(t)
            return False
        t["i"] = 1
        t["supplied"] = is_supplied(st, s, o)
        ctx.push(window({"s": "remove", "c": o, "area": s, "cause": t["cause"], "by": t["by"],
                         "supplied": t["supplied"]}))
        return False
    ctx.pop(t)
    prevent = st.flags.pop("prevent", None)
    if st.is_protected(s, o) or prevent == [s, o]:
        ctx.log("not_removed", what=what)
        return False
    st.lift(s, o)
    cause = t["cause"] if t["cause"] in ("battle", "supply", "eliminate") else "other"
    ctx.log(f"removed_{cause}", what=what)
    ctx.push(window({"s": "removed", "c": o, "area": s, "cause": t["cause"], "by": t["by"],
                     "supplied": t["supplied"]}))
    return False


def eliminate(chooser: str, team: str, where: list[str] | None, count: int = 1, must: int = 1,
              kind: str = "army", why: str = "") -> Task:
    return {"k": "eliminate", "c": chooser, "team": team, "where": where, "left": count,
            "must": must, "kind": kind, "why": why}


@task("eliminate")
def _run_eliminate(ctx: Ctx, t: Task) -> bool:
    st = ctx.state
    if t["left"] <= 0:
        ctx.pop(t)
        return False
    targets = [(s, o) for s in where_list(t["where"]) if kind_at(s) == t["kind"]
               for o in st.units.get(s, []) if team_of(o) == t["team"]]
    if not targets:
        ctx.pop(t)
        return False
    choices: list[tuple[str, Msg | str]] = [(f"u:{s}:{o}", say("eliminate_unit", what=unit_in(o, s)))
                                            for s, o in targets]
    if t["must"] <= 0:
        choices.append(("skip", say("eliminate_no_more")))
    elif len(choices) == 1:
        _answer_eliminate(ctx, t, (choices[0][0],))
        return False
    return wait(t, st.seat_of(t["c"]), "eliminate", say("eliminate_prompt", country=t["c"], why=why(t)), choices)


@answer("eliminate")
def _answer_eliminate(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    if choices[0] == "skip":
        ctx.pop(t)
        return
    _, s, o = choices[0].split(":")
    t["left"] -= 1
    t["must"] -= 1
    ctx.push(remove(s, o, "eliminate", t["c"]))


# ---------------------------------------------------------------- costs
def pay(c: str, hand: int = 0, deck: int = 0, why: str = "") -> Task:
    return {"k": "pay", "c": c, "hand": hand, "deck": deck, "why": why}


@task("pay")
def _run_pay(ctx: Ctx, t: Task) -> bool:
    cs = ctx.state.countries[t["c"]]
    if t["hand"] > 0 and cs.hand:
        n = min(t["hand"], len(cs.hand))
        return wait(t, ctx.state.seat_of(t["c"]), "pay_hand", say("pay_prompt", country=t["c"], n=n, what=t["why"]),
                    [(i, say("card", card=card(i).key)) for i in cs.hand], n, n)
    ctx.pop(t)
    discard_from_deck(ctx, t["c"], t["hand"] + t["deck"], say("reason_cost", what=t["why"]))
    return False


@answer("pay")
def _answer_pay_hand(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    cs = ctx.state.countries[t["c"]]
    for i in choices:
        cs.hand.remove(i)
        discard_hidden(ctx.state, t["c"], i)
    seat = ctx.state.seat_of(t["c"])
    ctx.log("pays_from_hand", {seat: say("you_discard", cards=keys(choices))}, country=t["c"], n=len(choices),
            what=t["why"])
    t["hand"] -= len(choices)



def countries_in_order(team: str) -> list[str]:
    return [c for c in COUNTRIES if team_of(c) == team]
