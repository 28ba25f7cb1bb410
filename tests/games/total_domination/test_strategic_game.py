"""The Strategic Phase on the real data pack, through the GameRules object: the first draft of each
seating and scenario as the players meet it, and a year's strategic steps with the Fall of the Axis
starting techs (Germany's Enigma, the UK's Espionage)."""

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
    state = new_game(4, scenario="fall_of_the_axis")
    assert state.year == 1943
    if "D2" not in state.techs["germany"]:  # the pack's starting techs give Germany none: Enigma is asked of it
        state.techs["germany"].append("D2")
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
