"""First to Fight's end-of-game figures, read from the public log alone (docs/protocol.md, "summary"):
the scores after every Ending Phase (victory.py's "standings" lines, and the last one "game_over"),
and per seat the final VP and the missions it won (face up)."""

from __future__ import annotations

from typing import Any

STANDINGS, GAME_OVER = "standings", "game_over"


def _rows(params: dict[str, Any]) -> dict[str, tuple[int, int]] | None:
    rows = params.get("standing")
    if not isinstance(rows, list):
        return None
    out: dict[str, tuple[int, int]] = {}
    for row in rows:
        p = row.get("params") if isinstance(row, dict) else None
        if not isinstance(p, dict) or not isinstance(p.get("seat"), str):
            continue
        try:
            out[p["seat"]] = (int(p.get("vp") or 0), int(p.get("won") or 0))
        except (TypeError, ValueError):
            continue
    return out


def summary(lines: list[dict[str, Any]]) -> dict[str, Any]:
    rounds: list[list[Any]] = []
    final: dict[str, tuple[int, int]] = {}
    for line in lines:
        kind, params = line.get("id"), line.get("params") or {}
        if kind not in (STANDINGS, GAME_OVER) or not isinstance(params, dict):
            continue
        rows = _rows(params)
        if rows is None:
            continue
        final = rows
        rounds.append([params.get("round"), {s: vp for s, (vp, _) in rows.items()}])
    return {"rounds": rounds, "by_role": {s: {"vp": vp, "cards": won} for s, (vp, won) in final.items()}}
