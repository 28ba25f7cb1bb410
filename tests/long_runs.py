"""The long seeded runs (a thousand bot games) sit behind a marker each, skipped unless asked for.

A game's conftest gets both pytest hooks from ``marker_hooks``: ``-m <marker>`` runs the long run,
any other selection skips it with a note saying how to run it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def marker_hooks(marker: str, what: str, folder: str) -> tuple[Callable[[Any], None], Callable[[Any, list[Any]], None]]:
    def pytest_configure(config: Any) -> None:
        config.addinivalue_line("markers", f"{marker}: {what} (pytest -m {marker})")

    def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
        import pytest

        if marker in (config.getoption("-m") or ""):
            return
        skip = pytest.mark.skip(reason=f"long run: use pytest -m {marker} {folder}")
        for item in items:
            if marker in item.keywords:
                item.add_marker(skip)

    return pytest_configure, pytest_collection_modifyitems
