"""Every unique German, Japanese and Italian card, each on a small position."""

from __future__ import annotations

import pytest
from qmg_helpers import (
    answer,
    armies,
    card_position,
    card_vp,
    decision,
    deck,
    finish,
    go,
    make,
    pick,
    play,
    react_options,
    texts,
    until,
    until_usable,
    use,
)

from app.games.qmg.cards.registry import RULES
from app.games.qmg.data import card
from app.games.qmg.supply import supplied_spaces


# ---------------------------------------------------------------- dominance-phase Status cards
@pytest.mark.parametrize("key,c,units,bonus", [
    ("ger_abundant_resources", "germany", {"ukraine": ["germany"], "russia": ["germany"],
                                           "kazakhstan": ["germany"]}, 3),
    ("ger_swedish_iron_ore", "germany", {"baltic_sea": ["germany"], "scandinavia": ["germany"]}, 2),
    ("ger_swedish_iron_ore", "germany", {"baltic_sea": ["germany"]}, 1),
    ("ger_swedish_iron_ore", "germany", {"scandinavia": ["germany"]}, 0),
    ("jpn_forward_bases", "japan", {"hawaii": ["japan"], "canada": ["japan"]}, 2),
    ("jpn_forward_bases", "japan", {"japan": ["japan"]}, 0),
    ("jpn_greater_east_asia_co_prosperity_sphere", "japan", {"indonesia": ["japan"], "new_guinea": ["japan"]}, 2),
    ("jpn_imperial_designs", "japan", {"iwo_jima": ["japan"], "philippines": ["japan"]}, 1),
    ("jpn_unimpeded_merchant_shipping", "japan", {"japan": ["japan"]}, 1),
    ("jpn_unimpeded_merchant_shipping", "japan", {"hawaii": ["usa"]}, 0),
    ("ita_anti_communist_sentiment", "italy", {"russia": ["italy"], "ukraine": ["italy"]}, 2),
    ("ita_balkan_resources", "italy", {"balkans": ["italy"]}, 1),
    ("ita_impero_italiano", "italy", {"north_africa": ["germany"], "africa": ["italy"], "india": ["italy"]}, 2),
    ("ita_mare_nostrum", "italy", {"mediterranean_sea": ["italy"], "bay_of_bengal": ["italy"]}, 2),
])
def test_dominance_status_bonus(key, c, units, bonus):
    st = make(units, start=False)
    assert RULES[key].victory(st, c) == bonus


def test_dominance_status_scores_in_the_dominance_phase():
    st = card_position({"italy": ["italy"], "balkans": ["italy"]}, "italy", "ita_build_army",
                       statuses={"italy": ["ita_balkan_resources"]})
    go(st, "discard:")
    until(st, "use_status")
    pick(st, "use:")
    finish(st)
    assert st.vp["axis"] == 2 + 1


# ---------------------------------------------------------------- Germany: Status
def test_atlantic_wall_makes_the_attacker_discard_three():
    units = {"western_europe": ["germany"], "germany": ["germany"], "united_kingdom": ["uk"], "north_sea": ["uk"]}
    st = card_position(units, "uk", "uk_land_battle", statuses={"germany": ["ger_atlantic_wall"]})
    n = deck(st, "uk")
    go(st, "play:", "at:western_europe", "use:ger_atlantic_wall")
    finish(st)
    assert deck(st, "uk") == n - 3 and not st.has_unit("western_europe", "germany")


def test_bias_for_action_attacks_next_to_the_new_army():
    units = {"germany": ["germany"], "ukraine": ["ussr"], "moscow": ["ussr"]}
    st = card_position(units, "germany", "ger_build_army", statuses={"germany": ["ger_bias_for_action"]})
    go(st, "play:", "at:balkans", "use:ger_bias_for_action", "at:ukraine")
    finish(st)
    assert armies(st, "ussr") == ["moscow"] and st.countries["germany"].used == ["ger_bias_for_action"]


def test_synthetic_fuel_builds_a_second_army_next_to_the_first():
    st = card_position({"germany": ["germany"]}, "germany", "ger_build_army",
                       statuses={"germany": ["ger_synthetic_fuel"]})
    n = deck(st, "germany")
    go(st, "play:", "at:balkans", "use:ger_synthetic_fuel", "at:ukraine")
    finish(st)
    assert armies(st, "germany") == ["balkans", "germany", "ukraine"] and deck(st, "germany") == n - 2


def test_volksturm_deploys_in_germany_at_turn_start():
    st = make({"balkans": ["germany"], "italy": ["italy"]}, hand={"germany": ["ger_build_army"] * 2},
              statuses={"germany": ["ger_volksturm"]}, to_action=False)
    n = deck(st, "germany")
    use(st, "ger_volksturm")
    assert st.has_unit("germany", "germany") and deck(st, "germany") == n - 1
    assert decision(st).kind == "action"


def test_superior_planning_reorders_the_top_four():
    st = card_position({"germany": ["germany"]}, "germany", "ger_build_army",
                       statuses={"germany": ["ger_superior_planning"]})
    top = st.countries["germany"].deck[:4]
    pick(st, "use:")
    d = decision(st)
    assert d.kind == "reorder" and len(d.choices) == 24
    go(st, "order:3210")
    assert st.countries["germany"].deck[:4] == top[::-1]
    assert not any(c.startswith("use:") for c in decision(st).choice_ids())  # once per turn


def test_wolf_packs_adds_two_discards_to_a_submarines_card():
    st = card_position({"germany": ["germany"]}, "germany", "ger_submarines_battle_of_the_atlantic",
                       statuses={"germany": ["ger_wolf_packs"]})
    n = deck(st, "uk")
    go(st, "play:", "use:ger_wolf_packs")
    finish(st)
    assert deck(st, "uk") == n - 4


def test_wolf_packs_adds_three_with_an_army_in_scandinavia():
    st = card_position({"germany": ["germany"], "scandinavia": ["germany"]}, "germany",
                       "ger_submarines_battle_of_the_atlantic", statuses={"germany": ["ger_wolf_packs"]})
    n = deck(st, "uk")
    go(st, "play:", "use:ger_wolf_packs")
    finish(st)
    assert deck(st, "uk") == n - 5


def test_jet_fighters_cut_economic_warfare_by_three():
    st = card_position({"united_kingdom": ["uk"]}, "uk", "uk_bomber_command",
                       statuses={"germany": ["ger_jet_fighters"]})
    n = deck(st, "germany")
    go(st, "play:", "germany")
    assert deck(st, "germany") == n - 1


# ---------------------------------------------------------------- Germany: Events
def test_broad_front_attacks_soviet_armies_that_bordered_germans_at_turn_start():
    units = {"germany": ["germany"], "eastern_europe": ["germany"], "ukraine": ["ussr"], "russia": ["ussr"],
             "moscow": ["ussr"]}
    st = card_position(units, "germany", "ger_broad_front")
    go(st, "play:")
    assert set(decision(st).choice_ids()) == {"at:ukraine", "at:russia", "skip"}
    go(st, "at:ukraine", "at:russia", "skip")
    finish(st)
    assert armies(st, "ussr") == ["moscow"]


def test_forced_conscription_deploys_one_or_two_armies_near_germany():
    st = card_position({"germany": ["germany"]}, "germany", "ger_forced_conscription")
    go(st, "play:", "at:balkans", "at:italy")
    finish(st)
    assert armies(st, "germany") == ["balkans", "germany", "italy"]


def test_guns_and_butter_resolves_as_a_basic_card():
    st = card_position({"germany": ["germany"], "balkans": ["ussr"]}, "germany", "ger_guns_and_butter")
    go(st, "play:", "land_battle", "at:balkans")
    finish(st)
    assert not st.units.get("balkans")


def test_military_dictatorships_put_italy_in_the_balkans_and_hit_ukraine():
    units = {"germany": ["germany"], "ukraine": ["ussr"], "moscow": ["ussr"]}
    st = card_position(units, "germany", "ger_military_dictatorships_balkans")
    go(st, "play:")
    finish(st)
    assert st.has_unit("balkans", "italy") and not st.units.get("ukraine")


def test_plunder_scores_units_outside_germany():
    st = card_position({"germany": ["germany"], "balkans": ["germany"], "baltic_sea": ["germany"]},
                       "germany", "ger_plunder")
    go(st, "play:")
    assert card_vp(st, "axis") == 2


def test_autobahn_rebuilds_every_army():
    st = card_position({"germany": ["germany"], "russia": ["germany"]}, "germany", "ger_the_autobahn")
    go(st, "play:", "at:western_europe")
    finish(st)
    assert armies(st, "germany") == ["germany", "western_europe"]


# ---------------------------------------------------------------- Germany: Economic Warfare
@pytest.mark.parametrize("key,units,vp,target,n", [
    ("ger_submarines_enforce_blockade", {"western_europe": ["germany"], "scandinavia": ["germany"],
                                         "germany": ["germany"]}, 2, "uk", 2),
    ("ger_submarines_battle_of_the_atlantic", {"germany": ["germany"], "baltic_sea": ["germany"]}, 1, "uk", 2),
    ("ger_submarines_prey_unprotected_shipping", {"germany": ["germany"]}, 1, "uk", 3),
    ("ger_submarines_prey_unprotected_shipping", {"germany": ["germany"], "north_sea": ["usa"]}, 1, "uk", 2),
    ("ger_submarines_raid_murmansk_convoy", {"scandinavia": ["germany"], "russia": ["germany"]}, 2, "ussr", 2),
    ("ger_v_weapons", {"western_europe": ["germany"]}, 3, "uk", 1),
    ("ger_v_weapons", {"germany": ["germany"]}, 0, "uk", 0),
    ("jpn_indian_ocean_patrols", {"bay_of_bengal": ["japan"], "indian_ocean": ["japan"]}, 4, "uk", 2),
    ("jpn_submarines_support_pacific_islands", {"hawaii": ["japan"], "east_pacific": ["japan"]}, 2, "usa", 2),
    ("ita_decima_flottiglia_mas", {"italy": ["italy"]}, 1, "uk", 2),
    ("ita_decima_flottiglia_mas", {"italy": ["italy"], "mediterranean_sea": ["uk"]}, 1, "uk", 1),
    ("ita_regia_marina_closes_shipping_lanes", {"mediterranean_sea": ["italy"]}, 1, "uk", 1),
])
def test_axis_economic_warfare(key, units, vp, target, n):
    c = card(next(i for i, d in __import__("app.games.qmg.data", fromlist=["catalogue"]).catalogue().items()
                  if d.key == key)).country
    st = card_position(units, c, key)
    before = deck(st, target)
    go(st, "play:")
    assert card_vp(st, "axis") == vp and deck(st, target) == before - n


def test_monsoon_group_names_an_allied_victim():
    st = card_position({"germany": ["germany"]}, "germany", "ger_submarines_monsoon_group")
    n = deck(st, "ussr")
    go(st, "play:", "ussr")
    assert deck(st, "ussr") == n - 2 and card_vp(st, "axis") == 2


# ---------------------------------------------------------------- Japan: Responses
EX2ISH = {"japan": ["japan"], "china": ["japan"], "southeast_asia": ["japan"], "sea_of_japan": ["japan"],
          "india": ["uk"], "south_china_sea": ["uk"]}


def test_banzai_charge_attacks_again_next_door():
    units = {**EX2ISH, "szechuan": ["uk"]}
    st = card_position(units, "japan", "jpn_land_battle", responses={"japan": ["jpn_banzai_charge"]})
    go(st, "play:", "at:india", "use:jpn_banzai_charge", "at:szechuan")
    finish(st)
    assert not st.has_unit("india", "uk") and not st.has_unit("szechuan", "uk")


def test_battleship_repair_saves_a_supplied_japanese_navy():
    units = {"japan": ["japan"], "sea_of_japan": ["japan"], "central_pacific": ["usa"]}
    st = card_position(units, "usa", "usa_sea_battle", responses={"japan": ["jpn_battleship_repair"]})
    go(st, "play:", "at:sea_of_japan", "use:jpn_battleship_repair")
    finish(st)
    assert st.has_unit("sea_of_japan", "japan")


def test_china_offensive_builds_in_the_attacked_space_and_attacks_again():
    units = {"japan": ["japan"], "sea_of_japan": ["japan"], "china": ["ussr"], "mongolia": ["ussr"],
             "moscow": ["ussr"]}
    st = card_position(units, "japan", "jpn_land_battle", responses={"japan": ["jpn_china_offensive"]})
    go(st, "play:", "at:china", "use:jpn_china_offensive", "at:china", "at:mongolia")
    finish(st)
    assert st.has_unit("china", "japan") and not st.units.get("mongolia")


def test_fall_of_singapore_hits_the_sea_and_deploys():
    units = {"japan": ["japan"], "china": ["japan"], "sea_of_japan": ["japan"], "southeast_asia": ["uk"],
             "south_china_sea": ["uk"], "india": ["uk"]}
    st = card_position(units, "japan", "jpn_land_battle", responses={"japan": ["jpn_fall_of_singapore"]})
    go(st, "play:", "at:southeast_asia", "use:jpn_fall_of_singapore", "at:south_china_sea")
    finish(st)
    assert st.units["southeast_asia"] == ["japan"] and not st.units.get("south_china_sea")


def test_kamikaze_sinks_an_allied_navy_built_next_to_japan():
    units = {"eastern_united_states": ["usa"], "hawaii": ["usa"], "east_pacific": ["usa"],
             "western_united_states": ["usa"], "iwo_jima": ["japan"], "japan": ["japan"]}
    st = card_position(units, "usa", "usa_build_navy", responses={"japan": ["jpn_kamikaze"]})
    go(st, "play:", "at:central_pacific", "use:jpn_kamikaze")
    finish(st)
    assert not st.units.get("central_pacific")


def test_kwantung_army_protects_in_china():
    units = {"china": ["japan"], "japan": ["japan"], "mongolia": ["ussr"], "moscow": ["ussr"]}
    st = card_position(units, "ussr", "ussr_land_battle", responses={"japan": ["jpn_kwantung_army"]})
    go(st, "play:", "at:china", "use:jpn_kwantung_army")
    finish(st)
    assert st.has_unit("china", "japan")


def test_mobile_force_deploys_a_navy_at_turn_start():
    st = make({"japan": ["japan"]}, active="japan", hand={"japan": ["jpn_build_army"] * 2},
              responses={"japan": ["jpn_mobile_force"]}, to_action=False)
    use(st, "jpn_mobile_force")
    go(st, "at:north_pacific")
    assert st.has_unit("north_pacific", "japan")


def test_special_naval_landing_forces_build_armies_next_to_a_new_navy():
    st = card_position({"japan": ["japan"]}, "japan", "jpn_build_navy",
                       responses={"japan": ["jpn_special_naval_landing_forces"]})
    go(st, "play:", "use:jpn_special_naval_landing_forces", "at:china", "at:philippines")
    finish(st)
    assert armies(st, "japan") == ["china", "japan", "philippines", "sea_of_japan"]


def test_truk_keeps_central_pacific_units_supplied_this_turn():
    st = card_position({"japan": ["japan"], "central_pacific": ["japan"], "hawaii": ["japan"]}, "japan",
                       "jpn_build_army", responses={"japan": ["jpn_truk"]})
    go(st, "discard:")
    use(st, "jpn_truk")
    finish(st)
    assert st.has_unit("central_pacific", "japan") and st.has_unit("hawaii", "japan")


def test_without_truk_the_same_units_are_lost():
    st = card_position({"japan": ["japan"], "central_pacific": ["japan"], "hawaii": ["japan"]}, "japan",
                       "jpn_build_army")
    assert "hawaii" in supplied_spaces(st, "japan")  # Hawaii is a supply space itself
    go(st, "discard:")
    finish(st)
    assert st.has_unit("hawaii", "japan") and st.has_unit("central_pacific", "japan")


# ---------------------------------------------------------------- Italy
def test_bravado_attacks_instead_of_playing():
    st = card_position({"italy": ["italy"], "balkans": ["ussr"]}, "italy", "ita_build_army",
                       statuses={"italy": ["ita_bravado"]})
    n = deck(st, "italy")
    go(st, "instead:", "at:balkans")
    finish(st)
    assert not st.units.get("balkans") and deck(st, "italy") == n - 2


def test_afrika_korps_gives_germany_units():
    st = card_position({"italy": ["italy"]}, "italy", "ita_afrika_korps")
    go(st, "play:")
    finish(st)
    assert st.has_unit("north_africa", "germany") and st.has_unit("mediterranean_sea", "germany")


def test_division_azul_discards_a_random_soviet_response_unseen():
    st = card_position({"italy": ["italy"]}, "italy", "ita_division_azul",
                       responses={"ussr": ["ussr_moscow", "ussr_leningrad"]})
    ev = go(st, "play:")
    assert len(st.countries["ussr"].responses) == 1
    gone = st.countries["ussr"].discard[0]
    assert card(gone).name_en not in texts(ev)  # hidden from the public log
    assert any(card(gone).name_en in t for e in ev for t in e.private.values())


def test_german_aid_in_greece():
    st = card_position({"italy": ["italy"], "balkans": ["uk"]}, "italy", "ita_german_aid_in_greece")
    go(st, "play:")
    finish(st)
    assert st.units["balkans"] == ["germany"]


def test_italian_east_africa():
    st = card_position({"italy": ["italy"], "mediterranean_sea": ["italy"]}, "italy", "ita_italian_east_africa")
    go(st, "play:")
    assert st.has_unit("north_africa", "italy") and st.has_unit("bay_of_bengal", "italy")


def test_italy_attacks_communists():
    st = card_position({"italy": ["italy"]}, "italy", "ita_italy_attacks_communists")
    go(st, "play:")
    assert st.has_unit("ukraine", "italy") and st.has_unit("russia", "italy")


def test_italian_plunder():
    st = card_position({"italy": ["italy"], "balkans": ["italy"]}, "italy", "ita_plunder")
    go(st, "play:")
    assert card_vp(st, "axis") == 1


def test_german_reinforcements_counterattack():
    units = {"italy": ["italy"], "balkans": ["italy"], "mediterranean_sea": ["uk"], "united_kingdom": ["uk"]}
    st = card_position(units, "uk", "uk_land_battle", responses={"italy": ["ita_german_reinforcements_counterattack"]})
    go(st, "play:", "at:balkans", "use:ita_german_reinforcements_counterattack")
    finish(st)
    assert st.units["balkans"] == ["germany"]


def test_romanian_reinforcements():
    units = {"germany": ["germany"], "balkans": ["germany"], "ukraine": ["ussr"]}
    st = card_position(units, "ussr", "ussr_land_battle", responses={"italy": ["ita_romanian_reinforcements"]})
    go(st, "play:", "at:balkans", "use:ita_romanian_reinforcements")
    finish(st)
    assert st.units["balkans"] == ["italy"]


def test_monte_cassino_protects_an_axis_army_in_italy():
    units = {"italy": ["germany"], "germany": ["germany"], "mediterranean_sea": ["uk"]}
    st = card_position(units, "uk", "uk_land_battle", responses={"italy": ["ita_monte_cassino"]})
    go(st, "play:", "at:italy", "use:ita_monte_cassino")
    finish(st)
    assert st.has_unit("italy", "germany")


def test_skilled_pilots_cut_bombing_of_italy_by_five():
    st = card_position({"united_kingdom": ["uk"]}, "uk", "uk_bomber_command",
                       responses={"italy": ["ita_skilled_pilots"]})
    n = deck(st, "italy")
    go(st, "play:", "use:ita_skilled_pilots", "italy")
    assert deck(st, "italy") == n


def test_skilled_pilots_not_offered_against_cards_that_cannot_hit_italy():
    st = card_position({"japan": ["japan"], "bay_of_bengal": ["japan"]}, "japan", "jpn_indian_ocean_patrols",
                       responses={"italy": ["ita_skilled_pilots"]})
    n = deck(st, "uk")
    go(st, "play:")
    asked = []
    while decision(st).kind == "react":
        asked.append((decision(st).seat, react_options(st)))
        answer(st, "pass")
    assert all(seat != st.seat_of("italy") for seat, _ in asked)
    assert deck(st, "uk") == n - 2


def test_until_usable_helper_is_strict():
    st = card_position({"germany": ["germany"]}, "germany", "ger_build_army")
    with pytest.raises(AssertionError):
        until_usable(st, "ger_blitzkrieg")
    play(st, "ger_build_army")


def test_truk_used_at_turn_start_lets_japan_build_a_portless_central_pacific_navy():
    units = {"japan": ["japan"], "sea_of_japan": ["japan"]}
    st = make(units, active="japan", hand={"japan": ["jpn_build_navy", "jpn_build_army"]},
              responses={"japan": ["jpn_truk"]}, to_action=False)
    from app.games.qmg.actions import build_spaces

    assert "central_pacific" not in build_spaces(st, "japan", "navy")
    use(st, "jpn_truk")
    assert "central_pacific" in build_spaces(st, "japan", "navy")
