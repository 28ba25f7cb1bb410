"""Autarcha test configuration: the long bot-vs-bot run is behind the ``au_slow`` marker."""

from __future__ import annotations

from tests.long_runs import marker_hooks

pytest_configure, pytest_collection_modifyitems = marker_hooks(
    "au_slow", "the thousand-game Autarcha run", "tests/games/autarcha")
