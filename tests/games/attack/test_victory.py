"""Victory, spec §21 (A-21.1 … A-21.4), the timed game's clock in turns (settled reading 3 of
issue 12) and A-19.6's trade lock, on the staged map of end_kit. A stand-in action ("TEST")
conquers or wipes out a player where a battle would."""

from __future__ import annotations

import random
from typing import Any

from app.games.attack import victory
from app.games.attack.engine import Ctx
from app.games.attack.rules import GAME
from app.games.attack.state import GameState
from app.games.attack.text import catalogue
from app.games.attack.views import secrets, view
from tests.games.attack import end_kit as k


def play(state: GameState, take: bool = True) -> list[Any]:
    """Answer until the game ends: TEST whenever offered (``take``), else end the turn. The log."""
    log: list[Any] = []
    while GAME.outcome(state) is None:
        d = GAME.pending(state)[0]
        choice = "TEST" if take and "TEST" in d.choice_ids() else d.choices[-1].id
        log += [e.msg for e in k.answer(state, (choice,), decision=d)]
    return log


def conquer_next(ctx: Ctx, seat: str) -> None:
    """The active player takes every region of the next player still in the game (a battle won)."""
    state = ctx.state
    live = state.live()
    victim = live[(live.index(seat) + 1) % len(live)]
    for r in state.regions_of(victim):
        k.give(state, seat, r, INF=1)


def in_play(players: int = 3, **options: Any) -> GameState:
    """A table at the first player's first action (the stand-in action does nothing)."""
    with k.only_action(lambda ctx, seat: None):
        state = k.table(players, **options)
    assert state.phase == "play" and GAME.pending(state)[0].kind == "action"
    return state


# ------------------------------------------------------------------ elimination
def test_a_21_1_a_player_with_no_land_units_is_eliminated_and_the_game_ends_at_once() -> None:
    with k.only_action(conquer_next):
        state = k.table(3, end="elimination")
        first, victim = state.order[0], state.order[1]
        d = GAME.pending(state)[0]
        log = [e.msg.id for e in k.answer(state, ("TEST",), decision=d)]
    assert state.eliminated == [victim] and state.phase == "over"
    assert GAME.pending(state) == []  # at once: the rest of the turn is not played
    assert state.turns_taken == 0 and "turn_ends" not in log
    assert log[-2:] == ["eliminated", "game_over"]
    o = GAME.outcome(state)
    assert o is not None and o.winners == (first,) and "a player was eliminated" in o.summary


def test_a_21_2_elimination_ends_a_timed_game_too() -> None:
    with k.only_action(conquer_next):
        state = k.table(3, end="timed", turn_limit="12")
        k.answer(state, ("TEST",))
    assert state.outcome is not None and state.outcome["reason"] == "elimination" and state.turns_taken == 0


# ------------------------------------------------------------------ the timed game (turns)
def test_a_21_2_the_turn_in_progress_when_the_limit_is_reached_is_the_last() -> None:
    """Settled reading 3: the game ends after the turn ("tura") in progress, not the round: a limit
    of 7 turns at a table of 3 ends after the first player's third turn, the others had two."""
    with k.only_action(lambda ctx, seat: None):
        state = k.table(3, turn_limit="7")
        turns = []
        while state.outcome is None:
            d = GAME.pending(state)[0]
            if d.kind == "action" and state.turns_taken == 6:
                assert state.outcome is None  # the seventh turn is in progress: it is played out
            turns.append(state.active)
            k.answer(state, ("TEST",) if "TEST" in d.choice_ids() else ("end",), decision=d)
    assert state.turns_taken == 7 and state.round == 3 and state.outcome["reason"] == "time"
    first = state.order[0]
    assert turns.count(first) == 3 and all(turns.count(s) == 2 for s in state.order[1:])


def test_a_21_2_the_table_may_finish_the_round() -> None:
    with k.no_actions():
        state = k.table(3, turn_limit="7", finish_round=True)
    assert state.turns_taken == 9 and state.round == 3 and state.outcome["reason"] == "time"


def test_a_21_2_a_limit_on_a_round_boundary_ends_there_either_way() -> None:
    for finish in (False, True):
        with k.no_actions():
            state = k.table(4, turn_limit="12", finish_round=finish)
        assert state.turns_taken == 12 and state.round == 3


def test_end_by_elimination_has_no_turn_limit() -> None:
    """end=elimination: the table's turn limit does not apply; a game nobody can end stops only at
    the engine's guard (UNTIMED_ROUNDS rounds), judged as a timed game would be."""
    with k.no_actions():
        state = k.table(2, end="elimination", turn_limit="12")
    assert state.turns_taken == 2 * victory.UNTIMED_ROUNDS > 12
    assert state.outcome["reason"] == "round_cap"


# ------------------------------------------------------------------ the winner
def finish_now(state: GameState) -> None:
    victory.finish(Ctx(state, random.Random(0)), "time")


def test_a_21_3_the_most_regions_wins() -> None:
    state = in_play(3)
    a, b, c = state.order
    k.give(state, b, state.regions_of(c)[0], INF=1)  # b: 5 regions, c: 3
    finish_now(state)
    o = GAME.outcome(state)
    assert o.winners == (b,) and o.scores == {a: 4, b: 5, c: 3}
    assert "wins with 5 regions" in o.summary and "tie" not in o.summary


def test_a_21_3_a_tie_on_regions_goes_to_the_most_regions_plus_land_units() -> None:
    state = in_play(3)
    a, b, c = state.order
    k.give(state, a, state.regions_of(c)[0], INF=1)
    k.give(state, b, state.regions_of(c)[0], INF=2)  # a and b: 5 regions; b has one unit more
    assert victory.standings(state)[0][2] == b
    finish_now(state)
    o = GAME.outcome(state)
    assert o.winners == (b,) and o.scores[a] == o.scores[b] == 5
    assert "tie-break" in o.summary
    assert "w dogrywce" in (catalogue().text(o.summary_msg, "pl") or "")


def test_a_21_3_a_tie_after_the_tie_break_is_a_shared_win() -> None:
    """Gap A-21.3 (README): level on regions and on regions + land units, they share the win."""
    state = in_play(3)
    a, b, c = state.order
    finish_now(state)  # everyone: 4 regions and 24 land units
    o = GAME.outcome(state)
    assert set(o.winners) == {a, b, c} and "share the win" in o.summary
    assert "Zwycięstwo dzielą" in (catalogue().text(o.summary_msg, "pl") or "")


# ------------------------------------------------------------------ last player standing
def test_a_21_4_last_player_standing_the_eliminated_leave_and_the_others_play_on() -> None:
    """Gap A-21.4 (README): the eliminated player's Economics cards are shuffled into the deck,
    its Navy cards go back to the Navy deck, sea control lapses; its turns are skipped."""
    with k.only_action(conquer_next, repeatable=True):
        state = k.table(3, end="last_standing")
        first, victim, third = state.order
        state.sea_controller = victim
        hand, deck = list(state.hands[victim]), len(state.deck)
        log = [e.msg.id for e in k.answer(state, ("TEST",))]
        assert state.eliminated == [victim] and state.outcome is None and state.active == first
        assert state.hands[victim] == [] and len(state.deck) == deck + len(hand)
        assert set(hand) <= set(state.deck) and state.navy[victim] == {}
        assert state.sea_controller is None
        assert log[-4:] == ["eliminated", "hand_returned", "navy_returned", "sea_control_lapses"]
        # its old cards are in the deck: secret to the others, not to the player who held them
        assert set(hand) <= secrets(state, first) and not set(hand) & secrets(state, victim)
        assert view(state, None)["seats"][state.seats.index(victim)]["eliminated"]
        # the first player's turn goes on; the victim's turn is skipped
        k.answer(state, ("end",))
        assert state.active == third
        log = play(state)
    assert state.eliminated == [victim, first] and state.outcome["reason"] == "last_standing"
    assert GAME.outcome(state).winners == (third,) and log[-1].id == "game_over"


def test_a_21_4_last_player_standing_has_no_turn_limit() -> None:
    with k.no_actions():
        state = k.table(2, end="last_standing", turn_limit="12")
    assert state.outcome["reason"] == "round_cap" and state.turns_taken > 12


# ------------------------------------------------------------------ trade lock
def test_a_19_6_no_trade_in_each_players_last_turn_of_a_timed_game() -> None:
    """"The last 30 minutes" on a clock of turns: the last round's worth of turns (README)."""
    state = in_play(4, turn_limit="12")
    locked = []
    for taken in range(12):
        state.turns_taken = taken
        locked.append(victory.trade_locked(state))
    assert locked == [False] * 8 + [True] * 4
    state.options["finish_round"] = True
    state.options["turn_limit"] = "10"  # played out to 12: turns 9-12 are the last round
    state.turns_taken = 7
    assert not victory.trade_locked(state)
    state.turns_taken = 8
    assert victory.trade_locked(state)


def test_a_19_6_no_trade_lock_without_a_time_limit() -> None:
    for end in ("elimination", "last_standing"):
        state = in_play(2, end=end)
        state.turns_taken = 11
        assert not victory.trade_locked(state)


# ------------------------------------------------------------------ the log and the summary
def test_every_round_ends_with_the_standings_and_the_summary_reads_them() -> None:
    with k.only_action(lambda ctx, seat: None):
        state = k.table(2, turn_limit="5")
        log = play(state, take=False)
    ids = [m.id for m in log]
    assert ids.count("round_ends") == 2 and ids[-1] == "game_over"  # 5 turns: two whole rounds and a half
    rounds = [m.params["round"] for m in log if m.id == "round_ends"]
    assert rounds == [1, 2]
    fig = GAME.package.summary([{"id": m.id, "params": m.params} for m in log])
    colours = [state.colours[s] for s in state.order]
    assert [r for r, _ in fig["rounds"]] == [1, 2, 3]
    assert fig["rounds"][-1][1] == {c: 4 for c in colours}
    assert fig["by_role"] == {c: {"vp": 4, "cards": 0} for c in colours}
    line = next(m for m in log if m.id == "round_ends")
    assert "regions (land units: 24)" in GAME.package.catalogue.text(line, "en")
