"""The card list of the rules reference (/games/autarcha/cards), in the asked language, from the data
pack: the Troops Table (each kind's steps per environment, durability, cost, where it appears, whether
it attacks) and the Defence Effectiveness Table [TSO] (the die must show more than the terrain's
value), each row a card, with the confidence the pack gives its figures (the book's tables are garbled:
README "Data pack")."""

from __future__ import annotations

from typing import Any

from app.games.autarcha.pack import ENVIRONMENTS, TERRAINS, Cell, pack
from app.games.autarcha.text import catalogue
from app.games.protocol import CardEntry


def _say(msg_id: str, lang: str, **params: Any) -> str:
    return catalogue().text({"id": msg_id, "params": params}, lang) or msg_id


def _value(cell: Cell[Any], lang: str) -> str:
    """A table value as the book writes it ("–": not allowed), marked when it is a guess."""
    v = cell.value
    shown = "–" if v is None else (_say("cards_yes", lang) if v is True else _say("cards_no", lang)
                                   if v is False else str(v))
    return shown + ("?" if cell.confidence == "guess" else "")


def cards(lang: str) -> list[CardEntry]:
    try:
        data = pack()
    except (FileNotFoundError, ImportError):  # no data pack: nothing to list
        return []
    pl = lang == "pl"
    out: list[CardEntry] = []
    group = _say("cards_group_troops", lang)
    for t in data.troops.values():
        steps = ", ".join(f"{_say(f'cards_env_{e}', lang)} {_value(t.steps[e], lang)}" for e in ENVIRONMENTS)
        out.append(CardEntry(key=t.id, name=t.name_pl if pl else t.name, group=group,
                             kind=_say("cards_kind_troop", lang, id=t.id),
                             text=_say("cards_troop", lang, steps=steps, hp=_value(t.hp, lang),
                                       cost=_value(t.cost, lang), built=_say(f"cards_built_{t.built_at.value}", lang),
                                       attacks=_value(t.attacks, lang))))
    group = _say("cards_group_defence", lang)
    for terrain in TERRAINS:
        cell = data.defence.get(terrain)
        if cell is None:
            continue
        out.append(CardEntry(key=f"tso-{terrain}", name=_say(f"cards_env_{terrain}", lang), group=group,
                             kind=_say("cards_kind_defence", lang),
                             text=_say("cards_defence", lang, value=_value(cell, lang),
                                       die=data.die.value)))
    return out
