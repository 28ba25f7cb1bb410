"""`python -m app fuzz GAME`: every game fuzzed the same way.

Plays seeded matches of any installed game (every table size it allows, in turn; its
options varied) with random legal answers to every kind of decision — multi-choice
min..max, simultaneous groups answered in random seat order and sometimes taken back,
any-time decisions at random moments — and the game's own bots for some seats. At every
step it checks what the platform relies on:

* ``dead-end``: a decision someone must answer exists unless the match is over (and none
  once it is over); ``decision``: every pending decision has a legal answer, a fresh id (not
  one already answered) unique among those pending, and any-time ones come last;
* ``never-ends``: the match ends within the bound the game declares (``max_actions``);
* ``dump-load``: ``load(dump(state))`` is the same state, also after a trip through JSON
  with its object keys re-ordered as PostgreSQL's JSONB does, and a copy reloaded that way
  at every step plays on exactly like the original;
* ``replay``: replaying the log from setup with the same per-action RNGs (the platform's
  own replay, undo rows included) reproduces every recorded state hash; and the first
  matches of a run, played again in a process with another PYTHONHASHSEED, take the same
  turns (rules that follow a set's order would not);
* ``leak``: no seat's view, pending decisions, log lines or waiting note, nor the spectators' view,
  waiting note or public log lines, contain what ``secrets(state, seat)`` says must stay hidden;
* ``bot``: the game's bot answers legally; ``apply``: the game takes every legal answer;
  ``undo``: taking back an answer inside a simultaneous step re-applies the others;
  ``crash``: anything else the game raised.

Pure: no database, no web (it borrows the platform's log walker, ``app.sessions.log_walk``,
and the decision payloads seats receive, ``app.sessions.views``; neither touches a database). A match is a
function of its seed alone, so a failure is reproduced by
``python -m app fuzz GAME -n 1 --seed S``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import importlib
import json
import multiprocessing
import os
import pickle
import random
import re
import resource
import subprocess
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import orjson

from app.games.protocol import (
    Action,
    Decision,
    Event,
    GameRules,
    Illegal,
    Seat,
    action_rng,
    validate_action,
    waiting_note_of,
)
from app.games.secrets import Secret, leaks

CHECKS = ("dead-end", "decision", "never-ends", "dump-load", "replay", "leak", "bot", "apply", "undo", "crash",
          "invariant")

Watch = Callable[[Any, list[Event]], None]  # a game's own invariant: (state, the newest row's events)

# How the random seats behave: chances per step, small enough that every match moves on.
ANYTIME_CHANCE = 0.08  # answer an any-time decision instead of the next required one
UNDO_CHANCE = 0.1  # take back a move that may be taken back (a seat's own answer in a group...)
MAX_UNDOS = 25  # per match: take-backs are a detour, the match must still go somewhere
BOT_SHARE = 0.5  # each seat is played by the game's bot with this chance, else by random answers


TWINS = 8  # exact copies a diverging answer is applied to again, to tell randomness from a lossy dump


# ---------------------------------------------------------------------- JSONB key orders

def jsonb_keys(value: Any) -> Any:
    """The same JSON value with every object's keys in PostgreSQL JSONB's order
    (shorter keys first, then by bytes): how a snapshot comes back from the database."""
    return _reordered(value, lambda keys: sorted(keys, key=_jsonb_order))


def _jsonb_order(key: str) -> tuple[int, str]:
    return len(key.encode()), key  # UTF-8 keeps code point order: comparing the strings compares their bytes


def shuffled_keys(value: Any, rng: random.Random) -> Any:
    """The same JSON value with every object's keys in a random order (the same order for
    every object with the same keys in the same order, as many are: a unit's fields)."""

    def shuffled(keys: tuple[str, ...]) -> list[str]:
        order = list(keys)
        rng.shuffle(order)
        return order

    return _reordered(value, shuffled)


def _reordered(value: Any, order: Callable[[tuple[str, ...]], list[str]]) -> Any:
    """``value`` rebuilt with each object's keys in ``order(keys)``, asked once per distinct key
    tuple (a state holds hundreds of objects of a few shapes: walking it is a fuzzed step's
    largest cost on a big state)."""
    orders: dict[tuple[str, ...], list[str]] = {}
    containers = (dict, list)

    def walk(v: Any) -> Any:
        if v.__class__ is dict:
            keys = tuple(v)
            ordered = orders.get(keys)
            if ordered is None:
                ordered = orders[keys] = order(keys)
            return {k: x if (x := v[k]).__class__ not in containers else walk(x) for k in ordered}
        if v.__class__ is list:
            return [x if x.__class__ not in containers else walk(x) for x in v]
        return v

    return walk(value)


def canonical(data: Any) -> bytes:
    """A dump as compact JSON with sorted keys: equal dumps, equal bytes, whatever their keys' order.
    orjson, not json: hashing is a third of a fuzzed step, and orjson is several times faster."""
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def digest(data: Any) -> str:
    """A hash of a dump's canonical form, compared within a fuzzed match and across its processes
    (the platform's own ``app.sessions.replay.state_hash`` is not read here)."""
    return hashlib.sha256(canonical(data)).hexdigest()


def as_text(value: Any) -> str:
    """A payload as a seat receives it, UTF-8 JSON: a secret with Polish letters is looked for as
    it is written, not as json.dumps' \\u escapes."""
    return orjson.dumps(value).decode()


# ---------------------------------------------------------------------- games

def resolve(spec: str) -> GameRules:
    """An installed game's id, or ``module:ATTR`` naming any object that satisfies GameRules."""
    if ":" in spec:
        module, _, attr = spec.partition(":")
        game = getattr(importlib.import_module(module), attr or "GAME")
        if not isinstance(game, GameRules):
            raise LookupError(f"{spec} does not satisfy the GameRules protocol")
        return game
    from app.games.registry import installed

    games = installed()
    if spec not in games:
        raise LookupError(f"no installed game '{spec}'; installed: {', '.join(sorted(games)) or 'none'}")
    return games[spec]


def reproduction(spec: str, seed: int) -> str:
    """The one line that plays the failing match again."""
    command = f"python -m app fuzz {spec} -n 1 --seed {seed}"
    extra = os.environ.get("WARROOM_EXTRA_GAMES", "")
    if ":" not in spec and extra and spec not in _builtin_ids():
        command = f"WARROOM_EXTRA_GAMES={extra} {command}"
    return command


def _builtin_ids() -> set[str]:
    from app.games.registry import BUILTIN, _load

    ids = set()
    for path in BUILTIN:
        try:
            ids.add(_load(path).id)
        except Exception:  # a builtin that does not load is not the one that failed here
            continue
    return ids


# ---------------------------------------------------------------------- one match

@dataclass(frozen=True)
class Plan:
    """Everything a match is made of, drawn from its seed."""

    seed: int
    players: int
    options: dict[str, Any]
    bots: tuple[str, ...]  # seats the game's own bot plays; the others answer at random


def plan(game: GameRules, seed: int, players: int | None = None, options: dict[str, Any] | None = None,
         bot_share: float = BOT_SHARE) -> Plan:
    """Table sizes rotate with the seed; options and bot seats are drawn from it."""
    rng = random.Random(f"plan:{game.id}:{seed}")
    if players is None:
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
    if options is None:
        options = {o.id: (rng.random() < 0.5 if o.kind == "bool" or not o.choices else rng.choice(o.choices))
                   for o in game.options}
    seats = game.roles(players, options)
    bots = tuple(s.id for s in seats if rng.random() < bot_share)
    return Plan(seed, players, dict(options), bots)


@dataclass(frozen=True)
class Failure:
    game: str
    seed: int
    check: str
    step: int  # the log row (seq) after which the check failed; 0 is the setup
    detail: str

    def line(self, spec: str | None = None) -> str:
        return (f"FAIL {self.game} seed {self.seed}: check '{self.check}' at step {self.step}: {self.detail}\n"
                f"reproduce: {reproduction(spec or self.game, self.seed)}")


@dataclass(frozen=True)
class MatchReport:
    seed: int
    players: int
    steps: int  # log rows (answers and take-backs)
    answers: int = 0  # standing answers to required decisions: what max_actions bounds
    anytime: int = 0  # answers to any-time decisions
    undos: int = 0  # moves taken back
    group_undos: int = 0  # of which answers inside a simultaneous step that other seats answered after
    bots: int = 0  # seats the game's bot played
    failure: Failure | None = None
    outcome: dict[str, Any] | None = None  # the Outcome as a dict, once over


class _Failed(Exception):
    def __init__(self, check: str, step: int, detail: str) -> None:
        super().__init__(detail)
        self.check, self.step, self.detail = check, step, detail


@dataclass(frozen=True)
class LoggedMove:
    """One row of the match's log, as the platform writes it (see ``commit_action``)."""

    seq: int
    seat: str
    payload: dict[str, Any]


def answer_payload(decision: Decision, action: Action) -> dict[str, Any]:
    payload: dict[str, Any] = {"decision": action.decision, "choices": list(action.choices)}
    if decision.undoable:
        payload["undoable"] = True
    if decision.group is not None:
        payload["group"] = decision.group
    return payload


def random_answer(decision: Decision, rng: random.Random) -> Action:
    """Any legal answer, leaning on the edges of min..max where bugs live."""
    ids = decision.choice_ids()
    top = min(decision.max, len(ids))
    roll = rng.random()
    n = decision.min if roll < 0.25 else top if roll < 0.5 else rng.randint(decision.min, top)
    return Action(decision=decision.id, choices=tuple(rng.sample(ids, max(0, min(n, len(ids))))))


def _decisions(pending: list[Decision]) -> list[tuple[Any, ...]]:
    return [(d.id, d.seat, d.kind, d.choice_ids(), d.min, d.max, d.undoable, d.group, d.optional) for d in pending]


def _short(exc: BaseException) -> str:
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    where = f" ({frame.filename.rsplit('/', 1)[-1]}:{frame.lineno})" if frame else ""
    return f"{type(exc).__name__}: {exc}{where}"[:500]


class Match:
    """One fuzzed match: the state as played, a copy reloaded through JSONB at every step,
    the log and the state hash after each of its rows."""

    def __init__(self, game: GameRules, p: Plan, invariant: Watch | None = None,
                 every_step: bool = True, whims: bool = True, trail: bool = False) -> None:
        self.game, self.plan, self.invariant = game, p, invariant
        self.trail: list[str] | None = [] if trail else None  # the state hash after setup and each row
        self.every_step = every_step  # else only the end state is checked (dump/load, replay, secrets)
        self.whims = whims  # take moves back and answer any-time decisions, as players may
        self.seed = f"fuzz:{game.id}:{p.seed}".encode()
        self.rng = random.Random(f"play:{game.id}:{p.seed}")  # the players' whims, not the game's dice
        self.keys = random.Random(f"keys:{game.id}:{p.seed}")
        self.seats: list[Seat] = game.roles(p.players, p.options)
        self.seat_ids = [s.id for s in self.seats]
        self.bound = game.max_actions(p.players, p.options)
        self.log: list[LoggedMove] = []
        self.hashes: list[str] = []  # after each row of the log
        self.standing: list[LoggedMove] = []
        self.before: dict[int, bytes] = {}  # seq -> the state under that move, while it may be taken back
        self.required = 0  # standing answers to decisions someone had to make
        self.anytime: set[int] = set()  # seqs of answers to any-time decisions
        self.answered: Counter[str] = Counter()  # standing answers to required decisions, by decision id
        self.undos = 0
        self.group_undos = 0
        self.finder = TokenFinder()
        self.state: Any = None
        self.mirror: Any = None
        self.under = b""
        self.last_events: list[Event] = []  # of the newest row of the log, for the game's own invariant
        self.spectated: Any = None  # the spectators' view of this step's state, once the mirror check has it

    # ---- the walk
    def play(self) -> MatchReport:
        try:
            self._play()
        except _Failed as failed:
            return self._report(Failure(self.game.id, self.plan.seed, failed.check, failed.step, failed.detail))
        except Exception as exc:
            return self._report(Failure(self.game.id, self.plan.seed, "crash", len(self.log), _short(exc)))
        return self._report(None)

    def _report(self, failure: Failure | None) -> MatchReport:
        outcome = None
        if failure is None and self.state is not None:
            o = self.game.outcome(self.state)
            outcome = None if o is None else {"winners": list(o.winners), "summary": o.summary,
                                              "scores": dict(o.scores)}
        return MatchReport(self.plan.seed, self.plan.players, len(self.log), self.required, len(self.anytime),
                           self.undos, self.group_undos, len(self.plan.bots), failure, outcome)

    def _play(self) -> None:
        game = self.game
        self.state = game.setup(dict(self.plan.options), self.seats, action_rng(self.seed, 0))
        if self.every_step:
            h = self._hash(self.state, 0)
            self.mirror = self._reloaded(game.dump(self.state), h, 0)
            self._check_secrets(0, [])
        while True:
            step = len(self.log)
            self._watch(step, self.last_events)
            if self.trail is not None:
                self.trail.append(self._hash(self.state, step))
            pending = game.pending(self.state)
            self._well_formed(step, pending)
            required = [d for d in pending if not d.optional]
            if game.outcome(self.state) is not None:
                if required:
                    raise _Failed("dead-end", step, f"the match is over but {required[0].id} is still pending")
                break
            if not required:
                offered = f" (only any-time ones: {', '.join(d.id for d in pending)})" if pending else ""
                raise _Failed("dead-end", step, f"no decision is pending and the match is not over{offered}")
            if self.required >= self.bound:
                raise _Failed("never-ends", step, f"{self.required} answers and still no outcome: "
                              f"max_actions({self.plan.players}, options) declares {self.bound}")
            if len(self.log) > 4 * self.bound + 1000:  # the fuzzer's own detours must end too
                raise _Failed("never-ends", step, "the match runs on through any-time answers and take-backs")
            self._step(pending, required)
        if self.every_step:
            self._check_replay()
        else:
            self._check_end_state()

    def _well_formed(self, step: int, pending: list[Decision]) -> None:
        """Each pending decision can be answered, its id names it alone, and any-time ones
        come last (the page answers the first)."""
        ids = [(d.id, d.seat) for d in pending]
        if len(set(ids)) != len(ids):
            raise _Failed("decision", step, f"two pending decisions share an id: {sorted(ids)}")
        for d in pending:
            legal = d.choice_ids()
            if not 0 <= d.min <= d.max or d.min > len(legal) or len(set(legal)) != len(legal):
                raise _Failed("decision", step, f"{d.id} has no legal answer ({len(legal)} choices, "
                              f"{d.min}..{d.max} to pick) or repeats a choice")
            if self.answered[d.id] and not d.optional:
                raise _Failed("decision", step, f"{d.id} is asked again after it was answered: a later "
                              "question needs a new id, or a stale answer would be taken for it")
        if any(a.optional and not b.optional for a, b in zip(pending, pending[1:], strict=False)):
            raise _Failed("decision", step, "an any-time decision is listed before a required one")

    def _watch(self, step: int, events: list[Event]) -> None:
        if self.invariant is not None:
            try:
                self.invariant(self.state, events)
            except AssertionError as exc:
                raise _Failed("invariant", step, str(exc) or "an invariant of the game does not hold") from exc

    def _step(self, pending: list[Decision], required: list[Decision]) -> None:
        rng = self.rng
        if self.whims and self.undos < MAX_UNDOS and rng.random() < UNDO_CHANCE and self._take_back():
            return
        optional = [d for d in pending if d.optional] if self.whims else []
        # several required at once (a simultaneous step): any seat may come first
        decision = rng.choice(optional) if optional and rng.random() < ANYTIME_CHANCE else rng.choice(required)
        self._answer(pending, decision)

    def _answer(self, pending: list[Decision], decision: Decision) -> None:
        game, seq = self.game, len(self.log) + 1
        if decision.seat in self.plan.bots and not decision.optional:  # bots leave any-time offers alone
            try:
                proposed = game.bot(self.state, decision, random.Random(self.rng.random()))
            except Exception as exc:
                raise _Failed("bot", seq, f"the bot failed on {decision.id}: {_short(exc)}") from exc
            if proposed.decision != decision.id:
                raise _Failed("bot", seq, f"asked {decision.id}, the bot answered {proposed.decision}")
            try:
                action = validate_action(decision, list(proposed.choices))
            except Illegal as exc:
                raise _Failed("bot", seq, f"the bot's answer to {decision.id} is illegal: {exc}") from exc
        else:
            action = random_answer(decision, self.rng)
        # the exact state under this answer: to take it back, and to tell a state that does not
        # survive dump/load from rules that do not give the same answer the same result
        # (kept for a take-back only when this run takes moves back: ``whims``)
        undoable = decision.undoable and self.whims
        self.under = pickle.dumps(self.state, pickle.HIGHEST_PROTOCOL) if self.every_step or undoable else b""
        if undoable:
            self.before[seq] = self.under
        else:
            # a move that cannot be taken back stands for good: nothing under it can be taken back again
            self.before.clear()
        try:
            events = game.apply(self.state, decision.seat, action, action_rng(self.seed, seq))
        except Exception as exc:
            raise _Failed("apply", seq, f"{decision.seat} answered {decision.id} with {list(action.choices)} "
                          f"(legal) and the game raised {_short(exc)}") from exc
        self.last_events = events
        move = LoggedMove(seq, decision.seat, answer_payload(decision, action))
        self.log.append(move)
        self.standing.append(move)
        if decision.optional:
            self.anytime.add(seq)
        else:
            self.required += 1
            self.answered[decision.id] += 1
        if self.every_step:
            h = self._hash(self.state, seq)
            self.hashes.append(h)
            self._mirror_follows(pending, decision, action, events, h, seq)
            self._check_secrets(seq, events)
            self.spectated = None

    def _take_back(self) -> bool:
        """Take back a move the platform would let its seat take back (``undoable_move``)."""
        from app.sessions import log_walk
        from app.sessions.log_walk import undoable_move

        candidates = [(seat, m) for seat in self.seat_ids if (m := undoable_move(self.standing, seat)) is not None]
        if not candidates:
            return False
        seat, target = self.rng.choice(candidates)
        seq = len(self.log) + 1
        at = self.standing.index(target)  # type: ignore[arg-type]
        state = pickle.loads(self.before[target.seq])
        later = self.standing[at + 1:]
        for move in later:  # other seats' answers in the same simultaneous step stand
            if move.payload.get("undoable"):
                self.before[move.seq] = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
            try:  # through the platform's walker, as its undo does
                log_walk.play(self.game, state, self.seed, move)
            except Exception as exc:
                raise _Failed("undo", seq, f"after taking back {target.payload['decision']}, re-applying "
                              f"{move.payload['decision']} of {move.seat} failed: {_short(exc)}; answers of "
                              "one simultaneous step must commute") from exc
        del self.standing[at]
        del self.before[target.seq]
        if target.seq not in self.anytime:
            self.required -= 1
            self.answered[target.payload["decision"]] -= 1
        self.undos += 1
        self.group_undos += bool(later)
        self.state = state
        self.last_events = []
        self.log.append(LoggedMove(seq, seat, {"undo": target.seq}))
        if self.every_step:
            h = self._hash(self.state, seq)
            self.hashes.append(h)
            self.mirror = self._reloaded(self.game.dump(self.state), h, seq)
            self._check_secrets(seq, [])
        return True

    # ---- dump/load
    def _hash(self, state: Any, seq: int) -> str:
        data = self.game.dump(state)
        try:
            return digest(data)
        except (TypeError, ValueError) as exc:
            raise _Failed("dump-load", seq, f"dump() is not JSON: {exc}") from exc

    def _reloaded(self, data: dict[str, Any], expected: str, seq: int) -> Any:
        """A fresh state from ``data`` (a dump) after a trip through JSON with its keys
        re-ordered: JSONB's order at even steps, a random one at odd steps."""
        data = orjson.loads(orjson.dumps(data))
        data = jsonb_keys(data) if seq % 2 == 0 else shuffled_keys(data, self.keys)
        again = self.game.load(data)
        if digest(self.game.dump(again)) != expected:
            raise _Failed("dump-load", seq, "load(dump(state)) dumps differently from the state "
                          f"(keys in {'JSONB' if seq % 2 == 0 else 'random'} order)")
        return again

    def _mirror_follows(self, pending: list[Decision], decision: Decision, action: Action, events: list[Event],
                        h: str, seq: int) -> None:
        """The copy reloaded at every step must offer the same decisions and take the same
        answer the same way."""
        game, mirror = self.game, self.mirror
        if _decisions(game.pending(mirror)) != _decisions(pending):
            raise _Failed("dump-load", seq, f"after a reload, other decisions are pending than {decision.id}…")
        try:
            mirrored = game.apply(mirror, decision.seat, action, action_rng(self.seed, seq))
        except Exception as exc:
            self._same_again(decision, action, events, h, seq)
            raise _Failed("dump-load", seq, f"after a reload, the game refuses {decision.id}: {_short(exc)}") from exc
        data = game.dump(mirror)
        if [asdict(e) for e in mirrored] != [asdict(e) for e in events] or digest(data) != h:
            self._same_again(decision, action, events, h, seq)
            raise _Failed("dump-load", seq, f"after a reload, {decision.id} tells other events or leads to "
                          "another state")
        self.spectated = game.view(self.state, None)  # the secrets check reads it too, at this step
        if game.view(mirror, None) != self.spectated:
            raise _Failed("dump-load", seq, "after a reload, the spectators see another table")
        self.mirror = self._reloaded(data, h, seq)

    def _same_again(self, decision: Decision, action: Action, events: list[Event], h: str, seq: int) -> None:
        """The reloaded copy went another way: if exact copies of the state (no dump/load)
        go another way too, the rules are not deterministic, and the replay would diverge.
        Several copies: a die rolled outside the action's RNG may come up the same once."""
        for _ in range(TWINS):
            twin = pickle.loads(self.under)
            try:
                again = self.game.apply(twin, decision.seat, action, action_rng(self.seed, seq))
            except Exception as exc:
                raise _Failed("replay", seq, f"{decision.id} applied again to the same state fails: "
                              f"{_short(exc)}") from exc
            if [asdict(e) for e in again] != [asdict(e) for e in events] or digest(self.game.dump(twin)) != h:
                raise _Failed("replay", seq, f"{decision.id} applied again to the same state with the same RNG "
                              "gives another result: the rules use randomness or an order that is not in the state")

    # ---- replay
    def _check_replay(self) -> None:
        """The platform's own walk of the log (``app.sessions.log_walk``, which serves undo,
        history, export and replay) meets every recorded hash."""
        from app.sessions import log_walk

        replay = log_walk.walk(self.game, log_walk.setup(self.game, self.plan.options, self.seats, self.seed),
                               self.seed, self.log)
        last = 0
        try:
            for move, state in replay:
                last = move.seq
                if digest(self.game.dump(state)) != self.hashes[move.seq - 1]:
                    raise _Failed("replay", move.seq, "replaying the log from setup gives another state "
                                  f"after {move.payload.get('decision') or move.payload}")
        except _Failed:
            raise
        except Exception as exc:
            raise _Failed("replay", last + 1, f"the log no longer replays: {_short(exc)}") from exc

    def _check_end_state(self) -> None:
        """The checks of a match not checked at every step, on its final state: it survives
        dump/load in JSONB's and a random key order, the replay of its log ends in it, and no
        view of it gives a secret away."""
        from app.sessions import log_walk

        seq = len(self.log)
        h = self._hash(self.state, seq)
        self._reloaded(self.game.dump(self.state), h, 0)
        self._reloaded(self.game.dump(self.state), h, 1)
        try:  # the way the server rebuilds a state from its own log: the standing moves, once each
            start = log_walk.setup(self.game, self.plan.options, self.seats, self.seed)
            final = log_walk.walk_to_end(self.game, start, self.seed, self.log)
        except Exception as exc:
            raise _Failed("replay", seq, f"the log no longer replays: {_short(exc)}") from exc
        if digest(self.game.dump(final)) != h:
            raise _Failed("replay", seq, "replaying the log from setup ends in another state")
        self._check_secrets(seq, [])

    # ---- secrets
    def _check_secrets(self, seq: int, events: list[Event]) -> None:
        """What each seat receives (its view, its pending decisions, the log lines it reads),
        and what everyone receives (the spectators' view, public log lines), against the
        secrets of that seat (of every seat, for what everyone receives)."""
        game, state = self.game, self.state
        from app.sessions.views import decision_payload, log_lines, msg_payload

        pending = game.pending(state)
        logged = [(seq, [asdict(e) for e in events])]
        everyone: set[str | Secret] = set()
        for seat in self.seat_ids:
            hidden = set(game.secrets(state, seat))
            everyone |= hidden
            if not hidden:
                continue
            received = [(f"{seat}'s view", as_text(game.view(state, seat)))]
            mine = [decision_payload(d) for d in pending if d.seat == seat]
            if mine:
                received.append((f"{seat}'s pending decisions", as_text(mine)))
            # the log lines as the seat gets them: its private text (else the public one) and
            # the same line's message id and parameters, rendered in the seat's language
            received += [(f"a log line {seat} reads", as_text(line)) for line in log_lines(logged, seat)]
            if (note := waiting_note_of(game, state, seat)) is not None:
                received.append((f"the waiting note {seat} reads", as_text(msg_payload(note))))
            _no_leak(seq, received, hidden, self.finder)
        if everyone:
            spectated = self.spectated if self.spectated is not None else game.view(state, None)
            received = [("the spectators' view", as_text(spectated))]
            if (note := waiting_note_of(game, state, None)) is not None:
                received.append(("the spectators' waiting note", as_text(msg_payload(note))))
            received += [("a public log line", as_text(line)) for line in log_lines(logged, None)]
            _no_leak(seq, received, everyone, self.finder)


class TokenFinder:
    """Finds which of a set of tokens occur in a text in one scan, not one per token.

    One pattern, a trie of every token seen so far in the match, matches (as a lookahead)
    wherever one of them starts, taking the longest; the tokens starting there are its
    prefixes. It is compiled again only when a token it has not seen comes up."""

    def __init__(self) -> None:
        self.universe: set[str] = set()
        self.lengths: list[int] = []
        self.pattern: re.Pattern[str] | None = None
        self.recent: list[_Prepared] = []  # the secrets of the last seats checked

    def prepared(self, hidden: set[str | Secret]) -> _Prepared:
        for prepared in self.recent:
            if prepared.hidden == hidden:
                return prepared
        prepared = _Prepared(hidden)
        self.recent = [prepared, *self.recent[:15]]
        return prepared

    def occurring(self, tokens: frozenset[str], text: str) -> list[str]:
        if not tokens:
            return []
        if not tokens <= self.universe:
            self.universe |= tokens
            self.lengths = sorted({len(t) for t in self.universe})
            self.pattern = re.compile(f"(?=({_trie(self.universe)}))")
        assert self.pattern is not None
        found = set()
        for longest in set(self.pattern.findall(text)):  # legitimate ids recur: look at each once
            found.update(longest[:n] for n in self.lengths if n <= len(longest) and longest[:n] in tokens)
        return sorted(found)


def _trie(tokens: Iterable[str]) -> str:
    tree: dict[str, Any] = {}
    for token in tokens:
        node = tree
        for ch in token:
            node = node.setdefault(ch, {})
        node[""] = {}

    def branch(node: dict[str, Any]) -> str:
        alts = [re.escape(ch) + branch(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        if "" in node:  # a token ends here: longer ones are tried first
            return f"(?:{body})?"
        return body

    return branch(tree)


PLAIN_ID = re.compile(r"[A-Za-z0-9_.:@#-]+")  # written the same in every JSON text and HTML


class _Prepared:
    """A seat's secrets sorted once for the scan: by the text without which each cannot be given
    away (``_token``). A seat's secrets seldom change from one step to the next, and sorting a few
    hundred of them at every step cost more than the scan."""

    def __init__(self, hidden: set[str | Secret]) -> None:
        self.hidden = set(hidden)
        self.by_token: dict[str, list[str | Secret]] = {}
        self.rest: list[str | Secret] = []  # secrets with no such token, judged payload by payload
        for secret in hidden:
            token = _token(secret)
            if token is None:
                self.rest.append(secret)
            else:
                self.by_token.setdefault(token, []).append(secret)
        self.tokens = frozenset(self.by_token)


def _token(secret: str | Secret) -> str | None:
    """The text without which ``secret`` cannot be given away in a payload, if there is one: the
    token itself, a text value, or the id a value is only secret next to (a plain id is written as it
    is, as a key or a value, in any JSON or text that names it)."""
    if isinstance(secret, str):
        return secret
    if secret.near is None:
        return secret.value if isinstance(secret.value, str) else None
    return secret.near if PLAIN_ID.fullmatch(secret.near) else None


def _no_leak(seq: int, received: list[tuple[str, str]], hidden: set[str | Secret], finder: TokenFinder) -> None:
    """``leaks`` over each payload. Most secrets cannot leak without a token of text (a card id, a square,
    the id of the mine a square belongs to): those tokens are first looked for in all the payloads at
    once, in one scan, and only a secret whose token occurs is judged payload by payload. The same test,
    much faster."""
    prepared = finder.prepared(hidden)
    occurring = finder.occurring(prepared.tokens, "\x00".join(text for _, text in received))
    suspects = [secret for token in occurring for secret in prepared.by_token[token]]
    if not suspects and not prepared.rest:
        return
    for where, text in received:
        found = leaks(text, [*suspects, *prepared.rest])
        if found:
            shown = ", ".join(repr(s) if isinstance(s, str) else s.place or repr(s.value) for s in found[:3])
            raise _Failed("leak", seq, f"{where} gives away {shown}")


def check_match(game: GameRules, seed: int, players: int | None = None, options: dict[str, Any] | None = None,
                bot_share: float = BOT_SHARE, invariant: Watch | None = None,
                every_step: bool = True, whims: bool = True) -> MatchReport:
    """Play and check the match of ``seed`` (see the module's docstring). ``invariant`` is the
    game's own check of a state and the events that led to it, run after the setup and after
    every row of the log, the final one included (an AssertionError fails the match);
    ``every_step=False`` checks dump/load, replay and secrets on the final state only;
    ``whims=False`` leaves take-backs and any-time decisions alone (bot-vs-bot games)."""
    try:
        p = plan(game, seed, players, options, bot_share)
    except Exception as exc:
        return MatchReport(seed, players or 0, 0, failure=Failure(game.id, seed, "crash", 0, _short(exc)))
    return Match(game, p, invariant, every_step, whims).play()


# ---------------------------------------------------------------------- many matches

@dataclass
class Summary:
    game: str
    matches: int = 0
    steps: int = 0
    seconds: float = 0.0
    longest: int = 0  # the most required answers one match took
    failures: list[Failure] = field(default_factory=list)

    @property
    def first_failure(self) -> Failure | None:
        return min(self.failures, key=lambda f: f.seed, default=None)

    def rates(self) -> str:
        s = max(self.seconds, 1e-9)
        return f"{self.matches / s:.1f} matches/s, {self.steps / s:.0f} steps/s"


def _chunk(spec: str, seeds: Sequence[int]) -> list[MatchReport]:
    """A worker's share: stops at its first failure."""
    game = resolve(spec)
    out = []
    for seed in seeds:
        report = check_match(game, seed)
        out.append(report)
        if report.failure is not None:
            break
    return out


def _chunks(first: int, n: int, size: int) -> Iterator[list[int]]:
    for start in range(first, first + n, size):
        yield list(range(start, min(start + size, first + n)))


def fuzz(spec: str, n: int, first: int = 0, jobs: int = 1,
         progress: Callable[[Summary], None] | None = None) -> Summary:
    """Play ``n`` matches from seed ``first`` on; stop at the first failure."""
    game = resolve(spec)
    summary = Summary(game.id)
    started = time.perf_counter()

    def take(reports: list[MatchReport]) -> None:
        for report in reports:
            summary.matches += 1
            summary.steps += report.steps
            summary.longest = max(summary.longest, report.answers)
            if report.failure is not None:
                summary.failures.append(report.failure)
        summary.seconds = time.perf_counter() - started
        if progress is not None:
            progress(summary)

    if jobs <= 1:
        for seeds in _chunks(first, n, 10):
            take(_chunk(spec, seeds))
            if summary.failures:
                break
    else:
        size = max(1, min(25, n // (jobs * 8) or 1))
        context = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
        with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=context) as pool:
            futures = {pool.submit(_chunk, spec, seeds): seeds[0] for seeds in _chunks(first, n, size)}
            for future in concurrent.futures.as_completed(futures):
                if future.cancelled():
                    continue
                take(future.result())
                failed = summary.first_failure
                if failed is not None:
                    # matches after the failing seed are not needed; those before it still run,
                    # so the seed reported is the first that fails whatever the workers' pace
                    for other, start in futures.items():
                        if start > failed.seed:
                            other.cancel()
    if not summary.failures and n > 0:
        failure = other_process(spec, list(range(first, first + min(n, HASH_SEED_SAMPLE))))
        if failure is not None:
            summary.failures.append(failure)
    summary.seconds = time.perf_counter() - started
    return summary


HASH_SEED_SAMPLE = 5  # matches played again in another process, the first seeds of the run


def hash_trail(game: GameRules, seed: int) -> list[str]:
    """The state hashes after the setup and after each row of the match of ``seed``."""
    match = Match(game, plan(game, seed), every_step=False, trail=True)
    match.play()
    return match.trail or []


def other_process(spec: str, seeds: Sequence[int]) -> Failure | None:
    """Play ``seeds`` again in a process with another PYTHONHASHSEED: string hashing is salted
    per process, so rules that follow the order of a set (or of a dict built from one) take
    other turns there, which a replay after a restart would meet. The first divergence."""
    game = resolve(spec)
    mine = {seed: hash_trail(game, seed) for seed in seeds}
    salt = "7" if os.environ.get("PYTHONHASHSEED") != "7" else "11"
    code = ("import json, sys; from app.fuzz import hash_trail, resolve; game = resolve(sys.argv[1]); "
            "print(json.dumps({s: hash_trail(game, int(s)) for s in sys.argv[2:]}))")
    env = {**os.environ, "PYTHONHASHSEED": salt,
           "PYTHONPATH": os.pathsep.join(filter(None, (os.getcwd(), os.environ.get("PYTHONPATH"))))}
    done = subprocess.run([sys.executable, "-c", code, spec, *map(str, seeds)], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return Failure(game.id, seeds[0], "crash", 0, f"the match could not be played in another process: {tail}")
    theirs = json.loads(done.stdout)
    for seed in seeds:
        other = theirs[str(seed)]
        step = next((i for i, (a, b) in enumerate(zip(mine[seed], other, strict=False)) if a != b),
                    None if len(mine[seed]) == len(other) else min(len(mine[seed]), len(other)))
        if step is not None:
            return Failure(game.id, seed, "replay", step, f"played again under PYTHONHASHSEED={salt}, the match "
                           "takes another turn here: the rules follow the order of a set or of string hashes")
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app fuzz", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="an installed game's id (e.g. qmg), or module:ATTR")
    parser.add_argument("-n", type=int, default=100, help="matches to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the first match's seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")


def run(args: argparse.Namespace) -> int:
    """0: every match passed every check; 1: a check failed; 2: no such game."""
    try:
        game = resolve(args.game)
    except (LookupError, ImportError) as exc:
        print(f"fuzz: {exc}", file=sys.stderr, flush=True)
        return 2
    print(f"fuzz {game.id}: {args.n} matches from seed {args.seed}, {game.min_players}-{game.max_players} "
          f"players, {args.jobs} job(s)", flush=True)
    last = [time.perf_counter()]

    def progress(s: Summary) -> None:
        now = time.perf_counter()
        if now - last[0] >= 5 or s.matches == args.n:
            last[0] = now
            print(f"  {s.matches}/{args.n} matches, {s.steps} steps, {s.seconds:.1f}s: {s.rates()}", flush=True)

    cpu = _cpu_seconds()
    summary = fuzz(args.game, args.n, args.seed, args.jobs, progress)
    cpu = _cpu_seconds() - cpu  # on a shared machine the rate per CPU second is the figure that holds
    failure = summary.first_failure
    if failure is not None:
        print(f"{summary.matches} matches played ({summary.rates()})", flush=True)
        print(failure.line(args.game), flush=True)
        return 1
    print(f"ok: {summary.matches} matches, {summary.steps} steps in {summary.seconds:.1f}s "
          f"({summary.rates()}; {summary.matches / max(cpu, 1e-9):.2f} matches per CPU second); "
          f"the longest took {summary.longest} answers", flush=True)
    return 0


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished workers."""
    me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime


if __name__ == "__main__":
    sys.exit(main())
