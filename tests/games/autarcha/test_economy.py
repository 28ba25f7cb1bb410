"""Areas, war status, the area cards, gold and the ledger (spec §6, U-6.1-6.4, §19's vacated-area default)."""

from __future__ import annotations

from app.games.autarcha import gold
from app.games.autarcha.areas import update_areas
from app.games.autarcha.flow import lose_unit
from app.games.autarcha.rules import GAME
from tests.games.autarcha.econ_kit import apply, ctx, menu_ids, move_to, pending_one, position, squares_in

SP, SC, SL = "south_pass", "south_capital", "south_lakeland"  # the three areas behind line 07: 5 + 6 + 5 gold
LM, NP = "lower_meadows", "north_pass"


def two_hqs(scenario: str = "autarchy", extra: list[tuple[str, str, str]] | None = None, **kw):  # noqa: ANN201
    units = [("white", "PSZ", squares_in(SP, "PSZ")[0]), ("red", "PSZ", squares_in(NP, "PSZ")[-1]), *(extra or [])]
    return position(scenario, units, **kw)


# ------------------------------------------------------------------ control (U-6.1)
def test_control_only_own_units_there_U6_1_1() -> None:
    st = two_hqs(extra=[("white", "PIE", squares_in(LM)[0])])
    assert st.control[SP] == "white" and st.control[LM] == "white" and st.control[NP] == "red"
    assert st.control[SC] is None


def test_leaving_keeps_control_until_an_enemy_enters_U6_1_2() -> None:
    st = two_hqs(extra=[("white", "PIE", squares_in(LM)[0]), ("red", "PIE", squares_in(SC)[0])])
    assert st.control[LM] == "white"
    move_to(st, "u3", squares_in(SP)[5])  # white's infantry leaves Lower Meadows
    assert st.control[LM] == "white"
    move_to(st, "u4", squares_in(LM)[3])  # red's infantry enters it
    assert st.control[LM] == "red"


# ------------------------------------------------------------------ cards (U-6.2.1)
def test_entering_a_free_area_takes_its_card_from_the_pool_U6_2_1() -> None:
    st = two_hqs(extra=[("white", "PIE", squares_in(SP)[3])])
    assert st.cards[LM] is None
    events = move_to(st, "u3", squares_in(LM)[0])
    assert st.cards[LM] == "white" and st.gained == [LM]
    assert [e.msg.id for e in events if e.msg] == ["control_gained", "card_taken"]


def test_staying_in_an_area_takes_no_card_placing_is_not_entering_U6_2_1() -> None:
    """Absolute Zero's HQ starts on its crossing with no card (spec §19); moving inside the area takes none."""
    st = position("absolute_zero", [("white", "PSZ", "07.08.SE"), ("red", "PSZ", "14.08.NW")])
    area = "south_capital"
    assert st.control[area] == "white" and st.cards[area] is None
    move_to(st, "u1", "06.08.NE")
    assert st.cards[area] is None
    move_to(st, "u1", squares_in(LM, "PSZ")[0])
    assert st.cards[LM] == "white"


def test_entering_an_area_the_opponent_left_takes_its_card_from_him_U6_2_1() -> None:
    st = two_hqs(extra=[("red", "PIE", squares_in(LM)[0]), ("white", "PIE", squares_in(SP)[3])])
    st.cards[LM] = "red"
    move_to(st, "u3", squares_in(NP)[0])  # red leaves Lower Meadows: keeps control and the card
    assert st.control[LM] == "red" and st.cards[LM] == "red"
    events = move_to(st, "u4", squares_in(LM)[5])
    assert st.cards[LM] == "white" and st.control[LM] == "white"
    assert "card_handed_over" in [e.msg.id for e in events if e.msg]


# ------------------------------------------------------------------ war status (U-6.2.2-6.2.3, §19)
def test_war_status_no_income_card_back_to_the_pool_U6_2_2() -> None:
    st = two_hqs(extra=[("white", "PIE", squares_in(LM)[0]), ("red", "PIE", squares_in(SC)[0])])
    st.cards.update({LM: "white", SP: "white"})
    assert gold.income(st, "white") == 5 + 3
    events = move_to(st, "u4", squares_in(LM)[7])
    assert LM in st.war and st.cards[LM] is None and st.control[LM] is None
    assert [e.msg.id for e in events if e.msg][:2] == ["war_begins", "card_to_pool"]
    assert gold.income(st, "white") == 5 and gold.income(st, "red") == 0


def test_war_ends_when_the_enemy_is_destroyed_the_survivor_takes_the_card_U6_2_3() -> None:
    st = two_hqs(extra=[("white", "PIE", squares_in(LM)[0]), ("red", "PIE", squares_in(LM)[9])])
    assert LM in st.war
    c = ctx(st)
    lose_unit(c, "u4", "control_gained", area=LM)  # any catalogue line will do as the loss's
    update_areas(c)
    assert LM not in st.war and st.cards[LM] == "white" and st.control[LM] == "white"
    assert LM in st.gained  # white is the active side: it pays from the next turn


def test_vacated_war_area_the_side_still_there_takes_the_card_spec19() -> None:
    st = two_hqs(extra=[("white", "PIE", squares_in(LM)[0]), ("red", "PIE", squares_in(LM)[9])])
    move_to(st, "u4", squares_in(NP)[0])  # red walks out instead of being destroyed
    assert LM not in st.war and st.cards[LM] == "white"


def test_skirmish_has_no_economy() -> None:
    st = two_hqs("skirmish", extra=[("white", "PIE", squares_in(LM)[0])])
    assert set(st.control.values()) == {None} and set(st.cards.values()) == {None}
    assert "collect" not in menu_ids(st)


# ------------------------------------------------------------------ collecting (U-6.3)
def test_collect_is_free_once_per_turn_and_pays_the_cards_U6_3() -> None:
    st = two_hqs()
    st.cards.update({SP: "white", SC: "white"})
    assert "collect" in menu_ids(st)
    apply(st, "white", "collect")
    assert st.gold["white"] == 100 + 11 and st.collected and st.moves_left == 5
    assert st.ledger["white"][-1] == {"turn": 1, "what": {"id": "ledger_areas", "params": {"n": 2}},
                                      "income": 11, "expense": 0, "balance": 111}
    assert "collect" not in menu_ids(st)


def test_collect_costs_a_move_with_the_table_option() -> None:
    st = two_hqs(collect_costs_move=True)
    st.cards[SP] = "white"
    apply(st, "white", "collect")
    assert st.moves_left == 4 and st.gold["white"] == 105


def test_collect_at_any_point_of_the_turn_even_with_no_move_left() -> None:
    """Issue 14: any point of the active turn (not only its start); free, so even after the five moves."""
    st = two_hqs()
    st.cards[SP] = "white"
    st.moves_left = 0
    assert menu_ids(st)[:1] == ["collect"] or "collect" in menu_ids(st)
    apply(st, "white", "collect")
    assert st.gold["white"] == 105


def test_areas_gained_this_turn_pay_nothing_until_the_next_U6_3_3() -> None:
    st = two_hqs(extra=[("white", "PIE", squares_in(SP)[3])])
    st.cards[SP] = "white"
    move_to(st, "u3", squares_in(LM)[0])
    assert st.cards[LM] == "white" and gold.income(st, "white") == 5
    apply(st, "white", "collect")
    assert st.gold["white"] == 105
    apply(st, "white", "end")  # red's turn
    apply(st, "red", "end")
    assert st.active == "white" and gold.income(st, "white") == 5 + 3


def test_forgetting_to_collect_forfeits_the_income_U6_3_4() -> None:
    st = two_hqs()
    st.cards[SP] = "white"
    events = apply(st, "white", "end")
    assert "gold_forfeited" in [e.msg.id for e in events if e.msg]
    assert st.gold["white"] == 100
    apply(st, "red", "end")
    apply(st, "white", "collect")
    assert st.gold["white"] == 105  # one turn's income, not two


def test_no_hq_no_income_U6_3_5() -> None:
    st = two_hqs()
    st.cards[SP] = "white"
    assert gold.income(st, "white") == 5
    del st.units["u1"]
    assert gold.income(st, "white") == 0


# ------------------------------------------------------------------ the ledger (U-6.4)
def test_LEDGER_EX_start_army_areas_armoured_unit_U6_4_2() -> None:
    """The book's sample ledger: 300 start, -250 army, +16 areas, -6 for a PC: balance 60."""
    st = two_hqs(gold={"white": 300})
    st.ledger["white"] = [{"turn": 0, "what": {"id": "ledger_start", "params": {}}, "income": 300, "expense": 0,
                           "balance": 300}]
    st.turn = 0
    gold.book(st, "white", gold.say("ledger_army"), expense=250)
    st.turn = 1
    st.cards.update({SP: "white", SC: "white", SL: "white"})  # the three areas behind line 07 pay 16
    apply(st, "white", "collect")
    st.factories["fw1"] = {"sq": squares_in(SP)[20], "hits": 0, "issued_to": "white"}
    apply(st, "white", "recruit:fw1")
    apply(st, "white", "PC")
    apply(st, "white", pending_one(st).choice_ids()[0])
    rows = [(r["turn"], r["what"]["id"], r["income"], r["expense"], r["balance"]) for r in st.ledger["white"]]
    assert rows == [(0, "ledger_start", 300, 0, 300), (0, "ledger_army", 0, 250, 50), (1, "ledger_areas", 16, 0, 66),
                    (1, "ledger_recruit", 0, 6, 60)]
    assert st.gold["white"] == 60


def test_ledger_and_gold_are_open_to_both_seats() -> None:
    st = two_hqs()
    for seat in ("white", "red", None):
        v = GAME.view(st, seat)
        assert {s["id"]: s["gold"] for s in v["seats"]} == {"white": 100, "red": 100}
