"""Attacks (spec §6.5), the capital exception (§4.4, T3) and air strikes (§13.1.A)."""

from __future__ import annotations

import pytest

from app.games.total_domination.attacks import (
    air_strike_cost,
    air_strike_options,
    apply_attack,
    attack_targets,
    destroy,
    within2,
)
from app.games.total_domination.derived import controller, settle, space_vp
from tests.games.total_domination.boards import coastal, home, land, stage


def targets(st, power):
    return {(o, t) for o, t, _ in attack_targets(st, power)}


def front(units, **kw):
    """UK capital — a — b — c in a row (land routes), a coastal sea space beside b."""
    return stage(spaces=[home("uk", "uk", capital=True), coastal("a"), coastal("b"), land("c"),
                         coastal("sea", uboat=True), home("germany", "germany", capital=True)],
                 links=[("uk", "a", "land"), ("a", "b", "land"), ("b", "c", "land"), ("b", "sea", "sea"),
                        ("c", "germany", "land")],
                 units=units, **kw)


def test_a_supplied_unit_destroys_an_adjacent_enemy_unit_for_the_targets_cost():
    st = front([("uk", "army", "a"), ("germany", "army", "b"), ("germany", "army", "c")])
    assert attack_targets(st, "uk") == [("u1", "u2", 3)]  # c is not adjacent
    facts = apply_attack(st, "uk", "u1", "u2")
    assert facts == [("destroyed", "u2", "germany", "army", "b")]
    assert st.unit("u1").space == "a"  # the attacker does not move
    assert controller(st, "b") is None


def test_not_adjacent_no_attack():
    st = front([("uk", "army", "a"), ("germany", "army", "c")])
    assert attack_targets(st, "uk") == []
    with pytest.raises(ValueError):
        apply_attack(st, "uk", "u1", "u2")


def test_the_same_unit_may_attack_again_and_again():
    st = front([("uk", "army", "a"), ("germany", "army", "b"), ("germany", "fleet", "b")])
    apply_attack(st, "uk", "u1", "u2")
    assert ("u1", "u3") in targets(st, "uk")


@pytest.mark.parametrize("kind", ["army", "fleet", "bomber"])
def test_settled_reading_any_supplied_unit_of_any_type_may_attack(kind):
    st = front([("uk", kind, "a"), ("uk", "army", "a"), ("germany", "army", "b")])
    assert ("u1", "u3") in targets(st, "uk")


def test_settled_reading_a_uboat_may_attack_an_adjacent_unit():
    st = front([("germany", "uboat", "sea"), ("uk", "fleet", "b"), ("uk", "army", "a")])
    assert attack_targets(st, "germany") == [("u1", "u2", 3)]


def test_attack_cost_depends_on_the_target_never_on_the_attacker():
    st = front([("uk", "fleet", "a"), ("uk", "army", "a"), ("germany", "fleet", "b")],
               techs={"uk": ["A2"]})  # A2 lowers the army row, not the fleet row
    assert {c for _, _, c in attack_targets(st, "uk")} == {3}
    st.techs["uk"] = ["B2"]
    assert {c for _, _, c in attack_targets(st, "uk")} == {2}


def test_unsupplied_units_cannot_attack():
    st = front([("uk", "army", "b"), ("germany", "army", "c")])
    assert attack_targets(st, "uk") == []


def test_spent_bombers_cannot_attack():
    st = front([("uk", "army", "a"), ("uk", "bomber", "a", True), ("germany", "army", "b")])
    assert targets(st, "uk") == {("u1", "u3")}


def test_nobody_attacks_an_allys_units():
    st = front([("uk", "army", "a"), ("ussr", "army", "b")])
    assert attack_targets(st, "uk") == []


# ---------------------------------------------------------------- bombers as targets
def test_a_bomber_may_be_attacked_only_when_bombers_are_the_only_type_there():
    st = front([("uk", "army", "a"), ("germany", "army", "b"), ("germany", "bomber", "b")])
    assert targets(st, "uk") == {("u1", "u2")}
    apply_attack(st, "uk", "u1", "u2")  # first the army, then the bomber is exposed
    assert targets(st, "uk") == {("u1", "u3")}


def test_bombers_alone_on_their_home_space_are_attackable_and_stay_until_destroyed():
    st = front([("uk", "army", "c"), ("uk", "army", "b"), ("germany", "bomber", "germany"), ("uk", "army", "a")])
    assert settle(st) == []
    assert ("u1", "u3") in targets(st, "uk")


# ---------------------------------------------------------------- U-boats and Resistance
def test_uboats_only_by_a_fleet_on_the_same_space_for_2_op():
    st = front([("uk", "fleet", "sea"), ("uk", "army", "b"), ("germany", "uboat", "sea"), ("uk", "army", "a")],
               techs={"uk": ["B2", "B3", "A3"]})
    assert attack_targets(st, "uk") == [("u1", "u3", 2)]
    st = front([("uk", "fleet", "b"), ("germany", "uboat", "sea"), ("uk", "army", "a")])
    assert attack_targets(st, "uk") == []  # an adjacent fleet is not enough


def test_resistance_only_by_an_army_on_the_same_space_for_2_op():
    st = front([("germany", "army", "b"), ("germany", "fleet", "a"), ("uk", "resistance", "b"),
                ("uk", "resistance", "a"), ("germany", "army", "c")], techs={"germany": ["A2", "A3", "B3"]})
    assert attack_targets(st, "germany") == [("u1", "u3", 2)]


# ---------------------------------------------------------------- capitals (§4.4)
def test_t3_the_capitals_owner_attacks_an_enemy_unit_inside_it_from_the_capital_itself():
    st = front([("germany", "army", "uk"), ("germany", "army", "uk"), ("germany", "army", "a")])
    assert controller(st, "uk") == "germany"
    vp = space_vp(st)["germany"]
    options = {(o, t): c for o, t, c in attack_targets(st, "uk")}
    assert options == {("uk", "u1"): 3, ("uk", "u2"): 3}  # no UK unit adjacent: the capital is the origin
    st.techs["uk"] = ["A2"]
    assert {c for _, _, c in attack_targets(st, "uk")} == {2}
    st.techs["uk"] = ["A2", "A3"]
    assert {c for _, _, c in attack_targets(st, "uk")} == {1}
    apply_attack(st, "uk", "uk", "u1")
    assert controller(st, "uk") is None
    assert space_vp(st)["germany"] == vp - 3


def test_the_capital_exception_is_for_the_capitals_owner_only():
    st = front([("germany", "army", "uk"), ("ussr", "army", "germany")])
    assert attack_targets(st, "ussr") == []


# ---------------------------------------------------------------- neutral and non-aligned units
def test_any_power_may_attack_neutral_armies_at_the_army_cost():
    st = front([("uk", "army", "a"), ("neutral", "army", "b"), ("germany", "army", "c")])
    assert attack_targets(st, "uk") == [("u1", "u2", 3)]
    assert attack_targets(st, "germany") == [("u3", "u2", 3)]


def pacific(**kw):
    return stage(spaces=[home("japan", "japan", capital=True), home("usa", "usa", capital=True),
                         home("uk", "uk", capital=True)],
                 links=[("japan", "usa", "sea"), ("uk", "usa", "sea")],
                 units=[("japan", "fleet", "japan"), ("usa", "fleet", "usa"), ("uk", "fleet", "uk")], **kw)


def test_axis_attacking_a_non_aligned_unit_is_an_axis_invasion():
    st = pacific()
    assert attack_targets(st, "japan") == [("u1", "u2", 3)]
    assert apply_attack(st, "japan", "u1", "u2") == [("destroyed", "u2", "usa", "fleet", "usa"),
                                                     ("axis_invasion", "usa")]


def test_g10_allies_may_not_attack_non_aligned_units():
    assert attack_targets(pacific(), "uk") == []


def test_rise_of_the_axis_nobody_attacks_us_or_chinese_units():
    assert attack_targets(pacific(options={"scenario": "rise_of_the_axis"}), "japan") == []


def test_joined_country_units_are_the_enemys_units_without_invasion():
    st = pacific(controller={"usa": "uk"})
    assert ("u1", "u2") in targets(st, "japan")
    assert apply_attack(st, "japan", "u1", "u2") == [("destroyed", "u2", "usa", "fleet", "usa")]


# ---------------------------------------------------------------- air strikes (§13.1.A)
def strike_board(units, **kw):
    return stage(spaces=[home("g", "germany", capital=True), land("one"), land("two"), land("three"),
                         coastal("sea", uboat=True)],
                 links=[("g", "one", "land"), ("one", "two", "land"), ("two", "three", "land"), ("g", "sea", "sea")],
                 units=units, **kw)


def test_within2_counts_graph_distance_by_any_connection():
    st = strike_board([])
    assert within2(st, "g", "two") and within2(st, "sea", "one") and not within2(st, "g", "three")


def test_air_strike_reaches_units_within_two_spaces_on_one_space_at_a_time():
    st = strike_board([("germany", "bomber", "g"), ("uk", "army", "two"), ("uk", "army", "two"),
                       ("uk", "army", "three"), ("uk", "fleet", "sea"), ("uk", "resistance", "one")])
    bomber = st.units[0]
    assert air_strike_options(st, "germany", bomber, moved=set()) == {"two": ["u2", "u3"], "sea": ["u5"]}
    assert air_strike_cost(st, "germany", "two", ["u2", "u3"]) == 6
    assert air_strike_cost(st, "germany", "two", ["u2", "u4"]) is None  # two spaces
    assert air_strike_cost(st, "germany", "one", ["u6"]) is None  # Resistance needs an army on its space


def test_air_strike_needs_a_ready_supplied_bomber_not_moved_this_turn():
    st = strike_board([("germany", "bomber", "g"), ("uk", "army", "one")])
    bomber = st.units[0]
    assert air_strike_options(st, "germany", bomber, moved={bomber.id}) == {}
    bomber.spent = True
    assert air_strike_options(st, "germany", bomber, moved=set()) == {}
    bomber.spent = False
    assert air_strike_options(st, "uk", bomber, moved=set()) == {}  # not the striker's bomber


def test_air_strike_hits_a_bomber_only_after_the_units_beside_it():
    st = strike_board([("uk", "bomber", "two"), ("uk", "army", "two"), ("germany", "bomber", "g")])
    assert air_strike_cost(st, "germany", "two", ["u1"]) is None
    assert air_strike_cost(st, "germany", "two", ["u2", "u1"]) == 6


def test_destroy_returns_the_unit_to_its_pool():
    st = strike_board([("uk", "army", "two")])
    assert destroy(st, "germany", "u1") == [("destroyed", "u1", "uk", "army", "two")]
    assert st.units == []


def test_settled_reading_resistance_is_a_unit_of_any_type_too():
    # "swoją zaopatrzoną jednostkę (dowolnego typu)": Resistance is never unsupplied, so it may be
    # the origin of an attack on an adjacent unit (it still cannot move)
    st = front([("uk", "resistance", "b"), ("germany", "army", "c")])
    assert attack_targets(st, "uk") == [("u1", "u2", 3)]


def test_after_an_attack_an_enemy_home_space_emptied_reverts_to_its_owner():
    st = front([("uk", "army", "a"), ("germany", "army", "uk")])
    assert controller(st, "uk") is None
    # the UK's only home space is lost, so its army beside it is cut off: the capital attacks
    assert attack_targets(st, "uk") == [("uk", "u2", 3)]
    apply_attack(st, "uk", "uk", "u2")
    assert controller(st, "uk") == "uk"


def test_air_strike_needs_a_supplied_bomber():
    st = strike_board([("germany", "bomber", "two"), ("germany", "army", "two"), ("uk", "army", "three")])
    assert air_strike_options(st, "germany", st.units[0], moved=set()) == {}  # "one" is empty: cut off
    st.new_unit("germany", "army", "one")
    assert air_strike_options(st, "germany", st.units[0], moved=set()) == {"three": ["u3"]}
