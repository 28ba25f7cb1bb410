"""The end-of-game figures of a finished match, read from its public log (no extra state):
the score of each team at the end of every round, and each country's VP and cards played."""

from __future__ import annotations

from typing import Any

from app.games.qmg.data import COUNTRIES

# the log lines that put a card of a country into play (a Response goes down face down: still played)
PLAYS = ("plays_card", "plays_card_summary", "plays_status", "plays_response")
TEAMS = ("axis", "allies")


def summary(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """``lines``: the public log's messages in order. Rounds are closed by the next round's first
    turn or by the end of the log (a win ends the round it is scored in)."""
    score = {team: 0 for team in TEAMS}
    by_country = {c: {"vp": 0, "cards": 0} for c in COUNTRIES}
    rounds: list[list[Any]] = []
    current: int | None = None
    for line in lines:
        kind, params = line.get("id"), line.get("params") or {}
        if kind == "turn_starts":
            if current is not None and params.get("round") != current:
                rounds.append([current, dict(score)])
            current = params.get("round")
        elif kind in ("vp_gain", "vp_loss") and params.get("team") in score:
            delta = int(params.get("n") or 0) * (1 if kind == "vp_gain" else -1)
            score[params["team"]] += delta
            reason = params.get("reason")
            country = reason.get("params", {}).get("country") if isinstance(reason, dict) else None
            if country in by_country:
                by_country[country]["vp"] += delta
        elif kind in PLAYS and params.get("country") in by_country:
            by_country[params["country"]]["cards"] += 1
    if current is not None:
        rounds.append([current, dict(score)])
    return {"rounds": rounds, "by_role": by_country, "totals": score}
