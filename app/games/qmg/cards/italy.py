"""Italy's unique cards."""

from __future__ import annotations

from app.games.qmg.actions import battle, battle_spaces, deploy, discard_hidden, eliminate
from app.games.qmg.cards.helpers import (
    armies_in,
    ew,
    on_play,
    on_removed,
    on_would_remove,
    protect,
    tasks_of,
    vp,
)
from app.games.qmg.cards.registry import RULES, Sit, rule
from app.games.qmg.data import card
from app.games.qmg.engine import Ctx
from app.games.qmg.state import GameState
from app.games.qmg.text import say

I = "italy"  # noqa: E741

# ---- Status
rule("ita_anti_communist_sentiment", victory=lambda st, c: armies_in(st, c, ["russia", "ukraine"]))
rule("ita_balkan_resources", victory=lambda st, c: armies_in(st, c, ["balkans"]))
rule("ita_bravado", cost_deck=2, instead_ok=lambda st, c: bool(battle_spaces(st, c, "land")),
     instead=lambda ctx, o, i: ctx.push(battle(o, "land", why="Bravado")))
rule("ita_impero_italiano", victory=lambda st, c: sum(
    1 for s in ("north_africa", "africa", "middle_east")
    if any(x in ("germany", "japan", "italy") for x in st.units.get(s, []))))
rule("ita_mare_nostrum", victory=lambda st, c: st.on_board(c, "navy"))

# ---- Events
rule("ita_afrika_korps", play=on_play(
    lambda ctx, o: deploy("germany", "army", ["north_africa"], o, why="Afrika Korps"),
    lambda ctx, o: deploy("germany", "navy", ["mediterranean_sea"], o, why="Afrika Korps")))


def discard_random_response(ctx: Ctx, victim: str, why: str) -> None:
    cs = ctx.state.countries[victim]
    if not cs.responses:
        ctx.log("no_face_down_response", what=why, country=victim)
        return
    iid = ctx.rng.choice(sorted(cs.responses))
    cs.responses.remove(iid)
    discard_hidden(ctx.state, victim, iid)
    ctx.log("discards_random_response", {ctx.state.seat_of(victim): say("makes_you_discard", what=why,
                                                                        card=card(iid).key)},
            what=why, country=victim)


rule("ita_division_azul", play=lambda ctx, o, i: discard_random_response(ctx, "ussr", "Division Azul"))
rule("ita_german_aid_in_greece", play=on_play(
    lambda ctx, o: eliminate(o, "allies", ["balkans"], why="German Aid in Greece"),
    lambda ctx, o: deploy("germany", "army", ["balkans"], o, why="German Aid in Greece")))
rule("ita_italian_east_africa", play=on_play(
    lambda ctx, o: deploy(o, "army", ["north_africa"], o, why="Italian East Africa"),
    lambda ctx, o: deploy(o, "navy", ["bay_of_bengal"], o, why="Italian East Africa")))
rule("ita_italy_attacks_communists", play=on_play(
    lambda ctx, o: deploy(o, "army", ["ukraine"], o, why="Italy Attacks Communists"),
    lambda ctx, o: deploy(o, "army", ["russia"], o, why="Italy Attacks Communists")))
rule("ita_plunder", play=lambda ctx, o, i: vp(
    ctx, o, sum(1 for s in ctx.state.units_of(o) if s != "italy"), "Plunder"))

# ---- Economic Warfare
rule("ita_decima_flottiglia_mas", ew_targets=("uk",), play=lambda ctx, o, i: (
    ew(ctx, o, "uk", 1 if any(x in ("uk", "ussr", "usa") for x in ctx.state.units.get("mediterranean_sea", []))
       else 2),
    vp(ctx, o, 1, "Decima Flottiglia MAS")))
rule("ita_regia_marina_closes_shipping_lanes", ew_targets=("uk",), play=lambda ctx, o, i: (
    vp(ctx, o, ctx.state.on_board(o, "navy"), "Regia Marina Closes Shipping Lanes"),
    ew(ctx, o, "uk", 1)))

# ---- Responses
rule("ita_german_reinforcements_counterattack", trigger=on_removed(I, "army"), use=tasks_of(
    lambda ctx, o, sit: deploy("germany", "army", [sit["area"]], o, why="German Reinforcements Counterattack")))
rule("ita_monte_cassino", trigger=on_would_remove(team="axis", kind="army", where=["italy"]), use=protect)
rule("ita_romanian_reinforcements", trigger=on_removed("germany", "army"), use=tasks_of(
    lambda ctx, o, sit: deploy(o, "army", [sit["area"]], o, why="Romanian Reinforcements")))


def _pilots_trigger(st: GameState, sit: Sit, owner: str) -> bool:
    if sit["s"] != "ew":
        return False
    r = RULES.get(card(sit["card"]).key)
    return r is not None and owner in r.ew_targets


def _pilots(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    flags = ctx.state.flags.setdefault("ew", {"mod": {}})
    flags.setdefault("mod", {})[owner] = flags.get("mod", {}).get(owner, 0) - 5
    ctx.log("skilled_pilots")


rule("ita_skilled_pilots", trigger=_pilots_trigger, use=_pilots)
