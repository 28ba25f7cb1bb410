"""Seeded Autarcha games of the heuristic bot on both seats, every scenario, with the game's invariants
checked after every answer (the ``Referee``), and the long run through the fuzzer's checks (``au_slow``).

The invariants are what no rule may ever break, whatever is played: one unit to a square, every unit on
the board facing one of the eight directions with fewer hits than its durability, gold never below zero
and the ledger's last balance equal to the gold, at most five moves, one HQ a side while the game goes
on, no two mines of one side on one square, a card held only by a seat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.fuzz import action_rng
from app.games.autarcha import GAME
from app.games.autarcha.pack import DIRECTIONS, MOVES_PER_TURN, SCENARIOS, pack
from app.games.autarcha.state import GameState
from app.games.protocol import Action, Event
from tests.long_runs import bot_games


class Referee:
    """The invariants after every answer (the fuzzer's ``invariant`` hook takes the state and its events)."""

    def __init__(self) -> None:
        self.checks = 0

    def __call__(self, st: GameState, events: list[Event] | None = None) -> None:
        self.checks += 1
        data = pack()
        squares = [d["sq"] for d in st.units.values() if d["sq"] is not None]
        assert len(squares) == len(set(squares)), "two units on one square (U-7.1.5)"
        for u, d in st.units.items():
            if d["sq"] is None:
                continue
            assert d["facing"] in DIRECTIONS, f"{u} faces {d['facing']}"
            assert 0 <= d["hits"] < data.troops[d["kind"]].hp.value, f"{u} stands with {d['hits']} hits"
        assert 0 <= st.moves_left <= MOVES_PER_TURN
        for seat in st.seats:
            assert st.gold.get(seat, 0) >= 0, f"{seat} owes gold"
            if st.ledger.get(seat):
                assert st.ledger[seat][-1]["balance"] == st.gold[seat], f"{seat}'s ledger and gold differ"
            hqs = [u for u, d in st.units.items() if d["seat"] == seat and d["kind"] == "PSZ"]
            assert len(hqs) <= 1, f"{seat} has {len(hqs)} HQs"
            if st.phase == "play" and st.outcome is None:
                assert hqs, f"{seat} plays on without its HQ"
            mined = [m["sq"] for m in st.mines.get(seat, [])]
            assert len(mined) == len(set(mined)), f"{seat} has two mines on one square"
        assert all(holder in (None, *st.seats) for holder in st.cards.values())


def options_for(seed: int, players: int = 2) -> dict[str, Any]:
    return {"scenario": SCENARIOS[seed % len(SCENARIOS)], "collect_costs_move": seed % 7 == 3}


def play_game(seed: int, options: dict[str, Any], referee: Referee | None = None) -> GameState:
    st = GAME.setup(options, GAME.roles(2, options), random.Random(seed))
    bot_rng = random.Random(seed * 7919)
    key = f"autarcha-playout{seed}".encode()
    for _ in range(GAME.max_actions(2, options)):
        if referee is not None:
            referee(st)
        if st.outcome is not None:
            return st
        required = [d for d in GAME.pending(st) if not d.optional]
        assert required, f"seed {seed}: a dead end in turn {st.turn} ({st.phase})"
        d = required[0]
        action = GAME.bot(st, d, bot_rng)
        assert set(action.choices) <= set(d.choice_ids()) and d.min <= len(action.choices) <= d.max
        GAME.apply(st, d.seat, Action(decision=d.id, choices=tuple(action.choices)), action_rng(key, st.step))
    raise AssertionError(f"seed {seed} did not end in {GAME.max_actions(2, options)} answers")


@pytest.mark.parametrize("seed", range(10))
def test_seeded_bot_games_keep_the_invariants_and_end(seed: int) -> None:
    """Skirmish on even seeds (a game of ~900 answers); every other scenario once on the odd ones."""
    options = {"scenario": "skirmish"} if seed % 2 == 0 else options_for(seed // 2 + 1)
    referee = Referee()
    st = play_game(seed, options, referee)
    o = GAME.outcome(st)
    assert o is not None and o.summary
    assert referee.checks > 40  # every setup answer at least was checked


def test_the_same_seed_plays_the_same_game() -> None:
    a = play_game(4, {"scenario": "skirmish"})
    b = play_game(4, {"scenario": "skirmish"})
    assert GAME.dump(a) == GAME.dump(b)


# every FULL_EVERY-th game is checked at every step by the fuzzer; the others on their end state
FULL_EVERY = 50


@pytest.mark.au_slow
def test_thousand_bot_games() -> None:
    """The fuzzer's checks over seeded bot-vs-bot games of every scenario (``app.fuzz.check_match``) with
    the Referee's invariants after every step; one game in FULL_EVERY at every step."""
    bot_games(GAME, "app.games.autarcha:GAME", "AUTARCHA", lambda seed: 2, options_for, Referee, FULL_EVERY)
