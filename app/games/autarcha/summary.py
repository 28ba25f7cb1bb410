"""Autarcha's end-of-game figures, read from the public log alone (docs/protocol.md, "summary"): the
"game_over" line (victory.py) carries per side the units still standing and lost, the gold and the area
cards held; ``by_role`` shows the units standing as the score ("vp") and the cards held."""

from __future__ import annotations

from typing import Any

GAME_OVER = "game_over"


def summary(lines: list[dict[str, Any]]) -> dict[str, Any]:
    by_role: dict[str, dict[str, int]] = {}
    turn: Any = None
    reason: Any = None
    for line in lines:
        params = line.get("params") if isinstance(line, dict) else None
        if line.get("id") != GAME_OVER or not isinstance(params, dict) or not isinstance(params.get("figures"), list):
            continue
        turn, reason = params.get("turn"), params.get("reason")
        for row in params["figures"]:
            p = row.get("params") if isinstance(row, dict) else None
            if not isinstance(p, dict) or not isinstance(p.get("seat"), str):
                continue
            try:
                by_role[p["seat"]] = {"vp": int(p.get("units") or 0), "cards": int(p.get("cards") or 0),
                                      "lost": int(p.get("lost") or 0), "gold": int(p.get("gold") or 0)}
            except (TypeError, ValueError):
                continue
    out: dict[str, Any] = {"by_role": by_role}
    if turn is not None:
        out["turns"], out["reason"] = turn, reason
    return out
