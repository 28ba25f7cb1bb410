"""Total Domination test configuration: the long bot-vs-bot run is behind the ``td_slow`` marker."""

from __future__ import annotations


def pytest_configure(config):
    config.addinivalue_line("markers", "td_slow: long Total Domination bot-vs-bot run (pytest -m td_slow)")


def pytest_collection_modifyitems(config, items):
    import pytest

    if "td_slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="long run: use pytest -m td_slow tests/games/total_domination")
    for item in items:
        if "td_slow" in item.keywords:
            item.add_marker(skip)
