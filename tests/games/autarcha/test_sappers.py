"""The sappers' special operations besides mines (spec §11.1, §11.4-11.6, §13.5, §19): building a factory,
repairing, carrying a blocked unit; each one move, within the sapper's [BO], never in an enemy unit's."""

from __future__ import annotations

from app.games.autarcha import flow, sappers
from app.games.autarcha.attacks import close_to, fire_at
from app.games.autarcha.pack import pack
from app.games.autarcha.state import at as _at
from tests.games.autarcha.fight_kit import (
    CITY,
    FOREST,
    GROUND,
    MOUNTAINS,
    WATER,
    ctx_of,
    give,
    open_decision,
    position,
    sq,
    start,
)


def test_u_11_1_3_a_special_operation_costs_one_move_through_the_unit_menu() -> None:
    state, u = position(("white", "SAP", GROUND, "N"))
    start(state, {"k": "menu"})
    give(state, f"unit:{u['1']}")
    assert {"build", "mine"} <= {c.id for c in open_decision(state).choices}
    give(state, "build")
    assert open_decision(state).kind == "factory_site" and state.moves_left == 4 and state.units[u["1"]]["acted"]


# ------------------------------------------------------------------ building (U-11.4)
def test_u_11_4_a_factory_is_paid_and_placed_in_the_sappers_bo_neutral() -> None:
    state, u = position(("white", "SAP", GROUND, "N"))
    start(state, {"k": "build", "unit": u["1"]})
    d = open_decision(state)
    assert set(c.id for c in d.choices) <= close_to(sq(*GROUND)) and sq(*GROUND) not in [c.id for c in d.choices]
    site = sq(GROUND[0] + 1, GROUND[1])
    give(state, site)
    built = [f for f in state.factories.values() if f["sq"] == site]
    assert built == [{"sq": site, "hits": 0, "issued_to": None}]  # U-11.4.3: neutral
    cost = pack().troops["F"].cost.value
    assert state.gold["white"] == 100 - cost and state.ledger["white"][-1]["expense"] == cost


def test_u_11_4_4_no_factory_on_water() -> None:
    state, u = position(("white", "SAP", (WATER[0], WATER[1] - 2), "N"))
    assert sq(*WATER) in close_to(sq(WATER[0], WATER[1] - 2))
    assert sq(*WATER) not in sappers.factory_sites(state, u["1"])


def test_u_11_4_2_no_factory_in_an_area_under_war_status() -> None:
    state, u = position(("white", "SAP", GROUND, "N"))
    area = pack().area_of(GROUND)
    assert area is not None
    state.war.append(area.id)
    assert all(pack().area_of(_at(s)) != area for s in sappers.factory_sites(state, u["1"]))


def test_no_factory_without_the_gold() -> None:
    state, u = position(("white", "SAP", GROUND, "N"), gold=pack().troops["F"].cost.value - 1)
    assert not sappers.may_build(state, u["1"])


def test_u_11_1_4_no_building_in_an_enemy_unit_s_bo_sapper_or_site() -> None:
    state, u = position(("white", "SAP", GROUND, "N"), ("red", "PIE", (GROUND[0] + 3, GROUND[1]), "S"))
    sites = set(sappers.factory_sites(state, u["1"]))
    assert sites and not sites & close_to(sq(GROUND[0] + 3, GROUND[1]))
    state.units[u["2"]]["sq"] = sq(GROUND[0] + 1, GROUND[1] + 1)
    assert not sappers.may_build(state, u["1"]) and "build" not in flow.unit_actions(state, u["1"])


# ------------------------------------------------------------------ repairing (U-11.5)
def test_u_11_5_a_repair_removes_the_destruction_marker_of_a_forest() -> None:
    state, u = position(("white", "PC", (FOREST[0] - 1, FOREST[1]), "N"), ("white", "SAP", (FOREST[0], FOREST[1] - 1),
                                                                             "N"))
    fire_at(ctx_of(state), u["1"], sq(*FOREST))
    assert state.is_destroyed(sq(*FOREST), "forest")
    assert sappers.repair_sites(state, u["2"]) == [sq(*FOREST)]
    start(state, {"k": "repair", "unit": u["2"]})
    assert open_decision(state).kind == "repair_at"
    give(state, sq(*FOREST))
    assert not state.is_destroyed(sq(*FOREST), "forest") and sq(*FOREST) not in state.damage


def test_u_11_5_4_a_city_cannot_be_rebuilt() -> None:
    state, u = position(("white", "SAP", (CITY[0] - 1, CITY[1]), "N"))
    state.destroyed[sq(*CITY)] = ["city"]
    assert sappers.repair_sites(state, u["1"]) == [] and not sappers.may_repair(state, u["1"])


# ------------------------------------------------------------------ carrying (U-11.6)
def test_u_11_6_sappers_carry_a_blocked_artillery_out_of_the_mountains() -> None:
    assert pack().troops["ART"].max_steps("mountains") == 0  # the book's example of a blocked unit
    state, u = position(("white", "ART", MOUNTAINS, "N"), ("white", "SAP", (MOUNTAINS[0] + 1, MOUNTAINS[1]), "N"),
                        ("white", "PIE", (MOUNTAINS[0] - 1, MOUNTAINS[1]), "N"))
    assert sappers.carriable(state, u["2"]) == [u["1"]]  # the infantry has steps there: not blocked
    start(state, {"k": "carry", "unit": u["2"]})
    d = open_decision(state)
    assert d.kind == "carry_to"
    ground = [c.id for c in d.choices if pack().board.terrain[_at(c.id)[0]][_at(c.id)[1]] != "mountains"]
    assert ground and all(c.id in close_to(sq(MOUNTAINS[0] + 1, MOUNTAINS[1])) for c in d.choices)
    give(state, ground[0])
    assert state.units[u["1"]]["sq"] == ground[0]
    assert state.units[u["1"]]["acted"]  # our default: it may not act afterwards this turn


def test_u_11_6_the_carried_unit_is_set_down_where_it_may_stand_and_free() -> None:
    state, u = position(("white", "ART", MOUNTAINS, "N"), ("white", "SAP", (MOUNTAINS[0] + 1, MOUNTAINS[1]), "N"))
    dests = sappers.carry_destinations(state, u["2"], u["1"])
    occupied = state.occupied()
    art = pack().troops["ART"]
    assert dests and all(s not in occupied and art.may_stand_on(pack().board.terrain[_at(s)[0]][_at(s)[1]])
                         for s in dests)


def test_u_11_6_a_carried_unit_set_down_on_an_enemy_mine_sets_it_off() -> None:
    state, u = position(("white", "ART", MOUNTAINS, "N"), ("white", "SAP", (MOUNTAINS[0] + 1, MOUNTAINS[1]), "N"))
    dest = sappers.carry_destinations(state, u["2"], u["1"])[0]
    state.mines["red"].append({"id": "mine-red-1", "sq": dest, "call": "fire"})
    start(state, {"k": "carry", "unit": u["2"]})
    give(state, dest)
    assert u["1"] not in state.units and state.mines["red"] == []


def test_nothing_to_carry_no_carry() -> None:
    state, u = position(("white", "PIE", MOUNTAINS, "N"), ("white", "SAP", (MOUNTAINS[0] + 1, MOUNTAINS[1]), "N"))
    assert not sappers.may_carry(state, u["2"]) and "carry" not in flow.unit_actions(state, u["2"])


def test_u_11_6_3_the_carried_unit_is_not_offered_again_this_turn() -> None:
    state, u = position(("white", "ART", MOUNTAINS, "N"), ("white", "SAP", (MOUNTAINS[0] + 1, MOUNTAINS[1]), "N"),
                        ("red", "PIE", (30, 20), "S"))
    start(state, {"k": "carry", "unit": u["2"]})
    give(state, sappers.carry_destinations(state, u["2"], u["1"])[0])
    r, c = _at(state.units[u["1"]]["sq"])
    state.units[u["3"]]["sq"] = sq(r + 3, c)  # a target in its line: it could attack, were it free to
    assert "attack" in flow.unit_actions(state, u["1"])
    assert f"unit:{u['1']}" not in [c for c, _ in flow.menu_choices(state, "white")]
