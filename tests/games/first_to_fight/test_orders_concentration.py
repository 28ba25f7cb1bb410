"""Concentration (spec §6.3.5, §9): the three bonuses, each once per order; the token's hold and its
reward; T-CON-1, T-CON-2, OQ-13."""

from __future__ import annotations

import pytest

from app.games.first_to_fight import regions
from app.games.first_to_fight.concentration import arrive, may_leave
from app.games.first_to_fight.engine import Ctx
from app.games.first_to_fight.pack import FORMATIONS, REGIONS, Pack
from app.games.protocol import Illegal
from tests.games.first_to_fight.orders_kit import (
    ANN,
    JACOB,
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
TOKEN = ("NEA", "PILOT")


def test_t_con_1_a_pilot_in_nea_never_leaves_by_any_means_and_a_non_pilot_may(staged: Pack) -> None:
    """T-CON-1: token (Pilot) in NEA: the Pilot is offered by no move (Movement basic and special, the
    Soldier movement bonus, Silent Unseen drops); the Sailor beside him is."""
    held, free = "t01", "t03"
    layout = {held: "NEA", free: "NEA"}
    state = table(2, soldiers=layout, concentration=TOKEN)
    assert not may_leave(state, held) and may_leave(state, free)
    choose(state, YOLANDA, "MOVEMENT")  # the special action
    assert choice_ids(state) == [free, "pass"]
    answer(state, YOLANDA, "pass")
    assert choice_ids(state) == [free, "pass"]  # the basic effect
    state = table(2, soldiers=layout, concentration=TOKEN)
    choose(state, YOLANDA, "CONCENTRATION")
    answer(state, YOLANDA, "move")  # the Sailor is the only soldier offered, NEA's only neighbour WEU: both at once
    assert state.soldiers[free]["region"] == "WEU" and state.soldiers[held]["region"] == "NEA"
    state = table(2, soldiers=layout, concentration=TOKEN)
    choose(state, YOLANDA, "SABOTAGE")
    answer(state, YOLANDA, "WAR")  # Silent Unseen drops: only the Sailor can fly in (answers itself)
    assert state.soldiers[free]["region"] == "WAR" and state.soldiers[held]["region"] == "NEA"


def test_t_con_1_a_recruit_in_nea_gives_1_vp_and_additional_recruitment_1_more(staged: Pack) -> None:
    state = table(2, deck=("t06", "t11", "t12", "t13", "t02"), deck_rest=False, concentration=TOKEN)
    choose(state, YOLANDA, "RECRUITMENT")
    answer(state, YOLANDA, "NEA")
    answer(state, YOLANDA, "t06")  # Additional recruitment
    assert state.vp[YOLANDA] == 1
    answer(state, YOLANDA, "use")
    answer(state, YOLANDA, choice_ids(state)[0])
    assert state.vp[YOLANDA] == 2


def test_9_arrive_scores_only_a_seat_and_only_a_soldier_new_there(staged: Pack) -> None:
    import random
    state = table(2, soldiers={"t03": "NEA"}, concentration=TOKEN)
    ctx = Ctx(state, random.Random(1))
    arrive(ctx, YOLANDA, "t03", "NEA")  # already there: not new
    arrive(ctx, None, "t11", "NEA")  # an event's recruit: nobody scores
    assert state.vp[YOLANDA] == 0 and state.soldiers["t11"]["region"] == "NEA" and "t11" not in state.soldier_deck
    arrive(ctx, ANN, "t12", "NEA")
    assert state.vp[ANN] == 1
    with pytest.raises(ValueError):
        arrive(ctx, ANN, "t12", "WEU")  # a Pilot held by the token cannot be moved even by mistake


def test_t_con_2_the_4th_player_has_no_bonus_left(staged: Pack) -> None:
    state = table(4, soldiers={"t03": "WAR", "t02": "WEU"})
    choose(state, YOLANDA, "CONCENTRATION")
    assert choice_ids(state) == ["token", "move", "nurse", "pass"]
    answer(state, YOLANDA, "nurse")
    assert choice_ids(state) == ["token", "move", "pass"]
    answer(state, ANN, "move")
    answer(state, ANN, "t03")  # Warsaw's only neighbour, Poland: at once
    assert state.soldiers["t03"]["region"] == "POL"
    assert choice_ids(state) == ["token", "pass"]
    answer(state, PAUL, "token")
    answer(state, PAUL, "SAILOR")
    events = answer(state, PAUL, "POL")
    assert state.concentration == {"region": "POL", "formation": "SAILOR"}
    assert any(JACOB in e.msg.params.get("seat", "") and e.msg.id == "bonus_none" for e in events if e.msg)
    assert decision(state).kind == "order" and decision(state).seat == ANN


def test_6_3_5_in_2_players_one_bonus_goes_unused(staged: Pack) -> None:
    state = table(2, soldiers={"t03": "WAR"})
    choose(state, YOLANDA, "CONCENTRATION")
    answer(state, YOLANDA, "nurse")
    answer(state, ANN, "pass")
    assert decision(state).kind == "order" and state.nurses == {"p1": 1, "p2": 0}


def test_6_3_5_the_nurse_bonus_is_not_for_a_player_holding_3(staged: Pack) -> None:
    state = table(2, soldiers={"t03": "WAR"}, nurses={YOLANDA: 3})
    choose(state, YOLANDA, "CONCENTRATION")
    assert "nurse" not in choice_ids(state)
    with pytest.raises(Illegal):
        answer(state, YOLANDA, "nurse")


def test_6_3_5_the_token_shows_any_formation_in_any_region_and_replaces_the_old_one(staged: Pack) -> None:
    state = table(2, soldiers={"t03": "WAR"}, concentration=TOKEN)
    choose(state, YOLANDA, "CONCENTRATION")
    answer(state, YOLANDA, "token")
    assert choice_ids(state) == list(FORMATIONS)
    answer(state, YOLANDA, "INFANTRY")
    assert choice_ids(state) == list(REGIONS)
    answer(state, YOLANDA, "WAR")
    assert state.concentration == {"region": "WAR", "formation": "INFANTRY"}
    assert state.vp[YOLANDA] == 0  # §9: no reward for soldiers already there


def test_oq_13_the_bonus_move_into_the_tokens_region_scores(staged: Pack) -> None:
    state = table(2, soldiers={"t03": "WAR"}, concentration=("POL", "ARMORED"))
    choose(state, YOLANDA, "CONCENTRATION")
    answer(state, YOLANDA, "move")  # t03 is the only soldier: chosen at once
    assert state.soldiers["t03"]["region"] == "POL" and state.vp[YOLANDA] == 1


def test_9_a_region_rule_placing_soldiers_in_the_tokens_region_scores_each(staged: Pack) -> None:
    state = table(2, deck=("t02", "t12"), deck_rest=False, concentration=("POL", "ARMORED"))
    choose(state, YOLANDA, "SABOTAGE")
    answer(state, YOLANDA, "POL")
    answer(state, YOLANDA, "PILOT")
    assert state.soldiers["t12"]["region"] == "POL" and state.vp[YOLANDA] == 1
    assert regions.usable(state, "POL")  # one card left in the deck
