"""Total Domination test configuration: the long bot-vs-bot run is behind the ``td_slow`` marker."""

from __future__ import annotations

from tests.long_runs import marker_hooks

pytest_configure, pytest_collection_modifyitems = marker_hooks(
    "td_slow", "long Total Domination bot-vs-bot run", "tests/games/total_domination")
