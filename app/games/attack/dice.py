"""Every die of the game, from the answer's RNG (so a replay rolls the same) and logged by the caller.

Battle dice show a face of the pack's die (``Pack.die_faces``); blue dice are plain d6 (A-2).
Tests script the rolls by handing the engine a ``ScriptedDice`` (tests/games/attack/dice_kit.py)
through ``Ctx.rng``: everything here asks the RNG through ``randrange(6)`` only."""

from __future__ import annotations

import random

from app.games.attack.pack import pack


def battle_dice(rng: random.Random, n: int) -> list[str]:
    """``n`` battle dice: their faces ("INF", "TNK", "ART", "PLN" or "BLANK")."""
    faces = pack().die_faces
    return [faces[rng.randrange(6)] for _ in range(n)]


def blue(rng: random.Random) -> tuple[int, int]:
    """Two blue dice (2d6): both faces, so the log can show them."""
    return rng.randrange(6) + 1, rng.randrange(6) + 1
