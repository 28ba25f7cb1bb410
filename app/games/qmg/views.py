"""What each seat may see (rulebook §10.3, spec §18.2). The only way out of the state."""

from __future__ import annotations

from typing import Any

from app.games.qmg import board
from app.games.qmg.data import COUNTRIES, COUNTRY_TITLE, card, map_pack, team_of
from app.games.qmg.engine import current, decision_of
from app.games.qmg.state import GameState
from app.games.qmg.text import as_json


def _card(iid: str, owner_prefix: bool = False) -> dict[str, str]:
    d = card(iid)
    label = f"{COUNTRY_TITLE[d.country]}: {d.name_en}" if owner_prefix else d.name_en
    return {"id": iid, "label": label, "name": d.name_en, "name_pl": d.name_pl, "type": d.type,
            "country": d.country, "text": d.summary}


def top_discard(state: GameState, c: str) -> str | None:
    cs = state.countries[c]
    if cs.discard and cs.discard[-1] in cs.revealed:
        return cs.discard[-1]
    return None


def view(state: GameState, seat: str | None) -> dict[str, Any]:
    mine = set(state.countries_of(seat)) if seat else set()
    countries: dict[str, Any] = {}
    for c in COUNTRIES:
        cs = state.countries[c]
        top = top_discard(state, c)
        v: dict[str, Any] = {
            "team": team_of(c),
            "seat": state.seats[c],
            "hand_count": len(cs.hand),
            "deck_count": len(cs.deck),
            "discard_count": len(cs.discard),
            "responses_count": len(cs.responses),
            "top_discard": _card(top) if top else None,
            "statuses": [_card(i) for i in cs.statuses],
            "armies_available": state.available(c, "army"),
            "navies_available": state.available(c, "navy"),
        }
        if c in mine:
            v["hand"] = [_card(i) for i in cs.hand]
            v["responses"] = [_card(i) for i in cs.responses]
            v["discard"] = [_card(i) for i in cs.discard]
        countries[c] = v
    units = {
        s: [{"country": c, "kind": board.kind_at(s), "protected": state.is_protected(s, c)} for c in cs]
        for s, cs in sorted(state.units.items())
    }
    straits = {st.id: board.strait_open_for(st.anchor, state.units) for st in map_pack().straits}
    d = decision_of(state)
    waiting = None
    if d is not None:
        waiting = {"seat": d.seat, "kind": d.kind}
    yours = None
    if d is not None and seat is not None and d.seat == seat:
        yours = {"id": d.id, "kind": d.kind, "prompt": d.prompt,
                 "prompt_msg": as_json(d.prompt_msg) if d.prompt_msg else None, "min": d.min, "max": d.max,
                 "choices": [{"id": ch.id, "label": ch.label, "msg": as_json(ch.msg) if ch.msg else None}
                             for ch in d.choices]}
    several = len(mine) > 1
    seats = []
    for sid in dict.fromkeys(state.seats[c] for c in COUNTRIES):
        cs_ = [c for c in COUNTRIES if state.seats[c] == sid]
        seats.append({
            "id": sid, "label": state.seat_labels.get(sid, sid),
            "countries": ", ".join(COUNTRY_TITLE[c] for c in cs_),
            "team": team_of(cs_[0]),
            "cards_in_hand": sum(len(state.countries[c].hand) for c in cs_),
            "face_down_responses": sum(len(state.countries[c].responses) for c in cs_),
        })
    return {
        "game": "qmg",
        "seats": seats,
        "hand": [_card(i, several) for c in COUNTRIES if c in mine for i in state.countries[c].hand],
        "my_responses": [_card(i, several) for c in COUNTRIES if c in mine for i in state.countries[c].responses],
        "round": state.round,
        "active": state.active,
        "phase": state.phase,
        "vp": dict(state.vp),
        "board": units,
        "straits_open_to": straits,
        "countries": countries,
        "in_play": [_card(i) for i in state.limbo],
        "you": seat,
        "your_countries": sorted(mine),
        "waiting_for": waiting,
        "decision": yours,
        "outcome": state.outcome,
        "has_decision": current(state) is not None,
    }


def secrets(state: GameState, seat: str) -> set[str]:
    mine = set(state.countries_of(seat))
    out: set[str] = set()
    for c in COUNTRIES:
        cs = state.countries[c]
        out.update(cs.deck)  # nobody sees deck order, not even the owner
        if c not in mine:
            out.update(cs.hand)
            out.update(cs.responses)
            out.update(i for i in cs.discard if i not in cs.revealed)
    return out
