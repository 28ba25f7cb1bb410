"""Seeded bot-vs-bot games of Total Domination through every seating, invariants after every answer.

The default suite plays a few dozen games (1–4 players, the table's options varied: both
scenarios, both board sides, bombers, U-boats, the Arctic, the alternative setup, the 2-player
hands, the 3-player pair); ``pytest -m td_slow tests/games/total_domination`` plays
``TD_GAMES`` (default 1000) from seed ``TD_FIRST`` (default 1000) through the fuzzer's checks
(``app.fuzz.check_match``) with the same invariants.

Invariants (checked after the setup and after every answer):
- no space holds more units that count than its stacking limit (U-boats and Resistance never count);
- no nation has more tokens of a kind on the board than the box holds;
- every unit stands on a space of a shape its type may use;
- units of two sides never share a space, nor two powers (U-boats and Resistance excepted);
- the cards are conserved: at the start of a turn every card of the pack (the 60 and the
  country decks) lies in exactly one place (draw pile, discard, a hand, a reserve, a country
  deck, a tech sheet or a face-down tech, Diplomacy / Tactics in play, a rotated card), and
  at any moment no card is in two places;
- the VP the outcome reports are the VP derived from the state;
- the year never goes back and moves one at a time, the phases of a year come in order, and
  the match ends by its last year.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from app.games.protocol import action_rng
from app.games.total_domination import derived
from app.games.total_domination.movement import fits
from app.games.total_domination.pack import pack, side_of
from app.games.total_domination.rules import GAME
from app.games.total_domination.state import GameState
from tests.long_runs import bot_games

MAX_DECISIONS = 20_000
EXEMPT = derived.EXEMPT
PHASE_ORDER = {"setup": 0, "action": 2, "admin": 3, "over": 4}  # any other phase is a Strategic Phase step


def _zones(st: GameState) -> list[str]:
    """Every card the state holds in a named place (a card in flight, mid-play, is in none)."""
    out: list[str] = list(st.deck) + list(st.discard)
    for cards in list(st.hands.values()) + list(st.set_aside.values()) + list(st.decks.values()) \
            + list(st.tech_cards.values()):
        out += cards
    out += list(st.tech_played.values()) + list(st.saved.values())
    out += [d["card"] for d in st.diplomacy] + [t["card"] for t in st.tactics]
    return out


def _draft_cards(draft: dict[str, Any]) -> list[str]:
    """Cards the Strategic Phase holds in its own places: the packets passed round, the picks lying
    face down, the Enigma draw (a spy's view of a hand is a copy, not a place)."""
    out: list[str] = []
    for place in ("packets", "picks"):
        for cards in (draft.get(place) or {}).values():
            out += cards
    out += (draft.get("enigma") or {}).get("cards", [])
    return out


class Referee:
    """Total Domination's invariants over a match (an ``app.fuzz`` invariant: state, events)."""

    def __init__(self) -> None:
        self.year: int | None = None
        self.phase = 0
        self.turn_checks = 0

    def __call__(self, st: GameState, events: list[Any] | None = None) -> None:
        self.board(st)
        self.cards(st)
        self.calendar(st)
        if st.outcome is not None:
            self.ending(st)

    # ------------------------------------------------------------ units
    def board(self, st: GameState) -> None:
        geo = st.geo
        tokens = pack().tokens
        counted: Counter[str] = Counter()
        on_board: Counter[tuple[str, str]] = Counter()
        owners: dict[str, set[str]] = {}
        for u in st.units:
            assert u.space in geo.spaces, f"{u} is off the board"
            assert fits(geo.spaces[u.space], u.kind), f"{u.kind} on {geo.spaces[u.space].shape} {u.space}"
            on_board[(u.nation, u.kind)] += 1
            if u.kind in EXEMPT:
                continue
            counted[u.space] += 1
            owners.setdefault(u.space, set()).add(st.power_of(u.nation) or u.nation)
        for space, n in counted.items():
            assert n <= geo.spaces[space].limit, f"{n} units on {space} (limit {geo.spaces[space].limit})"
        for space, who in owners.items():
            assert len(who) == 1, f"{sorted(who)} share {space}"
        resistance = sum(n for (_, kind), n in on_board.items() if kind == "resistance")
        assert resistance <= tokens.get("resistance", {}).get("resistance", 0), "Resistance tokens exceeded"
        for (nation, kind), n in on_board.items():
            if kind == "resistance":
                continue
            assert n <= tokens.get(nation, {}).get(kind, 0), f"{n} {nation} {kind} tokens on the board"

    # ------------------------------------------------------------ cards
    def cards(self, st: GameState) -> None:
        every = set(pack().cards)
        zones = _zones(st)
        zones += _draft_cards(st.draft)
        seen = Counter(zones)
        twice = {c: n for c, n in seen.items() if n > 1}
        assert not twice, f"cards in two places: {twice}"
        assert set(seen) <= every, f"unknown cards {set(seen) - every}"
        # at the start of a turn nothing is in flight: every card is somewhere
        top = st.stack[-1] if st.stack else None
        if st.outcome is None and top is not None and top.get("kind") == "turn" and "q" in top and not st.turn.get(
                "ops"):
            missing = every - set(seen)
            assert not missing, f"cards lost at a turn of {st.active} in {st.year}: {sorted(missing)[:5]}"
            self.turn_checks += 1

    # ------------------------------------------------------------ the calendar
    def calendar(self, st: GameState) -> None:
        phase = PHASE_ORDER.get(st.phase, 1)
        if self.year is None or st.year != self.year:
            if self.year is not None:
                assert st.year == self.year + 1, f"year {self.year} -> {st.year}"
            self.year, self.phase = st.year, phase
        assert phase >= self.phase or st.phase == "over", f"{st.year}: phase back to {st.phase}"
        self.phase = phase
        assert st.year <= int(st.options["last_year"]), f"{st.year} is past the last year"

    def ending(self, st: GameState) -> None:
        totals = derived.side_totals(st)
        for power, seat in st.seats.items():
            if seat:
                assert st.outcome["scores"][seat] == totals[side_of(power)], "the outcome's VP are not derived"
        assert st.phase == "over"
        assert st.year <= int(st.options["last_year"])


def options_for(seed: int, players: int) -> dict[str, Any]:
    r = random.Random(seed * 131 + players)
    opts: dict[str, Any] = {
        "scenario": ("full", "rise_of_the_axis", "fall_of_the_axis", "full")[seed % 4],
        "board": ("basic", "alternative")[(seed // 4) % 2],
        "setup": ("standard", "alternative")[(seed // 8) % 2],
        "bombers": r.random() < 0.5,
        "uboats": r.random() < 0.5,
        "arctic": r.random() < 0.5,
    }
    if players == 2:
        opts["two_player"] = ("shared", "separate")[seed % 2]
    if players == 3:
        opts["pair"] = ("allies", "axis")[(seed // 2) % 2]
    return opts


def play_game(seed: int, players: int, options: dict[str, Any], referee: Referee | None = None) -> GameState:
    st = GAME.setup(options, GAME.roles(players, options), random.Random(seed))
    bot_rng = random.Random(seed * 7919)
    key = f"td-playout{seed}".encode()
    if referee is not None:
        referee(st)
    for _ in range(MAX_DECISIONS):
        if st.outcome is not None:
            return st
        pending = GAME.pending(st)
        assert pending, f"seed {seed}: a dead end in {st.year} ({st.phase})"
        d = pending[0]
        action = GAME.bot(st, d, bot_rng)
        assert set(action.choices) <= set(d.choice_ids()) and d.min <= len(action.choices) <= d.max
        GAME.apply(st, d.seat, action, action_rng(key, st.step))
        if referee is not None:
            referee(st)
    raise AssertionError(f"seed {seed} did not end in {MAX_DECISIONS} decisions")


@pytest.mark.parametrize("seed", range(36))
def test_bot_games_keep_the_invariants_and_end_by_the_last_year(seed: int) -> None:
    players = 1 + seed % 4
    referee = Referee()
    st = play_game(seed, players, options_for(seed, players), referee)
    o = GAME.outcome(st)
    assert o is not None and o.summary
    assert st.year <= int(st.options["last_year"])
    assert referee.turn_checks > 0  # the card partition was checked at some turn


def test_the_same_seed_plays_the_same_game() -> None:
    a = play_game(7, 4, options_for(7, 4))
    b = play_game(7, 4, options_for(7, 4))
    assert GAME.dump(a) == GAME.dump(b)


def test_both_sides_win_some_default_games() -> None:
    wins: Counter[str] = Counter()
    for seed in range(12):
        st = play_game(100 + seed, 2 + seed % 3, {})
        wins[str(st.outcome and st.outcome.get("side"))] += 1
    assert wins["axis"] and wins["allies"], dict(wins)


# every FULL_EVERY-th game is checked at every step by the fuzzer; the others on their end state
FULL_EVERY = 50


@pytest.mark.td_slow
def test_thousand_bot_games() -> None:
    """The fuzzer's checks over seeded bot-vs-bot games (``app.fuzz.check_match``): no dead end,
    the declared bound, dump/load, the replay of the log, no secret in any view; the Referee's
    invariants after every step. One game in FULL_EVERY gets the fuzzer's checks at every step."""
    bot_games(GAME, "app.games.total_domination:GAME", "TD", lambda seed: 1 + seed % 4, options_for, Referee,
              FULL_EVERY)
