"""Total Domination's catalogue: its sentences and terms in English and Polish.

The sentences live in ``catalogue/*.yaml`` (one file per rule module, so the modules grow their
own words without touching each other's); the data pack adds the names of spaces, cards and
techs. Log lines, prompts and choice labels are message ids with parameters (``say``); the
English text the API carries is rendered from the same catalogue.
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
    from app.games.total_domination.pack import pack

    terms: dict[str, dict[str, str]] = {"en": {}, "pl": {}}
    try:
        data = pack()
    except (FileNotFoundError, ImportError):  # the pack is not written yet: the sentences still work
        return terms
    for b in data.boards.values():
        for s in b.spaces.values():
            terms["en"][s.id] = s.name
            terms["pl"][s.id] = s.name_pl or s.name
    for c in data.cards.values():
        terms["en"][c.id] = c.name
        terms["pl"][c.id] = c.name_pl or c.name
    for t in data.techs.values():
        terms["en"][t.id] = t.name
        terms["pl"][t.id] = t.name_pl or t.name
    return terms


@functools.cache
def catalogue() -> Catalogue:
    return game_catalogue(CATALOGUE_DIR, _pack_terms())


def say(msg_id: str, **params: Any) -> Msg:
    return Msg(msg_id, params)


def english(msg: Label) -> str:
    """The English text of a message (a plain string is already English)."""
    return english_text(catalogue(), msg)
