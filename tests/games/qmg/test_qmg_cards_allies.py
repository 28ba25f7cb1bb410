"""Every unique British, Soviet and American card, each on a small position."""

from __future__ import annotations

import pytest
from qmg_helpers import (
    armies,
    card_position,
    card_vp,
    decision,
    deck,
    finish,
    go,
    make,
    react_options,
    texts,
    use,
)

from app.games.qmg.cards.registry import RULES
from app.games.qmg.data import card
from app.games.qmg.supply import is_supply_space, supplied_spaces

UK_HOME = {"united_kingdom": ["uk"], "north_sea": ["uk"]}


# ---------------------------------------------------------------- dominance Status
@pytest.mark.parametrize("units,bonus", [
    ({"north_atlantic": ["uk"], "canada": ["uk"]}, 2), ({"canada": ["uk"]}, 1), ({}, 0)])
def test_mackenzie_king(units, bonus):
    st = make(units, start=False)
    assert RULES["uk_mackenzie_king"].victory(st, "uk") == bonus


# ---------------------------------------------------------------- UK Status
def test_directorate_of_manpower_builds_straight_into_australia():
    st = card_position(UK_HOME, "uk", "uk_build_army", statuses={"uk": ["uk_australia_directorate_of_manpower"]})
    go(st, "play:")
    assert "at:australia" in decision(st).choice_ids()
    go(st, "at:australia")
    assert st.has_unit("australia", "uk")


def test_lord_linlithgow_builds_straight_into_india():
    st = card_position(UK_HOME, "uk", "uk_build_army", statuses={"uk": ["uk_lord_linlithgow"]})
    go(st, "play:", "at:india")
    finish(st)
    assert st.has_unit("india", "uk")  # India is a supply space: it stays


def test_free_france_builds_in_western_europe_instead_of_playing():
    st = card_position(UK_HOME, "uk", "uk_build_army", statuses={"uk": ["uk_free_france"]},
                       hand={"uk": ["uk_build_army", "uk_build_army", "uk_land_battle"]})
    go(st, "instead:", "n:2")
    finish(st)
    assert st.has_unit("western_europe", "uk") and len(st.countries["uk"].hand) == 1


def test_resistance_attacks_western_europe_or_italy():
    units = {**UK_HOME, "western_europe": ["germany"], "germany": ["germany"]}
    st = card_position(units, "uk", "uk_build_army", statuses={"uk": ["uk_resistance"]},
                       hand={"uk": ["uk_build_army", "uk_build_army", "uk_land_battle"]})
    go(st, "instead:", "n:2")
    finish(st)
    assert not st.has_unit("western_europe", "germany")


def test_royal_navy_makes_a_second_sea_attack():
    units = {**UK_HOME, "baltic_sea": ["germany"], "germany": ["germany"], "north_atlantic": ["italy"]}
    st = card_position(units, "uk", "uk_sea_battle", statuses={"uk": ["uk_royal_navy"]},
                       hand={"uk": ["uk_sea_battle", "uk_build_army", "uk_build_army", "uk_land_battle"]})
    go(st, "play:", "at:baltic_sea", "use:uk_royal_navy", "n:2", "at:north_atlantic")
    finish(st)
    assert not st.units.get("baltic_sea") and not st.units.get("north_atlantic")


# ---------------------------------------------------------------- UK Events
def test_dutch_east_indies():
    st = card_position(UK_HOME, "uk", "uk_dutch_east_indies")
    ev = go(st, "play:")
    t = texts(ev)
    assert "deploys an army in Indonesia" in t and "New Guinea" in t and "South China Sea" in t


def test_general_smuts():
    st = card_position(UK_HOME, "uk", "uk_general_smuts")
    ev = go(st, "play:", "at:bay_of_bengal")
    assert "Africa" in texts(ev) and "Bay of Bengal" in texts(ev)


def test_increased_commonwealth_support():
    st = card_position(UK_HOME, "uk", "uk_increased_commonwealth_support")
    go(st, "play:", "at:australia")
    finish(st)
    assert st.has_unit("australia", "uk")


def test_king_peter_swaps_the_balkans():
    st = card_position({**UK_HOME, "balkans": ["italy"]}, "uk", "uk_king_peter")
    ev = go(st, "play:")
    assert "eliminated" in texts(ev) and "deploys an army in Balkans" in texts(ev)


def test_ledo_and_burma_roads():
    units = {**UK_HOME, "india": ["uk"], "china": ["japan"]}
    st = card_position(units, "uk", "uk_ledo_and_burma_roads")
    go(st, "play:", "at:china")
    finish(st)
    assert st.has_unit("southeast_asia", "uk") and not st.units.get("china")


def test_singapore():
    st = card_position(UK_HOME, "uk", "uk_singapore")
    ev = go(st, "play:")
    assert "Southeast Asia" in texts(ev) and "South China Sea" in texts(ev)


# ---------------------------------------------------------------- UK Economic Warfare
def test_bomber_command_hits_germany_or_italy_for_four():
    st = card_position(UK_HOME, "uk", "uk_bomber_command")
    n = deck(st, "italy")
    go(st, "play:", "italy")
    assert deck(st, "italy") == n - 4


def test_malta_submarines_let_each_victim_choose():
    units = {**UK_HOME, "mediterranean_sea": ["italy"], "italy": ["italy"]}
    st = card_position(units, "uk", "uk_malta_submarines")
    g, i = deck(st, "germany"), deck(st, "italy")
    go(st, "play:")
    assert decision(st).seat == st.seat_of("italy")
    go(st, "navy")
    assert deck(st, "germany") == g - 2 and deck(st, "italy") == i
    assert not st.has_unit("mediterranean_sea", "italy")


# ---------------------------------------------------------------- UK Responses
def test_asw_tactics_cancels_axis_economic_warfare():
    st = card_position({"germany": ["germany"]}, "germany", "ger_submarines_monsoon_group",
                       responses={"uk": ["uk_asw_tactics"]})
    go(st, "play:", "use:uk_asw_tactics")
    finish(st)
    assert card_vp(st, "axis") == 0


@pytest.mark.parametrize("key,units,attacker,attack,target", [
    ("uk_defensive_posture", {**UK_HOME, "western_europe": ["uk"], "germany": ["germany"]}, "germany",
     "ger_land_battle", ("western_europe", "uk")),
    ("uk_destroyers", {**UK_HOME, "western_europe": ["germany"], "germany": ["germany"]}, "germany",
     "ger_sea_battle", ("north_sea", "uk")),
    ("uk_raf", {"united_kingdom": ["uk"], "north_sea": ["germany"], "western_europe": ["germany"],
                "germany": ["germany"]}, "germany", "ger_land_battle", ("united_kingdom", "uk")),
    ("ussr_leningrad", {"moscow": ["ussr"], "russia": ["ussr"], "eastern_europe": ["germany"],
                        "germany": ["germany"]}, "germany", "ger_land_battle", ("russia", "ussr")),
    ("ussr_moscow", {"moscow": ["ussr"], "russia": ["germany"], "eastern_europe": ["germany"],
                     "germany": ["germany"]}, "germany", "ger_land_battle", ("moscow", "ussr")),
    ("ussr_stalingrad", {"ukraine": ["ussr"], "balkans": ["germany"], "germany": ["germany"]}, "germany",
     "ger_land_battle", ("ukraine", "ussr")),
])
def test_protecting_responses(key, units, attacker, attack, target):
    owner = card(next(i for i in __import__("app.games.qmg.data", fromlist=["x"]).catalogue()
                      if card(i).key == key)).country
    st = card_position(units, attacker, attack, responses={owner: [key]})
    go(st, "play:")
    if decision(st).kind == "battle":
        go(st, f"at:{target[0]}")
    use(st, key)
    finish(st)
    assert st.has_unit(*target) and st.is_protected(*target)


def test_destroyers_need_a_supplied_navy():
    units = {"north_sea": ["uk"], "western_europe": ["germany"], "germany": ["germany"]}
    st = card_position(units, "germany", "ger_sea_battle", responses={"uk": ["uk_destroyers"]})
    go(st, "play:")
    assert "uk_destroyers" not in react_options(st)


def test_enigma_discards_the_german_status_after_its_use():
    units = {"germany": ["germany"], "ukraine": ["ussr"], "moscow": ["ussr"]}
    st = card_position(units, "germany", "ger_build_army", statuses={"germany": ["ger_bias_for_action"]},
                       responses={"uk": ["uk_enigma_code_cracked"]})
    go(st, "play:", "at:balkans", "use:ger_bias_for_action", "at:ukraine", "use:uk_enigma_code_cracked")
    finish(st)
    assert not st.units.get("ukraine")  # the use still happened
    assert st.countries["germany"].statuses == []


def test_loyal_to_the_crown_only_against_builds_in_india_canada_australia():
    st = card_position({"japan": ["japan"], "southeast_asia": ["japan"]}, "japan", "jpn_build_army",
                       responses={"uk": ["uk_loyal_to_the_crown"]})
    go(st, "play:", "at:india", "use:uk_loyal_to_the_crown")
    finish(st)
    assert not st.units.get("india")


def test_rationing_shuffles_the_played_card_back_into_the_deck():
    st = card_position(UK_HOME, "uk", "uk_build_army", responses={"uk": ["uk_rationing"]})
    played = st.countries["uk"].hand[0]
    go(st, "play:", "at:western_europe", "use:uk_rationing")
    assert played in st.countries["uk"].deck


# ---------------------------------------------------------------- USSR
def test_guards_plays_a_build_army_from_the_discard_pile():
    st = card_position({"moscow": ["ussr"]}, "ussr", "ussr_land_battle", statuses={"ussr": ["ussr_guards"]},
                       hand={"ussr": ["ussr_land_battle", "ussr_sea_battle", "ussr_build_navy"]},
                       discard={"ussr": ["ussr_build_army"]})
    go(st, "instead:", "n:2", "at:ukraine")
    finish(st)
    assert st.has_unit("ukraine", "ussr")


def test_scorched_earth_denies_ukraine_as_axis_supply():
    st = make({"ukraine": ["germany"]}, statuses={"ussr": ["ussr_scorched_earth"]}, start=False)
    assert not is_supply_space(st, "ukraine", "axis") and is_supply_space(st, "ukraine", "allies")
    assert supplied_spaces(st, "germany") == set()


def test_shverniks_council_keeps_soviet_armies_supplied():
    st = make({"siberia": ["ussr"], "black_sea": ["ussr"]},
              statuses={"ussr": ["ussr_shverniks_evacuation_council"]}, start=False)
    assert supplied_spaces(st, "ussr") == {"siberia"}


def test_stavka_attacks_the_same_space_again():
    units = {"moscow": ["ussr"], "ukraine": ["germany", "italy"], "germany": ["germany"], "italy": ["italy"]}
    st = card_position(units, "ussr", "ussr_land_battle", statuses={"ussr": ["ussr_stavka_artillery_corps"]},
                       hand={"ussr": ["ussr_land_battle", "ussr_build_army", "ussr_build_army"]})
    go(st, "play:", "at:ukraine", "germany", "use:ussr_stavka_artillery_corps", "n:1", "at:ukraine")
    finish(st)
    assert not st.units.get("ukraine")


def test_women_conscripts_return_build_army_to_hand():
    st = card_position({"moscow": ["ussr"]}, "ussr", "ussr_build_army",
                       statuses={"ussr": ["ussr_women_conscripts"]})
    played = st.countries["ussr"].hand[0]
    go(st, "play:", "at:ukraine", "use:ussr_women_conscripts")
    assert played in st.countries["ussr"].hand


def test_general_winter_removes_up_to_two_axis_armies_near_moscow():
    units = {"moscow": ["ussr"], "ukraine": ["germany"], "russia": ["italy"], "germany": ["germany"]}
    st = card_position(units, "ussr", "ussr_general_winter")
    go(st, "play:", "u:ukraine:germany", "u:russia:italy")
    finish(st)
    assert not st.units.get("ukraine") and not st.units.get("russia")


def test_german_soviet_treaty():
    st = card_position({"moscow": ["ussr"]}, "ussr", "ussr_german_soviet_treaty")
    go(st, "play:")
    finish(st)
    assert armies(st, "ussr") == ["eastern_europe", "moscow", "russia"]


def test_mao_tse_tung():
    st = card_position({"moscow": ["ussr"], "szechuan": ["japan"]}, "ussr", "ussr_mao_tse_tung")
    go(st, "play:")
    assert not st.units.get("szechuan")


def test_titos_partisans_on_an_empty_balkans_still_deploys():
    st = card_position({"moscow": ["ussr"]}, "ussr", "ussr_titos_partisans")
    go(st, "play:", "at:balkans:uk")
    assert st.units["balkans"] == ["uk"]


def test_trans_siberian_railroad():
    st = card_position({"moscow": ["ussr"], "siberia": ["ussr"]}, "ussr", "ussr_trans_siberian_railroad")
    go(st, "play:", "at:ukraine")
    finish(st)
    assert armies(st, "ussr") == ["moscow", "ukraine"]


def test_vasilevsky():
    st = card_position({"moscow": ["ussr"], "china": ["japan"]}, "ussr", "ussr_vasilevsky")
    ev = go(st, "play:")
    assert "Vladivostok" in texts(ev) and not st.units.get("china")


def test_defense_of_the_motherland():
    st = make({"moscow": ["germany"], "siberia": ["ussr"]}, active="ussr", hand={"ussr": ["ussr_build_army"] * 2},
              responses={"ussr": ["ussr_defense_of_the_motherland"]}, to_action=False)
    use(st, "ussr_defense_of_the_motherland")
    go(st, "at:kazakhstan")
    assert not st.units.get("moscow") and st.has_unit("kazakhstan", "ussr")


# ---------------------------------------------------------------- USA Status
US_HOME = {"eastern_united_states": ["usa"], "north_atlantic": ["usa"]}


def test_aircraft_carriers_build_a_navy_in_the_attacked_sea():
    units = {**US_HOME, "north_sea": ["germany"], "western_europe": ["germany"], "iceland": ["usa"]}
    st = card_position(units, "usa", "usa_sea_battle", statuses={"usa": ["usa_aircraft_carriers"]})
    go(st, "play:", "at:north_sea", "use:usa_aircraft_carriers", "at:north_sea")
    finish(st)
    assert st.has_unit("north_sea", "usa")


def test_american_volunteer_group():
    st = card_position(US_HOME, "usa", "usa_build_army", statuses={"usa": ["usa_american_volunteer_group_expands"]})
    go(st, "instead:")
    finish(st)
    assert st.has_unit("szechuan", "usa")  # deployed and always supplied there


def test_amphibious_landings_need_a_supplied_navy_next_to_the_target():
    units = {**US_HOME, "latin_america": ["germany"]}
    st = card_position(units, "usa", "usa_land_battle", statuses={"usa": ["usa_amphibious_landings"]})
    go(st, "play:", "at:latin_america", "use:usa_amphibious_landings", "at:latin_america")
    finish(st)
    assert st.units["latin_america"] == ["usa"]


def test_flying_fortresses_add_two_discards():
    units = {**US_HOME, "western_europe": ["usa"], "north_sea": ["usa"], "iceland": ["usa"]}
    st = card_position(units, "usa", "usa_b29_superfortress", statuses={"usa": ["usa_flying_fortresses"]})
    n = deck(st, "germany")
    go(st, "play:")
    assert deck(st, "germany") == n - 7


def test_radar_saves_a_navy_for_this_battle():
    units = {**US_HOME, "north_sea": ["germany"], "western_europe": ["germany"]}
    st = card_position(units, "germany", "ger_sea_battle", statuses={"usa": ["usa_radar"]})
    n = deck(st, "usa")
    go(st, "play:", "at:north_atlantic", "use:usa_radar")
    finish(st)
    assert st.has_unit("north_atlantic", "usa") and not st.is_protected("north_atlantic", "usa")
    assert deck(st, "usa") == n - 2


def test_rosie_the_riveter_tucks_cards_under_the_deck():
    st = card_position(US_HOME, "usa", "usa_build_army", statuses={"usa": ["usa_rosie_the_riveter"]},
                       hand={"usa": ["usa_build_army", "usa_build_army", "usa_land_battle"]})
    go(st, "discard:")
    use(st, "usa_rosie_the_riveter")
    tucked = decision(st).choice_ids()[:2]
    go(st, "n:2")
    assert st.countries["usa"].deck[-2:] == tucked


def test_superior_shipyards_builds_a_second_navy():
    units = {**US_HOME, "united_kingdom": ["uk"], "iceland": ["uk"]}
    st = card_position(units, "usa", "usa_build_navy", statuses={"usa": ["usa_superior_shipyards"]})
    n = deck(st, "usa")
    go(st, "play:", "at:north_sea", "use:usa_superior_shipyards")
    assert deck(st, "usa") == n - 1
    finish(st)


def test_wartime_production_builds_a_second_army():
    st = card_position(US_HOME, "usa", "usa_build_army", statuses={"usa": ["usa_wartime_production"]})
    go(st, "play:", "at:canada", "use:usa_wartime_production", "at:western_united_states")
    finish(st)
    assert armies(st, "usa") == ["canada", "eastern_united_states", "north_atlantic", "western_united_states"]


# ---------------------------------------------------------------- USA Events
def test_arsenal_of_democracy_lets_the_uk_build():
    st = card_position({**US_HOME, **UK_HOME}, "usa", "usa_arsenal_of_democracy")
    go(st, "play:")
    assert decision(st).seat == st.seat_of("uk")
    go(st, "at:western_europe", "at:baltic_sea")
    assert st.has_unit("western_europe", "uk") and st.has_unit("baltic_sea", "uk")


def test_fleet_deployed_to_pearl_harbor():
    st = card_position(US_HOME, "usa", "usa_fleet_deployed_to_pearl_harbor")
    go(st, "play:", "at:east_pacific")
    assert st.has_unit("hawaii", "usa") and st.has_unit("east_pacific", "usa")


def test_flexible_resources_plays_from_the_discard_pile():
    st = card_position(US_HOME, "usa", "usa_flexible_resources",
                       discard={"usa": ["usa_build_army", "usa_sea_battle"]})
    go(st, "play:")
    d = decision(st)
    assert d.kind == "choose_card" and len(d.choices) == 2
    build_army = next(c.id for c in d.choices if card(c.id).type == "build_army")
    go(st, build_army, "at:canada")
    assert st.has_unit("canada", "usa")


def test_free_french_allies_gives_the_uk_an_army():
    st = card_position({**US_HOME, **UK_HOME}, "usa", "usa_free_french_allies")
    go(st, "play:")
    assert decision(st).seat == st.seat_of("uk")
    go(st, "at:north_africa")
    assert st.has_unit("north_africa", "uk")


def test_guadalcanal():
    st = card_position({**US_HOME, "western_united_states": ["usa"]}, "usa", "usa_guadalcanal")
    go(st, "play:")
    assert st.has_unit("new_zealand", "usa") and st.has_unit("east_pacific", "usa")


def test_lend_lease_lets_an_ally_play_and_draw():
    st = card_position({**US_HOME, "moscow": ["ussr"]}, "usa", "usa_lend_lease",
                       hand={"ussr": ["ussr_build_army"]})
    go(st, "play:", "ussr")
    assert decision(st).seat == st.seat_of("ussr")
    go(st, "ussr-", "at:ukraine")
    assert st.has_unit("ukraine", "ussr") and len(st.countries["ussr"].hand) == 1


def test_murmansk_convoy():
    st = card_position({**US_HOME, "moscow": ["ussr"]}, "usa", "usa_murmansk_convoy")
    go(st, "play:", "at:ukraine")
    assert st.has_unit("russia", "ussr") and st.has_unit("ukraine", "ussr")


def test_operation_magic_discards_a_japanese_response_at_random():
    st = card_position(US_HOME, "usa", "usa_operation_magic", responses={"japan": ["jpn_truk", "jpn_kamikaze"]})
    ev = go(st, "play:")
    assert len(st.countries["japan"].responses) == 1
    assert "Truk" not in texts(ev) and "Kamikaze" not in texts(ev)


def test_patton_advances():
    units = {**US_HOME, "north_sea": ["usa"], "germany": ["germany"]}
    st = card_position(units, "usa", "usa_patton_advances")
    go(st, "play:", "at:germany")
    finish(st)
    assert st.has_unit("western_europe", "usa") and not st.units.get("germany")


def test_theater_shift():
    st = card_position({**US_HOME, "hawaii": ["usa"]}, "usa", "usa_theater_shift")
    go(st, "play:", "at:canada")
    assert armies(st, "usa") == ["canada", "eastern_united_states", "north_atlantic"]


# ---------------------------------------------------------------- USA Economic Warfare
@pytest.mark.parametrize("key,units,choice,victim,n", [
    ("usa_b24_liberator", {"north_africa": ["usa"]}, None, "italy", 4),
    ("usa_b24_liberator", {"eastern_united_states": ["usa"]}, None, "italy", 0),
    ("usa_b26_marauder", {"north_africa": ["usa"]}, "germany", "germany", 4),
    ("usa_b29_superfortress", {"north_africa": ["usa"]}, None, "germany", 5),
    ("usa_firestorm_bombing", {"sea_of_japan": ["usa"]}, None, "japan", 7),
    ("usa_sbd_dauntless", {"central_pacific": ["usa"]}, None, "japan", 4),
])
def test_american_bombers(key, units, choice, victim, n):
    st = card_position(units, "usa", key)
    before = deck(st, victim)
    go(st, "play:", *([choice] if choice else []))
    assert deck(st, victim) == before - n
