"""Seeded whole games of Attack!, the invariants checked after every answer.

The default suite plays 20 games (2–6 players, every ending, both claim rules, the round played
out or not), five timed ones with the random bot of the protocol, the others with the game's bot;
``pytest -m at_slow tests/games/attack`` plays ``ATTACK_GAMES`` (default 1000) from seed
``ATTACK_FIRST`` (default 1000) through the fuzzer's checks (``app.fuzz.check_match``: no dead end,
the declared bound, dump/load, the replay, no secret in any view) with the same invariants.

Invariants (after the setup and after every answer):
- units: every count a positive whole number of a land type; every unit stands in a region its
  owner controls and every controlled region holds at least one of its owner's units (A-6.2);
  no region is held by an eliminated player or a stranger;
- cards: the Economics cards are conserved: hands and deck never hold a card twice, and every card
  of the pack is in a hand, the deck, or out of play in the rules' hands (a neutral's drawn card
  during its battle, a trade in flight); an eliminated player holds none;
- seas: at most one sea controller, a player still in the game who holds ships; no Navy count
  below zero;
- turns: at most three actions a turn, each once but Diplomatic Attack (A-5.2–A-5.4); the turn
  and round counters never go back; a timed game never passes its last turn;
- capitals: placed once (A-4.6), never moved (A-18.1);
- dump/load: ``load(dump(state))`` dumps the same (every 7th answer and at the end; the at_slow
  run's fuzzer checks it at every step);
- the end: the scores are the regions held, the winners are the standings' leaders (A-21.3).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from app.games.attack import victory
from app.games.attack.pack import LAND_TYPES, NAVY_TYPES, pack
from app.games.attack.rules import GAME
from app.games.attack.state import GameState
from app.games.protocol import Action, action_rng, random_bot
from tests.long_runs import bot_games

MAX_DECISIONS = 60_000
CARDS = frozenset(pack().econ)
PHASES = ("setup", "play", "over")
ROUND_TRIP_EVERY = 7  # dump/load is the dearest check: every 7th answer (7: not in step with a turn's rhythm)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


class Referee:
    """Attack!'s invariants over a match (an ``app.fuzz`` invariant: state, events)."""

    def __init__(self) -> None:
        self.turns = 0
        self.round = 0
        self.capitals: dict[str, str] = {}
        self.phases = ["setup"]
        self.checks = 0

    def __call__(self, st: GameState, events: list[Any] | None = None) -> None:
        self.board(st)
        self.cards(st)
        self.seas(st)
        self.turn(st)
        if self.checks % ROUND_TRIP_EVERY == 0 or st.outcome is not None:
            self.round_trip(st)
        if st.outcome is not None:
            self.ending(st)
        self.checks += 1

    def board(self, st: GameState) -> None:
        live, regions = set(st.live()), st.geo.regions
        for region, units in st.units.items():
            assert region in regions, f"units in {region}, not a region"
            assert region in st.owner, f"units in {region}, which nobody controls"
            for kind, n in units.items():
                assert kind in LAND_TYPES and isinstance(n, int) and n > 0, f"{region}: {n} {kind}"
        for region, seat in st.owner.items():
            assert sum(st.units.get(region, {}).values()) >= 1, f"{seat} controls {region} with no unit there"
            assert seat in live, f"{region} is held by {seat}, not a player in the game"

    def cards(self, st: GameState) -> None:
        held = [c for s in st.seats for c in st.hands.get(s, [])] + list(st.deck)
        twice = {c: n for c, n in Counter(held).items() if n > 1}
        assert not twice, f"Economics cards in two places: {twice}"
        assert set(held) <= CARDS, f"unknown cards {set(held) - CARDS}"
        missing = CARDS - set(held)
        if missing:  # out of play only while the rules hold them: a neutral battle's card, a trade
            elsewhere = set(_strings([st.battle, st.turn, st.stack, st.flags])) & CARDS
            assert missing <= elsewhere, f"Economics cards lost: {sorted(missing - elsewhere)[:5]}"
        for s in st.eliminated:
            assert not st.hands.get(s), f"eliminated {s} still holds cards"

    def seas(self, st: GameState) -> None:
        for seat, fleet in st.navy.items():
            for kind, n in fleet.items():
                assert kind in NAVY_TYPES and isinstance(n, int) and n >= 0, f"{seat}: {n} {kind}"
        c = st.sea_controller
        if c is not None:
            assert c in st.live(), f"the sea controller {c} is not in the game"
            assert sum(st.navy.get(c, {}).values()) > 0, f"the sea controller {c} holds no ship"

    def turn(self, st: GameState) -> None:
        taken = st.turn.get("actions", [])
        assert len(taken) <= 3, f"{len(taken)} actions in a turn: {taken}"
        once = [a for a in taken if a != "DIPLO"]
        assert len(once) == len(set(once)), f"an action twice in a turn: {taken}"
        assert st.turns_taken >= self.turns and st.round >= self.round, "the turn counters went back"
        self.turns, self.round = st.turns_taken, st.round
        assert st.turns_taken <= victory.last_turn(st), f"turn {st.turns_taken} is past the last"
        if st.phase != self.phases[-1]:  # one answer may run through a phase (a game of bare turns)
            self.phases.append(st.phase)
        assert [PHASES.index(p) for p in self.phases] == sorted(PHASES.index(p) for p in self.phases), self.phases
        for seat, region in self.capitals.items():
            assert st.capitals.get(seat) == region, f"{seat}'s capital moved"
        self.capitals = dict(st.capitals)

    def round_trip(self, st: GameState) -> None:
        data = GAME.dump(st)
        assert GAME.dump(GAME.load(data)) == data, "dump/load changes the state"

    def ending(self, st: GameState) -> None:
        assert st.phase == "over"
        o = st.outcome
        assert o["scores"] == {s: len(st.regions_of(s)) for s in st.seats}, "the scores are not the regions"
        assert o["winners"] == victory.leaders(st), "the winners are not the standings' leaders"


def options_for(seed: int, players: int) -> dict[str, Any]:
    return {
        "end": ("timed", "timed", "elimination", "last_standing")[seed % 4],
        "turn_limit": ("12", "24")[(seed // 4) % 2],
        "finish_round": (seed // 2) % 2 == 1,
        "one_per_continent": (seed // 8) % 2 == 1,
    }


def play_game(seed: int, players: int, options: dict[str, Any], own_bot: bool,
              referee: Referee | None = None) -> GameState:
    st = GAME.setup(options, GAME.roles(players, options), random.Random(seed))
    bot_rng = random.Random(seed * 7919)
    key = f"attack-playout{seed}".encode()
    if referee is not None:
        referee(st)
    for _ in range(MAX_DECISIONS):
        if st.outcome is not None:
            return st
        pending = GAME.pending(st)
        assert pending, f"seed {seed}: a dead end in round {st.round} ({st.phase})"
        d = pending[0]
        action = GAME.bot(st, d, bot_rng) if own_bot else random_bot(d, bot_rng)
        assert set(action.choices) <= set(d.choice_ids()) and d.min <= len(action.choices) <= d.max
        GAME.apply(st, d.seat, Action(decision=d.id, choices=tuple(action.choices)), action_rng(key, st.step))
        if referee is not None:
            referee(st)
    raise AssertionError(f"seed {seed} did not end in {MAX_DECISIONS} decisions")


@pytest.mark.parametrize("seed", range(20))
def test_seeded_games_keep_the_invariants_and_end(seed: int) -> None:
    players = 2 + seed % 5
    referee = Referee()
    # the random bot in a timed game of every table size; the game's bot in the others
    st = play_game(seed, players, options_for(seed, players), own_bot=seed % 4 != 0, referee=referee)
    o = GAME.outcome(st)
    assert o is not None and o.summary and o.winners
    assert referee.checks > players * 25  # every setup answer at least was checked
    if st.options["end"] == "timed" and st.outcome["reason"] == "time":
        assert st.turns_taken == victory.last_turn(st)


def test_the_same_seed_plays_the_same_game() -> None:
    a = play_game(5, 4, options_for(5, 4), own_bot=True)  # a timed game
    b = play_game(5, 4, options_for(5, 4), own_bot=True)
    assert GAME.dump(a) == GAME.dump(b)


# every FULL_EVERY-th game is checked at every step by the fuzzer; the others on their end state
FULL_EVERY = 50


@pytest.mark.at_slow
def test_thousand_bot_games() -> None:
    """The fuzzer's checks over seeded bot-vs-bot games (``app.fuzz.check_match``) with the
    Referee's invariants after every step; one game in FULL_EVERY gets the fuzzer's checks (the
    replay, every seat's leak check) at every step."""
    bot_games(GAME, "app.games.attack:GAME", "ATTACK", lambda seed: 2 + seed % 5, options_for, Referee, FULL_EVERY)
