"""Tunables the sessions layer reads at run time."""

from __future__ import annotations

import os


def snapshot_every() -> int:
    return max(1, int(os.environ.get("WARROOM_SNAPSHOT_EVERY", "50")))
