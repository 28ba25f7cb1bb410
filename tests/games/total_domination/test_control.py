"""Control of spaces (spec §4.10), VP from the state (§4.5, §10, §19.5), the corrections of ``settle``."""

from __future__ import annotations

import pytest

from app.games.total_domination.derived import (
    allied_threshold,
    control_map,
    controller,
    destruction_due,
    home_nations,
    is_home_of,
    joined,
    settle,
    side_totals,
    space_vp,
    tech_vp,
    vp,
)
from tests.games.total_domination.boards import card, coastal, home, island, land, stage, stub_pack


def europe(units=(), **kw):
    """Germany's capital and a 2-star home space, the UK's capital, France, a neutral space."""
    return stage(
        spaces=[home("germany", "germany", capital=True, factory=True), home("austria", "germany", stars=2,
                                                                               factory=True),
                home("italy", "italy", stars=2, shipyard=True), home("uk", "uk", capital=True, shipyard=True),
                home("france", "france", stars=2, factory=True), land("poland"), coastal("norway", stars=2)],
        links=[("germany", "austria", "land"), ("germany", "poland", "land"), ("germany", "france", "land"),
               ("austria", "italy", "land"), ("uk", "france", "sea"), ("uk", "norway", "sea"),
               ("germany", "norway", "sea")],
        units=units, **kw)


# ---------------------------------------------------------------- home spaces
def test_home_space_without_units_is_controlled_by_its_country():
    st = europe()
    assert controller(st, "austria") == "germany"
    assert controller(st, "uk") == "uk"


def test_coalition_home_space_is_controlled_by_the_power_running_the_coalition_country():
    st = europe()
    assert controller(st, "italy") == "germany" and controller(st, "france") == "uk"
    assert home_nations(st, "germany") == ["germany", "italy"]
    assert is_home_of(st, "italy", "germany") and not is_home_of(st, "italy", "uk")


def test_enemy_unit_on_a_non_capital_home_space_takes_control():
    st = europe(units=[("uk", "army", "austria")])
    assert controller(st, "austria") == "uk"
    st = europe(units=[("germany", "army", "france")])
    assert controller(st, "france") == "germany"


def test_t1_capital_with_one_enemy_unit_is_uncontrolled_and_its_owner_loses_3_vp():
    before = space_vp(europe())
    st = europe(units=[("germany", "army", "uk")])
    assert controller(st, "uk") is None
    after = space_vp(st)
    assert after["uk"] == before["uk"] - 3
    assert after["germany"] == before["germany"]


def test_t2_capital_with_two_enemy_units_is_controlled_by_the_enemy():
    before = space_vp(europe())
    st = europe(units=[("germany", "army", "uk"), ("germany", "fleet", "uk")])
    assert controller(st, "uk") == "germany"
    after = space_vp(st)
    assert after["uk"] == before["uk"] - 3 and after["germany"] == before["germany"] + 3


def test_capital_is_worth_3_vp_whatever_its_stars():
    st = stage(spaces=[home("x", "uk", capital=True, stars=1)])
    assert space_vp(st)["uk"] == 3


def test_settled_bombers_never_count_toward_the_enemy_units_that_decide_a_capital():
    st = europe(units=[("germany", "army", "uk"), ("germany", "bomber", "uk")])
    assert controller(st, "uk") is None  # one army + one bomber is still one enemy unit
    st = europe(units=[("germany", "bomber", "uk"), ("germany", "bomber", "uk")])
    assert controller(st, "uk") == "uk"


def test_allies_units_never_take_an_allys_home_space():
    st = europe(units=[("uk", "army", "germany")], controller={"italy": "germany"})
    assert controller(st, "germany") is None
    # an ally's unit is no enemy: a Japanese unit would not cost Germany its space (cannot happen by
    # movement, but control must not hand Austria to an ally)
    st = europe(units=[("japan", "army", "austria")])
    assert controller(st, "austria") == "germany"


# ---------------------------------------------------------------- neutral spaces
def test_neutral_space_is_controlled_by_the_player_whose_unit_stands_there():
    st = europe(units=[("germany", "army", "poland")])
    assert controller(st, "poland") == "germany"
    assert space_vp(st)["germany"] == space_vp(europe())["germany"] + 1


def test_empty_neutral_space_is_controlled_by_nobody():
    assert controller(europe(), "poland") is None


def test_coalition_units_control_spaces_for_their_power():
    st = europe(units=[("italy", "army", "poland")])
    assert controller(st, "poland") == "germany"


def test_neutral_army_gives_control_to_nobody():
    st = europe(units=[("neutral", "army", "poland")])
    assert controller(st, "poland") is None


@pytest.mark.parametrize("kind", ["uboat", "resistance", "bomber"])
def test_uboats_resistance_and_bombers_never_control_spaces(kind):
    nation = "uk" if kind == "resistance" else "germany"
    st = europe(units=[(nation, kind, "norway")])
    assert controller(st, "norway") is None


def test_non_aligned_home_space_occupied_before_joining_is_controlled_by_the_occupier():
    spaces = [home("alaska", "usa", stars=1), home("hawaii", "usa", shape="island", stars=2)]
    st = stage(spaces=spaces, units=[("japan", "fleet", "hawaii")])
    assert controller(st, "hawaii") == "japan"  # G11
    assert controller(st, "alaska") is None  # an empty non-aligned home space scores for nobody
    assert space_vp(st)["japan"] == 2


def test_after_joining_non_aligned_home_spaces_are_the_joined_powers_home_spaces():
    spaces = [home("alaska", "usa", stars=1), home("hawaii", "usa", shape="island", stars=2)]
    st = stage(spaces=spaces, units=[("japan", "fleet", "hawaii")], controller={"usa": "uk"})
    assert joined(st, "usa") and not joined(st, "china")
    assert controller(st, "alaska") == "uk"
    assert controller(st, "hawaii") == "japan"  # an enemy unit on a non-capital home space
    assert space_vp(st)["uk"] == 1 and "usa" in home_nations(st, "uk")


def test_control_map_agrees_with_controller():
    st = europe(units=[("germany", "army", "uk"), ("germany", "army", "poland"), ("uk", "fleet", "norway")])
    assert control_map(st) == {s: controller(st, s) for s in st.geo.spaces}


# ---------------------------------------------------------------- VP modifiers
def test_t21_uboat_with_an_allied_fleet_denies_the_allies_that_space():
    st = stage(spaces=[home("uk", "uk", capital=True), coastal("atlantic", stars=2, uboat=True)],
               links=[("uk", "atlantic", "sea")],
               units=[("uk", "fleet", "atlantic"), ("germany", "uboat", "atlantic")])
    assert controller(st, "atlantic") == "uk"  # still controlled (supply, movement): VP only
    assert space_vp(st)["uk"] == 3
    st.units = [u for u in st.units if u.kind != "uboat"]
    assert space_vp(st)["uk"] == 5


def test_uboat_does_not_deny_a_space_held_by_an_allied_army_alone():
    st = stage(spaces=[coastal("atlantic", stars=2, uboat=True)],
               units=[("uk", "army", "atlantic"), ("germany", "uboat", "atlantic")])
    assert space_vp(st)["uk"] == 2


def test_t22_resistance_lowers_the_axis_value_of_a_space_to_zero_at_least():
    units = [("germany", "army", "norway"), ("uk", "resistance", "norway"), ("uk", "resistance", "norway")]
    base = space_vp(europe())["germany"]
    assert space_vp(europe(units=units))["germany"] == base
    assert space_vp(europe(units=units[:2]))["germany"] == base + 1
    three = units + [("ussr", "resistance", "norway")]
    assert space_vp(europe(units=three))["germany"] == base  # floor 0, not −1


def test_resistance_does_not_lower_an_allied_value():
    st = europe(units=[("uk", "army", "norway"), ("ussr", "resistance", "norway")])
    assert space_vp(st)["uk"] == space_vp(europe())["uk"] + 2


def test_tech_vp_is_one_per_new_colour_after_the_first():
    st = europe(techs={"uk": ["B1"]})
    assert tech_vp(st, "uk") == 0
    st = europe(techs={"uk": ["B1", "A1"]})
    assert tech_vp(st, "uk") == 1
    st = europe(techs={"uk": ["B1", "A1", "B2"]})
    assert tech_vp(st, "uk") == 1  # a second Naval tech adds nothing (T14)
    st = europe(techs={"uk": ["A1", "B1", "C1", "D1", "E1", "A2"]})
    assert tech_vp(st, "uk") == 4


def test_solo_automa_gets_no_tech_vp():
    st = europe(techs={"germany": ["A1", "B1"], "uk": ["A1", "B1"]}, options={"players": 1})
    assert tech_vp(st, "germany") == 0 and tech_vp(st, "uk") == 1


def test_vp_adds_spaces_diplomacy_techs_and_the_solo_bonus(monkeypatch):
    stub_pack(monkeypatch, cards=[card("td-01", kind="diplomacy", vp=2, flag="spain"),
                                  card("td-02", kind="diplomacy", vp=1, flag="turkey")])
    st = europe(techs={"uk": ["B1", "A1"]}, diplomacy=[{"card": "td-01", "power": "uk"},
                                                       {"card": "td-02", "power": "germany"}],
                bonus_vp={"germany": 1})
    spaces = space_vp(st)
    total = vp(st)
    assert total["uk"] == spaces["uk"] + 2 + 1
    assert total["germany"] == spaces["germany"] + 1 + 1
    assert side_totals(st) == {"axis": total["germany"] + total["japan"], "allies": total["uk"] + total["ussr"]}


def test_starting_vp_equal_the_home_space_stars():
    st = europe()
    # Germany 3 + 2 + Italy 2, UK 3 + France 2
    assert space_vp(st) == {"germany": 7, "uk": 5, "japan": 0, "ussr": 0}


def test_allied_threshold_is_33_plus_2_per_joined_country():
    st = europe()
    assert allied_threshold(st) == 33
    st.controller["usa"] = "uk"
    assert allied_threshold(st) == 35
    st.controller["china"] = "ussr"
    assert allied_threshold(st) == 37


# ---------------------------------------------------------------- settle
def test_t20_bomber_left_alone_on_a_neutral_space_returns_to_the_pool():
    st = europe(units=[("germany", "army", "poland"), ("germany", "bomber", "poland")])
    assert settle(st) == []
    st.units = [u for u in st.units if u.kind != "army"]  # the army beside it is destroyed
    assert settle(st) == [("bomber_removed", "u2", "poland")]
    assert st.units == []


def test_t20_bomber_alone_on_its_own_home_space_stays():
    st = europe(units=[("germany", "bomber", "austria"), ("germany", "bomber", "italy")])
    assert settle(st) == []
    assert controller(st, "austria") == "germany"
    assert len(st.units) == 2


def test_g12_bomber_alone_on_an_enemy_home_space_returns_to_the_pool():
    st = europe(units=[("germany", "bomber", "france")])
    assert settle(st) == [("bomber_removed", "u1", "france")]


def test_t22_resistance_returns_to_the_pool_when_an_allied_unit_enters():
    st = europe(units=[("uk", "resistance", "norway"), ("uk", "resistance", "norway")])
    assert settle(st) == []  # no Axis unit left: the markers stay
    st.new_unit("uk", "fleet", "norway")
    assert settle(st) == [("resistance_removed", "u1", "norway"), ("resistance_removed", "u2", "norway")]
    assert [u.kind for u in st.units] == ["fleet"]


def test_resistance_stays_beside_axis_units():
    st = europe(units=[("germany", "army", "norway"), ("ussr", "resistance", "norway")])
    assert settle(st) == []


def test_island_space_with_a_fleet_is_controlled():
    st = stage(spaces=[island("malta")], units=[("uk", "fleet", "malta")])
    assert controller(st, "malta") == "uk"


# ---------------------------------------------------------------- Destruction markers (§4.13 (b))
def test_t1_t2_a_capital_gets_its_destruction_marker_with_the_second_enemy_unit():
    st = europe()
    before = control_map(st)
    st.new_unit("germany", "army", "uk")
    one = control_map(st)
    assert destruction_due(st, before, one) == []  # T1: uncontrolled, no marker
    st.new_unit("germany", "army", "uk")
    assert destruction_due(st, one, control_map(st)) == ["uk"]  # T2
    st.destroyed.append("uk")
    assert destruction_due(st, one, control_map(st)) == []  # one marker per space


def test_taking_a_non_capital_home_space_with_a_factory_places_a_marker():
    st = europe()
    before = control_map(st)
    st.new_unit("germany", "army", "france")  # a coalition home space counts as the UK's
    st.new_unit("uk", "army", "norway")  # a neutral space: no marker
    assert destruction_due(st, before, control_map(st)) == ["france"]


def test_no_marker_without_a_factory_or_shipyard():
    st = stage(spaces=[home("x", "uk", stars=2)])
    before = control_map(st)
    st.new_unit("germany", "army", "x")
    assert destruction_due(st, before, control_map(st)) == []
