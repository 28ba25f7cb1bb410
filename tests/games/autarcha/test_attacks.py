"""Attacks (spec §9, §15, §17 TSO-EX, §19): ranges by facing, the defence roll, hits on units and objects,
destruction, factories, cities, and the fire half of a move."""

from __future__ import annotations

import random

import pytest

from app.games.autarcha import attacks, flow
from app.games.autarcha.attacks import fire_at, formation_offsets, landscape, relative_targets, targets
from app.games.autarcha.pack import CITY_SQUARE_HITS, pack
from app.games.autarcha.state import GameState
from tests.games.autarcha.fight_kit import (
    CITY,
    FOREST,
    GROUND,
    MOUNTAINS,
    RAIL,
    ROAD,
    WATER,
    Die,
    ctx_of,
    give,
    lines,
    open_decision,
    position,
    sq,
    start,
)

SQUARE_OF = {"ground": GROUND, "forest": FOREST, "mountains": MOUNTAINS, "water": WATER, "city": CITY}


def off(at: tuple[int, int], dr: int, dc: int) -> tuple[int, int]:
    return at[0] + dr, at[1] + dc


def at_units(state: GameState, unit: str) -> list[str]:
    """The unit's targets that are units (the map's objects in range are targets too)."""
    return [s for s in targets(state, unit) if state.unit_at(s) is not None]


# ------------------------------------------------------------------ TSO-EX and the defence roll (U-9.3)
@pytest.mark.parametrize(("face", "hit"), [(3, False), (4, True)])
def test_tso_ex_die_3_misses_die_4_hits_a_target_on_value_3(face: int, hit: bool) -> None:
    """TSO-EX: a target in the terrain with value 3. Die 3 -> miss; die 4 -> hit."""
    terrain = next(t for t, c in pack().defence.items() if c.value == 3)
    target = SQUARE_OF[terrain]
    kind = "PIE" if terrain != "water" else "PC"
    state, u = position(("white", "PC", off(target, -2, 0), "N"), ("red", kind, target, "S"))
    assert sq(*target) in targets(state, u["1"])
    ctx = ctx_of(state, Die(face))
    fire_at(ctx, u["1"], sq(*target))
    assert (u["2"] not in state.units) is hit
    assert f"rolls {face}" in lines(ctx.events)[0]
    assert ("a hit" if hit else "a miss") in lines(ctx.events)[0]


@pytest.mark.parametrize("terrain", ["ground", "water", "forest", "mountains", "city"])
def test_u_9_3_the_hit_needs_a_roll_higher_than_the_terrain_s_value(terrain: str) -> None:
    value = pack().defence[terrain].value
    target = SQUARE_OF[terrain]
    kind = "PIE" if pack().troops["PIE"].may_stand_on(terrain) else "SAP"
    for face, lands in ((value, False), (value + 1, True)):
        state, u = position(("white", "PC", off(target, -2, 0), "N"), ("red", kind, target, "S"))
        fire_at(ctx_of(state, Die(face)), u["1"], sq(*target))
        assert (u["2"] not in state.units) is lands, (terrain, face)


def test_u_3_5_8_a_unit_on_a_factory_defends_as_in_a_city() -> None:
    state, u = position(("white", "PC", off(GROUND, -2, 0), "N"), ("red", "PIE", GROUND, "S"))
    state.factories["fr1"] = {"sq": sq(*GROUND), "hits": 0, "issued_to": "red"}
    city = pack().defence["city"].value
    fire_at(ctx_of(state, Die(city)), u["1"], sq(*GROUND))
    assert u["2"] in state.units and state.factories["fr1"]["hits"] == 0  # the unit was the target, not the building


# ------------------------------------------------------------------ ranges (U-9.2, spec §18.4)
def test_ranges_are_the_data_s_figures_turned_with_the_facing() -> None:
    state, u = position(("white", "PIE", GROUND, "N"))
    r = pack().troops["PIE"].ranges
    assert r is not None
    assert relative_targets(state, u["1"]) == set(r.orthogonal)
    state.units[u["1"]]["facing"] = "E"
    assert relative_targets(state, u["1"]) == {(-dc, dr) for dr, dc in r.orthogonal}
    state.units[u["1"]]["facing"] = "NE"
    assert relative_targets(state, u["1"]) == set(r.diagonal)
    state.units[u["1"]]["facing"] = "SW"
    assert relative_targets(state, u["1"]) == {(-dr, -dc) for dr, dc in r.diagonal}


def test_infantry_reaches_5_ahead_and_not_behind() -> None:
    state, u = position(("white", "PIE", (8, 10), "N"), ("red", "PIE", (13, 10), "S"), ("red", "PIE", (7, 12), "S"))
    assert at_units(state, u["1"]) == [sq(13, 10)]  # 5 ahead; the one behind and to the side is out of range
    state.units[u["2"]]["sq"] = sq(14, 10)  # 6 ahead
    assert at_units(state, u["1"]) == []
    state.units[u["1"]]["facing"] = "S"
    assert at_units(state, u["1"]) == []  # now (7, 12) is 1 ahead but 2 aside, (14, 10) behind
    state.units[u["3"]]["sq"] = sq(7, 11)
    assert at_units(state, u["1"]) == [sq(7, 11)]


def test_artillery_fires_far_along_its_facing_only() -> None:
    state, u = position(("white", "ART", (2, 10), "N"), ("red", "PIE", (11, 10), "S"), ("red", "PIE", (3, 10), "S"),
                        ("red", "PIE", (5, 11), "S"))
    assert at_units(state, u["1"]) == [sq(11, 10)]  # 9 ahead yes; 1 ahead and 3 ahead 1 aside no
    state.units[u["1"]]["facing"] = "E"
    assert at_units(state, u["1"]) == []


def test_an_hq_fires_short() -> None:
    state, u = position(("white", "PSZ", GROUND, "N"), ("red", "PIE", off(GROUND, 1, 1), "S"),
                        ("red", "PIE", off(GROUND, 3, 0), "S"))
    assert at_units(state, u["1"]) == [sq(*off(GROUND, 1, 1))]


def test_sappers_have_no_attack_u_13_5() -> None:
    state, u = position(("white", "SAP", GROUND, "N"), ("red", "PIE", off(GROUND, 1, 0), "S"))
    assert targets(state, u["1"]) == [] and not attacks.may_fire(state, u["1"])
    assert not attacks.fires_at_all(state, u["1"])
    assert "attack" not in flow.unit_actions(state, u["1"])


def test_own_units_are_never_targets_nor_the_object_under_them() -> None:
    state, u = position(("white", "PC", off(FOREST, -1, 0), "N"), ("white", "PIE", off(FOREST, 1, 0), "N"),
                        ("white", "PIE", FOREST, "N"))
    assert at_units(state, u["1"]) == []
    assert sq(*FOREST) not in targets(state, u["1"])  # our reading: nobody shells his own unit's square
    assert sq(*off(FOREST, 0, 1)) in targets(state, u["1"])  # the free forest beside it is a target


# ------------------------------------------------------------------ objects (U-9.5, spec §19: no roll)
@pytest.mark.parametrize(("at", "what"), [(FOREST, "forest"), (ROAD, "road"), (RAIL, "rail")])
def test_u_9_5_forest_road_and_rail_fall_to_one_hit_without_a_roll(at: tuple[int, int], what: str) -> None:
    state, u = position(("white", "PC", off(at, -1, 0), "N"))
    assert sq(*at) in targets(state, u["1"])
    fire_at(ctx_of(state, Die()), u["1"], sq(*at))  # Die() has no face to show: any roll would fail
    assert state.is_destroyed(sq(*at), what)
    assert sq(*at) not in targets(state, u["1"])  # nothing left there to destroy
    if what == "forest":
        assert landscape(state, sq(*at)) == "ground"  # U-3.5.9: a destroyed square counts as ground


def test_u_3_5_7_a_city_square_takes_4_hits_then_counts_as_ground() -> None:
    state, u = position(("white", "PC", off(CITY, -1, 0), "N"))
    for n in range(1, CITY_SQUARE_HITS):
        fire_at(ctx_of(state), u["1"], sq(*CITY))
        assert state.damage[sq(*CITY)]["city"] == n and not state.is_destroyed(sq(*CITY), "city")
    fire_at(ctx_of(state), u["1"], sq(*CITY))
    assert state.is_destroyed(sq(*CITY), "city") and landscape(state, sq(*CITY)) == "ground"
    assert CITY_SQUARE_HITS == 4


def test_u_9_5_an_object_with_an_enemy_unit_on_it_is_not_fired_at_the_unit_is() -> None:
    state, u = position(("white", "PC", off(FOREST, -1, 0), "N"), ("red", "PIE", FOREST, "S"))
    assert at_units(state, u["1"]) == [sq(*FOREST)]
    fire_at(ctx_of(state, Die(6)), u["1"], sq(*FOREST))
    assert u["2"] not in state.units and not state.is_destroyed(sq(*FOREST), "forest")


def test_u_13_6_a_factory_has_4_durability_and_each_hit_goes_in_the_ledger() -> None:
    state, u = position(("white", "PC", off(GROUND, -1, 0), "N"))
    state.factories["fr1"] = {"sq": sq(*GROUND), "hits": 0, "issued_to": "red"}
    area = pack().area_of(GROUND)
    assert area is not None
    state.control[area.id] = "red"
    before = len(state.ledger["red"])
    for n in range(1, 4):
        fire_at(ctx_of(state, Die()), u["1"], sq(*GROUND))
        assert state.factories["fr1"]["hits"] == n
    fire_at(ctx_of(state, Die()), u["1"], sq(*GROUND))
    assert "fr1" not in state.factories
    entries = state.ledger["red"][before:]
    assert [e["what"]["id"] for e in entries] == ["ledger_factory_hit"] * 4
    assert all(e["income"] == 0 and e["expense"] == 0 and e["balance"] == 100 for e in entries)  # U-6.4.1


def test_u_9_4_damage_to_a_multi_point_unit_persists() -> None:
    hp = pack().troops["PSZ"].hp.value
    assert hp > 1
    state, u = position(("white", "PC", off(GROUND, -1, 0), "N"), ("red", "PSZ", GROUND, "S"))
    for n in range(1, hp):
        fire_at(ctx_of(state, Die(6)), u["1"], sq(*GROUND))
        state.turn += 1  # a later turn: nothing heals
        assert state.units[u["2"]]["hits"] == n
    fire_at(ctx_of(state, Die(6)), u["1"], sq(*GROUND))
    assert u["2"] not in state.units and state.flags["lost"]["red"] == ["PSZ"]


# ------------------------------------------------------------------ the fire half and the move
def test_an_attack_move_through_the_menu_fires_once_and_spends_one_move() -> None:
    state, u = position(("white", "PC", off(GROUND, -1, 0), "N"), ("red", "PIE", GROUND, "S"))
    start(state, {"k": "menu"})
    give(state, f"unit:{u['1']}")
    assert "attack" in [c.id for c in open_decision(state).choices]
    give(state, "attack")
    d = open_decision(state)
    assert d.kind == "fire" and sq(*GROUND) in [c.id for c in d.choices]
    assert "skip" not in [c.id for c in d.choices]  # the first half may not be skipped
    events = give(state, sq(*GROUND), rng=Die(6))
    assert u["2"] not in state.units and state.moves_left == 4 and state.units[u["1"]]["acted"]
    assert any("rolls 6" in t for t in lines(events))


def test_a_second_half_fire_may_be_skipped() -> None:
    state, u = position(("white", "PC", off(GROUND, -1, 0), "N"), ("red", "PIE", GROUND, "S"))
    start(state, {"k": "fire", "unit": u["1"], "may_skip": True})
    assert "skip" in [c.id for c in open_decision(state).choices]
    give(state, "skip")
    assert u["2"] in state.units and not state.stack


def test_a_second_half_with_nothing_in_range_passes_without_a_question() -> None:
    state, u = position(("white", "PC", GROUND, "N"))
    for s in attacks.in_range(state, u["1"]):  # nothing left to destroy either
        state.destroyed[s] = attacks.objects_on(state, s)
    start(state, {"k": "fire", "unit": u["1"], "may_skip": True})
    assert not state.stack


def test_u_8_1_9_a_formation_fires_at_the_same_place_relative_to_each_member() -> None:
    state, u = position(("white", "PIE", (10, 9), "N"), ("white", "PIE", (10, 11), "N"), ("white", "PC", (10, 13), "N"),
                        ("red", "PIE", (12, 9), "S"), ("red", "PIE", (12, 11), "S"), ("red", "PIE", (12, 13), "S"))
    assert formation_offsets(state, [u["1"], u["2"], u["3"]]) == [(2, 0)]
    state.units[u["6"]]["sq"] = sq(13, 13)
    assert formation_offsets(state, [u["1"], u["2"], u["3"]]) == []


def test_random_fights_keep_the_books() -> None:
    """Many seeded duels: hits never exceed a unit's hp, a destroyed unit is gone."""
    rng = random.Random(7)
    for _ in range(200):
        state, u = position(("white", "PC", off(GROUND, -1, 0), "N"), ("red", rng.choice(["PIE", "PSZ", "PC"]), GROUND,
                                                                        "S"))
        for _ in range(3):
            if u["2"] in state.units:
                fire_at(ctx_of(state, rng), u["1"], sq(*GROUND))
        if u["2"] in state.units:
            d = state.units[u["2"]]
            assert d["hits"] < pack().troops[d["kind"]].hp.value
