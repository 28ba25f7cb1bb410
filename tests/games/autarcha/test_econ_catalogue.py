"""The setup's, economy's and victory's sentences (catalogue/setup.yaml, economy.yaml, victory.yaml) are complete
in English and Polish, and every line a seeded game of each scenario logs renders in both."""

from __future__ import annotations

import os
import random

import pytest
import yaml

from app.games.autarcha.rules import GAME
from app.games.autarcha.text import CATALOGUE_DIR, catalogue
from tests.games.autarcha.econ_kit import Table

OURS = ("setup.yaml", "economy.yaml", "victory.yaml")


def _file(name: str) -> dict:
    with open(os.path.join(CATALOGUE_DIR, name), encoding="utf-8") as handle:
        return yaml.safe_load(handle)


@pytest.mark.parametrize("name", OURS)
def test_complete_in_both_languages(name: str) -> None:
    data = _file(name)
    assert set(data["messages"]["en"]) == set(data["messages"]["pl"])
    assert set(data.get("terms", {}).get("en", {})) == set(data.get("terms", {}).get("pl", {}))
    ours = set(data["messages"]["en"]) | set(data.get("terms", {}).get("en", {}))
    assert [p for p in catalogue().problems() if any(f"'{i}'" in p for i in ours)] == []


@pytest.mark.parametrize("scenario", ["skirmish", "autarchy", "civil_war", "total_war", "absolute_zero"])
def test_every_logged_line_renders(scenario: str) -> None:
    t = Table(scenario, rng=random.Random(30))
    rng = random.Random(31)
    for _ in range(600):
        if t.state.outcome is not None:
            break
        d = t.pending()[0]
        t.answer(d.seat, *GAME.bot(t.state, d, rng).choices, kind=d.kind)
    cat = catalogue()
    msgs = [e.msg for e in t.events if e.msg] + [m for e in t.events for m in (e.private_msg or {}).values()]
    assert msgs
    for msg in msgs:
        for lang in ("en", "pl"):
            text = cat.text(msg, lang)
            assert text and "{" not in text, (msg, lang, text)
