"""Helpers for the bot's tests: seeded games played by a chosen bot per seat, a re-deal of what a
seat may not see, and staged maps."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from app.games.attack import engine
from app.games.attack.rules import GAME
from app.games.attack.state import GameState
from app.games.protocol import Action, Decision, action_rng, random_bot

Bot = Callable[[GameState, Decision, random.Random], Action]


def heuristic(st: GameState, d: Decision, rng: random.Random) -> Action:
    return GAME.bot(st, d, rng)


def randomly(st: GameState, d: Decision, rng: random.Random) -> Action:
    return random_bot(d, rng)


def new_game(seed: int, players: int = 4, **options: Any) -> GameState:
    return GAME.setup(options, GAME.roles(players, options), random.Random(seed))


def next_decision(st: GameState) -> Decision | None:
    return next((d for d in GAME.pending(st) if not d.optional), None)


def play(st: GameState, bots: dict[str, Bot], seed: int, limit: int = 60_000,
         each: Callable[[GameState, Decision, Action], None] | None = None) -> GameState:
    """Play ``st`` to its end, seat ``s`` answered by ``bots[s]``; ``each`` sees every answer first."""
    rng = random.Random(seed * 7919)
    key = f"attack-bot-test{seed}".encode()
    for _ in range(limit):
        d = next_decision(st)
        if d is None:
            return st
        action = bots[d.seat](st, d, rng)
        if each is not None:
            each(st, d, action)
        GAME.apply(st, d.seat, action, action_rng(key, st.step))
    raise AssertionError(f"game {seed} did not end in {limit} answers")


def redeal(st: GameState, seat: str, seed: int) -> GameState:
    """A copy of ``st`` where every Economics card ``seat`` may not see is dealt anew: the other hands
    and the deck, each keeping its size (the cards a seat saw stay where they are)."""
    other = copy.deepcopy(st)
    seen = set(st.seen.get("*", [])) | set(st.seen.get(seat, []))
    hidden = [c for s, h in other.hands.items() if s != seat for c in h if c not in seen]
    hidden += [c for c in other.deck if c not in seen]
    random.Random(seed).shuffle(hidden)
    for s, h in other.hands.items():
        if s != seat:
            other.hands[s] = [c if c in seen else hidden.pop() for c in h]
    other.deck = [c if c in seen else hidden.pop() for c in other.deck]
    return other


def current_kind(st: GameState) -> str | None:
    t = engine.current(st)
    return None if t is None else (t.get("q") or {}).get("kind")
