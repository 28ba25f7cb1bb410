"""Training (spec §5.3, §6.3.3) and T-TRN-1."""

from __future__ import annotations

import pytest

from app.games.first_to_fight.pack import Pack
from app.games.protocol import Illegal
from tests.games.first_to_fight.orders_kit import (
    ANN,
    PAUL,
    YOLANDA,
    answer,
    choice_ids,
    choose,
    decision,
    staged,
    table,
)

__all__ = ["staged"]


def test_t_trn_1_training_to_6_is_rejected(staged: Pack) -> None:
    """T-TRN-1: no attribute above 5: a 5/5 soldier is not offered, a 5 attribute is not offered."""
    state = table(2, soldiers={"t04": "WAR", "t05": "NEA"})
    choose(state, YOLANDA, "TRAINING")
    assert choice_ids(state) == ["t05", "pass"]
    answer(state, YOLANDA, "t05")  # 1/5: only Strength may rise (a single choice answers itself)
    assert state.soldiers["t05"]["s"] == 2 and state.soldiers["t05"]["u"] == 5


def test_t_trn_1_the_same_soldier_is_trained_once_per_training_order(staged: Pack) -> None:
    state = table(3, soldiers={"t01": "WAR", "t02": "POL"})
    choose(state, YOLANDA, "TRAINING")
    answer(state, YOLANDA, "t01")
    assert choice_ids(state) == ["S", "U"]
    answer(state, YOLANDA, "S")
    assert decision(state).seat == ANN
    assert choice_ids(state) == ["t02", "pass"]
    with pytest.raises(Illegal):
        answer(state, ANN, "t01")


def test_t_trn_1_the_chooser_with_3_nurses_gets_no_4th(staged: Pack) -> None:
    state = table(2, soldiers={"t01": "WAR"}, nurses={YOLANDA: 3})
    choose(state, YOLANDA, "TRAINING")
    answer(state, YOLANDA, "pass")
    assert state.nurses[YOLANDA] == 3


def test_6_3_3_the_chooser_also_takes_a_nurse_and_the_others_do_not(staged: Pack) -> None:
    state = table(3, soldiers={"t01": "WAR", "t02": "POL", "t03": "NAI"}, nurses={YOLANDA: 2})
    choose(state, YOLANDA, "TRAINING")
    answer(state, YOLANDA, "t01")
    answer(state, YOLANDA, "U")
    assert state.nurses[YOLANDA] == 3  # in addition to the basic effect
    answer(state, ANN, "t02")
    answer(state, ANN, "S")
    answer(state, PAUL, "pass")
    assert state.nurses == {"p1": 3, "p2": 0, "p3": 0}


def test_5_3_a_training_places_or_replaces_the_token_with_the_new_pair(staged: Pack) -> None:
    state = table(2, soldiers={"t07": ("WAR", 4, 3, True, 0), "t01": "POL"})
    choose(state, YOLANDA, "TRAINING")
    answer(state, YOLANDA, "t07")
    answer(state, YOLANDA, "U")
    answer(state, ANN, "t01")
    answer(state, ANN, "S")
    assert state.soldiers["t07"] == {"region": "WAR", "s": 4, "u": 4, "trained": True, "wounds": 0}
    assert state.soldiers["t01"] == {"region": "POL", "s": 4, "u": 2, "trained": True, "wounds": 0}


def test_training_answers_are_undoable_they_reveal_nothing(staged: Pack) -> None:
    state = table(2, soldiers={"t01": "WAR"})
    choose(state, YOLANDA, "TRAINING")
    assert decision(state).undoable
    answer(state, YOLANDA, "t01")
    assert decision(state).undoable
