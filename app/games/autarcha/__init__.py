"""Autarcha: a 2-player tactical wargame on a square grid (spec ``shared/rules/autarcha.md``)."""

from app.games.autarcha.rules import GAME

__all__ = ["GAME"]
