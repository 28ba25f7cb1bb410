"""Autarcha's catalogue: its sentences and terms in English and Polish.

The sentences live in ``catalogue/*.yaml`` (one file per rule module); the data pack adds the names of
the areas, the unit kinds and the scenarios. Log lines, prompts and choice labels are message ids with
parameters (``say``); the English text the API carries is rendered from the same catalogue. Never put a
secret (a mine's square, a unit behind the lid) into a line the other seat reads: ``private={seat: ...}``
is for the owner."""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from typing import Any

from app.games.catalogue import Catalogue, english_text, game_catalogue
from app.games.protocol import Msg
from app.games.tasks import Label, as_json, as_msg

__all__ = ["Label", "as_json", "as_msg", "catalogue", "english", "say", "square_choices"]

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOGUE_DIR = os.path.join(HERE, "catalogue")


def _pack_terms() -> dict[str, dict[str, str]]:
    from app.games.autarcha.pack import pack

    data = pack()
    terms: dict[str, dict[str, str]] = {"en": {}, "pl": {}}
    for a in data.areas.values():
        terms["en"][a.id], terms["pl"][a.id] = a.name, a.name_pl
    for t in data.troops.values():
        terms["en"][f"kind_{t.id}"], terms["pl"][f"kind_{t.id}"] = t.name, t.name_pl
    for s in data.scenarios.values():
        terms["en"][f"scenario_{s.id}"], terms["pl"][f"scenario_{s.id}"] = s.name, s.name_pl
    return terms


@functools.cache
def catalogue() -> Catalogue:
    return game_catalogue(CATALOGUE_DIR, _pack_terms())


def say(msg_id: str, **params: Any) -> Msg:
    return Msg(msg_id, params)


def square_choices(squares: Iterable[str]) -> list[tuple[str, Label]]:
    """Choices of squares, each labelled with its name (the book's notation reads the same in both languages)."""
    return [(s, say("choice_square", square=s)) for s in squares]


def english(msg: Label) -> str:
    """The English text of a message (a plain string is already English)."""
    return english_text(catalogue(), msg)
