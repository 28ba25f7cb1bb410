"""Trade (spec §19, A-19.1–A-19.6): exchanges of Economics cards with hidden hands."""

from __future__ import annotations

import pytest

from app.games.attack import GAME, victory
from app.games.attack.state import GameState
from app.games.attack.views import card_secrets
from app.games.protocol import Event
from tests.games.attack.economy_kit import Cards, answer, begin, choice_ids, decision, leaked, seen_by, stage


def table(sea_controller: str | None = None, lanes: tuple[tuple[str, str], ...] = ()) -> tuple[GameState, dict]:
    """p1 ("home") borders p2 ("next") by land; p3 ("island") touches nobody; p4 watches. "spare" is
    neutral, so p1 always has another action on offer."""
    c = Cards()
    hands = {"p1": [c("OIL", 2), c("POP", 1)], "p2": [c("MIN", 3), c("RAIL", 1), c("RAIL", 2)],
             "p3": [c("FAC", 4)], "p4": [c("POP", 4)]}
    st = stage(["home", "next", "island", "watch", "spare"], land=[("home", "next"), ("next", "watch")],
               lanes=lanes, owner={"home": "p1", "next": "p2", "island": "p3", "watch": "p4"},
               hands=hands, players=4, sea_controller=sea_controller)
    begin(st)
    return st, hands


def offer(st: GameState, partner: str, give: list[str], ask: str) -> list[Event]:
    events = answer(st, "p1", "TRADE") if decision(st, "p1").kind == "action" else []
    events += answer(st, "p1", partner)
    events += answer(st, "p1", *give)
    events += answer(st, "p1", ask)
    return events


def test_a19_an_accepted_offer_exchanges_the_cards_and_counts_as_the_action():
    st, hands = table()
    oil = hands["p1"][0]
    offer(st, "p2", [oil], "RAIL:1")
    assert decision(st, "p2").kind == "trade_reply"
    answer(st, "p2", "accept")
    # two Rail cards answer the request: p2 picks which
    assert set(choice_ids(st, "p2")) == set(hands["p2"][1:])
    events = answer(st, "p2", hands["p2"][2])
    assert st.hands["p1"] == [hands["p1"][1], hands["p2"][2]]
    assert st.hands["p2"] == [hands["p2"][0], hands["p2"][1], oil]
    assert st.turn["actions"] == ["TRADE"]  # the first exchange makes it an action
    assert any(e.msg and e.msg.id == "trade_done" for e in events)
    # trading goes on until the seat stops
    assert decision(st, "p1").kind == "trade_partner"


def test_a19_1_several_exchanges_in_one_action_count_once():
    st, hands = table()
    offer(st, "p2", [hands["p1"][0]], "nothing")  # a gift
    answer(st, "p2", "accept")
    offer(st, "p2", [], "MIN:1")  # asking for a gift
    answer(st, "p2", "accept")
    assert hands["p2"][0] in st.hands["p1"] and hands["p1"][0] in st.hands["p2"]
    answer(st, "p1", "done")
    assert st.turn["actions"] == ["TRADE"]
    assert "TRADE" not in choice_ids(st, "p1")


def test_a19_2_a_refused_offer_costs_nothing():
    st, hands = table()
    offer(st, "p2", [hands["p1"][0]], "any:2")
    answer(st, "p2", "refuse")
    assert st.hands["p1"] == hands["p1"] and st.hands["p2"] == hands["p2"]
    answer(st, "p1", "done")
    assert st.turn["actions"] == []
    # closed without an exchange, Trade opens again once another action was taken
    assert "TRADE" not in choice_ids(st, "p1")
    answer(st, "p1", "DIPLO")  # its only target, "spare", is taken at once
    assert "TRADE" in choice_ids(st, "p1")


def test_a19_the_partner_is_asked_even_when_it_cannot_accept():
    """Its hand stays hidden: a refusal it could not avoid looks like any other."""
    st, hands = table()
    offer(st, "p2", [hands["p1"][0]], "FAC:1")
    assert choice_ids(st, "p2") == ["refuse"]


def test_a19_the_partner_sees_the_cards_offered_and_the_request():
    st, hands = table()
    offer(st, "p2", [hands["p1"][0]], "RAIL:1")
    d = decision(st, "p2")
    assert any(name in d.prompt for name in card_secrets(hands["p1"][0]))
    assert GAME.view(st, "p2")["trade_offer"] == {"from": "p1", "to": "p2", "give": [hands["p1"][0]], "ask": "RAIL:1"}
    assert GAME.view(st, "p4")["trade_offer"] == {"from": "p1", "to": "p2"}


def test_a19_5_the_sea_controller_may_block_players_without_adjacent_regions():
    st, hands = table(sea_controller="p4")
    offer(st, "p3", [hands["p1"][0]], "any:1")
    answer(st, "p3", "accept")
    assert decision(st, "p4").kind == "trade_block"
    answer(st, "p4", "block")
    assert st.hands["p1"] == hands["p1"] and st.hands["p3"] == hands["p3"]
    assert decision(st, "p1").kind == "trade_partner"
    answer(st, "p1", "done")
    assert st.turn["actions"] == []  # a blocked trade is no action


def test_a19_5_the_sea_controller_may_let_it_through():
    st, hands = table(sea_controller="p4")
    offer(st, "p3", [hands["p1"][0]], "any:1")
    answer(st, "p3", "accept")
    answer(st, "p4", "allow")
    assert hands["p3"][0] in st.hands["p1"] and st.turn["actions"] == ["TRADE"]


def test_a19_5_neighbours_cannot_be_blocked():
    st, hands = table(sea_controller="p4")
    offer(st, "p2", [hands["p1"][0]], "MIN:1")
    answer(st, "p2", "accept")
    assert not [d for d in GAME.pending(st) if d.seat == "p4"]
    assert hands["p2"][0] in st.hands["p1"]


def test_a19_5_a_sea_lane_counts_as_adjacent():
    """§24 default: a lane joins the two as it does for diplomacy."""
    st, hands = table(sea_controller="p4", lanes=(("home", "island"),))
    offer(st, "p3", [hands["p1"][0]], "any:1")
    answer(st, "p3", "accept")
    assert hands["p3"][0] in st.hands["p1"]


def test_a19_5_no_block_without_a_sea_controller_or_when_it_trades_itself():
    st, hands = table()
    offer(st, "p3", [hands["p1"][0]], "any:1")
    answer(st, "p3", "accept")
    assert hands["p3"][0] in st.hands["p1"]
    st, hands = table(sea_controller="p3")
    offer(st, "p3", [hands["p1"][0]], "any:1")
    answer(st, "p3", "accept")
    assert hands["p3"][0] in st.hands["p1"]


def test_a19_6_trade_is_locked_when_the_clock_says_so(monkeypatch):
    monkeypatch.setattr(victory, "trade_locked", lambda state: True)
    st, _ = table()
    assert "TRADE" not in choice_ids(st, "p1")


def test_a19_4_only_economics_cards_change_hands():
    st, hands = table()
    units, navy = {r: dict(u) for r, u in st.units.items()}, {s: dict(n) for s, n in st.navy.items()}
    offer(st, "p2", [hands["p1"][0]], "any:1")
    answer(st, "p2", "accept")
    answer(st, "p2", hands["p2"][0])
    assert st.units == units and st.navy == navy and st.owner["home"] == "p1"


def test_a19_a_third_seat_learns_no_card_of_the_trade():
    st, hands = table(sea_controller="p4")
    events = offer(st, "p3", [hands["p1"][0]], "any:1")
    events += answer(st, "p3", "accept")
    assert not leaked(st, "p4", events) and not leaked(st, "p2", events)
    events += answer(st, "p4", "allow")
    for seat in ("p2", "p4"):
        assert not leaked(st, seat, events)
    # the two parties read the cards in their own lines
    assert any(n in line for n in card_secrets(hands["p3"][0]) for line in seen_by(events, "p1"))


@pytest.mark.parametrize("bad", [("p1",), ("p9",), ("done", "p2")])
def test_a_bad_partner_answer_is_refused(bad):
    from app.games.protocol import Illegal

    st, _ = table()
    answer(st, "p1", "TRADE")
    with pytest.raises(Illegal):
        answer(st, "p1", *bad)
