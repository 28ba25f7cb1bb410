"""Seeded whole games of First to Fight, the invariants checked after every answer.

The default suite plays a few dozen games over every table size and option; ``-m ftf_slow`` plays a
thousand bot-vs-bot games from ``FTF_FIRST`` (default 1000) through the fuzzer's checks
(``app.fuzz.check_match``: no dead end, the declared bound, dump/load, the replay, no secret in any
view) with the same invariants."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.first_to_fight import GAME
from app.games.first_to_fight.pack import ATTRIBUTE_CAP, LAST_MONTH, NURSE_CAP, REGIONS, STAGE_II_CAP, pack
from app.games.first_to_fight.state import GameState
from app.games.protocol import Action, Event, action_rng, random_bot
from tests.long_runs import bot_games

MAX_DECISIONS = 20_000


class Referee:
    """First to Fight's invariants over a match (an ``app.fuzz`` invariant: state, events)."""

    def __init__(self) -> None:
        self.checks = 0
        self.time = 0
        self.vp: dict[str, int] = {}

    def __call__(self, state: GameState, events: list[Event] | None = None) -> None:
        self.checks += 1
        data = pack()
        # every card is in exactly one place (the ones in a resolving step's hands are in its scratch)
        scratch = repr((state.order, state.ending, state.stack))
        soldiers = [*state.soldiers, *state.soldier_deck, *state.fallen]
        assert len(soldiers) == len(set(soldiers)), "a soldier lies in two places"
        missing = set(data.soldiers) - set(soldiers)
        assert all(f"'{s}'" in scratch for s in missing), f"soldiers lost: {sorted(missing)}"
        missions = [*state.stage1_deck, *state.stage2_deck, *state.removed_missions]
        for s in state.seats:
            missions += [*state.hands.get(s, []), *state.succeeded.get(s, []), *state.failed.get(s, []),
                         *state.discarded.get(s, [])]
        assert len(missions) == len(set(missions)), "a mission lies in two places"
        missing = set(data.missions) - set(missions)
        assert all(f"'{m}'" in scratch for m in missing), f"missions lost: {sorted(missing)}"
        events_seen = [*state.event_deck, *state.event_track, *state.events_gone]
        assert len(events_seen) == len(set(events_seen)), "an event lies in two places"
        missing = set(data.events) - set(events_seen) - {state.event_drawn}
        assert all(f"'{e}'" in scratch for e in missing), f"events lost: {sorted(missing)}"
        # the board
        for sid, d in state.soldiers.items():
            assert d["region"] in REGIONS
            assert 1 <= d["s"] <= ATTRIBUTE_CAP and 1 <= d["u"] <= ATTRIBUTE_CAP, f"{sid}: {d}"
            card = data.soldiers[sid]
            assert d["s"] >= card.strength and d["u"] >= card.underground, f"{sid} lost training"
            assert d["trained"] or (d["s"], d["u"]) == (card.strength, card.underground), f"{sid} untrained but raised"
            assert d["wounds"] >= 0
            if state.phase == "orders":  # after Losses (§5.4): one wound at most, and only on a trained soldier
                assert d["wounds"] <= 1 and (d["wounds"] == 0 or d["trained"]), f"{sid} should have died: {d}"
        for r in REGIONS:
            assert 0 <= state.domination[r] < len(data.regions[r].track)
        if state.concentration is not None:
            assert state.concentration["region"] in REGIONS
        # the players
        for s in state.seats:
            assert 0 <= state.nurses.get(s, 0) <= NURSE_CAP
            assert state.vp.get(s, 0) >= self.vp.get(s, 0), f"{s}'s VP tokens went down"
            self.vp[s] = state.vp.get(s, 0)
            assert state.stage2_in_hand(s) <= STAGE_II_CAP
            assert state.stage2_received.get(s, 0) <= STAGE_II_CAP
        # time only moves forward, and stops at V 1945
        assert self.time <= state.time <= LAST_MONTH
        self.time = state.time
        if state.phase == "orders":
            assert state.tiles["MANEUVERS"]["active"], "Maneuvers is always there to choose (OQ-8)"
        if state.outcome is not None:
            assert not any(state.hands.get(s) for s in state.seats), "the game ended with missions in hand"


def options_for(seed: int, players: int) -> dict[str, Any]:
    return {"draft": seed % 2 == 1, "events": (seed // 2) % 2 == 1}


def play_game(seed: int, players: int, options: dict[str, Any], own_bot: bool,
              referee: Referee | None = None) -> GameState:
    st = GAME.setup(options, GAME.roles(players, options), random.Random(seed))
    bot_rng = random.Random(seed * 7919)
    key = f"ftf-playout{seed}".encode()
    if referee is not None:
        referee(st)
    for _ in range(MAX_DECISIONS):
        if st.outcome is not None:
            return st
        pending = [d for d in GAME.pending(st) if not d.optional]
        assert pending, f"seed {seed}: a dead end in round {st.round} ({st.phase})"
        d = pending[0]
        action = GAME.bot(st, d, bot_rng) if own_bot else random_bot(d, bot_rng)
        assert set(action.choices) <= set(d.choice_ids()) and d.min <= len(action.choices) <= d.max
        GAME.apply(st, d.seat, Action(decision=d.id, choices=tuple(action.choices)), action_rng(key, st.step))
        if referee is not None:
            referee(st)
    raise AssertionError(f"seed {seed} did not end in {MAX_DECISIONS} decisions")


@pytest.mark.parametrize("seed", range(24))
def test_seeded_games_keep_the_invariants_and_end(seed: int) -> None:
    players = 2 + seed % 3
    referee = Referee()
    # the random bot in a quarter of the games, the game's bot in the others
    st = play_game(seed, players, options_for(seed, players), own_bot=seed % 4 != 0, referee=referee)
    o = GAME.outcome(st)
    assert o is not None and o.summary and o.winners
    assert referee.checks > 10


def test_the_same_seed_plays_the_same_game() -> None:
    a = play_game(5, 4, options_for(5, 4), own_bot=True)
    b = play_game(5, 4, options_for(5, 4), own_bot=True)
    assert GAME.dump(a) == GAME.dump(b)


# every FULL_EVERY-th game is checked at every step by the fuzzer; the others on their end state
FULL_EVERY = 20


@pytest.mark.ftf_slow
def test_thousand_bot_games() -> None:
    """The fuzzer's checks over seeded bot-vs-bot games (``app.fuzz.check_match``) with the
    Referee's invariants after every step; one game in FULL_EVERY gets the fuzzer's checks (the
    replay, every seat's leak check) at every step."""
    bot_games(GAME, "app.games.first_to_fight:GAME", "FTF", lambda seed: 2 + seed % 3, options_for, Referee, FULL_EVERY)
