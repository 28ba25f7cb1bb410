"""Attack! (Eagle Games): pure rules engine and data pack (spec: shared/rules/attack.md)."""

from app.games.attack.rules import GAME, Attack

__all__ = ["GAME", "Attack"]
