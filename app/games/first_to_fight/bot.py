"""The heuristic bot for every seat (a placeholder until the BOT part lands: a random legal answer)."""

from __future__ import annotations

import random

from app.games.first_to_fight.state import GameState
from app.games.protocol import Action, Decision, random_bot


def choose(state: GameState, decision: Decision, rng: random.Random) -> Action:
    return random_bot(decision, rng)
