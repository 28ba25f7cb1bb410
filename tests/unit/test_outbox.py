"""A socket's outbox: a one-reader queue that holds nothing while idle."""

from __future__ import annotations

import asyncio

import pytest

from app.sessions.live import Outbox


@pytest.mark.asyncio
async def test_items_come_out_in_order_and_a_full_outbox_refuses() -> None:
    box = Outbox(maxsize=2)
    assert box.empty()
    box.put_nowait("a")
    box.put_nowait(None)
    with pytest.raises(asyncio.QueueFull):
        box.put_nowait("c")
    assert box.qsize() == 2
    assert await box.get() == "a"
    assert box.get_nowait() is None
    assert box.empty()
    with pytest.raises(asyncio.QueueEmpty):
        box.get_nowait()


@pytest.mark.asyncio
async def test_a_waiting_writer_is_woken_and_a_cancelled_one_leaves_no_waiter() -> None:
    box = Outbox(maxsize=4)
    reader = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    box.put_nowait("x")
    assert await reader == "x"
    gone = asyncio.create_task(box.get())
    await asyncio.sleep(0)
    gone.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gone
    box.put_nowait("y")  # no one waits: nothing to wake, the item stays
    assert await box.get() == "y"
