"""Helpers for the bot's tests: seeded games played by a chosen bot per seat, a re-deal of every card a
seat may not see, and staged questions (a table laid out by hand, a decision built as a rule module
would ask it)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from app.games.first_to_fight.pack import pack
from app.games.first_to_fight.rules import GAME
from app.games.first_to_fight.state import GameState
from app.games.protocol import Action, Choice, Decision, Msg, action_rng, random_bot

Bot = Callable[[GameState, Decision, random.Random], Action]


def heuristic(st: GameState, d: Decision, rng: random.Random) -> Action:
    return GAME.bot(st, d, rng)


def randomly(st: GameState, d: Decision, rng: random.Random) -> Action:
    return random_bot(d, rng)


def new_game(seed: int, players: int = 4, **options: Any) -> GameState:
    return GAME.setup(options, GAME.roles(players, options), random.Random(seed))


def next_decision(st: GameState) -> Decision | None:
    return next((d for d in GAME.pending(st) if not d.optional), None)


def play(st: GameState, bots: dict[str, Bot], seed: int, limit: int = 20_000,
         each: Callable[[GameState, Decision, Action], None] | None = None) -> GameState:
    """Play ``st`` to its end, seat ``s`` answered by ``bots[s]``; ``each`` sees every answer first."""
    rng = random.Random(seed * 7919)
    key = f"ftf-bot-test{seed}".encode()
    for _ in range(limit):
        d = next_decision(st)
        if d is None:
            return st
        action = bots[d.seat](st, d, rng)
        if each is not None:
            each(st, d, action)
        GAME.apply(st, d.seat, action, action_rng(key, st.step))
    raise AssertionError(f"game {seed} did not end in {limit} answers")


def _shuffle_unseen(cards: list[str], seen: set[str], rng: random.Random) -> list[str]:
    hidden = [c for c in cards if c not in seen]
    rng.shuffle(hidden)
    return [c if c in seen else hidden.pop() for c in cards]


def redeal(st: GameState, seat: str, seed: int) -> GameState:
    """A copy of ``st`` where every card ``seat`` may not see is dealt anew: the missions in the other
    hands, in both stage decks and removed at setup (a red card only where a red one was, since the
    backs are public), the order of the soldier deck and of the event deck. Cards the seat saw stay."""
    other = copy.deepcopy(st)
    rng = random.Random(seed)
    seen = set(st.seen.get("*", [])) | set(st.seen.get(seat, [])) | set(st.hands.get(seat, []))
    missions = pack().missions
    slots: list[tuple[list[str], int]] = []
    for s, hand in other.hands.items():
        if s != seat:
            slots += [(hand, i) for i in range(len(hand))]
    for deck in (other.stage1_deck, other.stage2_deck, other.removed_missions):
        slots += [(deck, i) for i in range(len(deck))]
    for stage in (1, 2):
        mine = [(cards, i) for cards, i in slots if missions[cards[i]].stage == stage and cards[i] not in seen]
        hidden = [cards[i] for cards, i in mine]
        rng.shuffle(hidden)
        for (cards, i), card in zip(mine, hidden, strict=True):
            cards[i] = card
    other.soldier_deck = _shuffle_unseen(other.soldier_deck, seen, rng)
    other.event_deck = _shuffle_unseen(other.event_deck, seen, rng)
    return other


# ---------------------------------------------------------------- staged questions
def staged(seed: int = 1, players: int = 4, **options: Any) -> GameState:
    """A fresh table past setup's questions' deal, emptied of soldiers: the test lays out its own."""
    st = new_game(seed, players, **options)
    st.soldiers = {}
    st.concentration = None
    return st


def put(st: GameState, soldier: str, region: str, s: int | None = None, u: int | None = None,
        wounds: int = 0, trained: bool = False) -> None:
    card = pack().soldiers[soldier]
    st.soldiers[soldier] = {"region": region, "s": card.strength if s is None else s,
                            "u": card.underground if u is None else u, "trained": trained, "wounds": wounds}
    if soldier in st.soldier_deck:
        st.soldier_deck.remove(soldier)


def soldiers_of(formation: str) -> list[str]:
    return sorted(s for s, c in pack().soldiers.items() if c.formation == formation)


def ask(seat: str, kind: str, choices: list[str], prompt: str = "prompt", lo: int = 1, hi: int = 1,
        **params: Any) -> Decision:
    """A decision as a rule module would put it (prompt parameters: the soldier, the region...)."""
    return Decision(id="q-test", seat=seat, kind=kind, prompt=prompt,
                    choices=tuple(Choice(id=c, label=c) for c in choices), min=lo, max=hi,
                    prompt_msg=Msg(prompt, params))


def answer(st: GameState, d: Decision) -> tuple[str, ...]:
    return GAME.bot(st, d, random.Random(0)).choices
