"""The long seeded runs (a thousand bot games) sit behind a marker each, skipped unless asked for.

A game's conftest gets both pytest hooks from ``marker_hooks``: ``-m <marker>`` runs the long run,
any other selection skips it with a note saying how to run it. ``bot_games`` is the run itself."""

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


def bot_games(game: Any, spec: str, env: str, players: Callable[[int], int],
              options: Callable[[int, int], dict[str, Any]], referee: Callable[[], Any],
              full_every: int) -> list[Any]:
    """The long run's seeded bot-vs-bot games through the fuzzer's checks (``app.fuzz.check_match``:
    no dead end, the declared bound, dump/load, the replay, no secret in any view) with the game's
    invariants (``referee()`` makes a fresh one) after every step; every ``full_every``-th game gets
    the fuzzer's checks at every step, the others on their end state. The seeds come from
    ``<env>_FIRST`` (default 1000) and ``<env>_GAMES`` (default 1000), so that ``make test-slow`` can
    share them between two processes. Returns the reports; fails with the first five failures."""
    import os

    from app.fuzz import check_match

    first, n = int(os.environ.get(f"{env}_FIRST", "1000")), int(os.environ.get(f"{env}_GAMES", "1000"))
    reports, failures = [], []
    for seed in range(first, first + n):
        seats = players(seed)
        report = check_match(game, seed, players=seats, options=options(seed, seats), bot_share=1.0,
                             invariant=referee(), every_step=seed % full_every == 0, whims=False)
        if report.failure is not None:
            failures.append(report.failure.line(spec))
            continue
        assert report.outcome is not None, f"seed {seed}: the match ended without an outcome"
        reports.append(report)
    assert not failures, "\n".join(failures[:5])
    return reports
