"""The test-only card game (tests/fixtures/cardgame.py) keeps its own promises.

The platform's tests lean on this fixture for hidden hands, reactions, dice,
simultaneous bids and undoable decisions, so it must be legal, leak-free,
serialisable and deterministic.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from app.games.protocol import (
    Action,
    GameRules,
    Illegal,
    Seat,
    action_rng,
    validate_action,
)
from app.games.secrets import Secret, leaks
from tests.fixtures.cardgame import GAME, bid_token, card_ids, card_label

GAMES = 200
MAX_STEPS = 2000


def _new(seed: int, players: int | None = None, target: str | None = None):
    rng = random.Random(seed)
    players = players or rng.randint(GAME.min_players, GAME.max_players)
    target = target or rng.choice(GAME.options[0].choices)
    seats = GAME.roles(players, {"target": target})
    state = GAME.setup({"target": target}, seats, action_rng(seed.to_bytes(8, "big"), 0))
    return state, seats, rng


def _check_no_leaks(state, seats: list[Seat]) -> None:
    everything: set = set()
    for seat in seats:
        hidden = GAME.secrets(state, seat.id)
        # secrets are complete: the deck, every other hand, sealed bid and headquarters
        expected: set = set(state.deck)
        for other in seats:
            if other.id != seat.id:
                expected |= set(state.hands[other.id])
                if state.bids.get(other.id) is not None:
                    expected.add(bid_token(other.id, state.round, state.bids[other.id]))
                expected.add(Secret(f"{other.id}'s headquarters", tuple(state.hq[other.id])))
                expected.add(Secret(f"{other.id}'s facing", state.facing[other.id], near=other.id))
        assert hidden == expected
        everything |= hidden
        leaked = leaks(json.dumps(GAME.view(state, seat.id)), hidden)
        assert not leaked, f"view of {seat.id} leaks {leaked}"
    # a spectator sees no hand, no sealed bid and no headquarters of anyone
    hands = {c for s in seats for c in state.hands[s.id]}
    leaked = leaks(json.dumps(GAME.view(state, None)), everything | hands)
    assert not leaked, f"spectator view leaks {leaked}"


def _check_events(state, seats: list[Seat], events) -> None:
    for ev in events:
        for seat in seats:
            assert not leaks(ev.text, GAME.secrets(state, seat.id)), f"public event {ev.text!r} leaks"
        for owner, text in ev.private.items():
            assert not leaks(text, GAME.secrets(state, owner)), f"private event for {owner} leaks: {text!r}"


def play(seed: int, *, roundtrip: bool = False, checks: bool = True, stats: Counter | None = None):
    """Play one seeded game with bots; return (final dump, outcome, state)."""
    state, seats, rng = _new(seed)
    seed_bytes = seed.to_bytes(8, "big")
    for seq in range(1, MAX_STEPS + 1):
        if roundtrip:
            data = json.loads(json.dumps(GAME.dump(state)))
            state = GAME.load(data)
            assert GAME.dump(state) == data
        outcome = GAME.outcome(state)
        pending = GAME.pending(state)
        if outcome is not None:
            assert pending == []
            return GAME.dump(state), outcome, state
        assert pending, "no outcome yet nothing pending"
        ids = [d.id for d in pending]
        assert len(ids) == len(set(ids)), f"duplicate decision ids {ids}"
        if checks:
            for d in pending:
                assert d.choices, f"{d.id} has no choices"
                assert d.min <= d.max <= len(d.choices)
                for c in d.choices:
                    validate_action(d, [c.id])
            _check_no_leaks(state, seats)
        if stats is not None:
            stats.update(d.kind for d in pending)
            if len(pending) > 1:
                stats["simultaneous"] += 1
        decision = rng.choice(pending)
        action = GAME.bot(state, decision, action_rng(seed_bytes, seq))
        action = validate_action(decision, list(action.choices))
        events = GAME.apply(state, decision.seat, action, action_rng(seed_bytes, seq + 10_000))
        if checks:
            _check_events(state, seats, events)
    raise AssertionError(f"seed {seed}: no outcome after {MAX_STEPS} steps")


def test_satisfies_protocol():
    assert isinstance(GAME, GameRules)
    assert (GAME.id, GAME.min_players, GAME.max_players, GAME.version) == ("cardgame", 2, 4, "1")
    seats = GAME.roles(3, {})
    assert [(s.id, s.label) for s in seats] == [("p1", "Player 1"), ("p2", "Player 2"), ("p3", "Player 3")]
    for bad in (0, 1, 5):
        with pytest.raises(Illegal):
            GAME.roles(bad, {})


def test_cards_are_unique_and_distinctive():
    ids = card_ids()
    assert len(ids) == len(set(ids)) == 40
    for a in ids:
        assert sum(a in b for b in ids) == 1  # no id is a substring of another
    assert card_label("card-c07") == "7 of swords"


def test_random_games_reach_an_outcome_without_leaks():
    stats: Counter = Counter()
    reasons: Counter = Counter()
    for seed in range(GAMES):
        _, outcome, state = play(seed, stats=stats)
        reasons[state.end_reason] += 1
        best = max(state.scores.values())
        assert outcome.winners and all(state.scores[w] == best for w in outcome.winners)
        assert outcome.scores == state.scores
    # every mechanism was exercised
    for kind in ("bid", "roll", "order", "play", "react", "discard", "simultaneous"):
        assert stats[kind] > 0, f"{kind} never happened: {stats}"
    assert reasons["target"] > 0


def test_replay_and_dump_load_roundtrip_are_deterministic():
    for seed in range(0, GAMES, 10):
        first, out1, _ = play(seed, checks=False)
        again, out2, _ = play(seed, checks=False)
        through_json, out3, _ = play(seed, roundtrip=True, checks=False)
        assert first == again == through_json
        assert out1 == out2 == out3


def test_bids_are_sealed_until_everyone_answered():
    state, seats, _ = _new(1, players=3, target="7")
    pending = GAME.pending(state)
    assert sorted(d.id for d in pending) == ["bid:p1:round1", "bid:p2:round1", "bid:p3:round1"]
    assert all(d.kind == "bid" for d in pending)
    GAME.apply(state, "p2", Action("bid:p2:round1", ("2",)), random.Random(0))
    token = bid_token("p2", 1, 2)
    assert token in GAME.secrets(state, "p1") and token not in GAME.secrets(state, "p2")
    assert token in json.dumps(GAME.view(state, "p2"))
    for seat in ("p1", "p3", None):
        view = GAME.view(state, seat)
        assert token not in json.dumps(view)
        assert [s["has_bid"] for s in view["seats"]] == [False, True, False]
    with pytest.raises(Illegal):  # no second bid
        GAME.apply(state, "p2", Action("bid:p2:round1", ("1",)), random.Random(0))
    GAME.apply(state, "p1", Action("bid:p1:round1", ("2",)), random.Random(0))
    events = GAME.apply(state, "p3", Action("bid:p3:round1", ("1",)), random.Random(0))
    assert "Player 1 2" in events[-1].text and "Player 3 1" in events[-1].text
    assert state.scores == {"p1": 0, "p2": 0, "p3": 1}  # 2 was bid twice: 1 is the highest unique
    assert GAME.view(state, None)["last_bids"] == {"p1": 2, "p2": 2, "p3": 1}
    assert not any(isinstance(t, str) and t.startswith("bid:") for t in GAME.secrets(state, "p1"))


def _advance_to(state, kind: str, seed: int = 0):
    rng = random.Random(seed)
    for _ in range(500):
        pending = GAME.pending(state)
        if any(d.kind == kind for d in pending):
            return next(d for d in pending if d.kind == kind)
        assert pending
        d = pending[0]
        # pass rather than play, so the game does not end before reaching ``kind``
        action = Action(d.id, ("pass",)) if d.kind == "play" else GAME.bot(state, d, rng)
        GAME.apply(state, d.seat, action, rng)
    raise AssertionError(f"never reached {kind}")


def test_illegal_actions_are_refused_without_mutation():
    state, seats, _ = _new(7, players=2, target="7")
    play_d = _advance_to(state, "play")
    seat = play_d.seat
    other = next(s.id for s in seats if s.id != seat)
    foreign = state.hands[other][0]
    in_deck = state.deck[0]
    mine = state.hands[seat][0]
    before = GAME.dump(state)
    bad = [
        (seat, Action(play_d.id, (foreign,))),  # a card of another hand
        (seat, Action(play_d.id, (in_deck,))),  # a card still in the deck
        (seat, Action(play_d.id, ("card-c99",))),  # not a card at all
        (seat, Action(play_d.id, (mine, "pass"))),  # two answers to a single pick
        (seat, Action(play_d.id, ())),  # no answer
        (other, Action(play_d.id, (mine,))),  # wrong seat
        (seat, Action("play:nobody:0", (mine,))),  # not a pending decision
        (seat, Action("bid:" + seat, ("1",))),  # not bidding time
    ]
    for who, action in bad:
        with pytest.raises(Illegal):
            GAME.apply(state, who, action, random.Random(0))
        assert GAME.dump(state) == before, f"{action} mutated the state"
    GAME.apply(state, seat, Action(play_d.id, (mine,)), random.Random(0))
    assert mine in state.discard and mine not in state.hands[seat]


def test_block_cancels_points_and_order_is_undoable():
    # find a game where a react happens, block it, and check the points are cancelled
    for seed in range(100):
        state, seats, _ = _new(seed, players=2, target="7")
        try:
            order = _advance_to(state, "order", seed)
        except AssertionError:
            continue
        assert order.undoable and [c.label for c in order.choices] == ["sort hand by value", "keep"]
        before = GAME.dump(state)
        GAME.apply(state, order.seat, Action(order.id, ("sort",)), random.Random(0))
        hand = state.hands[order.seat]
        assert sorted(hand) == sorted(before["hands"][order.seat])
        play_d = GAME.pending(state)[0]
        assert play_d.kind == "play" and not play_d.undoable
        high = [c for c in hand if int(card_label(c).split()[0]) >= 7]
        if not high:
            continue
        score = state.scores[order.seat]
        GAME.apply(state, order.seat, Action(play_d.id, (high[0],)), random.Random(0))
        react = GAME.pending(state)[0]
        assert react.kind == "react" and react.seat != order.seat
        if "block" not in react.choice_ids():
            continue
        GAME.apply(state, react.seat, Action(react.id, ("block",)), random.Random(0))
        discard = GAME.pending(state)[0]
        assert discard.kind == "discard" and discard.seat == react.seat
        assert set(discard.choice_ids()) == set(state.hands[react.seat])
        with pytest.raises(Illegal):
            GAME.apply(state, react.seat, Action(discard.id, (state.deck[0],)), random.Random(0))
        card = discard.choice_ids()[0]
        GAME.apply(state, react.seat, Action(discard.id, (card,)), random.Random(0))
        assert state.scores[order.seat] == score
        assert card in state.discard
        return
    raise AssertionError("no blockable play found")


def test_roll_uses_the_rng():
    state, _, _ = _new(3, players=2, target="7")
    roll = _advance_to(state, "roll")
    assert roll.choice_ids() == ["roll"]
    seat = roll.seat
    results = set()
    for s in range(30):
        trial = GAME.load(GAME.dump(state))
        before = trial.scores[seat]
        (ev,) = GAME.apply(trial, seat, Action(roll.id, ("roll",)), random.Random(s))
        die = int(ev.text.split("rolls a ")[1].split()[0])
        assert trial.scores[seat] - before == die // 2
        results.add(die)
    assert len(results) > 1


def test_game_ends_when_cards_run_out_or_after_max_rounds():
    state, _, _ = _new(5, players=2, target="7")
    d = _advance_to(state, "play")
    for s in state.seats:
        state.hands[s] = []
    state.deck = []
    state.scores = {s: 0 for s in state.seats}
    GAME.apply(state, d.seat, Action(d.id, ("pass",)), random.Random(0))
    out = GAME.outcome(state)
    assert out is not None and state.end_reason == "exhausted" and out.winners == tuple(state.seats)
    assert GAME.pending(state) == []
    with pytest.raises(Illegal):
        GAME.apply(state, d.seat, Action(d.id, ("pass",)), random.Random(0))

    state, _, _ = _new(5, players=2, target="7")
    state.round = 30
    rng = random.Random(0)
    while GAME.outcome(state) is None:
        d = GAME.pending(state)[0]
        action = Action(d.id, ("pass",)) if d.kind == "play" else GAME.bot(state, d, rng)
        GAME.apply(state, d.seat, action, rng)
        state.scores = {s: 0 for s in state.seats}  # nobody reaches the target
    assert state.end_reason == "rounds" and state.round == 31
