"""Total Domination (Phalanx): pure rules engine and data pack (spec: shared/rules/total-domination.md)."""

from app.games.total_domination.rules import GAME, TotalDomination

__all__ = ["GAME", "TotalDomination"]
