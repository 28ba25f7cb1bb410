"""Germany's unique cards."""

from __future__ import annotations

from itertools import permutations

from app.games.qmg import board
from app.games.qmg.actions import battle, build, deploy, discard_from_deck, eliminate
from app.games.qmg.cards.helpers import (
    armies_in,
    ew,
    in_or_adj,
    on_own,
    on_own_battle,
    on_own_build,
    on_play,
    on_would_remove,
    same_or_adj,
    units_near,
    vp,
)
from app.games.qmg.cards.play import basic_tasks
from app.games.qmg.cards.registry import Sit, rule
from app.games.qmg.data import card, card_pack
from app.games.qmg.engine import Ctx, Task, ask, cont
from app.games.qmg.state import GameState
from app.games.qmg.text import army_of, say

G = "germany"

# ---- Status
rule("ger_abundant_resources", victory=lambda st, c: armies_in(st, c, ["ukraine", "kazakhstan", "russia"]))


def _atlantic_wall(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    discard_from_deck(ctx, sit["by"], 3, "Atlantic Wall")


rule("ger_atlantic_wall", once_per_turn=True, use=_atlantic_wall,
     trigger=on_would_remove(team="axis", kind="army", where=["western_europe"], cause="battle"))

rule("ger_bias_for_action", once_per_turn=True, cost_deck=1, trigger=on_own_build("army"),
     use=lambda ctx, o, i, sit: ctx.push(battle(o, "land", sorted(board.adjacent(
         sit["area"], "axis", ctx.state.units)), optional=True, why="Bias for Action")))

rule("ger_blitzkrieg", once_per_turn=True, cost_deck=1, trigger=on_own_battle("land"),
     use=lambda ctx, o, i, sit: ctx.push(build(o, "army", [sit["area"]], optional=True, why="Blitzkrieg")))

rule("ger_conscription", cost_deck=2,
     instead=lambda ctx, o, i: ctx.push(build(o, "army", why="Conscription")))

rule("ger_dive_bombers", once_per_turn=True, cost_deck=1, trigger=on_own_battle("land"),
     use=lambda ctx, o, i, sit: ctx.push(battle(o, "land", same_or_adj(sit["area"], ctx.state, "axis"),
                                                optional=True, why="Dive Bombers")))

rule("ger_jet_fighters")  # continuous: see cards.play.target_discards


def _superior_planning(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    top = ctx.state.countries[owner].deck[:4]
    if len(top) < 2:
        return
    options = []
    for perm in permutations(range(len(top))):
        options.append(("order:" + "".join(map(str, perm)),
                        say("top_to_bottom", cards=[card(top[p]).key for p in perm])))
    ctx.push(ask(owner, ctx.state, say("superior_planning_prompt"), options,
                 "superior_planning", kind="reorder", n=len(top)))


@cont("superior_planning")
def _sp_done(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    deck = ctx.state.countries[t["c"]].deck
    top = deck[: t["n"]]
    deck[: t["n"]] = [top[int(ch)] for ch in choices[0].split(":")[1]]
    ctx.log("reorders_deck", country=t["c"])


rule("ger_superior_planning", once_per_turn=True, play_start=True, use=_superior_planning)


def _swedish(st: GameState, c: str) -> int:
    if not st.has_unit("baltic_sea", c):
        return 0
    return 1 + (1 if st.has_unit("scandinavia", c) else 0)


rule("ger_swedish_iron_ore", victory=_swedish)

rule("ger_synthetic_fuel", once_per_turn=True, cost_deck=2, trigger=on_own_build("army"),
     use=lambda ctx, o, i, sit: ctx.push(build(o, "army", sorted(board.adjacent(
         sit["area"], "axis", ctx.state.units)), optional=True, why="Synthetic Fuel")))

rule("ger_volksturm", once_per_turn=True, cost_deck=1, trigger=on_own("turn_start"),
     use=lambda ctx, o, i, sit: ctx.push(deploy(o, "army", ["germany"], o, why="Volksturm")))


def _wolf_trigger(st: GameState, sit: Sit, owner: str) -> bool:
    if sit["s"] != "ew":
        return False
    d = card(sit["card"])
    return "Submarines" in d.name_en and d.country in ("germany", "japan")


def _wolf_use(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    ew_flags = ctx.state.flags.setdefault("ew", {"mod": {}})
    n = 3 if ctx.state.has_unit("scandinavia", G) else 2
    ew_flags.setdefault("mod", {})["*"] = ew_flags.get("mod", {}).get("*", 0) + n
    ctx.log("wolf_packs", n=n)


rule("ger_wolf_packs", trigger=_wolf_trigger, use=_wolf_use)


# ---- Events
def _broad_front(ctx: Ctx, owner: str, iid: str) -> None:
    start = ctx.state.flags.get("start_units", ctx.state.units)
    adj = board.adjacency("axis", start)
    targets = sorted(s for s, cs in start.items() if "ussr" in cs and board.is_land(s)
                     and any(G in start.get(n, []) for n in adj[s]))
    ctx.push(*[battle(owner, "land", targets, optional=True, why=f"Broad Front, attack {k} of 3")
               for k in (1, 2, 3)])


rule("ger_broad_front", play=_broad_front)
rule("ger_forced_conscription", play=on_play(
    lambda ctx, o: deploy(o, "army", in_or_adj("germany"), o, why="Forced Conscription"),
    lambda ctx, o: deploy(o, "army", in_or_adj("germany"), o, optional=True, why="Forced Conscription"),
))


def _guns_and_butter(ctx: Ctx, owner: str, iid: str) -> None:
    names = card_pack().basic_card_types
    assert names  # the basic card types are terms of the catalogue
    ctx.push(ask(owner, ctx.state, say("guns_and_butter_prompt"),
                 [(t, say("card", card=t)) for t in ("build_army", "build_navy", "land_battle", "sea_battle")],
                 "guns_and_butter"))


@cont("guns_and_butter")
def _gb_done(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.push(*basic_tasks(t["c"], choices[0], why="Guns and Butter"))


rule("ger_guns_and_butter", play=_guns_and_butter)
rule("ger_military_dictatorships_balkans", play=on_play(
    lambda ctx, o: deploy("italy", "army", ["balkans"], o, why="Military Dictatorships in the Balkans"),
    lambda ctx, o: eliminate(o, "allies", ["ukraine"], why="Military Dictatorships in the Balkans"),
))
rule("ger_plunder", play=lambda ctx, o, i: vp(
    ctx, o, sum(1 for s in ctx.state.units_of(o) if s != "germany"), "Plunder"))


def rebuild_all(ctx: Ctx, owner: str, why: str) -> None:
    """Lift every army of ``owner`` (not a removal), then build them again one by one."""
    st = ctx.state
    lifted = [s for s in st.units_of(owner) if board.is_land(s)]
    for s in lifted:
        st.lift(s, owner)
    ctx.log("picks_up_armies", country=owner, n=len(lifted), what=why)
    ctx.push(*[build(owner, "army", why=army_of(why, k + 1, len(lifted))) for k in range(len(lifted))])


rule("ger_the_autobahn", play=lambda ctx, o, i: rebuild_all(ctx, o, "The Autobahn"))


# ---- Economic Warfare
rule("ger_submarines_enforce_blockade", submarines=True, ew_targets=("uk",), play=lambda ctx, o, i: (
    vp(ctx, o, units_near(ctx.state, o, "north_sea", include_self=False), "Submarines Enforce Blockade"),
    ew(ctx, o, "uk", 2)))
rule("ger_submarines_battle_of_the_atlantic", submarines=True, ew_targets=("uk",), play=lambda ctx, o, i: (
    vp(ctx, o, ctx.state.on_board(o, "navy"), "Submarines Lead the Battle of the Atlantic"),
    ew(ctx, o, "uk", 2)))


def _monsoon(ctx: Ctx, owner: str, iid: str) -> None:
    ctx.push(ask(owner, ctx.state, say("monsoon_prompt"),
                 [(c, say("country", country=c)) for c in ("uk", "ussr", "usa")], "monsoon"))


@cont("monsoon")
def _monsoon_done(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ew(ctx, t["c"], choices[0], 2)
    vp(ctx, t["c"], 2, "Submarines of the Monsoon Group")


rule("ger_submarines_monsoon_group", submarines=True, ew_targets=("uk", "ussr", "usa"), play=_monsoon)


def _prey(ctx: Ctx, o: str, iid: str) -> None:
    free = not any(c in ("uk", "ussr", "usa") for c in ctx.state.units.get("north_sea", []))
    ew(ctx, o, "uk", 3 if free else 2)
    vp(ctx, o, 1, "Submarines Prey on Unprotected Shipping")


rule("ger_submarines_prey_unprotected_shipping", submarines=True, ew_targets=("uk",), play=_prey)
rule("ger_submarines_raid_murmansk_convoy", submarines=True, ew_targets=("ussr",), play=lambda ctx, o, i: (
    vp(ctx, o, units_near(ctx.state, o, "scandinavia", include_self=True), "Submarines Raid Murmansk Convoy"),
    ew(ctx, o, "ussr", 2)))


def _v_weapons(ctx: Ctx, o: str, iid: str) -> None:
    if not ctx.state.has_unit("western_europe", o):
        ctx.log("v_weapons_no_effect")
        return
    vp(ctx, o, 3, "V-Weapons")
    ew(ctx, o, "uk", 1)


rule("ger_v_weapons", ew_targets=("uk",), play=_v_weapons)
