"""One rule per test, on small board positions."""

from __future__ import annotations

import random

import pytest
from qmg_helpers import answer, armies, decision, make, pass_reactions, pick, play, texts, until

from app.games.protocol import Action, GameRules, Illegal
from app.games.qmg import GAME
from app.games.qmg.actions import battle_spaces, build_spaces
from app.games.qmg.data import COUNTRIES, card
from app.games.qmg.engine import Ctx
from app.games.qmg.supply import supplied_spaces
from app.games.qmg.turn import end_of_round


# ---------------------------------------------------------------- protocol, seats, setup
def test_game_satisfies_the_protocol():
    assert isinstance(GAME, GameRules)
    assert (GAME.id, GAME.min_players, GAME.max_players) == ("qmg", 2, 6)
    assert [o.id for o in GAME.options] == ["reallocation", "battle_needs_supply"]
    assert all(o.kind == "bool" and o.default is False for o in GAME.options)


@pytest.mark.parametrize("n,table", [
    (2, [("germany", "japan", "italy"), ("uk", "ussr", "usa")]),
    (3, [("germany",), ("uk", "ussr", "usa"), ("japan", "italy")]),
    (4, [("germany",), ("uk", "usa"), ("japan", "italy"), ("ussr",)]),
    (5, [("germany",), ("uk",), ("japan", "italy"), ("ussr",), ("usa",)]),
    (6, [("germany",), ("uk",), ("japan",), ("ussr",), ("italy",), ("usa",)]),
])
def test_roles_follow_the_rulebook_table(n, table):
    seats = GAME.roles(n, {})
    assert [s.roles for s in seats] == table
    assert len({s.id for s in seats}) == n


@pytest.mark.parametrize("n", [1, 7])
def test_wrong_player_count_is_illegal(n):
    with pytest.raises(Illegal):
        GAME.roles(n, {})


def test_setup_places_capital_armies_and_deals_ten_then_keeps_seven():
    st = GAME.setup({}, GAME.roles(6, {}), random.Random(5))
    for c in COUNTRIES:
        assert st.units_of(c) == [{"germany": "germany", "uk": "united_kingdom", "japan": "japan",
                                   "ussr": "moscow", "italy": "italy", "usa": "eastern_united_states"}[c]]
        assert len(st.countries[c].hand) == 10
    d = decision(st)
    assert d.kind == "setup_discard" and d.min == d.max == 3 and d.seat == st.seat_of("germany")
    for c in COUNTRIES:
        answer(st, *[ch.id for ch in decision(st).choices[:3]])
        assert len(st.countries[c].hand) == 7 and len(st.countries[c].discard) == 3
    assert decision(st).kind == "action" and st.active == "germany" and st.round == 1


def test_setup_is_deterministic_for_a_seed():
    a = GAME.dump(GAME.setup({}, GAME.roles(3, {}), random.Random(9)))
    b = GAME.dump(GAME.setup({}, GAME.roles(3, {}), random.Random(9)))
    assert a == b


def test_a_seat_with_several_countries_keeps_separate_hands():
    st = GAME.setup({}, GAME.roles(2, {}), random.Random(3))
    assert st.countries_of("p1") == ["germany", "japan", "italy"]
    assert not set(st.countries["germany"].hand) & set(st.countries["italy"].hand)


def test_turn_order_is_germany_uk_japan_ussr_italy_usa():
    caps = {"germany": ["germany"], "united_kingdom": ["uk"], "japan": ["japan"], "moscow": ["ussr"],
            "italy": ["italy"], "eastern_united_states": ["usa"]}
    st = make(caps, hand={c: [] for c in COUNTRIES})
    seen = []
    while len(seen) < 7:
        d = decision(st)
        if d.kind == "action":
            seen.append((st.round, st.active))
            answer(st, next(c for c in d.choice_ids() if c.startswith("discard:")))
        elif d.kind == "discard_phase":
            answer(st)
        else:
            answer(st, "pass")
    assert [c for _, c in seen[:6]] == ["germany", "uk", "japan", "ussr", "italy", "usa"]
    assert seen[6] == (seen[0][0] + 1, "germany")


# ---------------------------------------------------------------- building
def test_army_may_be_built_on_the_capital_or_next_to_an_own_unit():
    st = make({"germany": ["germany"]}, start=False)
    assert sorted(build_spaces(st, "germany", "army")) == ["balkans", "eastern_europe", "italy", "western_europe"]
    st.units = {"balkans": ["germany"]}
    # next to Balkans but Germany itself is the capital, always allowed
    assert "germany" in build_spaces(st, "germany", "army")


def test_built_army_must_be_supplied():
    st = make({"balkans": ["germany"]}, start=False)  # no supply space held: Balkans army is cut off
    spaces = build_spaces(st, "germany", "army")
    assert "ukraine" in spaces  # a supply space supplies itself
    assert "eastern_europe" not in spaces


def test_no_building_where_an_enemy_stands_or_where_you_already_are():
    st = make({"germany": ["germany"], "balkans": ["ussr"], "western_europe": ["italy"]}, start=False)
    spaces = build_spaces(st, "germany", "army")
    assert "balkans" not in spaces and "germany" not in spaces
    assert "western_europe" in spaces  # allies may share


def test_piece_limit_stops_building():
    st = make({"germany": ["germany"], "balkans": ["germany"], "eastern_europe": ["germany"],
               "western_europe": ["germany"], "italy": ["germany"], "ukraine": ["germany"], "russia": ["germany"]})
    assert st.available("germany", "army") == 0
    assert build_spaces(st, "germany", "army") == []


def test_declared_build_counts_as_building_and_needs_a_supplied_unit():
    units = {"germany": ["germany"], "balkans": ["germany"], "eastern_europe": ["germany"],
             "western_europe": ["germany"], "italy": ["germany"], "ukraine": ["germany"], "russia": ["germany"]}
    st = make(units, hand={"germany": ["ger_build_army", "ger_land_battle"]},
              statuses={"germany": ["ger_bias_for_action"]})
    play(st, "ger_build_army")
    d = decision(st)
    assert all(c.startswith("declare:") for c in d.choice_ids())
    pick(st, "declare:russia")
    assert decision(st).kind == "react"  # "when you build an army" fires on the declared army
    st2 = make({"germany": ["germany"], "siberia": ["germany"]}, start=False)
    from app.games.qmg.actions import declarable

    assert declarable(st2, "germany", "army") == ["germany"]


def test_navy_needs_an_adjacent_own_unit():
    st = make({"germany": ["germany"]}, start=False)
    assert build_spaces(st, "germany", "navy") == ["baltic_sea"]


# ---------------------------------------------------------------- battles
def test_battle_may_target_an_empty_space_next_to_own_unit():
    st = make({"germany": ["germany"]}, start=False)
    assert "eastern_europe" in battle_spaces(st, "germany", "land")
    assert "russia" not in battle_spaces(st, "germany", "land")


def test_battle_may_not_target_an_allied_space():
    st = make({"germany": ["germany"], "italy": ["italy"], "balkans": ["ussr"]}, start=False)
    spaces = battle_spaces(st, "germany", "land")
    assert "italy" not in spaces and "balkans" in spaces


def test_land_battle_removes_the_enemy_army():
    st = make({"germany": ["germany"], "eastern_europe": ["ussr"], "moscow": ["ussr"]},
              hand={"germany": ["ger_land_battle", "ger_build_army"]})
    play(st, "ger_land_battle")
    ev = pick(st, "at:eastern_europe")
    until(st, "discard_phase")
    assert not st.has_unit("eastern_europe", "ussr")
    assert "destroyed in battle" in texts(ev)


def test_attacker_chooses_which_of_two_enemy_armies_to_remove():
    st = make({"italy": ["italy"], "western_europe": ["uk", "usa"], "united_kingdom": ["uk"]},
              active="italy", hand={"italy": ["ita_land_battle", "ita_build_army"]})
    play(st, "ita_land_battle")
    pick(st, "at:western_europe")
    d = decision(st)
    assert d.kind == "battle_target" and set(d.choice_ids()) == {"uk", "usa"}
    answer(st, "usa")
    until(st, "discard_phase")
    assert st.units["western_europe"] == ["uk"]


def test_unplayable_card_may_only_be_discarded():
    st2 = make({"siberia": ["germany"]}, hand={"germany": ["ger_sea_battle", "ger_build_navy"]})
    ids = decision(st2).choice_ids()
    assert not any(i.startswith("play:") for i in ids)
    assert sum(i.startswith("discard:") for i in ids) == 2


# ---------------------------------------------------------------- supply
def test_unit_is_supplied_through_a_chain_of_own_units_to_a_supply_space():
    st = make({"germany": ["germany"], "eastern_europe": ["germany"], "russia": ["germany"]}, start=False)
    assert supplied_spaces(st, "germany") == {"germany", "eastern_europe", "russia"}


def test_allied_units_do_not_carry_supply():
    st = make({"germany": ["germany"], "eastern_europe": ["italy"], "russia": ["germany"]}, start=False)
    assert "russia" not in supplied_spaces(st, "germany")


def test_any_supply_space_will_do():
    st = make({"ukraine": ["germany"], "russia": ["germany"]}, start=False)
    assert supplied_spaces(st, "germany") == {"ukraine", "russia"}


def test_navy_needs_a_port_even_when_linked():
    st = make({"japan": ["japan"], "sea_of_japan": ["japan"], "central_pacific": ["japan"]}, start=False)
    sup = supplied_spaces(st, "japan")
    assert "sea_of_japan" in sup and "central_pacific" not in sup


def test_supply_phase_removes_only_the_active_countrys_unsupplied_units():
    st = make({"germany": ["germany"], "siberia": ["germany"], "mongolia": ["japan"]},
              hand={"germany": ["ger_build_army", "ger_land_battle"]})
    answer(st, next(c for c in decision(st).choice_ids() if c.startswith("discard:")))
    until(st, "discard_phase")
    assert armies(st, "germany") == ["germany"]
    assert st.has_unit("mongolia", "japan")


# ---------------------------------------------------------------- dominance
def test_dominance_two_alone_one_shared():
    st = make({"germany": ["germany"], "ukraine": ["germany", "italy"]},
              hand={"germany": ["ger_build_army", "ger_land_battle"]})
    answer(st, next(c for c in decision(st).choice_ids() if c.startswith("discard:")))
    until(st, "discard_phase")
    assert st.vp["axis"] == 3


def test_shared_supply_space_scores_again_on_the_allys_turn():
    st = make({"italy": ["italy"], "ukraine": ["germany", "italy"]}, active="italy",
              hand={"italy": ["ita_build_army", "ita_land_battle"]})
    answer(st, next(c for c in decision(st).choice_ids() if c.startswith("discard:")))
    until(st, "discard_phase")
    assert st.vp["axis"] == 3


def test_enemy_in_the_capital_skips_dominance_even_status_vp():
    st2 = make({"germany": ["ussr"], "ukraine": ["germany"], "russia": ["germany"]},
               hand={"germany": ["ger_build_army", "ger_land_battle"]},
               statuses={"germany": ["ger_abundant_resources"]})
    answer(st2, next(c for c in decision(st2).choice_ids() if c.startswith("discard:")))
    until(st2, "discard_phase")
    assert st2.vp["axis"] == 0


def test_economic_warfare_vp_score_even_with_an_occupied_capital():
    st = make({"germany": ["ussr"], "ukraine": ["germany"]},
              hand={"germany": ["ger_submarines_monsoon_group", "ger_land_battle"]})
    play(st, "ger_submarines_monsoon_group")
    pass_reactions(st)
    answer(st, "usa")
    until(st, "discard_phase")
    assert st.vp["axis"] == 2


def test_status_vp_added_in_dominance():
    st = make({"germany": ["germany"], "ukraine": ["germany"], "russia": ["germany"]},
              hand={"germany": ["ger_build_army", "ger_land_battle"]},
              statuses={"germany": ["ger_abundant_resources"]})
    answer(st, next(c for c in decision(st).choice_ids() if c.startswith("discard:")))
    until(st, "use_status")
    pick(st, "use:")
    until(st, "discard_phase")
    assert st.vp["axis"] == 2 + 2 + 2


# ---------------------------------------------------------------- deck exhaustion
def test_empty_hand_discards_the_top_of_the_deck_in_the_action_phase():
    st = make({"moscow": ["ussr"]}, active="ussr", hand={"ussr": []}, start=False)
    st.stack.append({"k": "action", "c": "ussr"})
    n = len(st.countries["ussr"].deck)
    from app.games.qmg.engine import run

    run(Ctx(st, random.Random(1)))
    assert len(st.countries["ussr"].deck) == n - 1 and st.vp["allies"] == 0


def test_empty_hand_and_deck_costs_one_vp():
    st = make({"moscow": ["ussr"]}, active="ussr", hand={"ussr": []}, deck={"ussr": 0}, start=False)
    st.stack.append({"k": "action", "c": "ussr"})
    from app.games.qmg.engine import run

    run(Ctx(st, random.Random(1)))
    assert st.vp["allies"] == -1


def test_economic_warfare_against_a_thin_deck_costs_vp():
    st = make({"germany": ["germany"]}, active="uk", hand={"uk": ["uk_bomber_command", "uk_build_army"]},
              deck={"italy": 2})
    play(st, "uk_bomber_command")
    pass_reactions(st)
    answer(st, "italy")
    assert st.countries["italy"].deck == [] and st.vp["axis"] == -2


def test_draw_phase_with_a_thin_deck_just_stops():
    st = make({"moscow": ["ussr"]}, active="ussr", hand={"ussr": ["ussr_build_army"] * 1 + ["ussr_land_battle"]
                                                       + ["ussr_build_army"] * 2}, deck={"ussr": 1})
    answer(st, next(c for c in decision(st).choice_ids() if c.startswith("discard:")))
    until(st, "discard_phase")
    answer(st)
    assert len(st.countries["ussr"].hand) == 4 and st.vp["allies"] >= 0


def test_no_voluntary_vp_loss_when_paying_from_hand():
    st = make({"moscow": ["ussr"], "ukraine": ["ussr"], "eastern_europe": ["germany"]}, active="ussr",
              hand={"ussr": ["ussr_land_battle", "ussr_build_army", "ussr_build_army", "ussr_build_army"]},
              statuses={"ussr": ["ussr_frontal_assault"]})
    play(st, "ussr_land_battle")
    pick(st, "at:eastern_europe")
    from qmg_helpers import until_usable, use

    until_usable(st, "ussr_frontal_assault")
    use(st, "ussr_frontal_assault")
    d = decision(st)
    assert d.kind == "pay_hand" and d.min == d.max == 2
    assert all(card(c).type == "build_army" for c in d.choice_ids())


# ---------------------------------------------------------------- victory
def _round_end(ax, al, rnd):
    st = make({"germany": ["germany"]}, start=False)
    st.vp = {"axis": ax, "allies": al}
    st.round = rnd
    end_of_round(Ctx(st, random.Random(0)))
    return st


def test_instant_victory_at_a_30_point_lead_at_round_end():
    assert _round_end(40, 10, 5).outcome["team"] == "axis"
    assert _round_end(10, 41, 5).outcome["team"] == "allies"
    assert _round_end(39, 10, 5).outcome is None


def test_tie_after_round_20_goes_to_the_axis():
    st = _round_end(50, 50, 20)
    assert st.outcome["team"] == "axis"
    o = GAME.outcome(st)
    assert o.winners == ("p1", "p3", "p5")


def test_higher_total_wins_after_round_20():
    assert _round_end(50, 51, 20).outcome["team"] == "allies"


def test_no_instant_victory_mid_round():
    st = make({"germany": ["germany"], "ukraine": ["germany"]}, hand={"germany": ["ger_plunder", "ger_build_army"]})
    st.vp = {"axis": 29, "allies": 0}
    play(st, "ger_plunder")
    until(st, "discard_phase")
    assert st.vp["axis"] > 30 and st.outcome is None


# ---------------------------------------------------------------- status timing
def test_instead_status_cannot_be_used_in_the_turn_it_is_played():
    st = make({"germany": ["germany"]}, hand={"germany": ["ger_conscription", "ger_build_army"]})
    play(st, "ger_conscription")
    d = until(st, "discard_phase")
    assert d.seat == st.seat_of("germany")  # the action phase is over: no second play


def test_conscription_replaces_the_play_and_builds_an_army():
    st = make({"germany": ["germany"]}, hand={"germany": ["ger_build_army", "ger_land_battle"]},
              statuses={"germany": ["ger_conscription"]})
    deck = len(st.countries["germany"].deck)
    pick(st, "instead:")
    pick(st, "at:balkans")
    until(st, "discard_phase")
    assert len(st.countries["germany"].hand) == 2  # nothing played from hand
    assert len(st.countries["germany"].deck) == deck - 2
    assert st.has_unit("balkans", "germany")


# ---------------------------------------------------------------- reallocation (optional rule)
def test_reallocation_takes_a_basic_card_and_shuffles():
    st = make({"germany": ["germany"]}, options={"reallocation": True},
              hand={"germany": ["ger_build_army"] * 4 + ["ger_plunder"]})
    answer(st, "realloc")
    answer(st, *decision(st).choice_ids()[:4])
    d = decision(st)
    assert d.kind == "realloc_pick" and "type:sea_battle" in d.choice_ids()
    ev = answer(st, "type:sea_battle")
    assert "Sea Battle" in texts(ev)
    ids = decision(st).choice_ids()
    assert "realloc" not in ids  # once per turn
    assert any(card(i[5:]).type == "sea_battle" for i in ids if i.startswith("play:"))


def test_reallocation_is_off_by_default_and_needs_four_cards():
    st = make({"germany": ["germany"]}, hand={"germany": ["ger_build_army"] * 4})
    assert "realloc" not in decision(st).choice_ids()
    st = make({"germany": ["germany"]}, options={"reallocation": True}, hand={"germany": ["ger_build_army"] * 3})
    assert "realloc" not in decision(st).choice_ids()


# ---------------------------------------------------------------- answers are validated
def test_an_answer_outside_the_choices_is_illegal_and_changes_nothing():
    st = make({"germany": ["germany"]}, hand={"germany": ["ger_build_army"]})
    before = GAME.dump(st)
    d = decision(st)
    with pytest.raises(Illegal):
        GAME.apply(st, d.seat, Action(d.id, ("play:usa-01",)), random.Random(0))
    with pytest.raises(Illegal):
        GAME.apply(st, "p2", Action(d.id, (d.choices[0].id,)), random.Random(0))
    assert GAME.dump(st) == before


# ---------------------------------------------------------------- voluntary removal (§5)
def test_voluntary_removal_frees_the_piece_and_keeps_the_action_phase():
    st = make({"germany": ["germany"], "balkans": ["germany"]}, hand={"germany": ["ger_build_army"] * 2})
    answer(st, "remove:balkans")
    assert not st.has_unit("balkans", "germany") and st.available("germany", "army") == 6
    d = decision(st)
    assert d.kind == "action" and "remove:balkans" not in d.choice_ids()


def test_protected_units_cannot_be_removed_voluntarily():
    st = make({"germany": ["germany"], "balkans": ["germany"]}, hand={"germany": ["ger_build_army"] * 2},
              start=False)
    st.protected.append(["balkans", "germany"])
    st.stack.append({"k": "action", "c": "germany"})
    from app.games.qmg.engine import run

    run(Ctx(st, random.Random(0)))
    assert "remove:balkans" not in decision(st).choice_ids()


def test_only_setup_and_reallocation_discards_are_undoable():
    st = GAME.setup({}, GAME.roles(6, {}), random.Random(5))
    assert decision(st).undoable
    for _ in range(6):
        answer(st, *decision(st).choice_ids()[:3])
    assert decision(st).kind == "action" and not decision(st).undoable


def test_battle_from_an_unsupplied_unit_is_allowed_unless_the_table_option_says_otherwise():
    units = {"siberia": ["germany"], "germany": ["germany"]}
    st = make(units, start=False)
    assert "mongolia" in battle_spaces(st, "germany", "land")
    st.options["battle_needs_supply"] = True
    assert "mongolia" not in battle_spaces(st, "germany", "land")
    assert "balkans" in battle_spaces(st, "germany", "land")


def test_supply_removal_repeats_when_a_portless_navy_was_the_only_link():
    # Japan: capital - Sea of Japan navy (port: Japan) - Central Pacific navy (no port: Iwo Jima empty...)
    # the Central Pacific navy links the South Pacific navy, whose port is an allied army in Australia.
    units = {"japan": ["japan"], "sea_of_japan": ["japan"], "central_pacific": ["japan"],
             "south_pacific": ["japan"], "australia": ["italy"]}
    st = make(units, active="japan", hand={"japan": ["jpn_build_army"] * 2})
    assert supplied_spaces(st, "japan") == {"japan", "sea_of_japan", "south_pacific"}
    answer(st, next(c for c in decision(st).choice_ids() if c.startswith("discard:")))
    until(st, "discard_phase")
    assert sorted(st.units_of("japan")) == ["japan", "sea_of_japan"]


def test_instant_victory_ends_the_game_after_the_usas_turn():
    st = make({"eastern_united_states": ["usa"], "germany": ["germany"]}, active="usa",
              hand={"usa": ["usa_build_army", "usa_land_battle"]})
    st.vp = {"axis": 40, "allies": 0}
    answer(st, next(c for c in decision(st).choice_ids() if c.startswith("discard:")))
    until(st, "discard_phase")
    ev = answer(st)
    assert st.outcome and st.outcome["team"] == "axis" and GAME.pending(st) == []
    assert "lead" in texts(ev)
    assert GAME.outcome(st).summary.startswith("Axis win")


def test_fast_supply_check_for_builds_agrees_with_the_exact_one():
    from app.games.qmg import board as brd
    from app.games.qmg.supply import linked_spaces, would_be_supplied

    st = GAME.setup({}, GAME.roles(6, {}), random.Random(21))
    rng = random.Random(4)
    checked = 0
    while GAME.outcome(st) is None and checked < 4000:
        for c in COUNTRIES:
            linked = linked_spaces(st, c)
            for s in brd.spaces():
                if c in st.units.get(s, []) or brd.enemy_in(s, c, st.units):
                    continue
                assert would_be_supplied(st, s, c, linked) == would_be_supplied(st, s, c), (c, s)
                checked += 1
        d = GAME.pending(st)[0]
        GAME.apply(st, d.seat, GAME.bot(st, d, rng), random.Random(rng.random()))
    assert checked >= 4000


# ---------------------------------------------------------------- spec §15.6 derived scenarios
def test_guards_cannot_be_used_in_the_turn_it_is_played():
    st = make({"moscow": ["ussr"]}, active="ussr", hand={"ussr": ["ussr_guards", "ussr_build_army"]},
              discard={"ussr": ["ussr_build_army"]})
    play(st, "ussr_guards")
    assert until(st, "discard_phase").seat == st.seat_of("ussr")
    assert st.countries["ussr"].hand and len(st.countries["ussr"].statuses) == 1


def test_a_battle_on_an_empty_space_still_triggers_when_you_start_a_land_battle():
    st = make({"germany": ["germany"]}, hand={"germany": ["ger_land_battle", "ger_build_army"]},
              statuses={"germany": ["ger_dive_bombers"]})
    play(st, "ger_land_battle")
    pick(st, "at:balkans")
    from qmg_helpers import react_options

    assert "ger_dive_bombers" in react_options(st)


def test_reallocation_offers_only_the_four_basic_card_types():
    st = make({"germany": ["germany"]}, options={"reallocation": True},
              hand={"germany": ["ger_build_army"] * 4 + ["ger_plunder"]})
    answer(st, "realloc")
    answer(st, *decision(st).choice_ids()[:4])
    assert set(decision(st).choice_ids()) <= {"type:build_army", "type:build_navy", "type:land_battle",
                                               "type:sea_battle"}


def test_reallocation_is_not_offered_after_the_play_step_started():
    st = make({"germany": ["germany"]}, options={"reallocation": True},
              hand={"germany": ["ger_build_army"] * 5}, statuses={"germany": ["ger_superior_planning"]})
    assert "realloc" in decision(st).choice_ids()
    pick(st, "use:")
    answer(st, decision(st).choice_ids()[0])
    assert "realloc" in decision(st).choice_ids()  # still the beginning of the action phase
    answer(st, next(c for c in decision(st).choice_ids() if c.startswith("discard:")))
    assert decision(st).kind != "action"
