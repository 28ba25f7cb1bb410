"""The Strategic Phase on the real data pack, through the GameRules object: the first draft of each
seating and scenario as the players meet it, a year's strategic steps with Enigma and Espionage,
the Arctic exchange on the real board."""

from __future__ import annotations

import random
from typing import Any

from app.games.protocol import Action, Decision
from app.games.total_domination import GAME
from app.games.total_domination.state import GameState


def new_game(players: int, seed: int = 5, **options: Any) -> GameState:
    opts = {"setup": "standard", **options}
    return GAME.setup(opts, GAME.roles(players, opts), random.Random(seed))


def by_hand(state: GameState) -> dict[str, Decision]:
    return {d.id.split("-", 1)[1]: d for d in GAME.pending(state)}


def play(state: GameState, d: Decision, choices: list[str], seed: int = 1) -> None:
    GAME.apply(state, d.seat, Action(decision=d.id, choices=tuple(choices)), random.Random(seed))


def test_four_players_open_1939_with_the_draft() -> None:
    state = new_game(4)
    ds = by_hand(state)
    assert state.phase == "draft" and state.year == 1939
    assert {h: (len(d.choices), d.min) for h, d in ds.items()} == {
        "germany": (5, 2), "uk": (4, 1), "japan": (4, 1), "ussr": (4, 1)}
    assert {d.group for d in ds.values()} == {"draft:1939:1"}
    assert GAME.view(state, "p1")["draft"]["waiting_on"] == ["germany", "japan", "uk", "ussr"]


def test_two_players_shared_hands_draw_eight_and_seven() -> None:
    state = new_game(2)
    ds = by_hand(state)
    assert {h: (len(d.choices), d.min) for h, d in ds.items()} == {"axis": (8, 3), "allies": (7, 2)}


def test_solo_discards_two_of_seven() -> None:
    state = new_game(1)
    (d,) = GAME.pending(state)
    assert (d.kind, len(d.choices), d.min, d.max) == ("draft_discard", 7, 2, 2)


def test_fall_of_the_axis_deals_five_then_enigma_and_espionage() -> None:
    """Fall of the Axis deals 5 in 1943; after the draft the swaps run in turn order, Germany's with
    Enigma, then the UK's Espionage."""
    state = new_game(4, scenario="fall_of_the_axis")
    assert state.year == 1943
    # whatever the pack's starting techs are, Germany has Enigma and the UK Espionage here
    for power, tech in (("germany", "D2"), ("uk", "D1")):
        if tech not in state.techs[power]:
            state.techs[power].append(tech)
    assert {len(d.choices) for d in GAME.pending(state)} == {5}
    while state.phase == "draft":
        for d in GAME.pending(state):
            play(state, d, d.choice_ids()[:d.min])
    assert {h: len(c) for h, c in state.hands.items()} == {h: 4 for h in state.hands}
    kinds = []
    while state.phase in ("swap", "espionage"):
        d = GAME.pending(state)[0]
        kinds.append((state.powers_of(d.seat)[0], d.kind))
        pick = [c for c in d.choice_ids() if c not in ("skip",)][:max(d.min, 1)]
        play(state, d, pick)
    assert ("germany", "swap") in kinds and ("germany", "enigma_keep") in kinds
    assert ("uk", "espionage") in kinds and ("uk", "espionage_discard") in kinds
    assert state.phase == "action"
    assert {h: len(c) for h, c in state.hands.items()} == {h: 4 for h in state.hands}


def test_arctic_exchange_on_the_real_board_after_the_draft() -> None:
    """With the Arctic, a Soviet fleet alone in the Arctic space: at the end of the 1939 draft the USSR
    and the UK each give one card (group arctic:1939), then the swaps begin."""
    state = new_game(4, arctic=True)
    assert "arctic" in state.geo.spaces
    state.units = [u for u in state.units if u.space != "arctic"]
    state.new_unit("ussr", "fleet", "arctic")
    while state.phase == "draft" and all(d.kind == "draft_pick" for d in GAME.pending(state)):
        for d in GAME.pending(state):
            play(state, d, d.choice_ids()[:d.min])
    ds = by_hand(state)
    assert sorted(ds) == ["uk", "ussr"] and {d.kind for d in ds.values()} == {"arctic_exchange"}
    uk_card, ussr_card = ds["uk"].choice_ids()[0], ds["ussr"].choice_ids()[-1]
    play(state, ds["uk"], [uk_card])
    assert GAME.view(state, state.seats["ussr"])["arctic"]["waiting_on"] == ["ussr"]
    play(state, ds["ussr"], [ussr_card])
    assert uk_card in state.hands["ussr"] and ussr_card in state.hands["uk"]
    assert GAME.view(state, state.seats["uk"])["seen"] == {"ussr": [uk_card]}
    assert state.phase == "swap"
