"""The card list of the rules reference (/games/first_to_fight/cards), in the asked language: the 54
soldiers (formation, Strength / Underground, ability, the historical note), the missions only as
their count per stage (they are secret cards: a title listed here would name what a hand may hold),
and the 24 neutral events (the region the Axis pushes, the time advance, the advanced effect). The
soldier and event decks' make-up is public (the rulebook's components); only their order is secret."""

from __future__ import annotations

from typing import Any

from app.games.first_to_fight.pack import month_label, pack
from app.games.first_to_fight.text import catalogue
from app.games.protocol import CardEntry


def _say(msg_id: str, lang: str, **params: Any) -> str:
    return catalogue().text({"id": msg_id, "params": params}, lang) or msg_id


def _msg(msg_id: str, **params: Any) -> dict[str, Any]:
    return {"id": msg_id, "params": params}


def cards(lang: str) -> list[CardEntry]:
    try:
        data = pack()
    except (FileNotFoundError, ImportError):  # no data pack yet: nothing to list
        return []
    pl = lang == "pl"
    out: list[CardEntry] = []
    group = _say("cards_group_soldiers", lang)
    for s in sorted(data.soldiers.values(), key=lambda s: s.id):
        out.append(CardEntry(key=s.id, name=s.name, group=group,
                             kind=_say("cards_kind_soldier", lang, formation=_msg(f"board_f_{s.formation}")),
                             text=_say("cards_soldier", lang, s=s.strength, u=s.underground,
                                       ability=_msg(f"board_a_{s.ability}"),
                                       note=(s.note_pl or s.note) if pl else s.note)))
    group = _say("cards_group_missions", lang)
    for stage in (1, 2):
        n = sum(1 for m in data.missions.values() if m.stage == stage)
        out.append(CardEntry(key=f"missions-{stage}", name=_say(f"cards_missions_{stage}", lang), group=group,
                             kind=_say("cards_kind_missions", lang, n=n), count=n,
                             text=_say(f"cards_missions_text_{stage}", lang)))
    group = _say("cards_group_events", lang)
    for e in sorted(data.events.values(), key=lambda e: (e.date, e.id)):
        out.append(CardEntry(key=e.id, name=(e.title_pl or e.title) if pl else e.title, group=group,
                             kind=_say("cards_kind_event", lang, month=month_label(e.date)),
                             text=_say("cards_event", lang, region=e.region, advance=_msg("board_months", n=e.advance),
                                       month=month_label(e.date), text=(e.text_pl or e.text) if pl else e.text)))
    return out
