"""Sabotage (spec §6.3.2) and the regions' special rules used through its special action (§4.4):
T-SAB-1, T-SAB-2, OQ-3, OQ-9, OQ-11, OQ-12."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.first_to_fight import GAME, missions
from app.games.first_to_fight.engine import ask, cont
from app.games.first_to_fight.pack import Pack
from app.games.first_to_fight.text import say
from app.games.protocol import Illegal
from tests.games.first_to_fight.orders_kit import (
    ANN,
    ARROW,
    DARK,
    LIGHT,
    PAUL,
    YOLANDA,
    answer,
    choice_ids,
    choose,
    decision,
    passes,
    staged,
    table,
)

__all__ = ["staged"]
SUM_6 = {"t02": "WAR", "t07": "WAR"}  # Underground 3 + 3
SUM_5 = {"t02": "WAR", "t11": "WAR"}  # Underground 3 + 2


def test_t_sab_1_the_underground_sum_must_be_strictly_higher_than_the_arrow(staged: Pack) -> None:
    """T-SAB-1: the arrow left of the marker shows 5: a sum of 5 fails (not offered, OQ-9), 6 moves it left."""
    assert ARROW == 5
    state = table(2, soldiers=SUM_5, domination={"WAR": 2})
    choose(state, YOLANDA, "SABOTAGE")
    assert "WAR" not in choice_ids(state)
    with pytest.raises(Illegal):
        answer(state, YOLANDA, "WAR")
    state = table(2, soldiers=SUM_6, domination={"WAR": 2})
    choose(state, YOLANDA, "SABOTAGE")
    assert "WAR" in choice_ids(state)
    answer(state, YOLANDA, "WAR")
    assert state.domination["WAR"] == 1 and state.vp[YOLANDA] == 0  # a light square: no VP


def test_t_sab_1_a_sabotage_from_a_dark_square_gives_3_vp(staged: Pack) -> None:
    state = table(2, soldiers=SUM_6, domination={"WAR": DARK})
    assert state.occupied("WAR")
    choose(state, YOLANDA, "SABOTAGE")
    answer(state, YOLANDA, "WAR")
    assert state.domination["WAR"] == DARK - 1 and state.vp[YOLANDA] == 3


def test_t_sab_1_a_region_is_sabotaged_once_per_order(staged: Pack) -> None:
    """T-SAB-1: a second player cannot sabotage the same region in the same order (it would still pass)."""
    state = table(3, soldiers={"t02": "WAR", "t07": "WAR", "t05": "WAR"}, domination={"WAR": LIGHT})
    choose(state, YOLANDA, "SABOTAGE")
    answer(state, YOLANDA, "WAR")
    answer(state, YOLANDA, "pass")  # the special action
    assert decision(state).seat == ANN
    assert "WAR" not in choice_ids(state)


def test_oq_9_a_region_where_the_test_fails_is_not_offered_and_blocks_nothing(staged: Pack) -> None:
    state = table(2, soldiers={**SUM_5, "t04": "POL", "t05": "POL"}, domination={"WAR": 2, "POL": 2})
    choose(state, YOLANDA, "SABOTAGE")
    assert choice_ids(state) == ["POL", "pass"]
    answer(state, YOLANDA, "pass")
    answer(state, YOLANDA, "pass")
    assert (decision(state).seat, choice_ids(state)) == (ANN, ["POL", "pass"])


def test_oq_3_no_sabotage_from_the_leftmost_square(staged: Pack) -> None:
    state = table(2, soldiers={"t04": "WAR", "t05": "WAR", "t02": "POL", "t07": "POL"}, domination={"WAR": 0})
    choose(state, YOLANDA, "SABOTAGE")
    assert choice_ids(state) == ["POL", "pass"]


def test_6_3_2_the_special_action_follows_the_choosers_own_sabotage_before_the_others(staged: Pack) -> None:
    state = table(3, soldiers=SUM_6)
    choose(state, YOLANDA, "SABOTAGE")
    assert decision(state).kind == "sabotage"
    answer(state, YOLANDA, "pass")  # declining the sabotage still leaves the special action
    d = decision(state)
    assert (d.seat, d.kind) == (YOLANDA, "region_rule")
    answer(state, YOLANDA, "pass")
    assert (decision(state).seat, decision(state).kind) == (ANN, "sabotage")
    answer(state, ANN, "pass")
    assert (decision(state).seat, decision(state).kind) == (PAUL, "sabotage")  # only the chooser has it


def test_t_sab_2_an_occupied_regions_rule_is_not_offered(staged: Pack) -> None:
    """T-SAB-2: a marker on a dark square: that region's special rule is not offered."""
    state = table(2, soldiers={"t01": "NEA", "t02": "WEU"}, domination={"WEU": DARK, "NEA": LIGHT})
    choose(state, YOLANDA, "SABOTAGE")
    assert decision(state).kind == "region_rule"  # no region passes the test: straight to the special action
    assert "WEU" not in choice_ids(state) and "NEA" in choice_ids(state)


def test_6_3_2_a_region_freed_by_the_choosers_own_sabotage_offers_its_rule(staged: Pack) -> None:
    state = table(2, soldiers={"t02": "WEU", "t07": "WEU"}, domination={"WEU": DARK})
    choose(state, YOLANDA, "SABOTAGE")
    answer(state, YOLANDA, "WEU")
    assert not state.occupied("WEU")
    assert "WEU" in choice_ids(state)


def _special(state: Any, region: str) -> None:
    choose(state, YOLANDA, "SABOTAGE")
    if decision(state).kind == "sabotage":
        answer(state, YOLANDA, "pass")
    answer(state, YOLANDA, region)


# ------------------------------------------------------------------ the five region rules (§4.4)
def test_4_4_silent_unseen_drops_move_a_soldier_from_any_region_to_warsaw(staged: Pack) -> None:
    state = table(2, soldiers={"t01": "NAI", "t02": "WAR", "t03": "NEA"})
    _special(state, "WAR")
    assert choice_ids(state) == ["t01", "t03"]  # not one already in Warsaw; any region, not only neighbours
    answer(state, YOLANDA, "t01")
    assert state.soldiers["t01"]["region"] == "WAR"


def test_4_4_silent_unseen_drops_keep_the_concentration_hold_and_score_in_its_region(staged: Pack) -> None:
    state = table(2, soldiers={"t01": "NAI", "t03": "NAI", "t02": "NEA"}, concentration=("NAI", "PILOT"))
    _special(state, "WAR")
    assert choice_ids(state) == ["t02", "t03"]  # the Pilot is held in NAI by the token
    state = table(2, soldiers={"t01": "NAI", "t03": "NEA"}, concentration=("WAR", "INFANTRY"))
    _special(state, "WAR")
    answer(state, YOLANDA, "t03")
    assert state.vp[YOLANDA] == 1


def test_4_4_polish_underground_state_reveals_until_the_formation_and_shuffles_the_rest_back(staged: Pack) -> None:
    state = table(2, deck=("t02", "t03", "t12", "t11"), deck_rest=False)
    _special(state, "POL")
    assert decision(state).kind == "underground_formation" and len(choice_ids(state)) == 6
    events = answer(state, YOLANDA, "PILOT")
    assert state.soldiers["t12"]["region"] == "POL"
    assert sorted(state.soldier_deck) == ["t02", "t03", "t11"]
    # the revealed cards are public; the one never revealed stays secret
    assert "t02" not in GAME.secrets(state, ANN) and "t03" not in GAME.secrets(state, ANN)
    assert "t11" in GAME.secrets(state, ANN)
    assert any("t02" in e.text and "t12" in e.text and not e.private for e in events)
    # OQ-11: the placed soldier's ability (Victory point) is not offered; the next seat sabotages
    assert (decision(state).seat, decision(state).kind) == (ANN, "order")
    assert state.vp[YOLANDA] == 0


def test_4_4_polish_underground_state_without_that_formation_places_nothing(staged: Pack) -> None:
    state = table(2, deck=("t02", "t03"), deck_rest=False)
    _special(state, "POL")
    answer(state, YOLANDA, "ARMORED")
    assert sorted(state.soldier_deck) == ["t02", "t03"] and not state.in_region("POL")


def test_4_4_polish_underground_state_shuffles_with_the_answers_rng(staged: Pack) -> None:
    orders = set()
    for seed in range(6):
        state = table(2, deck=("t02", "t03", "t11", "t13", "t05", "t12"), deck_rest=False)
        _special(state, "POL")
        answer(state, YOLANDA, "PILOT", seed=seed)
        orders.add(tuple(state.soldier_deck))
    assert len(orders) > 1


def test_4_4_training_camp_raises_the_strength_of_one_to_three_soldiers_there(staged: Pack) -> None:
    state = table(2, soldiers={"t01": "NEA", "t02": "NEA", "t03": "NEA", "t07": "NEA", "t04": "NEA", "t11": "WAR"})
    _special(state, "NEA")
    d = decision(state)
    assert (d.min, d.max) == (1, 3) and "t04" not in d.choice_ids() and "t11" not in d.choice_ids()
    with pytest.raises(Illegal):
        answer(state, YOLANDA, "t01", "t02", "t03", "t07")
    answer(state, YOLANDA, "t01", "t02", "t07")
    assert [state.soldiers[s]["s"] for s in ("t01", "t02", "t03", "t07")] == [4, 3, 2, 4]
    assert state.soldiers["t01"]["trained"] and not state.soldiers["t03"]["trained"]


def _fake_missions(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """A stand-in for ENDING's missions.discard_mission: the interface, recorded."""
    calls: list[tuple[str, str]] = []

    def discard_mission(ctx: Any, seat: str, mission: str) -> None:
        calls.append((seat, mission))
        ctx.state.hands[seat].remove(mission)
        ctx.state.discarded[seat].append(mission)
        ctx.state.see("*", mission)

    monkeypatch.setattr(missions, "discard_mission", discard_mission)
    return calls


def test_4_4_main_front_discards_through_endings_discard_mission_then_moves_the_marker_right(
        staged: Pack, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _fake_missions(monkeypatch)
    state = table(2, hands={YOLANDA: ["m01", "m02"], ANN: ["m03"]}, domination={"WEU": 2})
    _special(state, "WEU")
    assert decision(state).kind == "main_front_discard"
    assert choice_ids(state) == ["m01", "m02", "none"]
    answer(state, YOLANDA, "m02")
    assert calls == [(YOLANDA, "m02")]
    assert state.hands[YOLANDA] == ["m01"] and state.discarded[YOLANDA] == ["m02"]
    assert state.domination["WEU"] == 3
    assert "m02" not in GAME.secrets(state, ANN)  # shown to everyone


@cont("test_stage2_keep")
def _kept(ctx: Any, t: Any, choices: tuple[str, ...]) -> None:
    ctx.state.hands[t["seat"]].append(choices[0])


def test_4_4_main_front_moves_the_marker_finally_after_the_stage_2_choice(
        staged: Pack, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Finally, move the Western Europe marker": a discard_mission that asks (keep 1 of 2 stage II
    cards) is answered before the marker moves."""
    _fake_missions(monkeypatch)
    import app.games.first_to_fight as package
    plain = package.missions.discard_mission  # type: ignore[attr-defined]

    def asking(ctx: Any, seat: str, mission: str) -> None:
        plain(ctx, seat, mission)
        ctx.push(ask(seat, say("choice_pass"), [("m20", say("choice_mission", mission="m20")),
                                                ("m21", say("choice_mission", mission="m21"))],
                     "test_stage2_keep"))

    monkeypatch.setattr(package.missions, "discard_mission", asking)  # type: ignore[attr-defined]
    state = table(2, hands={YOLANDA: ["m01"]}, domination={"WEU": 1})
    _special(state, "WEU")
    answer(state, YOLANDA, "m01")
    assert state.domination["WEU"] == 1 and choice_ids(state) == ["m20", "m21"]
    answer(state, YOLANDA, "m21")
    assert state.domination["WEU"] == 2 and state.hands[YOLANDA] == ["m21"]


def test_oq_12_main_front_without_a_discard_still_moves_the_marker(staged: Pack) -> None:
    state = table(2, hands={YOLANDA: ["m01"]}, domination={"WEU": LIGHT})
    _special(state, "WEU")
    answer(state, YOLANDA, "none")
    assert state.domination["WEU"] == DARK and state.hands[YOLANDA] == ["m01"]


def test_4_4_main_front_records_and_shows_the_discard(staged: Pack) -> None:
    state = table(2, hands={YOLANDA: ["m01"]}, domination={"WEU": 1})
    _special(state, "WEU")
    answer(state, YOLANDA, "m01")
    assert state.discarded[YOLANDA] == ["m01"] and "m01" in state.seen["*"]


def test_4_4_north_africa_places_the_top_two_soldiers_there_without_their_abilities(staged: Pack) -> None:
    state = table(2, deck=("t11", "t12", "t13"), deck_rest=False, concentration=("NAI", "SAILOR"))
    _special(state, "NAI")
    assert state.in_region("NAI") == ["t11", "t12"] and state.soldier_deck == ["t13"]
    assert state.vp[YOLANDA] == 2  # two new soldiers in the token's region
    assert decision(state).seat == ANN  # no ability question


def test_every_passing_player_goes_on_round_the_table(staged: Pack) -> None:
    state = table(4, soldiers=SUM_6)
    choose(state, YOLANDA, "SABOTAGE")
    passes(state, YOLANDA, YOLANDA, ANN, PAUL, "p4")
    assert decision(state).kind == "order" and decision(state).seat == ANN
    assert state.tiles["SABOTAGE"]["active"] is False
