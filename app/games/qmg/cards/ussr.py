"""The USSR's unique cards."""

from __future__ import annotations

from app.games.qmg.actions import battle, deploy, eliminate
from app.games.qmg.cards.germany import rebuild_all
from app.games.qmg.cards.helpers import (
    eliminate_built,
    in_or_adj,
    on_enemy_build,
    on_own,
    on_own_battle,
    on_play,
    on_would_remove,
    protect,
    same_or_adj,
    tasks_of,
)
from app.games.qmg.cards.play import play_card
from app.games.qmg.cards.registry import Sit, rule
from app.games.qmg.data import card
from app.games.qmg.engine import Ctx
from app.games.qmg.state import GameState

U = "ussr"

# ---- Status
rule("ussr_frontal_assault", once_per_turn=True, cost_hand=2, trigger=on_own_battle("land"), use=tasks_of(
    lambda ctx, o, sit: battle(o, "land", same_or_adj(sit["area"], ctx.state, "allies"), optional=True,
                               why="Frontal Assault")))


def _guards_ok(st: GameState, c: str) -> bool:
    return any(card(i).type == "build_army" for i in st.countries[c].discard)


def _guards(ctx: Ctx, o: str, iid: str) -> None:
    pile = ctx.state.countries[o].discard
    ba = next((i for i in reversed(pile) if card(i).type == "build_army"), None)
    if ba is None:
        ctx.log("guards_no_card")
        return
    play_card(ctx, o, ba, play_step=True, source="discard")


rule("ussr_guards", cost_hand=2, instead_ok=_guards_ok, instead=_guards)
rule("ussr_scorched_earth")  # continuous: see supply.is_supply_space
rule("ussr_shverniks_evacuation_council")  # continuous: see supply._always_supplied
rule("ussr_stavka_artillery_corps", once_per_turn=True, cost_hand=1, trigger=on_own_battle("land"),
     use=tasks_of(lambda ctx, o, sit: battle(o, "land", [sit["area"]], optional=True,
                                              why="Stavka Forms Artillery Corps")))


def _women_trigger(st: GameState, sit: Sit, owner: str) -> bool:
    return (sit["s"] == "card_done" and sit["c"] == owner and sit.get("play_step", False)
            and card(sit["card"]).type == "build_army")


def _women(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    ctx.state.flags.setdefault("redirect", {})[sit["card"]] = "hand"


rule("ussr_women_conscripts", trigger=_women_trigger, use=_women)

# ---- Events
rule("ussr_general_winter", play=on_play(
    lambda ctx, o: eliminate(o, "axis", in_or_adj("moscow"), count=2, must=1, why="General Winter")))
rule("ussr_german_soviet_treaty", play=on_play(
    lambda ctx, o: deploy(o, "army", ["russia"], o, why="German-Soviet Treaty"),
    lambda ctx, o: deploy(o, "army", ["eastern_europe"], o, why="German-Soviet Treaty")))
rule("ussr_mao_tse_tung", play=on_play(
    lambda ctx, o: eliminate(o, "axis", ["china", "szechuan"], why="Mao Tse-tung")))
rule("ussr_titos_partisans", play=on_play(
    lambda ctx, o: eliminate(o, "axis", ["balkans"], why="Tito's Partisans"),
    lambda ctx, o: deploy(["ussr", "uk"], "army", ["balkans"], o, why="Tito's Partisans")))
rule("ussr_trans_siberian_railroad", play=lambda ctx, o, i: rebuild_all(ctx, o, "Trans-Siberian Railroad"))
rule("ussr_vasilevsky", play=on_play(
    lambda ctx, o: deploy(o, "army", ["vladivostok"], o, why="Vasilevsky"),
    lambda ctx, o: battle(o, "land", ["china"], why="Vasilevsky")))

# ---- Responses
rule("ussr_defense_of_the_motherland", trigger=on_own("turn_start"), use=tasks_of(
    lambda ctx, o, sit: deploy(o, "army", in_or_adj("moscow"), o, why="Defense of the Motherland"),
    lambda ctx, o, sit: eliminate(o, "axis", ["moscow"], why="Defense of the Motherland")))
rule("ussr_leningrad", trigger=on_would_remove(owners=[U], kind="army", where=["russia"]), use=protect)
rule("ussr_moscow", trigger=on_would_remove(owners=[U], kind="army", where=["moscow"]), use=protect)
rule("ussr_rasputitsa", use=eliminate_built, trigger=on_enemy_build(
    "army", lambda st, sit, o: sit["area"] in in_or_adj("moscow")))
rule("ussr_stalingrad", trigger=on_would_remove(owners=[U], kind="army", where=["ukraine"]), use=protect)
