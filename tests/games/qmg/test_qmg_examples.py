"""The rulebook's worked examples (spec §9.4, §7.3, §10.2, §15), with exact outcomes."""

from __future__ import annotations

from qmg_helpers import answer, armies, decision, make, pick, play, texts, until, until_usable, use

from app.games.qmg.actions import battle_spaces
from app.games.qmg.data import card


def keys(ids):
    return sorted(card(i).key for i in ids)


# ---------------------------------------------------------------- supply example (§9.4 / §15.3)
def _us_build_navy_choices(units):
    st = make(units, active="usa", hand={"usa": ["usa_build_navy", "usa_build_navy"]})
    play(st, "usa_build_navy")
    return decision(st).choice_ids()


SUPPLY_BASE = {"east_pacific": ["usa"], "western_united_states": ["usa"], "australia": ["uk"],
               "south_china_sea": ["uk"]}


def test_navy_without_a_port_cannot_be_built():
    assert "at:central_pacific" not in _us_build_navy_choices(SUPPLY_BASE)


def test_own_army_in_hawaii_is_a_port_for_a_central_pacific_navy():
    assert "at:central_pacific" in _us_build_navy_choices({**SUPPLY_BASE, "hawaii": ["usa"]})


def test_allied_army_in_philippines_or_new_guinea_is_a_port():
    assert "at:central_pacific" in _us_build_navy_choices({**SUPPLY_BASE, "philippines": ["uk"]})
    assert "at:central_pacific" in _us_build_navy_choices({**SUPPLY_BASE, "new_guinea": ["uk"]})


def test_a_port_alone_is_not_enough_without_a_supply_line():
    units = {"south_pacific": ["usa"], "philippines": ["uk"], "australia": ["uk"]}
    st = make(units, active="usa", hand={"usa": ["usa_build_navy", "usa_land_battle"]})
    assert not any(c.startswith("play:") and card(c[5:]).type == "build_navy" for c in decision(st).choice_ids())


# ---------------------------------------------------------------- strait example (§7.3 / §15.4)
STRAIT = {"mediterranean_sea": ["germany", "italy"], "north_africa": ["germany"], "north_sea": ["uk"],
          "united_kingdom": ["uk"], "germany": ["germany"], "italy": ["italy"],
          "western_europe": ["germany"]}


def test_uk_cannot_battle_into_the_mediterranean_while_axis_holds_north_africa():
    st = make(STRAIT, active="uk", hand={"uk": ["uk_sea_battle", "uk_build_army"]})
    play(st, "uk_sea_battle")
    assert "at:mediterranean_sea" not in decision(st).choice_ids()


def test_axis_navies_in_the_mediterranean_can_battle_the_north_sea_when_the_strait_is_theirs():
    for c, key in (("germany", "ger_sea_battle"), ("italy", "ita_sea_battle")):
        units = {**STRAIT, "western_europe": []}
        units = {k: v for k, v in units.items() if v}
        st = make(units, active=c, hand={c: [key, key.replace("sea_battle", "build_army")]})
        assert "north_sea" in battle_spaces(st, c, "sea")
        play(st, key)
        if decision(st).kind == "battle":
            pick(st, "at:north_sea")
        until(st, "discard_phase")
        assert "uk" not in st.units.get("north_sea", [])


def test_empty_anchor_opens_the_strait_for_the_allies():
    units = {k: v for k, v in STRAIT.items() if k not in ("north_africa", "western_europe")}
    st = make(units, active="uk", hand={"uk": ["uk_sea_battle", "uk_build_army"]})
    play(st, "uk_sea_battle")
    assert "at:mediterranean_sea" in decision(st).choice_ids()
    st = make({**units, "italy": ["italy"]}, active="italy", hand={"italy": ["ita_sea_battle", "ita_build_army"]})
    assert "north_sea" not in battle_spaces(st, "italy", "sea")
    assert "north_sea" not in battle_spaces(st, "germany", "sea")


def test_allied_army_on_the_anchor_opens_the_strait_for_the_allies():
    units = {**{k: v for k, v in STRAIT.items() if k not in ("north_africa", "western_europe")},
             "north_africa": ["uk"]}
    st = make(units, active="uk", hand={"uk": ["uk_sea_battle", "uk_build_army"]})
    play(st, "uk_sea_battle")
    assert "at:mediterranean_sea" in decision(st).choice_ids()


# ---------------------------------------------------------------- Advanced Example 1 (§15.1)
EX1 = {"germany": ["germany"], "balkans": ["germany"], "eastern_europe": ["germany"],
       "moscow": ["ussr"], "russia": ["ussr"], "ukraine": ["ussr"]}


def test_advanced_example_1_blitz_against_the_ussr():
    st = make(EX1, hand={"germany": ["ger_land_battle", "ger_build_army"]},
              statuses={"germany": ["ger_dive_bombers", "ger_blitzkrieg"]},
              responses={"ussr": ["ussr_stalingrad", "ussr_rasputitsa"]})
    deck0 = len(st.countries["germany"].deck)
    ussr_discard0 = len(st.countries["ussr"].discard)
    play(st, "ger_land_battle")
    pick(st, "at:ukraine")
    # Step 1: the Allies (who did not cause the battle) are asked first
    assert decision(st).seat == st.seat_of("ussr")
    use(st, "ussr_stalingrad")  # step 2
    until_usable(st, "ger_dive_bombers")
    assert st.has_unit("ukraine", "ussr") and st.is_protected("ukraine", "ussr")
    use(st, "ger_dive_bombers")  # step 3
    assert len(st.countries["germany"].deck) == deck0 - 1  # cost paid first
    pick(st, "at:russia")
    until_usable(st, "ger_blitzkrieg")
    assert not st.has_unit("russia", "ussr")
    use(st, "ger_blitzkrieg")  # step 4
    pick(st, "at:russia")
    assert st.has_unit("russia", "germany")
    assert decision(st).seat == st.seat_of("ussr")
    use(st, "ussr_rasputitsa")  # step 5
    until(st, "discard_phase")
    assert armies(st, "germany") == ["balkans", "eastern_europe", "germany"]
    assert armies(st, "ussr") == ["moscow", "ukraine"]
    assert st.is_protected("ukraine", "ussr")
    assert not st.units.get("russia")
    assert len(st.countries["germany"].deck) == deck0 - 2
    assert card(st.countries["germany"].discard[-1]).key == "ger_land_battle"
    assert st.countries["ussr"].responses == []
    assert len(st.countries["ussr"].discard) == ussr_discard0 + 2
    assert st.countries["germany"].used == ["ger_dive_bombers", "ger_blitzkrieg"]  # both marked used this turn


def test_example_1_once_per_turn_and_protection_hold():
    st = make(EX1, hand={"germany": ["ger_land_battle", "ger_build_army"]},
              statuses={"germany": ["ger_dive_bombers", "ger_blitzkrieg"]},
              responses={"ussr": ["ussr_stalingrad"]})
    play(st, "ger_land_battle")
    pick(st, "at:ukraine")
    use(st, "ussr_stalingrad")
    until_usable(st, "ger_dive_bombers")
    use(st, "ger_dive_bombers")
    events = pick(st, "at:ukraine")  # a second battle against the protected army cannot remove it
    while decision(st).kind == "react":
        opts = [c.id for c in decision(st).choices]
        assert not any(card(o[4:]).key == "ger_dive_bombers" for o in opts if o != "pass")
        events += answer(st, "pass")
    assert st.has_unit("ukraine", "ussr")
    assert "cannot be removed" in texts(events)


def test_rasputitsa_cannot_hit_an_army_deployed_rather_than_built():
    st = make({"germany": ["germany"], "moscow": ["ussr"]},
              hand={"germany": ["ger_forced_conscription", "ger_build_army"]},
              responses={"ussr": ["ussr_rasputitsa"]})
    play(st, "ger_forced_conscription")
    pick(st, "at:eastern_europe")
    d = decision(st)
    assert d.kind == "deploy"  # no reaction window for a deployment


# ---------------------------------------------------------------- Advanced Example 2 (§15.2)
EX2 = {"japan": ["japan"], "china": ["japan"], "southeast_asia": ["japan"], "sea_of_japan": ["japan"],
       "australia": ["uk"], "india": ["uk"], "south_china_sea": ["uk"], "bay_of_bengal": ["uk"]}


def test_advanced_example_2_japan_strikes_india():
    st = make(EX2, active="japan", hand={"japan": ["jpn_sea_battle", "jpn_build_army"]},
              responses={"japan": ["jpn_surprise_attack", "jpn_destroyer_transport"],
                         "uk": ["uk_destroyers", "uk_loyal_to_the_crown"]})
    play(st, "jpn_sea_battle")
    pick(st, "at:bay_of_bengal")
    assert decision(st).seat == st.seat_of("uk")  # step 1: the UK reacts first
    use(st, "uk_destroyers")  # step 2
    until_usable(st, "jpn_surprise_attack")
    use(st, "jpn_surprise_attack")  # step 3
    pick(st, "at:south_china_sea")
    until(st, "react")
    while decision(st).kind == "react":
        answer(st, "pass")
    pick(st, "at:india")
    until_usable(st, "jpn_destroyer_transport")
    while decision(st).seat != st.seat_of("japan") or "Bay of Bengal" not in decision(st).prompt:
        answer(st, "pass")
    assert not st.units.get("south_china_sea") and not st.has_unit("india", "uk")
    use(st, "jpn_destroyer_transport")  # step 4, on the still-open Bay of Bengal window
    pick(st, "at:india")
    use(st, "uk_loyal_to_the_crown")  # step 5: nested, before the second build
    assert not st.has_unit("india", "japan")
    until(st, "build")
    pick(st, "at:india")  # step 6
    until(st, "discard_phase")
    assert armies(st, "japan") == ["china", "india", "japan", "sea_of_japan", "southeast_asia"]
    assert sorted(st.units_of("uk")) == ["australia", "bay_of_bengal"]
    assert st.is_protected("bay_of_bengal", "uk")
    assert keys(st.countries["japan"].discard[-3:]) == ["jpn_destroyer_transport", "jpn_sea_battle",
                                                        "jpn_surprise_attack"]
    assert keys(st.countries["uk"].discard) == ["uk_destroyers", "uk_loyal_to_the_crown"]


# ---------------------------------------------------------------- deck exhaustion (§10.2 / §15.5)
def test_frontal_assault_paid_with_an_empty_deck_costs_one_vp_and_still_works():
    units = {"moscow": ["ussr"], "ukraine": ["ussr"], "eastern_europe": ["germany"], "balkans": ["germany"]}
    st = make(units, active="ussr", hand={"ussr": ["ussr_land_battle", "ussr_build_army"]},
              statuses={"ussr": ["ussr_frontal_assault"]}, deck={"ussr": 0})
    st.vp["allies"] = 10
    play(st, "ussr_land_battle")
    pick(st, "at:eastern_europe")
    until(st, "react")
    until_usable(st, "ussr_frontal_assault")
    use(st, "ussr_frontal_assault")
    d = decision(st)
    assert d.kind == "pay_hand" and d.min == d.max == 1
    answer(st, d.choices[0].id)
    assert st.vp["allies"] == 9
    d = decision(st)
    assert d.kind == "battle" and "at:balkans" in d.choice_ids()  # the effect is carried out
