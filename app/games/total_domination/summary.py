"""The end-of-game figures of a finished match, read from its public log (no extra state): each
side's VP at the end of every year (from the "vp_changes" lines, which carry each power's new
total), and each power's final VP and cards played for their operations, event or technology."""

from __future__ import annotations

from typing import Any

from app.games.total_domination import pack as td_pack
from app.games.total_domination.pack import POWERS, side_of

YEAR_STARTS = "year_begins"
VP_LINE = "vp_changes"
# the log lines of a power putting a card of its hand into play, one per card: for operations
# (operations.py), as an event (events.py), face down for a technology (techs.py: a Research
# event's card comes from the discards, and logs the same line), a rocket, Lend-Lease
PLAYS = ("ops_played", "log_event", "log_tech_played", "log_rocket", "log_lend_lease")


def _starting_vp() -> dict[str, int]:
    """Each power's VP before the first change the log records (the VP track's start marks)."""
    try:
        start = td_pack.pack().starting_vp
    except (FileNotFoundError, ImportError):
        start = {}
    return {p: int(start.get(p, 0)) for p in POWERS}


def summary(lines: list[dict[str, Any]]) -> dict[str, Any]:
    vp = _starting_vp()
    cards = dict.fromkeys(POWERS, 0)
    years: list[list[Any]] = []
    year: Any = None

    def totals() -> dict[str, int]:
        out = {"axis": 0, "allies": 0}
        for p, n in vp.items():
            out[side_of(p)] += n
        return out

    for line in lines:
        kind, params = line.get("id"), line.get("params") or {}
        if year is None and kind != YEAR_STARTS and isinstance(params.get("year"), int):
            year = params["year"]  # the first year began at setup, before the log: its lines name it
        if kind == YEAR_STARTS:
            if year is not None:
                years.append([year, totals()])
            year = params.get("year")
        elif kind == VP_LINE and params.get("power") in vp:
            try:
                vp[params["power"]] = int(params.get("total") or 0)
            except (TypeError, ValueError):
                continue
        elif kind in PLAYS and params.get("power") in cards:
            cards[params["power"]] += 1
    if year is not None:
        years.append([year, totals()])
    return {"rounds": years, "by_role": {p: {"vp": vp[p], "cards": cards[p]} for p in POWERS}, "totals": totals()}
