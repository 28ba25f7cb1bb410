"""The card list of the rules reference (/games/qmg/cards): every card of the data pack with its
text, in the asked language. Names, types and texts come through the catalogue's terms (the
Polish rulebook's words; a card's text is a term keyed by its English summary), English where a
language lacks one."""

from __future__ import annotations

from app.games.protocol import CardEntry
from app.games.qmg.data import COUNTRIES, card_pack
from app.games.qmg.data import catalogue as instances
from app.games.qmg.text import catalogue


def cards(lang: str) -> list[CardEntry]:
    pack, words = card_pack(), catalogue()
    copies: dict[str, list[str]] = {}
    for iid, definition in instances().items():  # views name a card by its copy's id (ger-07)
        copies.setdefault(definition.key, []).append(iid)
    out: list[CardEntry] = []
    for c in COUNTRIES:
        country = pack.countries[c]
        group = words.term(c, lang)
        for basic in country.basic_cards:
            kind = pack.basic_card_types[basic.type]
            out.append(CardEntry(key=basic.id, name=words.term(basic.id, lang), group=group,
                                 kind=words.term(basic.type, lang), count=basic.count,
                                 text=words.term(kind.summary, lang), ids=tuple(copies.get(basic.id, ()))))
        for entry in country.cards:
            out.append(CardEntry(key=entry.id, name=words.term(entry.id, lang), group=group,
                                 kind=words.term(entry.type, lang), count=entry.count,
                                 text=words.term(entry.summary, lang),
                                 ids=tuple(copies.get(entry.id, ()))))
    return out

