"""Production and the Build action (spec §20, A-18.3, A-17.6)."""

from __future__ import annotations

import pytest

from app.games.attack import GAME
from app.games.attack.build import production
from app.games.attack.pack import COSTS, pack
from app.games.attack.state import GameState
from tests.games.attack.economy_kit import Cards, answer, begin, choice_ids, decision, seen_by, stage


def holding(hand: list[str], capitals: dict[str, str] | None = None, owner: dict[str, str] | None = None,
            **kw) -> GameState:
    # "spare" stays neutral, so a turn always has an action on offer (a Diplomatic Attack)
    st = stage(["west", "east", "south", "north", "spare"],
               land=[("west", "east"), ("east", "south"), ("south", "north")],
               owner=owner or {"west": "p1", "east": "p1", "south": "p2", "north": "p3"},
               capitals=capitals if capitals is not None else {"p1": "west", "p2": "south", "p3": "north"},
               hands={"p1": hand}, **kw)
    return st


def values(cards: list[str]) -> int:
    return sum(pack().econ[c].value for c in cards)


# ------------------------------------------------------------------ production
def test_a20_3_the_rulebook_example_makes_37_pp():
    """1 capital (10) + a set worth 9 counted double (18) + 9 in other cards = 37."""
    c = Cards()
    the_set = [c("OIL", 3), c("MIN", 2), c("FAC", 2), c("RAIL", 2)]
    others = [c("POP", 4), c("POP", 3), c("MIN", 1), c("FAC", 1)]
    st = holding(the_set + others)
    prod = production(st, "p1")
    assert prod["pp"] == 37
    assert prod["capitals"] == 1
    assert sorted(prod["sets"][0]) == sorted(the_set) and len(prod["sets"]) == 1
    assert sorted(prod["single"]) == sorted(others)


def test_a17_6_no_set_counts_every_card_once():
    c = Cards()
    hand = [c("OIL", 2), c("MIN", 3), c("FAC", 1), c("POP", 4)]
    prod = production(holding(hand, capitals={}), "p1")
    assert prod == {"pp": 10, "capitals": 0, "sets": [], "single": sorted(hand, key=lambda x: (
        pack().econ[x].type, -pack().econ[x].value, x))}


def test_a17_6_population_never_completes_a_set():
    c = Cards()
    hand = [c("OIL", 1), c("MIN", 1), c("FAC", 1), c("POP", 1), c("POP", 2)]
    assert production(holding(hand, capitals={}), "p1")["sets"] == []


def test_a17_6_one_set_counts_double():
    c = Cards()
    hand = [c("OIL", 1), c("MIN", 2), c("FAC", 3), c("RAIL", 4)]
    prod = production(holding(hand, capitals={}), "p1")
    assert prod["pp"] == 20 and len(prod["sets"]) == 1 and prod["single"] == []


def test_a17_6_two_disjoint_sets_both_count_double():
    c = Cards()
    hand = [c(t, v) for t in ("OIL", "MIN", "FAC", "RAIL") for v in (1, 2)]
    prod = production(holding(hand, capitals={}), "p1")
    assert len(prod["sets"]) == 2 and prod["pp"] == 2 * values(hand)


def test_a17_6_duplicates_the_set_takes_the_higher_card():
    """§24 default: the engine picks the combination worth most."""
    c = Cards()
    low_oil, high_oil = c("OIL", 1), c("OIL", 4)
    hand = [low_oil, high_oil, c("MIN", 1), c("FAC", 1), c("RAIL", 1)]
    prod = production(holding(hand, capitals={}), "p1")
    assert high_oil in prod["sets"][0] and prod["single"] == [low_oil]
    assert prod["pp"] == 2 * (4 + 1 + 1 + 1) + 1


def test_a18_3_a_captured_capital_counts_and_a_lost_one_does_not():
    # p1 holds its own capital and p2's; p3's capital region is p2's now
    st = holding([], capitals={"p1": "west", "p2": "east", "p3": "south"},
                 owner={"west": "p1", "east": "p1", "south": "p2", "north": "p3"})
    assert production(st, "p1")["capitals"] == 2 and production(st, "p1")["pp"] == 20
    assert production(st, "p2")["capitals"] == 1
    assert production(st, "p3")["capitals"] == 0


# ------------------------------------------------------------------ the action
def building(hand: list[str] | None = None, **kw) -> GameState:
    st = holding(hand or [], **kw)
    begin(st)
    answer(st, "p1", "BUILD")
    return st


def test_a20_build_is_not_offered_below_the_cheapest_item():
    st = holding([], capitals={})
    begin(st)
    assert "BUILD" not in choice_ids(st, "p1")


def test_a20_5_the_costs_of_land_units_and_navy_cards():
    st = building()  # 10 PP: the capital
    ids = choice_ids(st, "p1")
    assert {"INF:1", "INF:2", "TNK:1", "ART:1", "DD:1", "DD:2", "SS:1", "SS:2", "BB:1", "done"} == set(ids)
    assert COSTS == {"INF": 5, "TNK": 10, "ART": 8, "PLN": 15, "DD": 5, "SS": 5, "BB": 10, "CV": 20}


def test_a20_5_one_pool_pays_for_land_units_and_navy_cards():
    c = Cards()
    st = building([c("POP", 4), c("POP", 3), c("MIN", 3), c("FAC", 3), c("OIL", 3), c("RAIL", 4)],
                  capitals={"p1": "west"})
    # 10 + 4 + 3 + 2 * (3 + 3 + 3 + 4) = 43
    assert st.turn["build"]["pp"] == 43
    answer(st, "p1", "CV:1")
    assert st.turn["build"]["left"] == 23 and st.navy["p1"]["CV"] == 1
    answer(st, "p1", "TNK:2")
    assert st.turn["build"]["left"] == 3
    # nothing is affordable any more: buying stops by itself and the tanks are placed
    assert decision(st, "p1").kind == "build_place"
    answer(st, "p1", "east:all")
    assert st.units["east"] == {"INF": 1, "TNK": 2}
    assert "build" not in st.turn


def test_a20_4_unspent_pp_are_lost_and_only_the_builder_reads_how_many():
    st = building()
    answer(st, "p1", "INF:1")
    events = answer(st, "p1", "done")
    events += answer(st, "p1", "west:INF")
    assert "build" not in st.turn
    assert any("5 PP" in line for line in seen_by(events, "p1"))
    assert not any("5 PP" in line for line in seen_by(events, "p2"))
    # nothing carried over: the next Build counts afresh
    assert st.units["west"] == {"INF": 2}


def test_a20_6_new_units_go_into_any_own_regions():
    st = building(capitals={"p1": "west", "p2": "east"}, owner={"west": "p1", "east": "p1", "south": "p2",
                                                                "north": "p3"})
    assert st.turn["build"]["pp"] == 20
    answer(st, "p1", "INF:3")
    answer(st, "p1", "INF:1")
    assert st.turn["build"]["to_place"] == {"INF": 4} and st.turn["build"]["left"] == 0
    ids = choice_ids(st, "p1")
    assert set(ids) == {"west:INF", "west:all", "east:INF", "east:all"}  # p2's and p3's regions are not offered
    answer(st, "p1", "west:INF")
    answer(st, "p1", "east:INF")
    answer(st, "p1", "west:all")
    assert st.units["west"] == {"INF": 1 + 1 + 2} and st.units["east"] == {"INF": 1 + 1}


def test_a20_6_a_single_region_takes_every_new_unit():
    st = building(owner={"west": "p1", "south": "p2", "north": "p3"})
    answer(st, "p1", "ART:1")
    assert st.units["west"] == {"INF": 1, "ART": 1}
    assert decision(st, "p1").kind == "action"


def test_a20_6_navy_cards_go_to_the_buyer_even_as_sea_controller():
    st = building(sea_controller="p1")
    answer(st, "p1", "DD:2")
    assert st.navy["p1"]["DD"] == 4 and st.sea_controller == "p1"


def test_build_choices_are_undoable_and_the_pool_is_shown_to_the_builder_only():
    st = building()
    assert decision(st, "p1").undoable
    assert GAME.view(st, "p1")["build"]["left"] == 10
    assert "left" not in GAME.view(st, "p2")["build"] and "pp" not in GAME.view(st, None)["build"]


def test_hand_details_only_for_the_seat_itself():
    c = Cards()
    hand = [c("OIL", 2)]
    st = holding(hand)
    mine = GAME.view(st, "p1")
    assert mine["hand_cards"][0]["id"] == hand[0] and mine["hand_cards"][0]["type"] == "OIL"
    assert mine["production"]["pp"] == 12
    assert GAME.view(st, "p2")["hand_cards"] == [] and "hand_cards" not in GAME.view(st, None)


@pytest.mark.parametrize("answer_id", ["XYZ:1", "INF:99", "CV:1"])
def test_an_illegal_purchase_is_refused(answer_id):
    from app.games.protocol import Illegal

    st = building()
    with pytest.raises(Illegal):
        answer(st, "p1", answer_id)
