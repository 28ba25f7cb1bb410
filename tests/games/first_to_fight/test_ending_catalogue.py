"""The Ending Phase's sentences (catalogue/ending.yaml) are complete in English and Polish, and whole seeded
games with both advanced rules read Polish in the Polish UI (no English word of ours left in a line)."""

from __future__ import annotations

import os
import re

import pytest
import yaml

from app.games.first_to_fight.text import CATALOGUE_DIR, catalogue
from tests.games.first_to_fight.test_ending_end import play
from tests.test_i18n_games import english_words, nested

WORD = re.compile(r"[A-Za-z]{4,}")
SAME_IN_POLISH = {"region"}


def _ours() -> set[str]:
    with open(os.path.join(CATALOGUE_DIR, "ending.yaml"), encoding="utf-8") as handle:
        return set(yaml.safe_load(handle)["messages"]["en"])


def test_the_ending_catalogue_is_complete_in_both_languages() -> None:
    assert catalogue().problems() == []
    assert _ours() <= set(catalogue().messages["pl"])


@pytest.mark.parametrize(("seed", "players"), [(5, 2), (6, 4)])
def test_whole_games_read_polish(seed: int, players: int) -> None:
    cat = catalogue()
    ours = _ours()
    names = {w.lower() for name in cat.terms["en"].values() for w in WORD.findall(name)}
    seen: set[str] = set()
    _, msgs = play(seed, players, draft=True, events=True)
    for msg in msgs:
        if msg is None:
            continue
        polish = cat.text(msg, "pl") or ""
        for msg_id, params in nested(cat, msg):
            if msg_id not in ours:
                continue
            seen.add(msg_id)
            words = english_words(cat, msg_id, params, names) - SAME_IN_POLISH
            leftover = words & {w.lower() for w in WORD.findall(polish)}
            assert not leftover, f"the Polish line '{polish}' keeps English words {leftover}"
    assert len(seen) > 20, sorted(seen)
