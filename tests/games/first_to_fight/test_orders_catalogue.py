"""The orders' sentences are catalogue messages complete in English and Polish (catalogue/orders.yaml),
and seeded bot rounds read Polish in the Polish UI."""

from __future__ import annotations

import os
import re

import pytest
import yaml

from app.games.first_to_fight import GAME
from app.games.first_to_fight.text import CATALOGUE_DIR, catalogue
from tests.test_i18n_games import english_words, messages_of, nested

WORD = re.compile(r"[A-Za-z]{4,}")
SAME_IN_POLISH = {"bonus"}  # the rulebook's Polish word too ("jeden z trzech dostępnych bonusów")


def _ours() -> set[str]:
    with open(os.path.join(CATALOGUE_DIR, "orders.yaml"), encoding="utf-8") as handle:
        return set(yaml.safe_load(handle)["messages"]["en"])


def test_the_catalogue_is_complete_in_both_languages() -> None:
    assert catalogue().problems() == []
    assert _ours() <= set(catalogue().messages["pl"])


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4)])
def test_rounds_of_orders_read_polish(seed: int, players: int) -> None:
    cat = catalogue()
    ours = _ours()
    names = {w.lower() for name in cat.terms["en"].values() for w in WORD.findall(name)}
    seen: set[str] = set()
    for where, msg, english in messages_of(GAME, seed, players, max_steps=500):
        assert cat.text(msg, "en") == english, where
        polish = cat.text(msg, "pl")
        for msg_id, params in nested(cat, msg):
            if msg_id not in ours:
                continue
            seen.add(msg_id)
            words = english_words(cat, msg_id, params, names) - SAME_IN_POLISH
            leftover = words & {w.lower() for w in WORD.findall(polish)}
            assert not leftover, f"the Polish {where} '{polish}' keeps English words {leftover}"
    assert len(seen) > 25, sorted(seen)
