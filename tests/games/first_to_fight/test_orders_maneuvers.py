"""§13 Example 2 (Maneuvers): flow.py's own, played through the registered orders (Recruitment and
Training resolve round the table, then Maneuvers ends the Orders Phase)."""

from __future__ import annotations

from app.games.first_to_fight.pack import Pack
from tests.games.first_to_fight.orders_kit import (
    ANN,
    JACOB,
    PAUL,
    YOLANDA,
    choose,
    decision,
    passes,
    staged,
    table,
)

__all__ = ["staged"]


def test_example_2_maneuvers_puts_vp_on_the_unchosen_tiles_and_the_left_player_starts(staged: Pack) -> None:
    state = table(4, soldiers={"t01": "WAR"})
    assert all(t == {"active": True, "vp": 0} for t in state.tiles.values())
    choose(state, YOLANDA, "RECRUITMENT")  # Yolanda, the starting player
    passes(state, YOLANDA, ANN, PAUL, JACOB)
    choose(state, ANN, "TRAINING")
    passes(state, ANN, PAUL, JACOB, YOLANDA)
    assert not state.tiles["RECRUITMENT"]["active"] and not state.tiles["TRAINING"]["active"]
    assert decision(state).seat == PAUL
    choose(state, PAUL, "MANEUVERS")
    assert {o: t["vp"] for o, t in state.tiles.items()} == {"MOVEMENT": 1, "SABOTAGE": 1, "TRAINING": 0,
                                                          "RECRUITMENT": 0, "CONCENTRATION": 1, "MANEUVERS": 0}
    assert all(t["active"] for t in state.tiles.values())
    assert state.leader == PAUL
    assert state.starter == JACOB


def test_example_2_complement_maneuvers_as_the_last_active_tile_places_no_vp_and_its_chooser_starts(
        staged: Pack) -> None:
    state = table(4, soldiers={"t01": "WAR"})
    chooser = YOLANDA
    for order in ("RECRUITMENT", "TRAINING", "MOVEMENT", "SABOTAGE", "CONCENTRATION"):
        choose(state, chooser, order)
        while decision(state).kind != "order":
            d = decision(state)
            passes(state, d.seat)
        chooser = state.left_of(chooser)
    assert chooser == ANN and decision(state).seat == ANN  # Yolanda, Ann, Paul, Jacob, Yolanda; Ann now
    choose(state, ANN, "MANEUVERS")
    assert all(t["vp"] == 0 and t["active"] for t in state.tiles.values())
    assert (state.leader, state.starter) == (ANN, ANN)


def test_a_chosen_tiles_vp_go_to_its_chooser(staged: Pack) -> None:
    state = table(2, soldiers={"t01": "WAR"})
    state.tiles["SABOTAGE"]["vp"] = 2
    choose(state, YOLANDA, "SABOTAGE")
    assert state.vp[YOLANDA] == 2 and state.tiles["SABOTAGE"]["vp"] == 0
