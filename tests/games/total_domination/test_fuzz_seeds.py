"""Matches the common fuzzer once failed on, kept as regressions (`python -m app fuzz
app.games.total_domination:GAME -n 1 --seed S` reproduces each)."""

from __future__ import annotations

import pytest

from app.fuzz import check_match
from app.games.total_domination import GAME

# seed -> what failed
FAILED_ONCE = {
    # solo 1942: the UK's saved-OP card was discarded at the end of the Action Phase and the automa's
    # tech search reshuffled the discard pile in the same answer; the year's turn cleared the mark
    # that says a card just reshuffled from the face-up pile is known, so the log line naming it
    # counted as a leak
    184: "leak",
}


@pytest.mark.parametrize("seed", sorted(FAILED_ONCE))
def test_a_match_the_fuzzer_once_failed_passes_now(seed: int) -> None:
    report = check_match(GAME, seed)
    assert report.failure is None, report.failure.line()
    assert report.outcome is not None
