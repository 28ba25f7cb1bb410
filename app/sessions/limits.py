"""Per-worker rate limits: token buckets keyed by user, address or account name.

Each bucket refills at ``per_second`` up to ``burst``. Memory is bounded: the
least recently used keys are dropped past ``max_keys`` (a dropped key starts
full again, which only ever errs on the player's side). Limits are per worker
process; with N workers a flood gets at most N times the budget, which the
README documents (a proxy in front is the place for global limits).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from app.sessions.errors import RateLimited


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class RateLimit:
    def __init__(self, what: str, per_second: float, burst: int, max_keys: int = 50_000,
                 now: Callable[[], float] = time.monotonic, page_key: str | None = None) -> None:
        self.what = what  # completes "too many …": says what was limited
        self.page_key = page_key  # the catalogue's text for pages, given {seconds}; else ``what``
        self.per_second = per_second
        self.burst = burst
        self.max_keys = max_keys
        self.now = now
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def retry_after(self, key: str, cost: float = 1.0) -> float:
        """Take ``cost`` tokens for ``key``: 0 when allowed, else the seconds to wait."""
        now = self.now()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(float(self.burst), now)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.stamp) * self.per_second)
            bucket.stamp = now
        if bucket.tokens >= cost:
            bucket.tokens -= cost
            return 0.0
        return (cost - bucket.tokens) / self.per_second

    def check(self, key: str, cost: float = 1.0) -> None:
        """Raise 429 naming what was limited and when to try again."""
        wait = self.retry_after(key, cost)
        if wait > 0:
            seconds = max(1, round(wait + 0.5))
            raise TooMany(f"too many {self.what}: try again in {seconds} s", seconds, self.page_key)

    def forget(self, key: str) -> None:
        self._buckets.pop(key, None)

    def __len__(self) -> int:
        return len(self._buckets)


class TooMany(RateLimited):
    def __init__(self, error: str, retry_after: int, page_key: str | None = None) -> None:
        super().__init__(error, retry_after=retry_after)
        self.retry_after = retry_after
        self.page_key = page_key
