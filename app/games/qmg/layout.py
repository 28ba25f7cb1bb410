"""Where each space of the QMG map is drawn: data/layout.yaml, validated against the map pack.

Pure data (no web imports): the board template gets its geometry from here through
``app.games.qmg.page``. The layout is our own schematic map (``source: reconstructed``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from app.games.qmg.data import map_pack

LAYOUT_FILE = Path(__file__).parent / "data" / "layout.yaml"


class ViewBox(BaseModel):
    model_config = ConfigDict(extra="forbid")
    width: int = Field(gt=0)
    height: int = Field(gt=0)


class Placement(BaseModel):
    """Centre and size of one space's shape, in view-box units."""

    model_config = ConfigDict(extra="forbid")
    x: float
    y: float
    w: float = Field(gt=20)
    h: float = Field(gt=20)
    label: str | None = None


class Layout(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: Literal["reconstructed"]
    view_box: ViewBox
    spaces: dict[str, Placement]

    @model_validator(mode="after")
    def _covers_the_map(self) -> Layout:
        ids = {s.id for s in map_pack().spaces}
        missing = sorted(ids - set(self.spaces))
        if missing:
            raise ValueError(f"layout: no position for {', '.join(missing)}")
        unknown = sorted(set(self.spaces) - ids)
        if unknown:
            raise ValueError(f"layout: {', '.join(unknown)} is not a map space")
        for sid, p in self.spaces.items():
            if not (p.x - p.w / 2 >= 0 and p.x + p.w / 2 <= self.view_box.width
                    and p.y - p.h / 2 >= 0 and p.y + p.h / 2 <= self.view_box.height):
                raise ValueError(f"layout: {sid} lies outside the view box")
        return self


def parse(raw: dict) -> Layout:
    return Layout.model_validate(raw)


@cache
def layout() -> Layout:
    with open(LAYOUT_FILE, encoding="utf-8") as fh:
        return parse(yaml.safe_load(fh))
