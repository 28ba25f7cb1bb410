"""Quartermaster General WW2 (2nd edition): pure rules engine and data pack."""

from app.games.qmg.rules import GAME, QuartermasterGeneral

__all__ = ["GAME", "QuartermasterGeneral"]
