"""The QMG board layout: every map space has a place, and a broken layout names what is wrong."""

from __future__ import annotations

import copy

import pytest
import yaml
from pydantic import ValidationError

from app.games.qmg.data import map_pack
from app.games.qmg.layout import LAYOUT_FILE, layout, parse
from app.games.qmg.page import space_of_choice


def raw_layout() -> dict:
    with open(LAYOUT_FILE, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def test_layout_places_every_space_of_the_map_and_nothing_else() -> None:
    lay = layout()
    assert lay.source == "reconstructed"
    assert set(lay.spaces) == {s.id for s in map_pack().spaces}
    assert len(lay.spaces) == 52


def test_no_two_spaces_overlap() -> None:
    lay = layout()
    kinds = {s.id: s.type for s in map_pack().spaces}
    # a sea is drawn as an ellipse: its bounding box's corners are empty, so it counts a little smaller
    size = {sid: (p.w, p.h) if kinds[sid] == "land" else (p.w * .8, p.h * .8) for sid, p in lay.spaces.items()}
    items = sorted(lay.spaces.items())
    for i, (a, pa) in enumerate(items):
        for b, pb in items[i + 1:]:
            apart = (abs(pa.x - pb.x) * 2 >= size[a][0] + size[b][0]
                     or abs(pa.y - pb.y) * 2 >= size[a][1] + size[b][1])
            assert apart, f"{a} and {b} overlap on the board"


def test_a_missing_space_is_named() -> None:
    raw = raw_layout()
    del raw["spaces"]["hawaii"]
    with pytest.raises(ValidationError, match="no position for hawaii"):
        parse(raw)


def test_an_unknown_space_is_named() -> None:
    raw = raw_layout()
    raw["spaces"]["atlantis"] = {"x": 100, "y": 100, "w": 50, "h": 50}
    with pytest.raises(ValidationError, match="atlantis is not a map space"):
        parse(raw)


def test_a_space_outside_the_view_box_is_named() -> None:
    raw = copy.deepcopy(raw_layout())
    raw["spaces"]["japan"]["x"] = 5000
    with pytest.raises(ValidationError, match="japan lies outside the view box"):
        parse(raw)


def test_the_source_must_say_reconstructed() -> None:
    raw = raw_layout()
    raw["source"] = "scanned board"
    with pytest.raises(ValidationError):
        parse(raw)


@pytest.mark.parametrize(("choice", "space"), [
    ("at:ukraine", "ukraine"),
    ("at:north_pacific:japan", "north_pacific"),
    ("declare:moscow", "moscow"),
    ("u:china:japan", "china"),
    ("remove:germany", None),  # voluntary removal stays in the decision panel
    ("play:ger-03", None),
    ("germany", None),  # a bare id may name a country
    ("at:nowhere", None),
])
def test_which_choices_are_map_targets(choice: str, space: str | None) -> None:
    ids = {s.id for s in map_pack().spaces}
    assert space_of_choice(choice, ids) == space
