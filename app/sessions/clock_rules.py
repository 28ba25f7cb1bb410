"""Clock arithmetic: pure functions of times and milliseconds, no database, no web.

Two paces share one model. A *live* table plays chess-style: a bank of minutes plus an
increment per move. An *async* table plays in days: a starting bank, a credit per move
and a cap on the bank, so a fast player cannot hoard weeks. Both are (initial, credit,
cap) in milliseconds; only the units and the cap differ.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

SECOND_MS = 1000
DAY_MS = 24 * 60 * 60 * SECOND_MS

LIVE_FIELDS = ("initial_seconds", "increment_seconds")
ASYNC_FIELDS = ("initial_days", "per_move_days", "max_days")
DEFAULTS: dict[str, dict[str, int]] = {
    "live": {"initial_seconds": 20 * 60, "increment_seconds": 30},
    "async": {"initial_days": 3, "per_move_days": 1, "max_days": 7},
}
# a reclaimed seat whose bank is empty comes back with one move's credit, never less than this
MIN_RECLAIM_MS = 60 * SECOND_MS

Interval = tuple[datetime, datetime]


class ClockError(ValueError):
    """A clock setting that makes no sense; the text starts with the field it names."""


@dataclass(frozen=True)
class Pace:
    kind: str  # live | async
    initial_ms: int
    credit_ms: int
    cap_ms: int | None  # None: the bank may grow without bound (live)

    def settings(self) -> dict[str, int]:
        """The pace in the units the players chose it in."""
        if self.kind == "live":
            return {"initial_seconds": self.initial_ms // SECOND_MS, "increment_seconds": self.credit_ms // SECOND_MS}
        assert self.cap_ms is not None
        return {"initial_days": self.initial_ms // DAY_MS, "per_move_days": self.credit_ms // DAY_MS,
                "max_days": self.cap_ms // DAY_MS}


def parse_pace(mode: str, clock: Mapping[str, Any] | None) -> Pace | None:
    """The pace of a new table from its mode and the client's ``clock`` object
    (None = untimed; missing fields take the mode's defaults)."""
    if clock is None:
        return None
    if mode not in DEFAULTS:
        raise ClockError(f"mode: no clock for mode '{mode}'")
    own = LIVE_FIELDS if mode == "live" else ASYNC_FIELDS
    for key, value in clock.items():
        if value is None:
            continue
        if key not in own:
            raise ClockError(f"clock.{key}: not a setting of a {mode} table's clock (use {', '.join(own)})")
        if isinstance(value, bool) or not isinstance(value, int):
            raise ClockError(f"clock.{key}: must be a whole number")
    got = {**DEFAULTS[mode], **{k: v for k, v in clock.items() if v is not None}}
    if mode == "live":
        if got["initial_seconds"] < 10:
            raise ClockError("clock.initial_seconds: must be at least 10")
        if got["increment_seconds"] < 0:
            raise ClockError("clock.increment_seconds: must not be negative")
        return Pace("live", got["initial_seconds"] * SECOND_MS, got["increment_seconds"] * SECOND_MS, None)
    if got["initial_days"] < 1:
        raise ClockError("clock.initial_days: must be at least 1")
    if got["per_move_days"] < 0:
        raise ClockError("clock.per_move_days: must not be negative")
    if got["max_days"] < got["initial_days"]:
        raise ClockError(f"clock.max_days: must be at least initial_days ({got['initial_days']})")
    return Pace("async", got["initial_days"] * DAY_MS, got["per_move_days"] * DAY_MS, got["max_days"] * DAY_MS)


def overlap_ms(start: datetime, end: datetime, pauses: Iterable[Interval]) -> int:
    """How much of [start, end) falls inside the pauses (which must not overlap each other)."""
    total = 0
    for p_start, p_end in pauses:
        lo, hi = max(start, p_start), min(end, p_end)
        if hi > lo:
            total += _ms(hi - lo)
    return total


def charged_ms(running_since: datetime, now: datetime, pauses: Iterable[Interval] = ()) -> int:
    """The time a running clock has used: wall time minus its owner's vacations."""
    if now <= running_since:
        return 0
    return max(0, _ms(now - running_since) - overlap_ms(running_since, now, pauses))


def remaining_at(remaining_ms: int, running_since: datetime | None, now: datetime,
                 pauses: Iterable[Interval] = ()) -> int:
    """What is left on a clock at ``now`` (never below zero)."""
    if running_since is None:
        return max(0, remaining_ms)
    return max(0, remaining_ms - charged_ms(running_since, now, pauses))


def credited(pace: Pace, remaining_ms: int) -> tuple[int, int]:
    """The bank after a move's credit, capped; returns (new bank, credit actually given)."""
    after = remaining_ms + pace.credit_ms
    if pace.cap_ms is not None:
        after = min(after, max(pace.cap_ms, remaining_ms))
    return after, after - remaining_ms


def reclaim_bank(pace: Pace, remaining_ms: int) -> int:
    """A player taking back a seat whose clock ran out gets one move's credit to play with."""
    if remaining_ms > 0:
        return remaining_ms
    grant = max(pace.credit_ms, MIN_RECLAIM_MS)
    return min(grant, pace.cap_ms) if pace.cap_ms is not None else grant


def vacation_days_charged(started: datetime, ended: datetime) -> int:
    """Every begun day of a vacation counts, and at least one: pausing for an hour is not free."""
    return max(1, math.ceil((ended - started) / timedelta(days=1)))


def _ms(delta: timedelta) -> int:
    return delta // timedelta(milliseconds=1)
