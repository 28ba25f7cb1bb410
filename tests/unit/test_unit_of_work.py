"""The one unit of work for a change at a table (app/sessions/work.py): the match's lock is
taken before the transaction begins and let go only after it committed; bots wake only after
the commit and only when asked; a refusal commits nothing and wakes nobody."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.sessions.errors import Refused, Stale
from app.sessions.replay import MatchCache
from app.sessions.work import MatchWork


class FakeSession:
    """Records the transaction's life next to what the unit of work does around it."""

    def __init__(self, events: list[str], cache: MatchCache, match_id: str) -> None:
        self.events, self.cache, self.match_id = events, cache, match_id

    @contextlib.asynccontextmanager
    async def begin(self) -> AsyncIterator[None]:
        self.events.append(f"begin locked={self.cache.busy(self.match_id)}")
        try:
            yield
        except BaseException:
            self.events.append("rollback")
            raise
        self.events.append(f"commit locked={self.cache.busy(self.match_id)}")


def unit(events: list[str]) -> tuple[MatchWork, MatchCache]:
    cache = MatchCache()
    return MatchWork(cache, lambda match_id: events.append(f"wake {match_id} locked={cache.busy(match_id)}")), cache


@pytest.mark.asyncio
async def test_the_lock_spans_the_transaction_and_bots_wake_after_the_commit() -> None:
    events: list[str] = []
    work, cache = unit(events)
    db: Any = FakeSession(events, cache, "m1")

    async def act() -> str:
        events.append("act")
        return "done"

    assert await work.change(db, "m1", act, wake_bots=True) == "done"
    assert events == ["begin locked=True", "act", "commit locked=True", "wake m1 locked=False"]
    assert cache.lock_count() == 0


@pytest.mark.asyncio
async def test_bots_wake_only_when_the_act_says_one_may_be_due() -> None:
    events: list[str] = []
    work, cache = unit(events)
    db: Any = FakeSession(events, cache, "m1")

    async def act() -> int:
        return 0

    await work.change(db, "m1", act)
    await work.change(db, "m1", act, wake_bots=lambda moved: moved > 0)
    assert not [e for e in events if e.startswith("wake")]


@pytest.mark.asyncio
@pytest.mark.parametrize("refusal", [Refused("not your turn"), Stale("stale move")])
async def test_a_refusal_rolls_back_and_wakes_nobody(refusal: Exception) -> None:
    events: list[str] = []
    work, cache = unit(events)
    db: Any = FakeSession(events, cache, "m1")

    async def act() -> None:
        raise refusal

    with pytest.raises(type(refusal)):
        await work.change(db, "m1", act, wake_bots=True)
    assert events == ["begin locked=True", "rollback"]
    assert cache.lock_count() == 0
