"""The data pack: loads, validates, and agrees with the rulebook's figures."""

from __future__ import annotations

import re

import pytest
import yaml
from pydantic import ValidationError

from app.games.qmg import board
from app.games.qmg.cards.registry import RULES
from app.games.qmg.data import (
    BASIC_TYPES,
    COUNTRIES,
    DATA_DIR,
    RULEBOOK_DECK,
    CardPack,
    MapPack,
    card_pack,
    catalogue,
    map_pack,
)


def test_map_has_52_spaces_and_symmetric_adjacency():
    m = map_pack()
    assert len(m.spaces) == 52
    for s in m.spaces:
        for n in s.adjacent:
            assert s.id in board.base_adjacent(n)


def test_every_space_and_card_keeps_its_provenance():
    assert all(s.source for s in map_pack().spaces)
    assert all(st.source for st in map_pack().straits)
    assert all(k.source for cp in card_pack().countries.values() for k in cp.cards)


def test_capitals_are_land_supply_spaces():
    caps = {c: board.capital(c) for c in COUNTRIES}
    assert caps == {"germany": "germany", "uk": "united_kingdom", "japan": "japan", "ussr": "moscow",
                    "italy": "italy", "usa": "eastern_united_states"}
    assert all(board.is_land(s) and board.is_supply(s) for s in caps.values())


def test_rulebook_non_adjacencies():
    assert "mediterranean_sea" not in board.base_adjacent("black_sea")
    assert "balkans" not in board.base_adjacent("middle_east")


@pytest.mark.parametrize("a,b", [
    ("russia", "ukraine"), ("russia", "moscow"), ("india", "bay_of_bengal"),
    ("central_pacific", "east_pacific"), ("central_pacific", "hawaii"), ("central_pacific", "philippines"),
    ("central_pacific", "new_guinea"), ("western_united_states", "east_pacific"),
])
def test_rulebook_inferred_adjacencies(a, b):
    assert b in board.base_adjacent(a)


def test_central_pacific_does_not_touch_western_usa_or_australia():
    assert "western_united_states" not in board.base_adjacent("central_pacific")
    assert "australia" not in board.base_adjacent("central_pacific")


def test_gibraltar_strait_is_anchored_in_north_africa():
    st = {s.id: s for s in map_pack().straits}["gibraltar"]
    assert st.anchor == "north_africa" and set(st.seas) == {"north_sea", "mediterranean_sea"}


def test_card_counts_equal_the_rulebook():
    cat = catalogue()
    assert len(cat) == 220
    for c in COUNTRIES:
        assert sum(1 for d in cat.values() if d.country == c) == RULEBOOK_DECK[c]


def test_card_type_counts_per_country():
    want = {  # rulebook §6.2 (Italy's Sea Battle reconciled to 2, see README)
        "germany": (6, 7, 2, 2, 6, 6, 0, 12), "japan": (4, 3, 6, 4, 2, 0, 11, 4),
        "italy": (4, 4, 3, 2, 2, 6, 4, 5), "uk": (5, 4, 5, 5, 2, 6, 7, 6),
        "ussr": (8, 6, 1, 2, 0, 6, 5, 6), "usa": (5, 4, 5, 4, 5, 10, 0, 8),
    }
    order = ("build_army", "land_battle", "build_navy", "sea_battle", "economic_warfare", "event",
             "response", "status")
    for c, counts in want.items():
        got = tuple(sum(1 for d in catalogue().values() if d.country == c and d.type == t) for t in order)
        assert got == counts, c


def test_instance_ids_are_unique_and_prefixed():
    for iid, d in catalogue().items():
        assert re.fullmatch(r"(ger|uk|jpn|ussr|ita|usa)-\d\d", iid)
        assert d.name_en and d.name_pl and d.summary


def test_every_unique_card_has_a_rule():
    keys = {d.key for d in catalogue().values() if d.type not in BASIC_TYPES}
    assert len(keys) == 119
    assert keys <= set(RULES)


def _raw(name):
    with open(DATA_DIR / name, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def test_validator_rejects_asymmetric_adjacency():
    raw = _raw("map.yaml")
    raw["spaces"][0]["adjacent"].append("japan")
    with pytest.raises(ValidationError, match="symmetric"):
        MapPack.model_validate(raw)


def test_validator_rejects_unknown_neighbour():
    raw = _raw("map.yaml")
    raw["spaces"][0]["adjacent"].append("atlantis")
    with pytest.raises(ValidationError, match="unknown"):
        MapPack.model_validate(raw)


def test_validator_rejects_wrong_deck_size():
    raw = _raw("cards.yaml")
    raw["countries"]["italy"]["basic_cards"][3]["count"] = 3
    raw["countries"]["italy"]["basic"]["sea_battle"] = 3
    with pytest.raises(ValidationError, match="rulebook"):
        CardPack.model_validate(raw)


def test_validator_rejects_missing_source():
    raw = _raw("map.yaml")
    raw["spaces"][0]["source"] = []
    with pytest.raises(ValidationError):
        MapPack.model_validate(raw)
