"""First to Fight's catalogue: its sentences and terms in English and Polish.

The sentences live in ``catalogue/*.yaml`` (one file per rule module); the data pack adds the names
of regions, region rules, soldiers, missions and events. Log lines, prompts and choice labels are
message ids with parameters (``say``); the English text the API carries is rendered from the same
catalogue. A mission's or a soldier's id given as a parameter renders as its name: write one into a
public line only once it is public (a revealed mission, a soldier on the board)."""

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
    from app.games.first_to_fight.pack import pack

    data = pack()
    terms: dict[str, dict[str, str]] = {"en": {}, "pl": {}}
    for r in data.regions.values():
        terms["en"][r.id], terms["pl"][r.id] = r.name, r.name_pl
        terms["en"][f"rule_{r.rule}"], terms["pl"][f"rule_{r.rule}"] = r.rule_name, r.rule_name_pl
    for s in data.soldiers.values():
        terms["en"][s.id] = terms["pl"][s.id] = s.name
    for m in data.missions.values():
        terms["en"][m.id], terms["pl"][m.id] = m.title, m.title_pl
    for e in data.events.values():
        terms["en"][e.id], terms["pl"][e.id] = e.title, e.title_pl
    return terms


@functools.cache
def catalogue() -> Catalogue:
    return game_catalogue(CATALOGUE_DIR, _pack_terms())


def say(msg_id: str, **params: Any) -> Msg:
    return Msg(msg_id, params)


def english(msg: Label) -> str:
    """The English text of a message (a plain string is already English)."""
    return english_text(catalogue(), msg)
