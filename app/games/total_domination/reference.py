"""The card list of the rules reference (/games/total_domination/cards): every card of the data
pack (the main deck, the USA and China decks) with its OP, tech icon and event, in the asked
language. The pack gives each card's name and text in English and Polish."""

from __future__ import annotations

from app.games.protocol import CardEntry
from app.games.total_domination import pack as td_pack
from app.games.total_domination.text import catalogue

DECKS = ("main", "usa", "china")


def cards(lang: str) -> list[CardEntry]:
    try:
        data = td_pack.pack()
    except (FileNotFoundError, ImportError):  # no data pack yet: nothing to list
        return []
    words = catalogue()
    out: list[CardEntry] = []
    for deck in DECKS:
        group = words.text({"id": f"cards_deck_{deck}", "params": {}}, lang) or deck
        for c in sorted((c for c in data.cards.values() if c.deck == deck), key=lambda c: c.id):
            event = words.text({"id": f"board_event_{c.event.kind}", "params": {}}, lang) or c.event.kind
            head = words.text({"id": "cards_face", "params": {"op": c.op, "tech": c.tech, "colour": c.colour}},
                              lang) or ""
            body = (c.text_pl if lang == "pl" and c.text_pl else c.text) or ""
            out.append(CardEntry(key=c.id, name=(c.name_pl if lang == "pl" and c.name_pl else c.name), group=group,
                                 kind=event, text=f"{head} {body}".strip()))
    return out
