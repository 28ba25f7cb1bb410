"""The server's clock: real time, or moved by tests.

``WARROOM_CLOCK_SHIFT_FILE`` names a file holding a number of seconds added to the
real clock, re-read whenever it changes, so a test can jump hours ahead (digest
windows, retry backoff) in a running server without sleeping.
``WARROOM_FAKE_NOW_FILE`` names a file holding an ISO timestamp that *is* the time,
for tests that need exact instants (clocks).

Server time is the only time Warroom trusts: every module asks ``now()`` here.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta

_cache: dict[str, tuple[float, float]] = {}  # path -> (mtime, shift seconds)


def _shift() -> float:
    path = os.environ.get("WARROOM_CLOCK_SHIFT_FILE")
    if not path:
        return 0.0
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return 0.0
    cached = _cache.get(path)
    if cached is None or cached[0] != mtime:
        try:
            with open(path) as fh:
                shift = float(fh.read().strip() or 0)
        except (OSError, ValueError):
            shift = 0.0
        cached = _cache[path] = (mtime, shift)
    return cached[1]


def now() -> datetime:
    fake = os.environ.get("WARROOM_FAKE_NOW_FILE")
    if fake:
        with open(fake) as f:
            return datetime.fromisoformat(f.read().strip()).astimezone(UTC)
    return datetime.now(UTC) + timedelta(seconds=_shift())
