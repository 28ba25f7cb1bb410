"""Scripted dice for Attack!'s rule tests: the worked examples' exact rolls.

Every die of the game is ``rng.randrange(6)`` (app/games/attack/dice.py). ``ScriptedDice`` answers
those calls from a script, in order, and fails loudly when the script runs out; everything else a
Random does (shuffles, random picks) comes from an ordinary seeded generator."""

from __future__ import annotations

import random

from app.games.attack.pack import pack


class ScriptedDice(random.Random):
    def __init__(self, *rolls: int, seed: int = 1) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        if (start, stop) != (6, None):
            return super().randrange(start, stop, step) if stop is not None else super().randrange(start)
        if not self.rolls:
            raise AssertionError("the script of dice ran out: the rules rolled more dice than the example")
        return self.rolls.pop(0)


def faces(*names: str) -> list[int]:
    """Battle dice showing these faces ("INF", "TNK", "ART", "PLN", "BLANK")."""
    die = pack().die_faces
    return [die.index(n) for n in names]


def pair(total: int) -> list[int]:
    """Two blue dice summing to ``total`` (2..12)."""
    a = min(6, total - 1)
    return [a - 1, total - a - 1]
