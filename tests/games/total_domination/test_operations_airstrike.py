"""The air strike (spec §13.1.A; G14, G19) through the real turn flow on staged boards."""

from __future__ import annotations

import pytest

from app.games.total_domination import flow, tracks
from app.games.total_domination.airstrike import strike_choices
from tests.games.total_domination.boards import card, coastal, home, land, stage, stub_pack
from tests.games.total_domination.ops_table import Table

CARDS = [card("c3", op=3), card("c4", op=4), card("c5", op=5), card("c6", op=6), card("old", op=4)]


@pytest.fixture(autouse=True)
def deck(monkeypatch):
    stub = stub_pack(monkeypatch, cards=CARDS)
    stub.tracks, stub.years = {"usa": 3, "china": 3}, {}
    for module in (tracks, flow):
        monkeypatch.setattr(module, "pack", lambda: stub)
    return stub


def row(targets, bomber=("uk", "bomber", "uk"), **kw):
    """UK capital (bomber and an army) — a — b — c in a row by land routes; targets given as units."""
    return stage(spaces=[home("uk", "uk", capital=True, factory=True), land("a"), coastal("b"), land("c"),
                         coastal("sea", uboat=True)],
                 links=[("uk", "a", "land"), ("a", "b", "land"), ("b", "c", "land"), ("a", "sea", "sea")],
                 units=[bomber, ("uk", "army", "uk")] + list(targets), **kw)


def strike(st, card_id="c6"):
    st.hands["uk"] = [card_id] + [c for c in st.hands["uk"] if c != card_id]
    return Table(st).turn("uk")


def test_a_strike_destroys_several_units_on_one_space_within_2_and_spends_the_bomber():
    st = row([("germany", "army", "b"), ("germany", "army", "b")])
    t = strike(st)
    assert "strike:c6" in t.choices()
    t.answer("strike:c6")  # one bomber, one space in reach: those questions answer themselves
    assert t.decision.kind == "strike" and sorted(t.choices()) == ["hit:u3", "hit:u4"]  # no stopping yet
    assert t.cost("hit:u3") == 3
    t.answer("hit:u3")
    assert t.choices() == ["hit:u4", "done"]
    t.answer("hit:u4")
    assert not t.waiting and st.units_at("b") == []
    assert st.unit("u1").spent and "c6" in st.discard and st.saved == {}
    assert [p["space"] for p in t.logged("ops_destroyed")] == ["b", "b"]


def test_the_card_value_bounds_the_strike_and_nothing_is_saved():
    st = row([("germany", "army", "b"), ("germany", "army", "b")])
    t = strike(st, "c5").answer("strike:c5").answer("hit:u3")
    assert not t.waiting  # 2 OP left: not enough for the second army, and they are not saved
    assert len(st.units_at("b")) == 1 and st.saved == {} and "c5" in st.discard


def test_tactics_count_toward_the_strike_card_g14():
    st = row([("germany", "army", "b"), ("germany", "army", "b")],
             tactics=[{"card": "x", "power": "uk", "value": 1}])
    t = strike(st, "c5").answer("strike:c5").answer("hit:u3")
    assert t.choices() == ["hit:u4", "done"]  # 5 + 1 pays for both


def test_no_strike_card_below_the_cheapest_target():
    st = row([("germany", "army", "b")], tactics=[{"card": "x", "power": "uk", "value": -1}])
    st.hands["uk"] = ["c3", "c4"]
    t = Table(st).turn("uk")
    assert "strike:c3" not in t.choices() and "strike:c4" in t.choices()


def test_the_saved_op_is_never_added_to_a_strike():
    st = row([("germany", "army", "b"), ("germany", "army", "b")], saved={"uk": "old"})
    t = strike(st, "c5").answer("strike:c5").answer("hit:u3")
    assert not t.waiting and st.saved == {"uk": "old"}


def test_out_of_reach_beyond_2_spaces():
    st = row([("germany", "army", "c")])
    assert not any(c.startswith("strike:") for c in strike(st).choices())


def test_no_strike_with_a_spent_bomber_nor_without_the_option():
    st = row([("germany", "army", "b")], bomber=("uk", "bomber", "uk", True))
    assert not any(c.startswith("strike:") for c in strike(st).choices())
    st = row([("germany", "army", "b")], options={"bombers": False})
    assert not any(c.startswith("strike:") for c in strike(st).choices())


def test_an_unsupplied_bomber_does_not_strike():
    st = stage(spaces=[home("uk", "uk", capital=True), coastal("a"), coastal("b"), land("far")],
               links=[("uk", "a", "land"), ("a", "b", "land"), ("far", "b", "land")],
               units=[("uk", "bomber", "far"), ("uk", "army", "far"), ("germany", "army", "b")])
    assert not any(c.startswith("strike:") for c in strike(st).choices())


def test_a_bomber_is_struck_only_after_the_units_beside_it():
    st = stage(spaces=[home("uk", "uk", capital=True), land("a"), home("ruhr", "germany", stars=2)],
               links=[("uk", "a", "land"), ("a", "ruhr", "land")],
               units=[("uk", "bomber", "uk"), ("germany", "army", "ruhr"), ("germany", "army", "ruhr"),
                      ("germany", "bomber", "ruhr")])
    t = strike(st).answer("strike:c6")
    assert sorted(t.choices()) == ["hit:u2", "hit:u3"]
    t.answer("hit:u2")
    assert t.choices() == ["hit:u3", "done"]
    t.answer("hit:u3")  # 6 OP spent: the bomber, alone on its home space now, is out of this card's reach
    assert not t.waiting and [u.kind for u in st.units_at("ruhr")] == ["bomber"]
    st.unit("u1").spent = False
    t = strike(st, "c3").answer("strike:c3")  # its only target: the question answers itself
    assert st.units_at("ruhr") == [] and st.unit("u1").spent


def test_uboats_and_resistance_are_out_of_an_air_strikes_reach():
    st = row([("germany", "uboat", "sea")])
    assert not any(c.startswith("strike:") for c in strike(st).choices())


def test_a_spent_bomber_may_not_move_this_round():
    st = row([("germany", "army", "b")])
    st.hands["uk"] = ["c6", "c4"]
    t = Table(st).turn("uk").answer("strike:c6")  # the only target: no question
    assert not t.waiting and st.unit("u1").spent and st.units_at("b") == []
    t.turn("uk").answer("ops:c4")
    assert not any(c.startswith("move:u1:") for c in t.choices())
    assert "move:u2:a" in t.choices()


def test_choosing_the_bomber_and_the_space_when_there_are_several():
    st = stage(spaces=[home("uk", "uk", capital=True, factory=True), home("scotland", "uk", factory=True),
                       land("a"), land("b")],
               links=[("uk", "a", "land"), ("scotland", "b", "land")],
               units=[("uk", "bomber", "uk"), ("uk", "bomber", "scotland"), ("germany", "army", "a"),
                      ("germany", "army", "b")], techs={"uk": ["A4"]})
    t = strike(st).answer("strike:c6")
    assert sorted(t.choices()) == ["u1", "u2"] and t.decision.undoable
    t.answer("u2")  # a is 3 spaces from Scotland: b is its only space, the army there its only target
    assert not t.waiting and [u.space for u in st.units if u.nation == "germany"] == ["a"]
    assert st.unit("u2").spent and not st.unit("u1").spent


def test_a_bomber_moved_this_turn_does_not_strike():
    st = row([("germany", "army", "b")])
    st.hands["uk"] = ["c6"]
    st.turn = {"power": "uk", "moved": ["u1"]}  # as if it had moved in this very turn
    assert strike_choices(st, "uk") == []
    st.turn = {"power": "uk"}
    assert strike_choices(st, "uk") != []
