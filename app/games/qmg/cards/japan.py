"""Japan's unique cards."""

from __future__ import annotations

from app.games.qmg import board
from app.games.qmg.actions import battle, build, deploy
from app.games.qmg.cards.helpers import (
    armies_in,
    eliminate_built,
    ew,
    in_or_adj,
    on_enemy_build,
    on_own,
    on_own_battle,
    on_own_build,
    on_would_remove,
    protect,
    same_or_adj,
    tasks_of,
    units_near,
    vp,
)
from app.games.qmg.cards.registry import Sit, rule
from app.games.qmg.engine import Ctx
from app.games.qmg.state import GameState
from app.games.qmg.text import army_of

J = "japan"

# ---- Status (all score in the dominance phase)
rule("jpn_forward_bases", victory=lambda st, c: 2 if armies_in(st, c, ["hawaii", "canada", "new_zealand"]) else 0)
rule("jpn_greater_east_asia_co_prosperity_sphere",
     victory=lambda st, c: armies_in(st, c, ["indonesia", "new_guinea", "southeast_asia"]))
rule("jpn_imperial_designs", victory=lambda st, c: 1 if armies_in(st, c, ["iwo_jima", "philippines"]) else 0)
rule("jpn_unimpeded_merchant_shipping",
     victory=lambda st, c: 0 if any(x in ("uk", "ussr", "usa") for x in st.units.get("hawaii", [])) else 1)

# ---- Economic Warfare
rule("jpn_indian_ocean_patrols", ew_targets=("uk",), play=lambda ctx, o, i: (
    vp(ctx, o, 2 * units_near(ctx.state, o, "bay_of_bengal", True, "navy"), "Indian Ocean Patrols"),
    ew(ctx, o, "uk", 2)))
rule("jpn_submarines_support_pacific_islands", submarines=True, ew_targets=("usa",), play=lambda ctx, o, i: (
    vp(ctx, o, 2 * units_near(ctx.state, o, "east_pacific", True, "navy"), "Submarines Support Pacific Islands"),
    ew(ctx, o, "usa", 2)))

# ---- Responses
rule("jpn_banzai_charge", trigger=on_own_battle("land"), use=tasks_of(
    lambda ctx, o, sit: battle(o, "land", same_or_adj(sit["area"], ctx.state, "axis"), optional=True,
                               why="Banzai Charge")))
rule("jpn_battleship_repair", trigger=on_would_remove(owners=[J], kind="navy", supplied=True), use=protect)
rule("jpn_china_offensive", trigger=on_own_battle("land", in_or_adj("china")), use=tasks_of(
    lambda ctx, o, sit: build(o, "army", [sit["area"]], optional=True, why="China Offensive"),
    lambda ctx, o, sit: battle(o, "land", in_or_adj("china"), optional=True, why="China Offensive")))


def _adjacent_land(ctx: Ctx, space: str) -> list[str]:
    return sorted(s for s in board.adjacent(space, "axis", ctx.state.units) if board.is_land(s))


rule("jpn_destroyer_transport", trigger=on_own_battle("sea"), use=tasks_of(
    lambda ctx, o, sit: build(o, "army", _adjacent_land(ctx, sit["area"]), optional=True,
                              why=army_of("Destroyer Transport", 1, 2)),
    lambda ctx, o, sit: build(o, "army", _adjacent_land(ctx, sit["area"]), optional=True,
                              why=army_of("Destroyer Transport", 2, 2))))
rule("jpn_fall_of_singapore", trigger=on_own_battle("land", ["southeast_asia"]), use=tasks_of(
    lambda ctx, o, sit: battle(o, "sea", ["south_china_sea"], optional=True, why="Fall of Singapore"),
    lambda ctx, o, sit: deploy(o, "army", ["southeast_asia"], o, why="Fall of Singapore")))


def _next_to_japanese(st: GameState, sit: Sit, owner: str) -> bool:
    return any(st.has_unit(n, J) for n in board.adjacent(sit["area"], "axis", st.units))


rule("jpn_kamikaze", trigger=on_enemy_build("navy", _next_to_japanese), use=eliminate_built)
rule("jpn_kwantung_army", use=protect, trigger=on_would_remove(
    owners=[J], kind="army", supplied=True, where=["china", "szechuan", "mongolia", "vladivostok"]))
rule("jpn_mobile_force", trigger=on_own("turn_start"), use=tasks_of(
    lambda ctx, o, sit: deploy(o, "navy", in_or_adj("north_pacific"), o, why="Mobile Force")))
rule("jpn_special_naval_landing_forces", trigger=on_own_build("navy"), use=tasks_of(
    lambda ctx, o, sit: build(o, "army", _adjacent_land(ctx, sit["area"]), optional=True,
                              why=army_of("Special Naval Landing Forces", 1, 2)),
    lambda ctx, o, sit: build(o, "army", _adjacent_land(ctx, sit["area"]), optional=True,
                              why=army_of("Special Naval Landing Forces", 2, 2))))
rule("jpn_surprise_attack", trigger=on_own_battle("sea"), use=tasks_of(
    lambda ctx, o, sit: battle(o, "sea", optional=True, why="Surprise Attack"),
    lambda ctx, o, sit: battle(o, "land", optional=True, why="Surprise Attack")))


def _truk(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    ctx.state.flags["truk"] = True
    ctx.log("truk_supplied")


rule("jpn_truk", use=_truk, trigger=lambda st, sit, o: (
    sit["s"] in ("turn_start", "supply_start") and sit["c"] == o and not st.flags.get("truk")))
