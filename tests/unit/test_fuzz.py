"""Every game is fuzzed the same way (issue 8, section 5).

Every installed game (and the fixture) passes a small fuzz run; a broken game planted
around the fixture is caught by the check that names its bug, with the first seed that
shows it; and `python -m app fuzz` exits 1 with a reproduction line that reproduces it.
"""

from __future__ import annotations

import functools
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.fuzz import MatchReport, TokenFinder, check_match, fuzz, jsonb_keys, plan
from app.games.protocol import Action, Decision, Event, GameRules, Illegal
from app.games.secrets import Secret
from tests.fixtures.cardgame import GAME as CARDGAME
from tests.fixtures.cardgame import Skirmish, SkirmishState

ROOT = Path(__file__).resolve().parents[2]
HERE = "tests.unit.test_fuzz"


def games() -> list[GameRules]:
    from app.games.registry import installed

    return [*installed().values(), CARDGAME]


# a few matches per table size; the fixture is quick, so it gets more
MATCHES = {"cardgame": 30, "qmg": 5}


@functools.cache
def reports_of(game: GameRules) -> list[MatchReport]:
    sizes = game.max_players - game.min_players + 1
    return [check_match(game, seed) for seed in range(MATCHES.get(game.id, 2 * sizes))]


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_every_installed_game_passes_the_fuzzer(game: GameRules) -> None:
    reports = reports_of(game)
    failures = [r.failure.line() for r in reports if r.failure is not None]
    assert not failures, failures
    assert all(r.outcome is not None for r in reports)
    assert {r.players for r in reports} == set(range(game.min_players, game.max_players + 1))
    assert any(r.bots for r in reports) and any(r.bots < r.players for r in reports), "bots and random seats"
    assert max(r.answers for r in reports) <= game.max_actions(game.max_players, {})


def test_the_fixture_runs_exercise_every_kind_of_decision() -> None:
    """Simultaneous bids answered in any seat order and taken back, any-time answers,
    and every option value: the fixture's run is the proof that the fuzzer reaches them."""
    reports = reports_of(CARDGAME)
    assert sum(r.undos for r in reports) > 10
    assert sum(r.group_undos for r in reports) > 0, "a seat takes back its bid after another seat's"
    assert sum(r.anytime for r in reports) > 10
    plans = [plan(CARDGAME, seed) for seed in range(len(reports))]
    assert {p.options["anytime"] for p in plans} == {True, False}
    assert {p.options["target"] for p in plans} == set(CARDGAME.options[0].choices)


def test_qmg_answers_its_any_time_removal_in_a_fuzz_run() -> None:
    from app.games.qmg import GAME as QMG

    report = check_match(QMG, 3)
    assert report.failure is None and report.anytime > 0


def test_a_match_is_a_function_of_its_seed() -> None:
    assert check_match(CARDGAME, 17) == check_match(CARDGAME, 17)


def test_jsonb_orders_keys_by_length_then_bytes() -> None:
    assert list(jsonb_keys({"bb": 1, "a": {"zz": 1, "y": 2}, "c": 3})) == ["a", "c", "bb"]
    assert list(jsonb_keys({"bb": 1, "a": {"zz": 1, "y": 2}})["a"]) == ["y", "zz"]


def test_the_token_finder_finds_exactly_the_tokens_that_occur() -> None:
    finder = TokenFinder()
    tokens = frozenset({"ger-1", "ger-12", "uk-03", "b", "ab"})
    assert finder.occurring(tokens, 'x "ger-12" uk-0 ab') == ["ab", "b", "ger-1", "ger-12"]
    assert finder.occurring(frozenset({"uk-03"}), "uk-033") == ["uk-03"]
    assert finder.occurring(frozenset({"zz"}), "a zz b") == ["zz"]
    assert finder.occurring(frozenset({"uk-03"}), "uk-04, uk_03") == []


def test_the_one_scan_judges_every_kind_of_secret_as_leaks_does() -> None:
    """The fuzzer looks for a secret's token in all payloads at once before it judges payload by payload:
    a secret tied to an id, a text value, a value that is not text, each is still caught, and an id
    seen without the secret value is no leak."""
    from app.fuzz import _Failed, _no_leak
    from app.games.secrets import Secret

    mine = Secret(place="red's mine m3", value="10.04.NE", near="m3")
    lid = Secret(place="red's u20 behind the lid", value="20.08.NE")
    pair = Secret(place="a hidden HQ", value=(3, 4))
    caught = {
        mine: '{"mines": [{"id": "m3", "sq": "10.04.NE"}]}',
        lid: '{"log": "placed at 20.08.NE"}',
        pair: '{"hq": [3, 4]}',
        "card-17": '{"hand": ["card-17"]}',
    }
    for secret, text in caught.items():
        with pytest.raises(_Failed, match="gives away"):
            _no_leak(1, [("a view", '{"turn": 3}'), ("a log line", text)], {secret, "card-2"}, TokenFinder())
    harmless = [("a view", '{"mines": [{"id": "m3"}], "units": [{"sq": "10.04.NE"}], "hq": [4, 3]}')]
    _no_leak(1, harmless, {mine, pair, "card-17"}, TokenFinder())


# ---------------------------------------------------------------------- planted bugs

class DeadEnd(Skirmish):
    """Waits for nobody in the third round's turns."""

    def pending(self, state: SkirmishState) -> list[Decision]:
        return [] if state.round == 3 and state.phase != "bid" else super().pending(state)


class ReusesAnId(Skirmish):
    """Names every turn's play the same: an answer sent for last turn's play would be taken."""

    def pending(self, state: SkirmishState) -> list[Decision]:
        return [Decision(**{**d.__dict__, "id": f"play:{d.seat}"}) if d.kind == "play" else d
                for d in super().pending(state)]


class BidsTwoOfThree(Skirmish):
    """Asks for four sealed bids out of three."""

    def pending(self, state: SkirmishState) -> list[Decision]:
        return [Decision(**{**d.__dict__, "min": 4, "max": 4}) if d.kind == "bid" else d
                for d in super().pending(state)]


class Endless(Skirmish):
    """Never checks for its end: once the cards are out, everyone passes for ever."""

    def _check_end(self, state: SkirmishState) -> bool:
        return False


class LosesTheDiscard(Skirmish):
    """Its snapshot forgets the discard pile."""

    def dump(self, state: SkirmishState) -> dict[str, Any]:
        data = super().dump(state)
        del data["discard"]
        return data

    def load(self, data: dict[str, Any]) -> SkirmishState:
        return super().load({**data, "discard": data.get("discard", [])})


class LoadsBidsAsText(Skirmish):
    """Its load leaves sealed bids as the strings JSON gave them: it dumps differently."""

    def load(self, data: dict[str, Any]) -> SkirmishState:
        state = super().load(data)
        state.bids = {s: (None if v is None else str(v)) for s, v in state.bids.items()}  # type: ignore[misc]
        return state


class RollsTheGlobalDie(Skirmish):
    """Rolls with the global random module instead of the action's RNG."""

    def _do_roll(self, state: SkirmishState, seat: str, choice: str, rng: random.Random) -> list[Event]:
        return super()._do_roll(state, seat, choice, random.Random(random.random()))


class RemembersOutsideItsState(Skirmish):
    """Counts plays in the game object, not in the state: a replay starts from another count."""

    def __init__(self) -> None:
        self.plays = 0

    def _do_play(self, state: SkirmishState, seat: str, choice: str, rng: random.Random) -> list[Event]:
        self.plays += 1
        events = super()._do_play(state, seat, choice, rng)
        if self.plays % 7 == 0:
            state.scores[seat] += 1
        return events


class DrawsFromASet(Skirmish):
    """Draws 'any' card of the deck: the first of a set of them, which is an order of string
    hashes, the same all along one process and another in the next."""

    def _do_play(self, state: SkirmishState, seat: str, choice: str, rng: random.Random) -> list[Event]:
        if state.deck:
            pick = next(iter(set(state.deck)))
            state.deck.remove(pick)
            state.deck.append(pick)  # the base rules draw the last card
        return super()._do_play(state, seat, choice, rng)


DRAWS_FROM_A_SET = DrawsFromASet()


class ShowsAHand(Skirmish):
    """Shows p2's first card to p1, from the second round on."""

    def view(self, state: SkirmishState, seat: str | None) -> dict[str, Any]:
        out = super().view(state, seat)
        if seat == "p1" and state.round >= 2 and state.hands["p2"]:
            out["rumour"] = state.hands["p2"][0]
        return out


class ShowsTheSquare(Skirmish):
    """Shows everyone's headquarters square to spectators, as x/y."""

    def view(self, state: SkirmishState, seat: str | None) -> dict[str, Any]:
        out = super().view(state, seat)
        if seat is None:
            out["map"] = [{"x": x, "y": y} for x, y in state.hq.values()]
        return out


class NamesTheDraw(Skirmish):
    """Says publicly which card was drawn."""

    def _do_play(self, state: SkirmishState, seat: str, choice: str, rng: random.Random) -> list[Event]:
        events = super()._do_play(state, seat, choice, rng)
        return [Event(e.private[seat], {}) if seat in e.private else e for e in events]


class PromptsWithAHand(Skirmish):
    """Asks for a bid with the next seat's hand in the prompt."""

    def pending(self, state: SkirmishState) -> list[Decision]:
        out = []
        for d in super().pending(state):
            if d.kind == "bid":
                nxt = state.seats[(state.seats.index(d.seat) + 1) % len(state.seats)]
                d = Decision(**{**d.__dict__, "prompt": f"{d.prompt}; they hold {','.join(state.hands[nxt])}"})
            out.append(d)
        return out


class BidsThree(Skirmish):
    """Its bot bids 3, which is not among the choices."""

    def bot(self, state: SkirmishState, decision: Decision, rng: random.Random) -> Action:
        if decision.kind == "bid":
            return Action(decision.id, ("3",))
        return super().bot(state, decision, rng)


class RefusesToPass(Skirmish):
    """Offers 'pass' and then refuses it."""

    def _do_play(self, state: SkirmishState, seat: str, choice: str, rng: random.Random) -> list[Event]:
        if choice == "pass":
            raise Illegal("you may not pass")
        return super()._do_play(state, seat, choice, rng)


class ThreeSeatLeak(ShowsAHand):
    """Leaks only at tables of three: seeds 1, 4, 7... (table sizes rotate 2, 3, 4)."""

    def view(self, state: SkirmishState, seat: str | None) -> dict[str, Any]:
        return super().view(state, seat) if len(state.seats) == 3 else Skirmish.view(self, state, seat)


THREE_SEAT_LEAK = ThreeSeatLeak()


@pytest.mark.parametrize(("broken", "check"), [
    (DeadEnd(), "dead-end"),
    (ReusesAnId(), "decision"),
    (BidsTwoOfThree(), "decision"),
    (Endless(), "never-ends"),
    (LosesTheDiscard(), "dump-load"),
    (LoadsBidsAsText(), "dump-load"),
    (RollsTheGlobalDie(), "replay"),
    (RemembersOutsideItsState(), "replay"),
    (ShowsAHand(), "leak"),
    (ShowsTheSquare(), "leak"),
    (NamesTheDraw(), "leak"),
    (PromptsWithAHand(), "leak"),
    (BidsThree(), "bot"),
    (RefusesToPass(), "apply"),
], ids=lambda v: type(v).__name__ if not isinstance(v, str) else v)
def test_each_check_catches_its_bug(broken: GameRules, check: str) -> None:
    summary = fuzz_game(broken, 12)
    failure = summary.first_failure
    assert failure is not None, f"{type(broken).__name__} passed the fuzzer"
    assert failure.check == check, failure.line()
    # the reported match fails alone, at the same step, as the reproduction line promises
    # (a game that rolls the global die fails again, but not necessarily at the same roll)
    again = check_match(type(broken)(), failure.seed).failure
    assert again is not None and again.check == failure.check
    assert again.step == failure.step or isinstance(broken, RollsTheGlobalDie)


def fuzz_game(game: GameRules, n: int) -> Any:
    from app.fuzz import Summary

    summary = Summary(game.id)
    for seed in range(n):
        report = check_match(game, seed)
        summary.matches += 1
        if report.failure is not None:
            summary.failures.append(report.failure)
            break
    return summary


def test_the_leak_report_names_the_secret_and_where_it_was_seen() -> None:
    failure = check_match(ShowsTheSquare(), 0).failure
    assert failure is not None and failure.check == "leak"
    assert "spectators' view" in failure.detail and "headquarters" in failure.detail
    failure = check_match(ShowsAHand(), 0).failure
    assert failure is not None and "p1's view" in failure.detail


def test_the_first_failing_seed_is_reported() -> None:
    summary = fuzz(f"{HERE}:THREE_SEAT_LEAK", 6, first=0)
    failure = summary.first_failure
    assert failure is not None and failure.check == "leak" and failure.seed == 1
    assert summary.matches == 2  # it stops there
    expected = next(seed for seed in range(2, 30) if check_match(THREE_SEAT_LEAK, seed).failure is not None)
    assert expected % 3 == 1
    later = fuzz(f"{HERE}:THREE_SEAT_LEAK", 28, first=2, jobs=2).first_failure
    assert later is not None and later.seed == expected


def test_secrets_at_places_are_checked_too() -> None:
    """Secret values (not only tokens) reach the check: a facing beside its seat."""

    class ShowsFacings(Skirmish):
        def view(self, state: SkirmishState, seat: str | None) -> dict[str, Any]:
            out = super().view(state, seat)
            for entry in out["seats"]:
                entry["facing"] = state.facing[entry["id"]]
            return out

    failure = check_match(ShowsFacings(), 0).failure
    assert failure is not None and failure.check == "leak" and "facing" in failure.detail
    assert Secret("p2's facing", "N", near="p2") in {Secret("p2's facing", "N", near="p2")}


def test_an_order_of_string_hashes_is_caught_in_another_process() -> None:
    """One process plays such a game the same way every time (the checks in-process pass);
    the run plays its first matches again under another PYTHONHASHSEED, as a replay after
    a restart would, and reports where they part."""
    assert all(check_match(DRAWS_FROM_A_SET, seed).failure is None for seed in range(3))
    failure = fuzz(f"{HERE}:DRAWS_FROM_A_SET", 3).first_failure
    assert failure is not None and failure.check == "replay" and failure.seed in range(3)
    assert "PYTHONHASHSEED" in failure.detail
    assert fuzz("tests.fixtures.cardgame:GAME", 3).first_failure is None


# ---------------------------------------------------------------------- the command

def run_cli(*args: str, extra_games: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("WARROOM_EXTRA_GAMES", None)
    if extra_games:
        env["WARROOM_EXTRA_GAMES"] = "tests.fixtures.cardgame:GAME"
    return subprocess.run([sys.executable, "-m", "app", "fuzz", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_command_passes_a_sound_game() -> None:
    done = run_cli("cardgame", "-n", "6", "--seed", "3", extra_games=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6/6 matches" in done.stdout and "matches/s" in done.stdout and "steps/s" in done.stdout


def test_the_command_reports_the_first_failing_seed_and_how_to_reproduce_it() -> None:
    done = run_cli(f"{HERE}:THREE_SEAT_LEAK", "-n", "6", "--jobs", "2")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL cardgame seed 1: check 'leak' at step" in done.stdout
    line = next(x for x in done.stdout.splitlines() if x.startswith("reproduce: "))
    command = line.removeprefix("reproduce: ")
    assert command == f"python -m app fuzz {HERE}:THREE_SEAT_LEAK -n 1 --seed 1"
    again = run_cli(*command.split()[4:])
    assert again.returncode == 1 and "FAIL cardgame seed 1: check 'leak'" in again.stdout


def test_the_reproduction_line_carries_the_extra_games_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.fuzz import Failure

    monkeypatch.setenv("WARROOM_EXTRA_GAMES", "tests.fixtures.cardgame:GAME")
    line = Failure("cardgame", 9, "leak", 3, "x").line()
    assert line.endswith("reproduce: WARROOM_EXTRA_GAMES=tests.fixtures.cardgame:GAME "
                         "python -m app fuzz cardgame -n 1 --seed 9")


def test_the_command_refuses_an_unknown_game() -> None:
    done = run_cli("no-such-game", "-n", "1")
    assert done.returncode == 2 and "no installed game 'no-such-game'" in done.stderr


def test_end_state_checks_alone_pass_sound_games_and_catch_a_divergent_replay() -> None:
    """``every_step=False`` (the 1,000-game QMG run's mode for most games) still plays every
    step's checks on the way (dead ends, the bound, the bot, the game's invariant) and checks
    the end: dump/load, the server's walk of the log, the views."""
    seen: list[int] = []
    for seed in range(6):
        report = check_match(CARDGAME, seed, every_step=False, invariant=lambda st, ev: seen.append(st.round))
        assert report.failure is None and report.outcome is not None
    assert seen
    failure = next(r.failure for seed in range(12)
                   if (r := check_match(RollsTheGlobalDie(), seed, every_step=False)).failure is not None)
    assert failure.check == "replay"  # another end state, or a log that no longer replays


def test_an_invariant_that_breaks_is_reported_as_such() -> None:
    def no_third_round(state: SkirmishState, events: list[Event]) -> None:
        assert state.round < 3, "a third round"

    failure = check_match(CARDGAME, 0, options={"target": "100", "anytime": False}, invariant=no_third_round).failure
    assert failure is not None and failure.check == "invariant" and failure.detail.startswith("a third round")
