"""Replays asked for over HTTP: verifying an uploaded export, hashing public views for one.

Both are CPU work that grows with the log (about a millisecond a move for QMG), so:

* they run in a small pool of worker processes. A thread would not do: it shares the GIL
  with the event loop, so every other request would crawl behind a long replay;
* each user (or address, for anonymous exports) spends them from a budget of replayed moves
  that refills over ``BUDGET_WINDOW_SECONDS``, so one account cannot keep the pool busy;
* only a few jobs may wait for the pool at once; past that the answer is 503, rather than a
  queue of uploads held in memory.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from app.sessions.errors import Unavailable
from app.sessions.limits import RateLimit

T = TypeVar("T")
BUDGET_WINDOW_SECONDS = 600
WAITING_PER_PROCESS = 4


def verify_max_bytes() -> int:
    """The largest upload to verify (JSON body or page form): a long match is well under it."""
    return max(1024, int(os.environ.get("WARROOM_VERIFY_MAX_BYTES", str(2 * 1024 * 1024))))


def replay_budget() -> int:
    """Moves one user (or address) may have replayed per ``BUDGET_WINDOW_SECONDS``."""
    return max(1, int(os.environ.get("WARROOM_REPLAY_BUDGET", "20000")))


def replay_processes() -> int:
    return max(1, int(os.environ.get("WARROOM_REPLAY_PROCESSES", "1")))


_budget = replay_budget()
budget = RateLimit("replayed moves (exports and verifications)", per_second=_budget / BUDGET_WINDOW_SECONDS,
                   burst=_budget)


def charge(key: str, moves: int) -> None:
    """Take ``moves`` from ``key``'s budget or refuse with 429. A replay longer than the whole
    budget is still allowed once the budget is full: the size limit bounds it anyway."""
    budget.check(key, cost=max(1, min(moves, budget.burst)))


def _serve_parent(parent: int) -> None:
    """Worker start-up: Ctrl+C is the server's to handle, and a worker outlives no server
    (a killed server never sends the pool its shutdown)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(2)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class ReplayPool:
    """Worker processes started on first use (most servers never verify anything)."""

    def __init__(self, processes: int) -> None:
        self.processes = processes
        self.waiting_limit = processes * WAITING_PER_PROCESS
        self._executor: ProcessPoolExecutor | None = None
        self._jobs = 0

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawn: a fork would copy the event loop, its sockets and the database pool
            self._executor = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_serve_parent, initargs=(os.getpid(),))
        return self._executor

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        if self._jobs >= self.processes + self.waiting_limit:
            raise Unavailable("the server is busy replaying other matches: try again in a minute", retry_after=30)
        self._jobs += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool(), job, *args)
        except BrokenProcessPool as exc:  # a worker died (killed, out of memory): start afresh next time
            self.close()
            raise Unavailable("the replay worker stopped: try again") from exc
        finally:
            self._jobs -= 1

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


pool = ReplayPool(replay_processes())
