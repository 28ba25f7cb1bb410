"""The token buckets behind every 429."""

from __future__ import annotations

import pytest

from app.api.errors import status_of
from app.sessions.limits import RateLimit, TooMany


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_a_burst_is_allowed_then_refused_with_the_wait_named() -> None:
    clock = FakeClock()
    limit = RateLimit("tables created", per_second=0.5, burst=3, now=clock)
    for _ in range(3):
        limit.check("u1")
    with pytest.raises(TooMany) as refused:
        limit.check("u1")
    assert status_of(refused.value) == 429  # the web layer's one mapping
    assert "too many tables created" in refused.value.error
    assert refused.value.retry_after == 2
    limit.check("u2")  # another key has its own bucket


def test_tokens_refill_with_time() -> None:
    clock = FakeClock()
    limit = RateLimit("logins", per_second=1, burst=1, now=clock)
    limit.check("a")
    assert limit.retry_after("a") > 0
    clock.t += 1.0
    assert limit.retry_after("a") == 0


def test_memory_is_bounded_by_max_keys() -> None:
    limit = RateLimit("x", per_second=1, burst=1, max_keys=100, now=FakeClock())
    for i in range(10_000):
        limit.retry_after(f"k{i}")
    assert len(limit) == 100
