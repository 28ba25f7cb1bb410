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


# ---------------------------------------------------------------- staged tables
def line_map() -> str:
    """A small staged map: home - front - neutral - far by land, ``isle`` by a lane from ``front``,
    ``east`` beside ``home``; a non-anchored zone (borders only)."""
    from app.games.attack.pack import Lane, Map, Region, register_map

    names = ["home", "front", "neutral", "far", "isle", "east"]
    regions = [Region(id=n, name=n.title(), name_pl=n.title(), continent="eurasia", lon=float(i), lat=0.0)
               for i, n in enumerate(names)]
    land = [("home", "front"), ("front", "neutral"), ("neutral", "far"), ("home", "east")]
    register_map(Map.build("bot_line", regions, land, lanes=[Lane("front", "isle")]))
    return "bot_line"


def staged(units: dict[str, tuple[str, dict[str, int]]], capitals: dict[str, str] | None = None,
           hands: dict[str, list[str]] | None = None, navy: dict[str, dict[str, int]] | None = None,
           sea_controller: str | None = None, active: str = "p1") -> GameState:
    """A table in play on the staged map: ``units`` region -> (seat, units)."""
    seats = ["p1", "p2", "p3", "p4"]
    st = GameState(options={"end": "timed", "turn_limit": "36", "finish_round": False, "one_per_continent": False,
                            "players": 4},
                   map=line_map(), seats=seats, colours={s: c for s, c in zip(seats, ["light_brown", "green", "blue",
                                                                                      "red"], strict=True)},
                   order=list(seats), phase="play", active=active, round=2)
    st.turn = {"seat": active, "actions": []}
    for region, (seat, u) in units.items():
        st.add_units(region, seat, u)
    st.capitals = dict(capitals or {})
    st.hands = {s: list((hands or {}).get(s, [])) for s in seats}
    st.navy = {s: dict((navy or {}).get(s, {})) for s in seats}
    st.sea_controller = sea_controller
    return st


def decision(who: str, kind: str, choices: list[str], lo: int = 1, hi: int = 1, **params: Any) -> Decision:
    from app.games.protocol import Choice, Msg

    return Decision(id="q1", seat=who, kind=kind, prompt=kind, choices=tuple(Choice(c, c) for c in choices),
                    min=lo, max=hi, prompt_msg=Msg(f"prompt_{kind}", params))


def answer(st: GameState, d: Decision, seed: int = 1) -> tuple[str, ...]:
    return GAME.bot(st, d, random.Random(seed)).choices
