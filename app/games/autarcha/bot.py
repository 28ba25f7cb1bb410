"""Autarcha's bot: the skeleton's placeholder picks a random legal answer (the bot module replaces it)."""

from __future__ import annotations

import random

from app.games.autarcha.state import GameState
from app.games.protocol import Action, Decision


def choose(state: GameState, decision: Decision, rng: random.Random) -> Action:
    ids = decision.choice_ids()
    # ending the turn early would make the placeholder's games crawl: prefer anything else
    pool = [c for c in ids if c not in ("end", "back")] or ids
    n = max(decision.min, min(decision.max, 1))
    return Action(decision.id, tuple(rng.sample(pool, min(n, len(pool))) if len(pool) >= n else ids[:n]))
