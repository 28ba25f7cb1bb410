"""The card list of the rules reference (/games/attack/cards): the five kinds of Economics card
(how many the deck holds, their values, what they give), every card of the deck with its value and
the neutral defenders it lists, and the four Navy cards with their costs and duel modifiers, in the
asked language. The deck's make-up is public (the rulebook's components); only who holds which card
is secret."""

from __future__ import annotations

from app.games.attack.pack import COSTS, ECON_TYPES, NAVY_TYPES, pack
from app.games.attack.text import catalogue
from app.games.protocol import CardEntry


def _say(msg_id: str, lang: str, **params: object) -> str:
    return catalogue().text({"id": msg_id, "params": params}, lang) or msg_id


def cards(lang: str) -> list[CardEntry]:
    try:
        data = pack()
    except (FileNotFoundError, ImportError):  # no data pack yet: nothing to list
        return []
    words = catalogue()
    out: list[CardEntry] = []
    kinds = _say("cards_group_econ", lang)
    for t in ECON_TYPES:
        deck = [c for c in data.econ.values() if c.type == t]
        values = [c.value for c in deck] or [0]
        out.append(CardEntry(key=f"econ-{t}", name=words.terms[lang].get(f"econ_{t}", t), group=kinds,
                             kind=_say("cards_kind_econ", lang), count=len(deck),
                             text=_say("cards_econ_kind", lang, n=len(deck), lo=min(values), hi=max(values),
                                       text={"id": f"cards_econ_{t}", "params": {}})))
    for t in ECON_TYPES:
        group = _say("cards_group_deck", lang, type=f"econ_{t}")
        for c in sorted((c for c in data.econ.values() if c.type == t), key=lambda c: c.id):
            units = [f"{n} × {words.terms[lang].get(f'unit_{k}', k)}" for k, n in c.defenders if n]
            out.append(CardEntry(key=c.id, name=(c.name_pl if lang == "pl" and c.name_pl else c.name), group=group,
                                 kind=words.terms[lang].get(f"econ_{t}", t),
                                 text=_say("cards_econ_card", lang, type=f"econ_{t}",
                                           value=c.value,
                                           defenders=", ".join(units) or _say("cards_none", lang))))
    navy = _say("cards_group_navy", lang)
    for t in NAVY_TYPES:
        out.append(CardEntry(key=f"navy-{t}", name=words.terms[lang].get(f"unit_{t}", t), group=navy,
                             kind=_say("cards_kind_navy", lang, cost=COSTS[t]), text=_say(f"cards_navy_{t}", lang)))
    return out
