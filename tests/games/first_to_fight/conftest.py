"""First to Fight test configuration: the long bot-vs-bot run is behind the ``ftf_slow`` marker."""

from __future__ import annotations

from tests.long_runs import marker_hooks

pytest_configure, pytest_collection_modifyitems = marker_hooks(
    "ftf_slow", "the thousand-game First to Fight run", "tests/games/first_to_fight")
