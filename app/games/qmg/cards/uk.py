"""The United Kingdom's unique cards."""

from __future__ import annotations

from app.games.qmg.actions import (
    battle,
    battle_spaces,
    build,
    build_spaces,
    deploy,
    discard_revealed,
    eliminate,
    remove,
)
from app.games.qmg.cards.helpers import (
    eliminate_built,
    ew,
    in_or_adj,
    on_enemy_build,
    on_own_battle,
    on_play,
    on_would_remove,
    protect,
)
from app.games.qmg.cards.registry import Sit, rule
from app.games.qmg.data import card
from app.games.qmg.engine import Ctx, Task, ask, cont
from app.games.qmg.state import GameState
from app.games.qmg.text import say

# ---- Status
rule("uk_australia_directorate_of_manpower")  # continuous: see actions.alt_build_spaces
rule("uk_lord_linlithgow")  # continuous: see actions.alt_build_spaces
rule("uk_free_france", cost_hand=2,
     instead_ok=lambda st, c: bool(build_spaces(st, c, "army", ["western_europe"])),
     instead=lambda ctx, o, i: ctx.push(build(o, "army", ["western_europe"], why="Free France")))
rule("uk_mackenzie_king", victory=lambda st, c: int(st.has_unit("north_atlantic", c))
     + int(st.has_unit("canada", c)))
rule("uk_resistance", cost_hand=2,
     instead_ok=lambda st, c: bool(battle_spaces(st, c, "land", ["western_europe", "italy"])),
     instead=lambda ctx, o, i: ctx.push(battle(o, "land", ["western_europe", "italy"], why="Resistance")))
rule("uk_royal_navy", once_per_turn=True, cost_hand=2, trigger=on_own_battle("sea"),
     use=lambda ctx, o, i, sit: ctx.push(battle(o, "sea", optional=True, why="The Royal Navy")))

# ---- Events
rule("uk_dutch_east_indies", play=on_play(
    lambda ctx, o: deploy(o, "army", ["indonesia"], o, why="Dutch East Indies"),
    lambda ctx, o: deploy(o, "army", ["new_guinea"], o, why="Dutch East Indies"),
    lambda ctx, o: deploy(o, "navy", ["south_china_sea"], o, why="Dutch East Indies"),
))
rule("uk_general_smuts", play=on_play(
    lambda ctx, o: deploy(o, "army", ["africa"], o, why="General Smuts"),
    lambda ctx, o: deploy(o, "navy", ["southern_ocean", "bay_of_bengal"], o, why="General Smuts"),
))
rule("uk_increased_commonwealth_support", play=on_play(
    lambda ctx, o: deploy(o, "army", ["india", "australia", "canada"], o, why="Increased Commonwealth Support"),
))
rule("uk_king_peter", play=on_play(
    lambda ctx, o: eliminate(o, "axis", ["balkans"], why="King Peter"),
    lambda ctx, o: deploy(o, "army", ["balkans"], o, why="King Peter"),
))
rule("uk_ledo_and_burma_roads", play=on_play(
    lambda ctx, o: build(o, "army", ["southeast_asia"], why="Ledo and Burma Roads"),
    lambda ctx, o: battle(o, "land", ["china", "szechuan"], why="Ledo and Burma Roads"),
))
rule("uk_singapore", play=on_play(
    lambda ctx, o: deploy(o, "army", ["southeast_asia"], o, why="Singapore"),
    lambda ctx, o: deploy(o, "navy", ["south_china_sea"], o, why="Singapore"),
))


# ---- Economic Warfare
def _bomber_command(ctx: Ctx, o: str, iid: str) -> None:
    ctx.push(ask(o, ctx.state, say("bomber_command_prompt"),
                 [("germany", say("country", country="germany")), ("italy", say("country", country="italy"))],
                 "bomber_command"))


@cont("bomber_command")
def _bc_done(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ew(ctx, t["c"], choices[0], 4)


rule("uk_bomber_command", ew_targets=("germany", "italy"), play=_bomber_command)


def _malta(ctx: Ctx, o: str, iid: str) -> None:
    for target in ("germany", "italy"):
        if ctx.state.has_unit("mediterranean_sea", target):
            ctx.push(ask(target, ctx.state, say("malta_prompt"),
                         [("discard", say("malta_discard")), ("navy", say("malta_navy"))], "malta", by=o))
        else:
            ew(ctx, o, target, 2)


@cont("malta")
def _malta_done(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    if choices[0] == "discard":
        ew(ctx, t["by"], t["c"], 2)
    else:
        ctx.push(remove("mediterranean_sea", t["c"], "eliminate", t["by"]))


rule("uk_malta_submarines", ew_targets=("germany", "italy"), play=_malta)


# ---- Responses
def _asw_trigger(st: GameState, sit: Sit, owner: str) -> bool:
    return sit["s"] == "ew" and sit["c"] in ("germany", "japan", "italy")


def _asw(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    ctx.state.flags.setdefault("ew", {"mod": {}})["cancel"] = True


rule("uk_asw_tactics", trigger=_asw_trigger, use=_asw)
rule("uk_defensive_posture", trigger=on_would_remove(owners=["uk"], kind="army", supplied=True), use=protect)
rule("uk_destroyers", trigger=on_would_remove(owners=["uk", "usa"], kind="navy", supplied=True), use=protect)


def _enigma_trigger(st: GameState, sit: Sit, owner: str) -> bool:
    return sit["s"] == "status_used" and sit["c"] == "germany" and sit["card"] in st.countries["germany"].statuses


def _enigma(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    st = ctx.state
    target = sit["card"]
    if target in st.countries["germany"].statuses:
        st.countries["germany"].statuses.remove(target)
        discard_revealed(st, "germany", target)
        ctx.log("germany_discards_status", card=card(target).key)


rule("uk_enigma_code_cracked", trigger=_enigma_trigger, use=_enigma)
rule("uk_loyal_to_the_crown", use=eliminate_built, trigger=on_enemy_build(
    "army", lambda st, sit, o: sit["area"] in ("india", "canada", "australia")))
rule("uk_raf", trigger=on_would_remove(owners=["uk"], where=in_or_adj("united_kingdom")), use=protect)


def _rationing_trigger(st: GameState, sit: Sit, owner: str) -> bool:
    return sit["s"] == "card_done" and sit["c"] == owner and sit.get("play_step", False)


def _rationing(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    ctx.state.flags.setdefault("redirect", {})[sit["card"]] = "deck"


rule("uk_rationing", trigger=_rationing_trigger, use=_rationing)
