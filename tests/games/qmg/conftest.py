"""QMG test configuration: the long bot-vs-bot run is behind the ``qmg_slow`` marker."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.long_runs import marker_hooks

sys.path.insert(0, str(Path(__file__).parent))

pytest_configure, pytest_collection_modifyitems = marker_hooks(
    "qmg_slow", "long QMG bot-vs-bot property run", "tests/games/qmg")
