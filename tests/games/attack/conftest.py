"""Attack! test configuration: the long bot-vs-bot run is behind the ``at_slow`` marker."""

from __future__ import annotations

from tests.long_runs import marker_hooks

pytest_configure, pytest_collection_modifyitems = marker_hooks(
    "at_slow", "the thousand-game Attack! run", "tests/games/attack")
