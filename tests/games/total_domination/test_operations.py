"""Operations (spec §6.1–6.5, §13.2, §4.9, §4.13): a card played for its OP through the real turn
flow, on staged boards, answered as a player would."""

from __future__ import annotations

import pytest

from app.games.total_domination import flow, tracks, views
from app.games.total_domination.derived import controller, space_vp
from app.games.total_domination.operations import push_operations
from tests.games.total_domination.boards import card, coastal, home, land, stage, stub_pack
from tests.games.total_domination.ops_table import Table

CARDS = [card("c3", op=3), card("c4", op=4), card("c5", op=5), card("c6", op=6), card("old", op=4)]


@pytest.fixture(autouse=True)
def deck(monkeypatch):
    stub = stub_pack(monkeypatch, cards=CARDS)
    stub.tracks, stub.years = {"usa": 3, "china": 3}, {}
    for module in (tracks, flow):  # they hold the pack() they imported
        monkeypatch.setattr(module, "pack", lambda: stub)
    return stub


def ops(st, power, card_id):
    """Play ``card_id`` for operations on ``power``'s turn."""
    st.hands[st.hand_of[power]] = [card_id] + [c for c in st.hands[st.hand_of[power]] if c != card_id]
    return Table(st).turn(power).answer(f"ops:{card_id}")


# ---------------------------------------------------------------- the rulebook's examples (§16)
def germany_east(techs=None):
    return stage(spaces=[home("germany", "germany", shape="land", capital=True), land("p1"), land("p2", stars=2),
                         land("p3")],
                 links=[("germany", "p1", "land"), ("p1", "p2", "land"), ("p2", "p3", "land")],
                 units=[("germany", "army", "germany")] * 3, techs=techs)


def test_16_1_part_1_chained_moves_through_spaces_taken_this_turn():
    st = germany_east()
    vp0 = space_vp(st)["germany"]
    t = ops(st, "germany", "c6")
    assert t.decision.kind == "operation" and t.op == 6
    assert "move:u2:p2" not in t.choices()  # P1 is not German yet
    t.answer("move:u1:p1")
    assert "move:u2:p2" in t.choices() and t.cost("move:u2:p2") == 2
    t.answer("move:u2:p2")
    t.answer("move:u3:p3")
    assert [st.unit(u).space for u in ("u1", "u2", "u3")] == ["p1", "p2", "p3"]
    assert all(controller(st, s) == "germany" for s in ("p1", "p2", "p3"))
    assert space_vp(st)["germany"] == vp0 + 1 + 2 + 1
    assert not t.waiting and "c6" in st.discard  # 6 OP spent: the card is done


def test_16_1_part_1_with_mechanization_the_three_moves_cost_3_op():
    st = germany_east(techs={"germany": ["A1"]})
    t = ops(st, "germany", "c6")
    for move in ("move:u1:p1", "move:u2:p2", "move:u3:p3"):
        assert t.cost(move) == 1
        t.answer(move)
    assert t.op == 3


def test_16_1_part_2_the_fleet_moves_on_through_a_space_taken_over_an_arrow_link():
    st = stage(spaces=[home("uk", "uk", capital=True), land("q1"), home("edge", "uk", shape="land"),
                       coastal("q2"), coastal("q3", stars=2)],
               links=[("uk", "q1", "land"), ("uk", "edge", "land"), ("edge", "q2", "arrow"), ("q2", "q3", "sea")],
               units=[("uk", "army", "uk"), ("uk", "army", "uk"), ("uk", "fleet", "uk")])
    t = ops(st, "uk", "c6")
    assert "move:u3:q3" not in t.choices()  # only because Q2 becomes British may the fleet go on
    assert "move:u3:q2" not in t.choices()  # an arrow link is a land route: no fleet is first by it
    t.answer("move:u1:q1").answer("move:u2:q2")
    assert "move:u3:q3" in t.choices()
    t.answer("move:u3:q3")
    assert st.unit("u3").space == "q3" and controller(st, "q3") == "uk"


def test_16_2_a_fleet_may_not_be_first_into_a_space_across_a_land_route():
    st = stage(spaces=[home("germany", "germany", capital=True), land("poland"), coastal("ukraine", stars=2)],
               links=[("germany", "poland", "land"), ("poland", "ukraine", "land")],
               units=[("germany", "fleet", "germany"), ("germany", "army", "poland"), ("germany", "army", "poland")])
    t = ops(st, "germany", "c4")  # (two armies: Poland stays German when one moves on)
    assert "move:u1:ukraine" not in t.choices()  # a fleet is not first into Ukraine by a land route
    t.answer("move:u2:ukraine")
    assert "move:u1:ukraine" in t.choices()  # through Poland, a land space it controls
    t.answer("move:u1:ukraine")
    assert sorted(u.kind for u in st.units_at("ukraine")) == ["army", "fleet"]  # 2 units: the limit
    assert controller(st, "ukraine") == "germany"


def italy_germany():
    """UK capital with two armies and a fleet; Italy (German, a factory) by a sea lane; Germany
    (the German capital, a factory) by a land route from Italy; no Axis unit on either."""
    return stage(spaces=[home("uk", "uk", capital=True), home("italy", "italy", stars=2, factory=True),
                         home("germany", "germany", capital=True, factory=True)],
                 links=[("uk", "italy", "sea"), ("italy", "germany", "land")],
                 units=[("uk", "army", "uk"), ("uk", "army", "uk"), ("uk", "fleet", "uk")])


def test_16_3_army_not_first_by_sea_lane_then_the_capital_with_one_and_two_enemy_units():
    st = italy_germany()
    vp = space_vp(st)
    t = ops(st, "uk", "c6")
    assert "move:u1:italy" not in t.choices()  # an army is not first into Italy by a sea lane
    t.answer("move:u3:italy")
    assert controller(st, "italy") == "uk"
    assert space_vp(st)["germany"] == vp["germany"] - 2 and space_vp(st)["uk"] == vp["uk"] + 2
    assert "italy" in st.destroyed  # an enemy took a home space with a factory
    assert "move:u1:germany" in t.choices()  # through Italy, now British and supplied
    t.answer("move:u1:germany")
    assert controller(st, "germany") is None  # a capital with one enemy unit
    assert space_vp(st)["germany"] == vp["germany"] - 2 - 3 and space_vp(st)["uk"] == vp["uk"] + 2
    assert "germany" not in st.destroyed
    t.answer("move:u2:germany")
    assert controller(st, "germany") == "uk" and space_vp(st)["uk"] == vp["uk"] + 2 + 3
    assert "germany" in st.destroyed
    assert [p["space"] for p in t.logged("destruction_marker")] == ["italy", "germany"]


# ---------------------------------------------------------------- the OP budget (§6.1)
def plain():
    return stage(spaces=[home("germany", "germany", capital=True, factory=True, shipyard=True), land("p1"),
                         coastal("p2")],
                 links=[("germany", "p1", "land"), ("germany", "p2", "sea")],
                 units=[("germany", "army", "germany")])


def test_every_card_in_hand_is_an_operations_choice_with_its_value():
    st = plain()
    st.hands["germany"] = ["c3", "c5"]
    t = Table(st).turn("germany")
    assert {"ops:c3", "ops:c5", "pass"} <= set(t.choices())
    labels = {c.id: c.msg.params["op"] for c in t.decision.choices if c.id.startswith("ops:")}
    assert labels == {"ops:c3": 3, "ops:c5": 5}


def test_tactics_plus_and_minus_one_change_the_budget():
    st = plain()
    st.tactics = [{"card": "x", "power": "germany", "value": 1}, {"card": "y", "power": "germany", "value": 1},
                  {"card": "z", "power": "germany", "value": -1}, {"card": "w", "power": "uk", "value": -1}]
    t = ops(st, "germany", "c4")
    assert t.op == 5


def test_tactics_never_take_the_budget_below_zero():
    st = plain()
    st.tactics = [{"card": str(i), "power": "germany", "value": -1} for i in range(5)]
    t = ops(st, "germany", "c3")
    assert not t.waiting  # 0 OP, nothing saved: the card is simply spent
    assert "c3" in st.discard and t.logged("ops_played")[0]["op"] == 0


def test_the_saved_op_adds_1_and_its_card_is_discarded():
    st = plain()
    st.saved = {"germany": "old"}
    t = ops(st, "germany", "c3")
    assert "saved" in t.choices() and "save" not in t.choices()  # one rotated card at a time
    t.answer("saved")
    assert t.op == 4 and "old" in st.discard and "germany" not in st.saved
    assert "save" in t.choices()  # the old one used, a new one may be saved (the spec's recommendation)


def test_saving_rotates_the_card_and_ends_the_operations():
    st = plain()
    t = ops(st, "germany", "c4")
    t.answer("move:u1:p1")
    assert "save" in t.choices()
    t.answer("save")
    assert st.saved == {"germany": "c4"} and "c4" not in st.discard and not t.waiting
    assert t.logged("ops_saved")[0]["lost"] == 1  # 2 OP left: 1 saved, 1 lost


def test_nothing_to_save_when_every_op_is_spent():
    st = plain()
    t = ops(st, "germany", "c4")
    t.answer("move:u1:p1").answer("move:u1:germany")  # 4 OP spent: nothing left to save
    assert not t.waiting and st.saved == {} and "c4" in st.discard


def test_a_card_that_may_not_save_offers_no_save():
    st = plain()
    st.turn = {"power": "germany"}
    t = Table(st)
    t.call(push_operations, "germany", 5, "c5", False)
    assert "save" not in t.choices() and "done" in t.choices()
    t.answer("done")
    assert "c5" in st.discard and st.saved == {}


def test_push_operations_takes_a_5_6_7_tactics_budget_and_the_saved_op_even_on_a_7():
    st = plain()
    st.saved = {"germany": "old"}
    st.turn = {"power": "germany"}
    t = Table(st)
    t.call(push_operations, "germany", 7, "c6")
    assert t.op == 7
    t.answer("saved")
    assert t.op == 8


def test_saved_cards_are_lost_at_the_end_of_the_action_phase():
    st = plain()
    st.phase = "strategic"
    st.hands["germany"], st.hands["uk"] = ["c4"], ["c3"]
    t = Table(st)
    t.push({"k": "action_phase"})
    t.answer("ops:c4").answer("move:u1:p1").answer("save")
    assert st.saved == {"germany": "c4"} and t.decision.seat == "uk"
    t.answer("pass").answer("none")  # then everyone has passed or holds no card
    assert st.saved == {} and "c4" in st.discard
    assert t.logged("saved_op_lost") == [{"power": "germany", "card": "c4"}]


# ---------------------------------------------------------------- building (§6.3, §4.9, §4.13)
def test_builds_cost_the_tech_sheet_row_and_respect_the_icons():
    st = plain()
    t = ops(st, "germany", "c6")
    assert t.cost("build:germany:army:germany") == 3 and t.cost("build:germany:fleet:germany") == 3
    st2 = plain()
    st2.techs["germany"] = ["C1", "C2"]
    t2 = ops(st2, "germany", "c6")
    assert t2.cost("build:germany:army:germany") == 2 and t2.cost("build:germany:fleet:germany") == 2
    t2.answer("build:germany:army:germany")
    assert t2.op == 4 and len(st2.units_at("germany")) == 2


def test_no_build_on_a_space_with_a_destruction_marker():
    st = plain()
    st.destroyed = ["germany"]
    t = ops(st, "germany", "c6")
    assert not any(c.startswith("build:") for c in t.choices())


def test_stacking_limit_closes_a_full_space():
    st = stage(spaces=[home("berlin", "germany", factory=True), land("p1")], links=[("berlin", "p1", "land")],
               units=[("germany", "army", "berlin")] * 2)
    t = ops(st, "germany", "c6")
    assert not any(c.startswith("build:") for c in t.choices())
    t.answer("move:u1:p1")
    assert "build:germany:army:berlin" in t.choices()


def test_remove_and_rebuild_in_the_same_turn(monkeypatch):
    stub_pack(monkeypatch, cards=CARDS, tokens={"germany": {"army": 1}})
    st = stage(spaces=[home("germany", "germany", capital=True, factory=True), land("p1"), land("far")],
               links=[("germany", "p1", "land")],
               units=[("germany", "army", "far")])  # the only army token, cut off on a far space
    t = ops(st, "germany", "c4")
    assert not any(c.startswith("build:") for c in t.choices())  # no token left in the pool
    assert "move:u1:germany" not in t.choices()  # unsupplied: it cannot move
    t.answer("remove:u1")  # the only place to build it: the question answers itself
    assert [(u.nation, u.kind, u.space) for u in st.units] == [("germany", "army", "germany")]
    assert t.op == 1
    assert t.logged("ops_removed")[0]["space"] == "far" and t.logged("ops_built")[0]["space"] == "germany"


def test_removal_is_offered_only_when_the_rebuild_is_affordable():
    st = plain()
    t = ops(st, "germany", "c3")
    assert "remove:u1" in t.choices()
    t.answer("move:u1:p1")
    assert "remove:u1" not in t.choices()  # 1 OP left: the rebuild would cost 3


def test_a_removal_with_several_places_asks_where_and_may_be_taken_back():
    st = stage(spaces=[home("germany", "germany", capital=True, factory=True), home("ruhr", "germany", factory=True)],
               links=[("germany", "ruhr", "land")], units=[("germany", "army", "germany")])
    t = ops(st, "germany", "c4")
    assert t.decision.undoable
    t.answer("remove:u1")
    assert t.decision.kind == "rebuild" and t.decision.undoable
    assert sorted(t.choices()) == ["build:germany:army:germany", "build:germany:army:ruhr"]
    t.answer("build:germany:army:ruhr")
    assert [u.space for u in st.units] == ["ruhr"] and t.op == 1


# ---------------------------------------------------------------- moves and attacks (§6.4, §6.5)
def test_a_move_is_undoable_and_no_step_is_offered_that_the_op_left_cannot_pay():
    st = stage(spaces=[home("uk", "uk", capital=True, factory=True, shipyard=True), coastal("a"),
                       coastal("b"), land("c")],
               links=[("uk", "a", "land"), ("a", "b", "land"), ("b", "c", "land"), ("uk", "b", "sea")],
               units=[("uk", "army", "uk"), ("uk", "fleet", "uk"), ("uk", "army", "a"), ("germany", "army", "b"),
                      ("germany", "fleet", "c")])
    t = ops(st, "uk", "c5")
    costs = {"build": 3, "move": 2, "attack": 3, "remove": 3}
    while t.waiting:
        d = t.decision
        assert d.undoable  # no randomness, nothing revealed
        for c in d.choices:
            verb = c.id.split(":")[0]
            if verb in costs:
                assert costs[verb] <= t.op, (c.id, t.op)
        pick = next((c for c in t.choices() if c.startswith("attack:")), None) or \
            next((c for c in t.choices() if c.split(":")[0] in costs), "done")
        t.answer(pick)
    assert "c5" in st.discard


def test_attack_destroys_the_target_for_its_cost_with_techs():
    st = stage(spaces=[home("germany", "germany", capital=True), coastal("a"), land("b"), coastal("c")],
               links=[("germany", "a", "land"), ("germany", "b", "land"), ("germany", "c", "sea")],
               units=[("germany", "army", "germany"), ("uk", "army", "a"), ("uk", "army", "b"), ("uk", "fleet", "c")],
               techs={"germany": ["A2", "B3"]})
    t = ops(st, "germany", "c6")
    assert t.cost("attack:u1:u2") == 1 and t.cost("attack:u1:u3") == 2 and t.cost("attack:u1:u4") == 1  # T4
    t.answer("attack:u1:u3")
    assert "u3" not in [u.id for u in st.units] and t.op == 4
    assert t.logged("ops_destroyed") == [{"power": "germany", "nation": "uk", "kind": "army", "space": "b",
                                          "cost": 2}]


def test_t3_the_capitals_owner_attacks_from_the_capital_itself():
    st = stage(spaces=[home("uk", "uk", capital=True), land("far")], links=[],
               units=[("germany", "army", "uk"), ("germany", "army", "uk"), ("uk", "army", "far")])
    vp = space_vp(st)
    t = ops(st, "uk", "c4")
    assert "attack:uk:u1" in t.choices() and t.cost("attack:uk:u1") == 3
    t.answer("attack:uk:u1")
    assert controller(st, "uk") is None and space_vp(st)["germany"] == vp["germany"] - 3


def test_an_axis_move_into_a_us_home_space_is_an_invasion_and_cannot_be_taken_back():
    st = stage(spaces=[home("germany", "germany", capital=True), home("boston", "usa", shape="land")],
               links=[("germany", "boston", "land")], units=[("germany", "army", "germany")])
    st.decks = {"usa": ["u-card"], "china": []}
    st.deck = ["a", "b"]
    t = ops(st, "germany", "c4")
    assert not t.decision.undoable  # the invasion shuffles a card into the deck
    t.answer("move:u1:boston")
    assert st.tracks["usa"] == 1 and "u-card" in st.deck and st.decks["usa"] == []
    assert t.decision.undoable  # nothing left to invade


def test_a_bomber_alone_in_an_enemy_space_is_taken_by_an_army_moving_in():
    st = stage(spaces=[home("germany", "germany", capital=True), home("paris", "france", shape="land")],
               links=[("germany", "paris", "land")],
               units=[("germany", "army", "germany"), ("uk", "bomber", "paris")])
    t = ops(st, "germany", "c4")
    t.answer("move:u1:paris")
    assert [u.kind for u in st.units] == ["army"] and t.logged("ops_bomber_taken") == [{"space": "paris"}]


# ---------------------------------------------------------------- U-boats (§13.2)
def atlantic(year=1939, uboats=0, **kw):
    return stage(spaces=[home("germany", "germany", capital=True, factory=True),
                         coastal("atlantic", uboat=True), coastal("caribbean", uboat=True),
                         home("uk", "uk", capital=True, shipyard=True)],
                 links=[("germany", "atlantic", "sea"), ("atlantic", "uk", "sea")],
                 units=[("germany", "army", "germany")] + [("germany", "uboat", "atlantic")] * uboats, year=year, **kw)


@pytest.mark.parametrize("year,on_board,allowed", [(1939, 0, True), (1939, 1, False), (1940, 1, True),
                                                    (1940, 2, False), (1941, 2, True), (1944, 3, True)])
def test_t23_uboat_year_limits_1939_one_1940_two_then_only_the_tokens(year, on_board, allowed):
    st = atlantic(year=year, uboats=min(on_board, 2))
    for _ in range(on_board - 2):
        st.new_unit("germany", "uboat", "caribbean")
    t = ops(st, "germany", "c6")
    assert ("build:germany:uboat:caribbean" in t.choices()) is allowed
    if allowed:
        assert t.cost("build:germany:uboat:caribbean") == 2


def test_uboat_build_and_move_cost_2_whatever_the_techs():
    st = atlantic(year=1941, techs={"germany": ["C1", "C2", "A1", "B1"]})
    t = ops(st, "germany", "c6")
    assert t.cost("build:germany:uboat:atlantic") == 2
    t.answer("build:germany:uboat:atlantic")
    uboat = next(u.id for u in st.units if u.kind == "uboat")
    assert t.cost(f"move:{uboat}:caribbean") == 2
    t.answer(f"move:{uboat}:caribbean")
    assert st.unit(uboat).space == "caribbean" and t.op == 2


def test_no_uboats_without_the_option():
    st = atlantic(options={"uboats": False})
    t = ops(st, "germany", "c6")
    assert not any(":uboat:" in c for c in t.choices())


def test_a_fleet_on_the_same_space_destroys_a_uboat_for_2():
    st = atlantic(uboats=1, techs={"uk": ["B2", "B3"]})
    st.new_unit("uk", "fleet", "atlantic")
    t = ops(st, "uk", "c3")
    assert t.cost("attack:u3:u2") == 2
    t.answer("attack:u3:u2")
    assert not any(u.kind == "uboat" for u in st.units)


# ---------------------------------------------------------------- what every seat sees
def test_the_turn_in_progress_is_public():
    st = plain()
    st.saved = {"germany": "old"}
    t = ops(st, "germany", "c5")
    for seat in ("germany", "uk", None):
        assert views.view(st, seat)["operations"] == {"power": "germany", "card": "c5", "op": 5, "saved_op": True}
    t.answer("done")
    assert views.view(st, "uk")["operations"] is None


def test_islands_and_land_shape_what_is_built():
    st = stage(spaces=[home("tokyo", "japan", shape="island", capital=True, factory=True, shipyard=True),
                       home("kyoto", "japan", shape="land", factory=True, shipyard=True)],
               links=[("tokyo", "kyoto", "sea")])
    t = ops(st, "japan", "c6")
    builds = {c for c in t.choices() if c.startswith("build:")}
    assert builds == {"build:japan:fleet:tokyo", "build:japan:army:kyoto", "build:japan:bomber:tokyo",
                      "build:japan:bomber:kyoto"}



# ---------------------------------------------------------------- the end of a turn, T19, T20, T22
def test_ending_the_turn_into_the_end_of_the_action_phase_is_confirmed_so_each_step_stays_undoable():
    st = plain()
    st.phase, st.passed = "strategic", []
    st.hands["germany"] = ["c4"]  # the others hold nothing: once Germany's card is spent, the phase ends
    t = Table(st)
    t.push({"k": "action_phase"})
    t.answer("ops:c4").answer("move:u1:p1")
    assert t.decision.undoable
    t.answer("done")  # may still be taken back: nothing has happened yet
    assert t.decision.kind == "end_turn" and t.choices() == ["end"] and not t.decision.undoable
    assert st.phase == "action"
    t.answer("end")
    assert not t.waiting and "c4" in st.discard and st.active == ""


def test_a_solo_automa_turn_next_is_confirmed_too():
    st = plain()
    st.options["players"] = 1
    st.seats = {"germany": "", "uk": "p1", "japan": "", "ussr": "p1"}
    st.hand_of = {"uk": "allies", "ussr": "allies"}
    st.hands = {"allies": ["c3", "c4"]}
    # the UK's turn, with Japan's automa still in the phase (Germany's played first)
    st.phase, st.passed = "action", []
    t = Table(st)
    t.push({"k": "action_phase", "next": 1})
    assert t.decision.seat == "p1"
    t.answer("ops:c3").answer("done")
    assert t.decision.kind == "end_turn"  # Japan's automa turn comes next


def test_t19_a_saved_card_not_used_stays_rotated():
    st = plain()
    st.saved = {"germany": "old"}
    t = ops(st, "germany", "c4")
    t.answer("done")
    assert st.saved == {"germany": "old"} and "old" not in st.discard


def test_t20_an_axis_bomber_left_alone_on_a_neutral_space_returns_to_its_pool():
    st = stage(spaces=[home("uk", "uk", capital=True), land("a"), home("ruhr", "germany")],
               links=[("uk", "a", "land"), ("uk", "ruhr", "land")],
               units=[("uk", "army", "uk"), ("germany", "army", "a"), ("germany", "bomber", "a"),
                      ("germany", "army", "ruhr"), ("germany", "bomber", "ruhr")], techs={"germany": ["A4"]})
    t = ops(st, "uk", "c6")
    t.answer("attack:u1:u2")
    assert "u3" not in [u.id for u in st.units]
    assert t.logged("settled_bomber_removed") == [{"unit": "u3", "space": "a"}]
    t.answer("attack:u1:u4")
    assert "u5" in [u.id for u in st.units]  # alone on its own home space: it stays


def test_t22_resistance_zeroes_a_space_and_returns_when_an_allied_army_enters():
    st = stage(spaces=[home("uk", "uk", capital=True), land("poland", stars=2)],
               links=[("uk", "poland", "land")],
               units=[("uk", "army", "uk"), ("uk", "army", "uk"), ("germany", "army", "poland"),
                      ("uk", "resistance", "poland"), ("uk", "resistance", "poland")])
    assert space_vp(st)["germany"] == 0
    t = ops(st, "uk", "c6")
    t.answer("attack:u1:u3")
    assert sum(1 for u in st.units if u.kind == "resistance") == 2  # no Axis unit left: they stay
    t.answer("move:u2:poland")
    assert not any(u.kind == "resistance" for u in st.units) and controller(st, "poland") == "uk"


def test_bomber_build_costs_the_army_cost_and_the_limit_is_1_or_2_with_heavy_bombers():
    st = plain()
    st.techs["germany"] = ["C1"]
    t = ops(st, "germany", "c6")
    assert t.cost("build:germany:bomber:germany") == 2
    t.answer("build:germany:bomber:germany")
    assert not any(c.startswith("build:germany:bomber:") for c in t.choices())  # one on the board
    st2 = plain()
    st2.techs["germany"] = ["A4"]
    st2.new_unit("germany", "bomber", "germany")
    st2.units[0].space = "p1"  # room at home for another
    t2 = ops(st2, "germany", "c6")
    assert "build:germany:bomber:germany" in t2.choices()


def test_fleet_moves_cost_1_with_landing_ships_and_bombers_move_like_armies():
    st = stage(spaces=[home("germany", "germany", capital=True), coastal("p2")],
               links=[("germany", "p2", "sea")],
               units=[("germany", "fleet", "germany"), ("germany", "army", "p2"), ("germany", "bomber", "germany")],
               techs={"germany": ["B1"]})
    t = ops(st, "germany", "c3")
    assert t.cost("move:u1:p2") == 1 and t.cost("move:u3:p2") == 2


def test_the_2_player_shared_hand_plays_for_either_power():
    st = plain()
    st.hand_of = {p: ("axis" if p in ("germany", "japan") else "allies") for p in st.hand_of}
    st.hands = {"axis": ["c4", "c5"], "allies": []}
    t = Table(st).turn("germany").answer("ops:c5")
    assert st.hands["axis"] == ["c4"] and t.op == 5
