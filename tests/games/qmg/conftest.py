"""QMG test configuration: the long bot-vs-bot run is behind the ``qmg_slow`` marker."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


def pytest_configure(config):
    config.addinivalue_line("markers", "qmg_slow: long QMG bot-vs-bot property run (pytest -m qmg_slow)")


def pytest_collection_modifyitems(config, items):
    import pytest

    if "qmg_slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="long run: use pytest -m qmg_slow tests/games/qmg")
    for item in items:
        if "qmg_slow" in item.keywords:
            item.add_marker(skip)
