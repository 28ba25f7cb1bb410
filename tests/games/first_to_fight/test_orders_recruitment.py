"""Recruitment (spec §6.3.4) and the recruitment abilities (§5.5), with the book's Example 1 verbatim."""

from __future__ import annotations

import pytest

from app.games.first_to_fight import GAME
from app.games.first_to_fight.pack import Pack
from app.games.protocol import Illegal
from tests.games.first_to_fight.orders_kit import (
    ANN,
    DARK,
    JACOB,
    PAUL,
    YOLANDA,
    answer,
    choice_ids,
    choose,
    decision,
    passes,
    staged,
    table,
    texts,
)

__all__ = ["staged"]
CHRUSCIEL, RAPP, KRASNODEBSKI = "s01", "s45", "s17"


def test_example_1_recruitment_with_the_special_action_the_training_ability_and_the_region_exclusion(
        staged: Pack) -> None:
    """§13 Example 1: Yolanda chooses Recruitment; the top 3 soldier cards are Chruściel „Monter”,
    Rapp-Kochańska „Marie Springer” and Krasnodębski „Król” (Pilot, 3/2, Training)."""
    assert (staged.soldiers[KRASNODEBSKI].formation, staged.soldiers[KRASNODEBSKI].strength,
            staged.soldiers[KRASNODEBSKI].underground, staged.soldiers[KRASNODEBSKI].ability) == \
        ("PILOT", 3, 2, "TRAINING")
    state = table(4, deck=(CHRUSCIEL, RAPP, KRASNODEBSKI, "t01", "t02", "t03", "t11", "t12", "t13"), deck_rest=False)
    # 1. Yolanda chooses Recruitment and acts first: WAR, POL, NEA, WEU; never NAI
    choose(state, YOLANDA, "RECRUITMENT")
    assert decision(state).seat == YOLANDA
    assert choice_ids(state) == ["WAR", "POL", "NEA", "WEU", "pass"]
    # 2. she picks NEA and draws 3 (the special action); keeps Krasnodębski, the other 2 to the bottom
    answer(state, YOLANDA, "NEA")
    assert choice_ids(state) == [CHRUSCIEL, RAPP, KRASNODEBSKI]
    answer(state, YOLANDA, KRASNODEBSKI)
    assert state.soldiers[KRASNODEBSKI]["region"] == "NEA"
    assert state.soldier_deck[-2:] == [CHRUSCIEL, RAPP]
    # 3. she uses the Training ability on Strength: a 4/2 training token
    assert decision(state).kind == "ability_train"
    answer(state, YOLANDA, "S")
    k = state.soldiers[KRASNODEBSKI]
    assert (k["s"], k["u"], k["trained"]) == (4, 2, True)
    # 4. Ann: POL, WAR, WEU; she picks POL, draws 2, keeps 1 (the other to the bottom), may use its ability
    assert decision(state).seat == ANN
    assert sorted(choice_ids(state)) == sorted(["POL", "WAR", "WEU", "pass"])
    answer(state, ANN, "POL")
    assert choice_ids(state) == ["t01", "t02"]
    answer(state, ANN, "t02")
    assert state.soldiers["t02"]["region"] == "POL" and state.soldier_deck[-1] == "t01"
    assert decision(state).kind == "ability" and decision(state).seat == ANN
    answer(state, ANN, "pass")
    # 5. Paul: WAR, WEU; he picks WAR and draws 2
    assert sorted(choice_ids(state)) == ["WAR", "WEU", "pass"]
    answer(state, PAUL, "WAR")
    assert len(choice_ids(state)) == 2
    answer(state, PAUL, choice_ids(state)[0])
    if decision(state).seat == PAUL:
        answer(state, PAUL, "pass")
    # 6. Jacob: only WEU, or pass; he recruits in WEU and draws 2
    assert choice_ids(state) == ["WEU", "pass"]
    answer(state, JACOB, "WEU")
    assert len(choice_ids(state)) == 2
    answer(state, JACOB, choice_ids(state)[0])
    if decision(state).seat == JACOB:
        answer(state, JACOB, "pass")
    # 7. the tile turns inactive and Ann chooses the next order
    assert state.tiles["RECRUITMENT"]["active"] is False
    assert decision(state).kind == "order" and decision(state).seat == ANN
    assert "RECRUITMENT" not in choice_ids(state)


def test_example_1_variant_a_trained_soldier_adds_one_and_the_token_is_replaced(staged: Pack) -> None:
    """§13 Example 1, variant: a soldier with a token gets +1 on the chosen attribute, the token replaced."""
    state = table(2, soldiers={"t07": ("WAR", 4, 3, True, 0)})
    choose(state, YOLANDA, "TRAINING")
    answer(state, YOLANDA, "t07")
    answer(state, YOLANDA, "U")
    assert state.soldiers["t07"] == {"region": "WAR", "s": 4, "u": 4, "trained": True, "wounds": 0}


def test_6_3_4_the_basic_effect_draws_2_and_the_rest_go_to_the_bottom_in_the_order_drawn(staged: Pack) -> None:
    state = table(2, deck=("t11", "t12", "t13", "t01", "t02"), deck_rest=False)
    choose(state, YOLANDA, "RECRUITMENT")
    answer(state, YOLANDA, "WAR")
    answer(state, YOLANDA, "t12")  # the chooser drew 3: t11 and t13 to the bottom, t11 first
    assert state.soldier_deck == ["t01", "t02", "t11", "t13"]
    answer(state, YOLANDA, "pass")  # t12's Victory point not used
    assert state.vp[YOLANDA] == 0
    answer(state, ANN, "POL")
    assert choice_ids(state) == ["t01", "t02"]  # a non-chooser draws 2
    answer(state, ANN, "t02")
    assert state.soldier_deck == ["t11", "t13", "t01"]


def test_6_3_4_a_pass_blocks_no_region_and_nai_is_never_offered(staged: Pack) -> None:
    state = table(3)
    choose(state, YOLANDA, "RECRUITMENT")
    assert "NAI" not in choice_ids(state)
    passes(state, YOLANDA)
    assert choice_ids(state) == ["WAR", "POL", "NEA", "WEU", "pass"]


def test_6_3_4_a_region_chosen_by_another_player_is_refused(staged: Pack) -> None:
    state = table(2, deck=("t11", "t12", "t13", "t01", "t02"), deck_rest=False)
    choose(state, YOLANDA, "RECRUITMENT")
    answer(state, YOLANDA, "WAR")
    answer(state, YOLANDA, "t11")
    answer(state, YOLANDA, "pass")
    assert "WAR" not in choice_ids(state)
    with pytest.raises(Illegal):
        answer(state, ANN, "WAR")


def test_oq_6_a_short_deck_draws_what_it_has_and_an_empty_one_offers_no_recruitment(staged: Pack) -> None:
    state = table(2, deck=("t11",), deck_rest=False)
    choose(state, YOLANDA, "RECRUITMENT")
    answer(state, YOLANDA, "NEA")  # one card: kept at once (a single choice answers itself)
    assert state.soldiers["t11"]["region"] == "NEA" and state.soldier_deck == []
    answer(state, YOLANDA, "pass")  # its Victory point
    # Ann has nothing to recruit: her turn is skipped with a log line, and the next order is chosen
    assert decision(state).kind == "order" and decision(state).seat == ANN


def test_drawn_soldiers_are_seen_only_by_the_drawer(staged: Pack) -> None:
    """§16.2: the 2–3 cards drawn are private to the recruiter; the public line does not name them."""
    state = table(2, deck=("t11", "t12", "s01"), deck_rest=False)
    choose(state, YOLANDA, "RECRUITMENT")
    events = answer(state, YOLANDA, "WAR")
    line = events[-1]
    assert "Antoni Chruściel" not in line.text and "Antoni Chruściel" in line.private[YOLANDA]
    assert "s01" in GAME.secrets(state, ANN) and "s01" not in GAME.secrets(state, YOLANDA)
    answer(state, YOLANDA, "t11")
    # the rejected cards went to the bottom: Ann still may not know them, Yolanda saw them
    assert {"s01", "t12"} <= GAME.secrets(state, ANN)
    assert not {"s01", "t12"} & GAME.secrets(state, YOLANDA)


# ------------------------------------------------------------------ abilities (§5.5)
def _recruit(state, seat: str, region: str, keep: str) -> None:  # type: ignore[no-untyped-def]
    answer(state, seat, region)
    if decision(state).kind == "recruit_keep":
        answer(state, seat, keep)


def test_5_5_victory_point_gives_1_vp(staged: Pack) -> None:
    state = table(2, deck=("t11", "t12", "t13"), deck_rest=False)
    choose(state, YOLANDA, "RECRUITMENT")
    _recruit(state, YOLANDA, "WAR", "t11")
    answer(state, YOLANDA, "use")
    assert state.vp[YOLANDA] == 1


def test_5_5_training_raises_one_attribute_of_this_soldier_to_at_most_5(staged: Pack) -> None:
    state = table(2, deck=("t07", "t12", "t13"), deck_rest=False)
    choose(state, YOLANDA, "RECRUITMENT")
    _recruit(state, YOLANDA, "WAR", "t07")
    assert choice_ids(state) == ["S", "U", "pass"]
    answer(state, YOLANDA, "U")
    assert state.soldiers["t07"] == {"region": "WAR", "s": 3, "u": 4, "trained": True, "wounds": 0}


def test_5_5_underground_activity_moves_the_marker_left_without_vp_even_when_occupied(staged: Pack) -> None:
    state = table(2, deck=("t08", "t12", "t13"), deck_rest=False, domination={"POL": DARK})
    choose(state, YOLANDA, "RECRUITMENT")
    _recruit(state, YOLANDA, "POL", "t08")
    answer(state, YOLANDA, "use")
    assert state.domination["POL"] == DARK - 1 and state.vp[YOLANDA] == 0


def test_5_5_underground_activity_is_not_offered_on_the_first_square(staged: Pack) -> None:
    state = table(2, deck=("t08", "t12", "t13"), deck_rest=False, domination={"POL": 0})
    choose(state, YOLANDA, "RECRUITMENT")
    _recruit(state, YOLANDA, "POL", "t08")
    assert decision(state).seat == ANN  # OQ-3: no square to the left


def test_5_5_movement_takes_this_soldier_to_a_neighbouring_region(staged: Pack) -> None:
    state = table(2, deck=("t09", "t12", "t13"), deck_rest=False)
    choose(state, YOLANDA, "RECRUITMENT")
    _recruit(state, YOLANDA, "WEU", "t09")
    assert choice_ids(state) == [*staged.neighbours("WEU"), "pass"]
    answer(state, YOLANDA, "NAI")
    assert state.soldiers["t09"]["region"] == "NAI"


def test_5_5_movement_is_held_by_the_concentration_token(staged: Pack) -> None:
    """§9: a soldier of the token's formation never leaves its region, the Movement ability included."""
    state = table(2, deck=("t09", "t12", "t13"), deck_rest=False, concentration=("WEU", "SAILOR"))
    choose(state, YOLANDA, "RECRUITMENT")
    _recruit(state, YOLANDA, "WEU", "t09")
    assert state.vp[YOLANDA] == 1  # a new soldier in the token's region
    assert decision(state).seat == ANN  # no Movement offered


def test_5_5_additional_recruitment_draws_2_keeps_1_in_the_same_region_without_its_ability(staged: Pack) -> None:
    state = table(2, deck=("t06", "t12", "t13", "t11", "t10", "t01"), deck_rest=False)
    choose(state, YOLANDA, "RECRUITMENT")
    _recruit(state, YOLANDA, "NEA", "t06")
    assert state.soldier_deck == ["t11", "t10", "t01", "t12", "t13"]
    answer(state, YOLANDA, "use")
    assert choice_ids(state) == ["t11", "t10"]
    answer(state, YOLANDA, "t10")  # a Liaison soldier: its ability is not offered
    assert state.soldiers["t10"]["region"] == "NEA"
    assert state.soldier_deck == ["t01", "t12", "t13", "t11"]
    assert decision(state).seat == ANN and decision(state).kind == "recruit_region"


def test_5_5_liaison_puts_one_of_the_top_2_events_back_on_top_and_the_other_at_the_bottom(staged: Pack) -> None:
    events = tuple(sorted(staged.events))
    state = table(2, deck=("t10", "t12", "t13"), deck_rest=False, events=events)
    choose(state, YOLANDA, "RECRUITMENT")
    _recruit(state, YOLANDA, "WAR", "t10")
    seen = answer(state, YOLANDA, "use")
    top2 = list(events[:2])
    look = next(e for e in seen if e.private)
    assert staged.events[top2[0]].title in look.private[YOLANDA]
    assert staged.events[top2[0]].title not in look.text
    assert choice_ids(state) == top2
    assert staged.events[top2[1]].title in GAME.secrets(state, ANN)
    assert staged.events[top2[1]].title not in GAME.secrets(state, YOLANDA)
    answer(state, YOLANDA, top2[1])
    assert state.event_deck[0] == top2[1] and state.event_deck[-1] == top2[0]
    assert len(state.event_deck) == len(events)


def test_5_5_an_ability_is_offered_to_the_recruiter_at_once_and_may_be_declined(staged: Pack) -> None:
    state = table(2, deck=("t11", "t12", "t13"), deck_rest=False)
    choose(state, YOLANDA, "RECRUITMENT")
    _recruit(state, YOLANDA, "WAR", "t11")
    d = decision(state)
    assert d.seat == YOLANDA and d.kind == "ability" and set(d.choice_ids()) == {"use", "pass"}
    events = answer(state, YOLANDA, "pass")
    assert state.vp[YOLANDA] == 0 and "Commander 1 passes." in texts(events)


def test_drawing_answers_cannot_be_taken_back_and_the_training_ability_can(staged: Pack) -> None:
    """An answer that draws or shows a card is not undoable; one that only trains is."""
    state = table(2, deck=("t07", "t12", "t13"), deck_rest=False)
    choose(state, YOLANDA, "RECRUITMENT")
    assert decision(state).kind == "recruit_region" and not decision(state).undoable
    answer(state, YOLANDA, "WAR")
    assert decision(state).kind == "recruit_keep" and not decision(state).undoable
    answer(state, YOLANDA, "t07")
    assert decision(state).kind == "ability_train" and decision(state).undoable
