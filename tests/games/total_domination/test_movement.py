"""Movement (spec §6.4, §13.1, §13.2, §9.3, §14.1) and building (§6.3), on staged boards."""

from __future__ import annotations

import pytest

from app.games.total_domination.costs import cost
from app.games.total_domination.derived import control_map, controller, destruction_due, settle, space_vp, supplied
from app.games.total_domination.movement import apply_move, bombers_taken, build_spaces, destinations
from tests.games.total_domination.boards import coastal, home, island, land, stage, stub_pack


def move(st, unit, dest):
    """apply_move as the operations do it: then the Destruction markers that control change calls for."""
    before = control_map(st)
    facts = apply_move(st, unit, dest)
    marked = destruction_due(st, before, control_map(st))
    st.destroyed += marked
    return facts + [("destruction_marker", s) for s in marked]


# ---------------------------------------------------------------- the rulebook's examples
def test_16_1_part_1_chained_moves_through_spaces_taken_this_turn():
    st = stage(spaces=[home("germany", "germany", shape="land", capital=True), land("p1"), land("p2", stars=2),
                       land("p3")],
               links=[("germany", "p1", "land"), ("p1", "p2", "land"), ("p2", "p3", "land")],
               units=[("germany", "army", "germany")] * 3)
    a1, a2, a3 = st.units
    vp0 = space_vp(st)["germany"]
    assert "p2" not in destinations(st, a2)  # P1 is not German yet
    spent = 0
    for unit, dest, path in ((a1, "p1", ("germany", "p1")), (a2, "p2", ("germany", "p1", "p2")),
                             (a3, "p3", ("germany", "p1", "p2", "p3"))):
        assert destinations(st, unit)[dest] == path
        apply_move(st, unit, dest)
        spent += cost(st, "germany", "move_army")
        assert controller(st, dest) == "germany" and supplied(st, unit)
    assert space_vp(st)["germany"] == vp0 + 1 + 2 + 1
    assert spent == 6
    st.techs["germany"] = ["A1"]
    assert 3 * cost(st, "germany", "move_army") == 3


def uk_edge():
    """UK capital (coastal) holding u1, u2, f; Q1 by land; a UK home space at the board's edge whose
    arrow link reaches Q2 at the other end; Q3 a coastal space one sea lane beyond Q2."""
    return stage(spaces=[home("uk", "uk", capital=True), land("q1"), home("edge", "uk", shape="land"),
                         coastal("q2"), coastal("q3", stars=2)],
                 links=[("uk", "q1", "land"), ("uk", "edge", "land"), ("edge", "q2", "arrow"), ("q2", "q3", "sea")],
                 units=[("uk", "army", "uk"), ("uk", "army", "uk"), ("uk", "fleet", "uk")])


def test_16_1_part_2_a_fleet_moves_on_through_a_space_taken_over_an_arrow_link():
    st = uk_edge()
    u1, u2, f = st.units
    assert "q3" not in destinations(st, f)  # only because Q2 becomes British may the fleet go on
    assert "q2" not in destinations(st, f)  # an arrow link is a land route: no fleet enters first by it
    apply_move(st, u1, "q1")
    assert destinations(st, u2)["q2"] == ("uk", "edge", "q2")
    apply_move(st, u2, "q2")
    assert destinations(st, f)["q3"] == ("uk", "edge", "q2", "q3")  # the fleet passes a land space
    apply_move(st, f, "q3")
    assert controller(st, "q3") == "uk"


def ukraine(armies_in_poland=2):
    return stage(spaces=[home("germany", "germany", capital=True), land("poland"), coastal("ukraine", stars=2)],
                 links=[("germany", "poland", "land"), ("poland", "ukraine", "land")],
                 units=[("germany", "fleet", "germany")] + [("germany", "army", "poland")] * armies_in_poland)


def test_16_2_a_fleet_may_not_be_first_into_a_space_across_a_land_route():
    st = ukraine()
    fleet, army = st.units[0], st.units[1]
    assert "poland" not in destinations(st, fleet)  # a land space: the fleet may only pass it
    assert "ukraine" not in destinations(st, fleet)
    with pytest.raises(ValueError):
        apply_move(st, fleet, "ukraine")
    apply_move(st, army, "ukraine")
    assert destinations(st, fleet)["ukraine"] == ("germany", "poland", "ukraine")
    apply_move(st, fleet, "ukraine")
    assert sorted(u.kind for u in st.units_at("ukraine")) == ["army", "fleet"]


def italy_germany():
    return stage(spaces=[home("uk", "uk", capital=True), home("italy", "italy", stars=2, shipyard=True),
                         home("germany", "germany", shape="land", capital=True, factory=True)],
                 links=[("uk", "italy", "sea"), ("italy", "germany", "land")],
                 units=[("uk", "army", "uk"), ("uk", "army", "uk"), ("uk", "fleet", "uk")])


def test_16_3_an_army_may_not_be_first_into_a_space_across_a_sea_lane():
    st = italy_germany()
    assert controller(st, "italy") == "germany" and controller(st, "germany") == "germany"
    assert "italy" not in destinations(st, st.units[0])
    with pytest.raises(ValueError):
        apply_move(st, st.units[0], "italy")


def test_16_3_fleet_takes_italy_then_armies_take_the_capital_in_two_steps():
    st = italy_germany()
    a1, a2, f = st.units
    vp0 = space_vp(st)
    facts = move(st, f, "italy")
    assert controller(st, "italy") == "uk"
    vp1 = space_vp(st)
    assert (vp1["germany"], vp1["uk"]) == (vp0["germany"] - 2, vp0["uk"] + 2)
    assert ("destruction_marker", "italy") in facts and "italy" in st.destroyed
    assert destinations(st, a1)["germany"] == ("uk", "italy", "germany")
    facts = move(st, a1, "germany")
    assert controller(st, "germany") is None
    vp2 = space_vp(st)
    assert (vp2["germany"], vp2["uk"]) == (vp1["germany"] - 3, vp1["uk"])
    assert "germany" not in st.destroyed and not [f for f in facts if f[0] == "destruction_marker"]
    facts = move(st, a2, "germany")
    assert controller(st, "germany") == "uk"
    assert space_vp(st)["uk"] == vp2["uk"] + 3
    assert ("destruction_marker", "germany") in facts


# ---------------------------------------------------------------- preconditions
def test_unsupplied_units_cannot_move():
    st = stage(spaces=[home("uk", "uk", capital=True), land("a"), land("b"), land("c")],
               links=[("uk", "a", "land"), ("a", "b", "land"), ("b", "c", "land")],
               units=[("uk", "army", "b")])
    assert not supplied(st, st.units[0])
    assert destinations(st, st.units[0]) == {}


def test_resistance_never_moves():
    st = stage(spaces=[land("a"), land("b")], links=[("a", "b", "land")], units=[("uk", "resistance", "a")])
    assert destinations(st, st.units[0]) == {}


def test_a_bomber_that_struck_this_round_may_not_move():
    st = stage(spaces=[home("g", "germany", capital=True), home("h", "germany")], links=[("g", "h", "land")],
               units=[("germany", "bomber", "g", True), ("germany", "bomber", "g")])
    assert destinations(st, st.units[0]) == {}
    assert "h" in destinations(st, st.units[1])


def test_neutral_and_non_aligned_units_never_move():
    st = stage(spaces=[land("a"), land("b")], links=[("a", "b", "land")],
               units=[("neutral", "army", "a"), ("usa", "army", "a")])
    assert destinations(st, st.units[0]) == {} and destinations(st, st.units[1]) == {}


# ---------------------------------------------------------------- the path
def test_intermediate_spaces_must_be_controlled():
    st = stage(spaces=[home("uk", "uk", capital=True), land("a"), land("b")],
               links=[("uk", "a", "land"), ("a", "b", "land")], units=[("uk", "army", "uk")])
    assert set(destinations(st, st.units[0])) == {"a"}


def test_intermediate_spaces_must_be_supplied():
    # c is British but cut off by the empty gap: the army at a ends on the gap at most, never beyond c
    st = stage(spaces=[home("uk", "uk", capital=True), land("a"), land("gap"), land("c"), land("d")],
               links=[("uk", "a", "land"), ("a", "gap", "land"), ("gap", "c", "land"), ("c", "d", "land")],
               units=[("uk", "army", "a"), ("uk", "army", "c")])
    assert not supplied(st, st.units[1])
    assert set(destinations(st, st.units[0])) == {"gap", "uk"}


def test_armies_pass_island_spaces_and_fleets_pass_land_spaces_they_control():
    st = stage(spaces=[home("uk", "uk", capital=True), island("malta"), coastal("c"), land("inland"), coastal("d")],
               links=[("uk", "malta", "sea"), ("malta", "c", "sea"), ("uk", "inland", "land"),
                      ("inland", "d", "land")],
               units=[("uk", "army", "uk"), ("uk", "fleet", "malta"), ("uk", "army", "inland"),
                      ("uk", "fleet", "uk"), ("uk", "army", "c")])
    army, _, _, fleet, _ = st.units
    dests = destinations(st, army)
    assert "malta" not in dests  # never ends on an island
    assert dests["c"] == ("uk", "malta", "c")  # but passes one, by sea lanes, between its own spaces
    assert "inland" not in destinations(st, fleet)
    st.units[4].space = "d"
    assert destinations(st, fleet)["d"] == ("uk", "inland", "d")


def test_between_controlled_spaces_any_connection_may_be_used():
    st = stage(spaces=[home("uk", "uk", capital=True), home("france", "france", stars=2)],
               links=[("uk", "france", "sea")], units=[("uk", "army", "uk")])
    assert destinations(st, st.units[0]) == {"france": ("uk", "france")}  # an army by a sea lane


def test_no_unit_passes_or_enters_an_allys_home_space():
    st = stage(spaces=[home("uk", "uk", capital=True), home("ussr", "ussr", shape="land"), land("beyond")],
               links=[("uk", "ussr", "land"), ("ussr", "beyond", "land")], units=[("uk", "army", "uk")])
    assert destinations(st, st.units[0]) == {}


def test_no_unit_passes_through_or_joins_another_players_units():
    st = stage(spaces=[home("uk", "uk", capital=True), land("a"), land("b"), land("c")],
               links=[("uk", "a", "land"), ("a", "b", "land"), ("uk", "c", "land")],
               units=[("uk", "army", "uk"), ("ussr", "army", "a"), ("germany", "army", "c")])
    assert destinations(st, st.units[0]) == {}


def test_no_move_ends_on_neutral_armies_or_non_aligned_units():
    st = stage(spaces=[home("uk", "uk", capital=True), land("spain"), home("usa", "usa", shape="land")],
               links=[("uk", "spain", "land"), ("uk", "usa", "land")],
               units=[("uk", "army", "uk"), ("neutral", "army", "spain"), ("usa", "army", "usa")])
    assert destinations(st, st.units[0]) == {}


def test_coalition_units_spaces_may_be_entered_and_passed():
    st = stage(spaces=[home("g", "germany", capital=True), land("a"), land("b")],
               links=[("g", "a", "land"), ("a", "b", "land")],
               units=[("germany", "army", "g"), ("italy", "army", "a")])
    assert set(destinations(st, st.units[0])) == {"a", "b"}


def test_joined_countrys_units_may_be_entered_and_passed_only_after_joining():
    st = stage(spaces=[home("uk", "uk", capital=True), land("a"), land("b")],
               links=[("uk", "a", "land"), ("a", "b", "land")],
               units=[("uk", "army", "uk"), ("usa", "army", "a")])
    assert destinations(st, st.units[0]) == {}
    st.controller["usa"] = "uk"
    assert set(destinations(st, st.units[0])) == {"a", "b"}


def test_a_unit_in_transit_does_not_count_where_it_passes():
    st = stage(spaces=[home("uk", "uk", capital=True), land("full"), land("b")],
               links=[("uk", "full", "land"), ("full", "b", "land")],
               units=[("uk", "army", "uk"), ("uk", "army", "full"), ("uk", "army", "full")])
    assert set(destinations(st, st.units[0])) == {"b"}


# ---------------------------------------------------------------- the destination
def test_stacking_limit_is_checked_at_the_destination_and_capitals_take_four():
    st = stage(spaces=[home("uk", "uk", capital=True), land("a"), land("b")],
               links=[("uk", "a", "land"), ("a", "b", "land")],
               units=[("uk", "army", "a"), ("uk", "army", "a"), ("uk", "army", "uk"), ("uk", "army", "uk"),
                      ("uk", "army", "uk")])
    assert "a" not in destinations(st, st.units[2])
    assert "uk" in destinations(st, st.units[0])  # the capital holds 3 and takes a 4th
    st.new_unit("uk", "army", "uk")
    assert "uk" not in destinations(st, st.units[0])


def test_uboats_and_resistance_do_not_count_or_block():
    st = stage(spaces=[home("g", "germany", capital=True), coastal("a", uboat=True)],
               links=[("g", "a", "sea")],
               units=[("germany", "fleet", "g"), ("germany", "army", "g"), ("germany", "fleet", "g"),
                      ("germany", "uboat", "a"), ("germany", "uboat", "a"), ("uk", "resistance", "a")])
    f1, a, f2 = st.units[:3]
    apply_move(st, f1, "a")
    assert "a" in destinations(st, a)
    apply_move(st, a, "a")
    assert "a" not in destinations(st, f2)  # two units that count: full


def test_an_allied_fleet_may_enter_a_space_holding_uboats():
    st = stage(spaces=[home("uk", "uk", capital=True), coastal("atlantic", uboat=True)],
               links=[("uk", "atlantic", "sea")], units=[("uk", "fleet", "uk"), ("germany", "uboat", "atlantic")])
    assert "atlantic" in destinations(st, st.units[0])


def test_an_axis_unit_may_pass_and_end_on_a_space_with_allied_resistance():
    st = stage(spaces=[home("g", "germany", capital=True), land("a"), land("b")],
               links=[("g", "a", "land"), ("a", "b", "land")],
               units=[("germany", "army", "g"), ("germany", "army", "a"), ("uk", "resistance", "a"),
                      ("uk", "resistance", "b")])
    assert set(destinations(st, st.units[0])) == {"a", "b"}  # ends on a, or passes it to b


def test_enemy_home_space_without_enemy_units_may_be_entered_and_is_taken():
    st = stage(spaces=[home("uk", "uk", capital=True), home("ruhr", "germany", shape="land", stars=2, factory=True)],
               links=[("uk", "ruhr", "land")], units=[("uk", "army", "uk")])
    facts = move(st, st.units[0], "ruhr")
    assert controller(st, "ruhr") == "uk"
    assert ("destruction_marker", "ruhr") in facts and st.destroyed == ["ruhr"]


def test_no_move_ends_on_enemy_units():
    st = stage(spaces=[home("uk", "uk", capital=True), land("a")], links=[("uk", "a", "land")],
               units=[("uk", "army", "uk"), ("germany", "army", "a")])
    assert destinations(st, st.units[0]) == {}


@pytest.mark.parametrize(("kind", "shape", "ok"), [("army", "island", False), ("fleet", "land", False),
                                                   ("army", "coastal", True), ("fleet", "island", True),
                                                   ("bomber", "island", True)])
def test_shape_rules_at_the_destination(kind, shape, ok):
    spaces = [home("uk", "uk", capital=True), home("x", "uk", shape=shape)]
    st = stage(spaces=spaces, links=[("uk", "x", "land"), ("uk", "x", "sea")], units=[("uk", kind, "uk")])
    assert ("x" in destinations(st, st.units[0])) == ok


def test_bomber_only_exception_an_army_entering_destroys_the_enemy_bombers():
    st = stage(spaces=[home("uk", "uk", capital=True), home("ruhr", "germany", shape="land", stars=2)],
               links=[("uk", "ruhr", "land")],
               units=[("uk", "army", "uk"), ("uk", "bomber", "uk"), ("germany", "bomber", "ruhr")])
    army, bomber, enemy = st.units
    assert [u.id for u in bombers_taken(st, army, "ruhr")] == [enemy.id]
    assert "ruhr" not in destinations(st, bomber)  # not a bomber
    facts = apply_move(st, army, "ruhr")
    assert ("bomber_destroyed", enemy.id, "ruhr") in facts
    assert enemy not in st.units and controller(st, "ruhr") == "uk"


def test_bomber_only_exception_needs_bombers_alone():
    st = stage(spaces=[home("uk", "uk", capital=True), home("ruhr", "germany", shape="land", stars=2)],
               links=[("uk", "ruhr", "land")],
               units=[("uk", "army", "uk"), ("germany", "bomber", "ruhr"), ("germany", "army", "ruhr")])
    assert destinations(st, st.units[0]) == {}


def test_bombers_never_end_alone_on_a_neutral_or_enemy_space():
    st = stage(spaces=[home("uk", "uk", capital=True), land("a"), home("ruhr", "germany", shape="land"),
                       home("wales", "uk", shape="land")],
               links=[("uk", "a", "land"), ("uk", "ruhr", "land"), ("uk", "wales", "land")],
               units=[("uk", "bomber", "uk")])
    assert set(destinations(st, st.units[0])) == {"wales"}  # its own home space, alone, is fine
    st.new_unit("uk", "army", "a")
    assert set(destinations(st, st.units[0])) == {"wales", "a"}  # beside its own army


def test_bombers_never_end_on_the_arctic():
    st = stage(spaces=[home("uk", "uk", capital=True), coastal("arctic", arctic=True)],
               links=[("uk", "arctic", "sea")], units=[("uk", "bomber", "uk"), ("uk", "fleet", "arctic")])
    assert destinations(st, st.units[0]) == {}


def test_bombers_move_without_being_spent():
    st = stage(spaces=[home("g", "germany", capital=True), home("h", "germany")], links=[("g", "h", "land")],
               units=[("germany", "bomber", "g")])
    apply_move(st, st.units[0], "h")
    assert not st.units[0].spent


# ---------------------------------------------------------------- U-boats
def test_uboats_relocate_to_any_other_uboat_space_with_room():
    st = stage(spaces=[coastal("atlantic", uboat=True), coastal("caribbean", uboat=True),
                       coastal("iceland", uboat=True), coastal("north_sea")],
               units=[("germany", "uboat", "atlantic"), ("germany", "uboat", "iceland"),
                      ("germany", "uboat", "iceland")])
    assert destinations(st, st.units[0]) == {"caribbean": ("atlantic", "caribbean")}


# ---------------------------------------------------------------- USA and China (§9.3, §14.1)
def pacific(**kw):
    return stage(spaces=[home("japan", "japan", capital=True), home("hawaii", "usa", shape="island", stars=2),
                         home("usa", "usa", capital=True)],
                 links=[("japan", "hawaii", "sea"), ("japan", "usa", "sea")],
                 units=[("japan", "fleet", "japan"), ("usa", "fleet", "usa")], **kw)


def test_axis_entering_a_us_home_space_before_joining_is_an_axis_invasion():
    st = pacific()
    assert set(destinations(st, st.units[0])) == {"hawaii"}  # not the one holding US units
    facts = apply_move(st, st.units[0], "hawaii")
    assert ("axis_invasion", "usa") in facts
    assert controller(st, "hawaii") == "japan"


def test_no_axis_invasion_once_joined():
    st = pacific(controller={"usa": "uk"})
    facts = move(st, st.units[0], "hawaii")
    assert not [f for f in facts if f[0] == "axis_invasion"]
    assert ("destruction_marker", "hawaii") not in facts  # no factory or shipyard


def test_rise_of_the_axis_nobody_enters_us_or_chinese_home_spaces():
    st = pacific(options={"scenario": "rise_of_the_axis"})
    assert destinations(st, st.units[0]) == {}


# ---------------------------------------------------------------- settle after a move
def test_t22_an_allied_unit_entering_sends_resistance_back():
    st = stage(spaces=[home("uk", "uk", capital=True), land("a", stars=2)], links=[("uk", "a", "land")],
               units=[("uk", "army", "uk"), ("uk", "resistance", "a"), ("ussr", "resistance", "a")])
    apply_move(st, st.units[0], "a")
    assert [f[0] for f in settle(st)] == ["resistance_removed", "resistance_removed"]


# ---------------------------------------------------------------- building (§6.3)
def empire(**kw):
    return stage(spaces=[home("uk", "uk", capital=True, factory=True, shipyard=True),
                         home("midlands", "uk", shape="land", factory=True, shipyard=True),
                         home("malta", "uk", shape="island", factory=True),
                         home("france", "france", factory=True), home("usa", "usa", factory=True, shipyard=True),
                         coastal("atlantic", uboat=True), coastal("caribbean", uboat=True),
                         home("germany", "germany", capital=True, factory=True)],
                 **kw)


def test_builds_need_a_controlled_home_space_with_the_matching_icon_colour_and_shape(monkeypatch):
    stub_pack(monkeypatch)
    st = empire(options={"bombers": False})
    assert sorted(build_spaces(st, "uk")) == sorted([
        ("uk", "army", "uk"), ("uk", "fleet", "uk"), ("uk", "army", "midlands"),  # no fleet on land
        ("france", "army", "france"),  # French units only in France; malta: no army on an island
    ])


def test_no_build_on_a_destruction_marker_or_an_occupied_home_space(monkeypatch):
    stub_pack(monkeypatch)
    st = empire(destroyed=["uk"], units=[("germany", "army", "midlands")], options={"bombers": False})
    assert build_spaces(st, "uk") == [("france", "army", "france")]


def test_joined_country_builds_only_its_own_units_on_its_own_spaces(monkeypatch):
    stub_pack(monkeypatch)
    st = empire(options={"bombers": False}, controller={"usa": "uk"})
    usa = [b for b in build_spaces(st, "uk") if b[2] == "usa"]
    assert sorted(usa) == [("usa", "army", "usa"), ("usa", "fleet", "usa")]
    assert all(b[0] == "uk" for b in build_spaces(st, "uk") if b[2] in ("uk", "midlands"))


def test_no_build_beyond_the_stacking_limit_or_the_tokens(monkeypatch):
    stub = stub_pack(monkeypatch)
    st = empire(options={"bombers": False}, units=[("france", "army", "france"), ("france", "army", "france")])
    assert not [b for b in build_spaces(st, "uk") if b[2] == "france"]
    stub.tokens["uk"]["army"] = 0
    st = empire(options={"bombers": False})
    assert ("uk", "army", "uk") not in build_spaces(st, "uk") and ("uk", "fleet", "uk") in build_spaces(st, "uk")


def test_bomber_limit_is_one_or_two_with_heavy_bombers(monkeypatch):
    stub_pack(monkeypatch)
    st = empire()
    assert ("uk", "bomber", "malta") in build_spaces(st, "uk")  # bombers may stand on islands
    assert ("france", "bomber", "france") not in build_spaces(st, "uk")  # no French bomber tokens
    st.new_unit("uk", "bomber", "uk")
    assert not [b for b in build_spaces(st, "uk") if b[1] == "bomber"]
    st.techs["uk"] = ["A4"]
    assert [b for b in build_spaces(st, "uk") if b[1] == "bomber"]
    st.options["bombers"] = False
    assert not [b for b in build_spaces(st, "uk") if b[1] == "bomber"]


def test_t23_uboat_year_limits(monkeypatch):
    stub_pack(monkeypatch)
    st = empire(options={"bombers": False}, units=[("germany", "uboat", "atlantic")])
    uboats = lambda: sorted(b[2] for b in build_spaces(st, "germany") if b[1] == "uboat")  # noqa: E731
    assert uboats() == []  # 1939: one on the board already
    st.year = 1940
    assert uboats() == ["atlantic", "caribbean"]
    st.new_unit("germany", "uboat", "atlantic")
    assert uboats() == []
    st.year = 1941
    assert uboats() == ["caribbean"]  # no year limit, but 2 per space
    st.options["uboats"] = False
    assert uboats() == []
    assert not [b for b in build_spaces(st, "uk") if b[1] == "uboat"]


def test_solo_automa_builds_no_bombers_or_uboats(monkeypatch):
    stub_pack(monkeypatch)
    st = empire(options={"players": 1}, year=1941)
    assert {b[1] for b in build_spaces(st, "germany")} == {"army"}


def test_a_unit_alone_in_an_enemy_capital_is_unsupplied_and_cannot_move():
    st = italy_germany()
    a1, a2, f = st.units
    apply_move(st, f, "italy")
    apply_move(st, a1, "germany")
    assert controller(st, "germany") is None and not supplied(st, a1)
    assert destinations(st, a1) == {}  # though Italy beside it is British and supplied


def test_an_allied_unit_entering_a_us_home_space_is_no_invasion():
    st = stage(spaces=[home("uk", "uk", capital=True), home("hawaii", "usa", shape="island", stars=2)],
               links=[("uk", "hawaii", "sea")], units=[("uk", "fleet", "uk")])
    facts = apply_move(st, st.units[0], "hawaii")
    assert not [f for f in facts if f[0] == "axis_invasion"]


def test_a_space_denied_by_a_uboat_still_counts_as_controlled_for_movement():
    st = stage(spaces=[home("uk", "uk", capital=True), coastal("atlantic", uboat=True), coastal("beyond")],
               links=[("uk", "atlantic", "sea"), ("atlantic", "beyond", "sea")],
               units=[("uk", "fleet", "atlantic"), ("germany", "uboat", "atlantic"), ("uk", "fleet", "uk")])
    assert destinations(st, st.units[2])["beyond"] == ("uk", "atlantic", "beyond")


def test_german_and_japanese_units_never_share_a_space_even_in_a_two_player_game():
    st = stage(spaces=[home("g", "germany", capital=True), land("a")], links=[("g", "a", "land")],
               units=[("germany", "army", "g"), ("japan", "army", "a")],
               options={"players": 2}, seats={"germany": "s1", "japan": "s1", "uk": "s2", "ussr": "s2"})
    assert destinations(st, st.units[0]) == {}


def test_a_bomber_is_a_land_unit_for_the_first_entry_and_never_alone_in_a_lost_capital():
    st = stage(spaces=[home("uk", "uk", capital=True), coastal("italy", stars=2),
                       home("germany", "germany", capital=True)],
               links=[("uk", "italy", "sea"), ("italy", "germany", "land"), ("uk", "germany", "sea")],
               units=[("uk", "fleet", "italy"), ("uk", "army", "germany"), ("uk", "bomber", "uk")])
    assert controller(st, "germany") is None  # one UK army: nobody's
    assert destinations(st, st.units[2])["germany"] == ("uk", "italy", "germany")  # by the land route
    st2 = stage(spaces=[home("uk", "uk", capital=True), home("germany", "germany", capital=True)],
                links=[("uk", "germany", "sea")], units=[("uk", "army", "germany"), ("uk", "bomber", "uk")])
    assert "germany" not in destinations(st2, st2.units[1])  # a sea lane is no way in for a land unit
    st2.units[0].space = "uk"
    assert destinations(st2, st2.units[1]) == {}  # nor alone into an enemy capital
