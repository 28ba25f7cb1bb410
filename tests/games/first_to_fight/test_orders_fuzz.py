"""The common fuzzer's checks on whole games (dead ends, dump/load, replay, leaks of secrets(),
take-backs of undoable answers)."""

from __future__ import annotations

import pytest

from app.fuzz import check_match
from app.games.first_to_fight import GAME


@pytest.mark.parametrize(("seed", "players"), [(11, 2), (12, 3), (13, 4), (14, 4)])
def test_fuzzed_rounds_of_orders_pass_every_check(seed: int, players: int) -> None:
    report = check_match(GAME, seed, players)
    assert report.failure is None, report.failure
    assert report.answers > 20
