"""The Tech Sheet cost table (spec §6.2) and a card's OP value with Tactics (§6.1, §7.1)."""

from __future__ import annotations

import pytest

from app.games.total_domination.costs import ACTIONS, card_value, cost
from tests.games.total_domination.boards import card, coastal, island, land, stage, stub_pack


def board(techs=None, **kw):
    return stage(spaces=[coastal("shore"), land("plain"), island("isle")], techs=techs or {}, **kw)


BASE = {"build_army": 3, "build_bomber": 3, "build_fleet": 3, "build_uboat": 2, "move_army": 2, "move_bomber": 2,
        "move_fleet": 2, "move_uboat": 2, "attack_army": 3, "attack_bomber": 3, "attack_fleet": 3,
        "attack_uboat": 2, "attack_resistance": 2}


@pytest.mark.parametrize("action", ACTIONS)
def test_base_costs_without_technology(action):
    st = board()
    assert cost(st, "germany", action) == BASE[action]
    assert cost(st, "germany", action, "shore") == BASE[action]


@pytest.mark.parametrize(("tech", "actions", "reduced"), [
    ("C1", ("build_army", "build_bomber"), 2),
    ("C2", ("build_fleet",), 2),
    ("A1", ("move_army", "move_bomber"), 1),
    ("B1", ("move_fleet",), 1),
    ("A2", ("attack_army", "attack_bomber"), 2),
    ("A3", ("attack_army", "attack_bomber"), 1),
    ("B2", ("attack_fleet",), 2),
    ("B3", ("attack_fleet",), 1),
])
def test_each_tech_lowers_its_own_row_only(tech, actions, reduced):
    st = board({"uk": [tech]})
    for action in ACTIONS:
        want = reduced if action in actions else BASE[action]
        assert cost(st, "uk", action, "plain") == want, action
    assert cost(st, "germany", actions[0], "plain") == BASE[actions[0]]  # another power's sheet


def test_t4_a2_and_b3_against_an_army_on_coastal_and_land_and_a_fleet():
    st = board({"germany": ["A2", "B3"]})
    assert cost(st, "germany", "attack_army", "shore") == 1
    assert cost(st, "germany", "attack_army", "plain") == 2
    assert cost(st, "germany", "attack_fleet", "isle") == 1


def test_t5_b2_and_a3_against_a_fleet_on_coastal_and_island():
    st = board({"uk": ["B2", "A3"]})
    assert cost(st, "uk", "attack_fleet", "shore") == 1
    assert cost(st, "uk", "attack_fleet", "isle") == 2


def test_b3_alone_makes_an_army_on_a_coastal_space_cost_2():
    st = board({"uk": ["B3"]})
    assert cost(st, "uk", "attack_army", "shore") == 2
    assert cost(st, "uk", "attack_bomber", "shore") == 2
    assert cost(st, "uk", "attack_army", "plain") == 3


def test_a3_alone_makes_a_fleet_on_a_coastal_space_cost_2():
    st = board({"uk": ["A3"]})
    assert cost(st, "uk", "attack_fleet", "shore") == 2
    assert cost(st, "uk", "attack_fleet", "isle") == 3


def test_g4_stacked_reductions_never_go_below_1():
    st = board({"uk": ["A2", "A3", "B2", "B3"]})
    assert cost(st, "uk", "attack_army", "shore") == 1
    assert cost(st, "uk", "attack_fleet", "shore") == 1


def test_uboat_and_resistance_costs_are_never_modified():
    st = board({"germany": ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2"],
                "uk": ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2"]})
    for action in ("build_uboat", "move_uboat", "attack_uboat", "attack_resistance"):
        assert cost(st, "germany", action, "shore") == 2
        assert cost(st, "uk", action, "shore") == 2


def test_unknown_action_is_refused():
    with pytest.raises(ValueError):
        cost(board(), "uk", "move_resistance")


def test_card_value_adds_the_powers_tactics_modifiers(monkeypatch):
    stub_pack(monkeypatch, cards=[card("td-05", op=4)])
    st = board(tactics=[{"card": "td-10", "power": "uk", "value": 1}, {"card": "td-11", "power": "uk", "value": 1},
                        {"card": "td-12", "power": "germany", "value": -1}])
    assert card_value(st, "uk", "td-05") == 6
    assert card_value(st, "germany", "td-05") == 3
    assert card_value(st, "japan", "td-05") == 4


def test_card_value_applies_modifiers_after_a_5_6_7_replacement(monkeypatch):
    stub_pack(monkeypatch, cards=[card("td-05", op=6)])
    st = board(tactics=[{"card": "td-12", "power": "uk", "value": -1}])
    assert card_value(st, "uk", "td-05", base=7) == 6


def test_g5_card_value_never_below_zero(monkeypatch):
    stub_pack(monkeypatch, cards=[card("td-05", op=3)])
    st = board(tactics=[{"card": f"td-1{i}", "power": "uk", "value": -1} for i in range(5)])
    assert card_value(st, "uk", "td-05") == 0
