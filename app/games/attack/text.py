"""Attack!'s catalogue: its sentences and terms in English and Polish.

The sentences live in ``catalogue/*.yaml`` (one file per rule module); the data pack adds the names
of regions, sea zones, Economics cards and colours. Log lines, prompts and choice labels are message
ids with parameters (``say``); the English text the API carries is rendered from the same catalogue.
"""

from __future__ import annotations

import functools
import os
from typing import Any

from app.games.catalogue import Catalogue, english_text, game_catalogue
from app.games.protocol import Msg
from app.games.tasks import Label, as_json, as_msg

__all__ = ["Label", "as_json", "as_msg", "catalogue", "english", "say"]

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOGUE_DIR = os.path.join(HERE, "catalogue")


def _pack_terms() -> dict[str, dict[str, str]]:
    from app.games.attack.pack import pack

    terms: dict[str, dict[str, str]] = {"en": {}, "pl": {}}
    data = pack()
    named = [*data.map.regions.values(), *data.map.zones.values(), *data.econ.values(), *data.colours]
    for item in named:
        terms["en"][item.id] = item.name
        terms["pl"][item.id] = item.name_pl or item.name
    return terms


@functools.cache
def catalogue() -> Catalogue:
    return game_catalogue(CATALOGUE_DIR, _pack_terms())


def say(msg_id: str, **params: Any) -> Msg:
    return Msg(msg_id, params)


def english(msg: Label) -> str:
    """The English text of a message (a plain string is already English)."""
    return english_text(catalogue(), msg)
