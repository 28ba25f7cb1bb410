"""Quartermaster General's catalogue: its sentences (catalogue.yaml) and its terms, the data
pack's space and card names included. Log lines, prompts and choice labels are message ids with
parameters (``say``); the English text the API carries is rendered from the same catalogue."""

from __future__ import annotations

import functools
import os
from typing import Any

from app.games.catalogue import Catalogue
from app.games.protocol import Msg
from app.games.qmg.data import catalogue as cards
from app.games.qmg.data import map_pack

HERE = os.path.dirname(os.path.abspath(__file__))


@functools.cache
def catalogue() -> Catalogue:
    terms: dict[str, dict[str, str]] = {"en": {}, "pl": {}}
    for space in map_pack().spaces:
        terms["en"][space.id] = space.name_en
        terms["pl"][space.id] = space.name_pl or space.name_en
    for definition in cards().values():
        terms["en"][definition.key] = definition.name_en
        terms["pl"][definition.key] = definition.name_pl or definition.name_en
        # a card's English name given as a reason ("why"), and its text given as a message's
        # {summary}, read in Polish too
        terms["pl"].setdefault(definition.name_en, definition.name_pl)
        terms["en"].setdefault(definition.summary, definition.summary)
        terms["pl"].setdefault(definition.summary, definition.summary_pl)
    return Catalogue.from_yaml(os.path.join(HERE, "catalogue.yaml"), terms=_merged(terms))


def _merged(data_terms: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
    # the hand-written terms (catalogue.yaml) win over the data pack's names
    import yaml

    with open(os.path.join(HERE, "catalogue.yaml"), encoding="utf-8") as handle:
        written = (yaml.safe_load(handle) or {}).get("terms") or {}
    return {lang: {**data_terms[lang], **(written.get(lang) or {})} for lang in data_terms}


def say(msg_id: str, **params: Any) -> Msg:
    return Msg(msg_id, params)


def english(msg: Msg | dict[str, Any] | str) -> str:
    """The English text of a message (a plain string is already English)."""
    if isinstance(msg, str):
        return msg
    return catalogue().text(msg, "en") or (msg.id if isinstance(msg, Msg) else str(msg.get("id")))


def as_json(msg: Msg | str) -> dict[str, Any] | str:
    """A message as the state stores it (plain JSON: tasks survive dump/load)."""
    return {"id": msg.id, "params": msg.params} if isinstance(msg, Msg) else msg


def as_msg(stored: Any) -> Msg | None:
    return Msg(str(stored["id"]), dict(stored.get("params") or {})) if isinstance(stored, dict) else None


def keys(iids: Any) -> list[str]:
    """Card instance ids as their definitions' keys: terms the catalogue names in every language."""
    from app.games.qmg.data import card

    return [card(i).key for i in iids]


def army_of(what: Any, k: int, n: int) -> dict[str, Any]:
    """A reason such as "Destroyer Transport, army 1 of 2", as a nested message."""
    return {"id": "army_k_of_n", "params": {"what": what, "k": k, "n": n}}
