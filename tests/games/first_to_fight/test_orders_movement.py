"""Movement (spec §6.3.1): neighbours for everyone, any region for the chooser instead, each soldier
once per order, the concentration hold (§9)."""

from __future__ import annotations

import pytest

from app.games.first_to_fight import GAME
from app.games.first_to_fight.pack import REGIONS, Pack
from app.games.protocol import Illegal
from tests.games.first_to_fight.orders_kit import (
    ANN,
    YOLANDA,
    answer,
    choice_ids,
    choose,
    decision,
    staged,
    table,
)

__all__ = ["staged"]


def test_6_3_1_the_choosers_special_action_moves_a_soldier_to_any_region(staged: Pack) -> None:
    state = table(2, soldiers={"t01": "WAR", "t02": "NAI"})
    choose(state, YOLANDA, "MOVEMENT")
    assert decision(state).seat == YOLANDA and choice_ids(state) == ["t01", "t02", "pass"]
    answer(state, YOLANDA, "t01")
    assert choice_ids(state) == [r for r in REGIONS if r != "WAR"]  # adjacency ignored
    answer(state, YOLANDA, "NAI")
    assert state.soldiers["t01"]["region"] == "NAI"


def test_6_3_1_the_basic_effect_moves_to_a_neighbouring_region_only(staged: Pack) -> None:
    state = table(2, soldiers={"t01": "WAR", "t02": "NAI"})
    choose(state, YOLANDA, "MOVEMENT")
    answer(state, YOLANDA, "pass")  # the special action replaces the basic effect: nothing else for her
    assert decision(state).seat == ANN
    answer(state, ANN, "t02")
    assert staged.neighbours("NAI") == ["WEU"]
    assert state.soldiers["t02"]["region"] == "WEU"  # NAI's one neighbour: the single choice answers itself
    state = table(2, soldiers={"t01": "WAR", "t02": "POL"})
    choose(state, YOLANDA, "MOVEMENT")
    answer(state, YOLANDA, "pass")
    answer(state, ANN, "t02")
    assert choice_ids(state) == staged.neighbours("POL") == ["WAR", "WEU"]


def test_6_3_1_each_soldier_moves_only_once_per_order(staged: Pack) -> None:
    state = table(3, soldiers={"t01": "WAR", "t02": "POL"})
    choose(state, YOLANDA, "MOVEMENT")
    answer(state, YOLANDA, "t01")
    answer(state, YOLANDA, "NEA")
    assert choice_ids(state) == ["t02", "pass"]
    with pytest.raises(Illegal):
        answer(state, ANN, "t01")
    answer(state, ANN, "t02")
    answer(state, ANN, "WAR")
    assert (decision(state).seat, decision(state).kind) == (ANN, "order")  # Paul has nothing to move: skipped


def test_9_the_token_holds_its_formation_in_its_region_for_every_move(staged: Pack) -> None:
    """T-CON-1: a Pilot in NEA under a Pilot token cannot be moved out; a non-Pilot can."""
    state = table(2, soldiers={"t01": "NEA", "t02": "NEA", "t12": "WAR"}, concentration=("NEA", "PILOT"))
    choose(state, YOLANDA, "MOVEMENT")
    assert choice_ids(state) == ["t02", "t12", "pass"]
    answer(state, YOLANDA, "t12")  # a Pilot outside the token's region moves freely
    answer(state, YOLANDA, "NEA")
    assert state.vp[YOLANDA] == 1  # and scores for arriving there
    assert choice_ids(state) == ["t02", "pass"]  # now t12 is held too (and moved already)


def test_9_moving_into_the_tokens_region_scores_1_vp_per_soldier(staged: Pack) -> None:
    state = table(2, soldiers={"t01": "WAR", "t02": "NAI"}, concentration=("WEU", "SAILOR"))
    choose(state, YOLANDA, "MOVEMENT")
    answer(state, YOLANDA, "t01")
    answer(state, YOLANDA, "WEU")
    answer(state, ANN, "t02")
    assert state.vp == {"p1": 1, "p2": 1}


def test_movement_answers_are_undoable(staged: Pack) -> None:
    state = table(2, soldiers={"t01": "WAR"})
    choose(state, YOLANDA, "MOVEMENT")
    assert decision(state).undoable


def test_the_orders_once_only_lists_are_public_in_every_view(staged: Pack) -> None:
    state = table(2, soldiers={"t01": "WAR", "t02": "POL"})
    choose(state, YOLANDA, "MOVEMENT")
    answer(state, YOLANDA, "t01")
    answer(state, YOLANDA, "NAI")
    for seat in (YOLANDA, ANN, None):
        shown = GAME.view(state, seat)["order"]
        assert (shown["kind"], shown["chooser"], shown["moved"]) == ("MOVEMENT", YOLANDA, ["t01"])
