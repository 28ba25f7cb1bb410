"""First to Fight (2–4 players): Polish soldiers of the Second World War and their secret missions."""

from app.games.first_to_fight.rules import GAME

__all__ = ["GAME"]
