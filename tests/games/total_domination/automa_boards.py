"""Staging for the solo automa's tests: a state with the automa running Germany and Japan, solo
cards made to measure, and a stand-in for the data pack (cards, techs, tokens, solo cards)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from app.games.total_domination import engine, flow, text
from app.games.total_domination import pack as td_pack
from app.games.total_domination.engine import Ctx
from app.games.total_domination.pack import AXIS, AutomaPart, Card, Event, SoloCard, Tech
from app.games.total_domination.state import GameState
from tests.games.total_domination.boards import DEFAULT_TOKENS, stage

Actions = Sequence[tuple[str, str]]


def solo_card(number: int, year: int = 1939, germany: Actions = (), japan: Actions = (),
              units: tuple[str, ...] = ("army", "fleet"), japan_units: tuple[str, ...] | None = None,
              lines: Mapping[str, Sequence[Sequence[str]]] | None = None) -> SoloCard:
    drawn = {p: tuple(tuple(x) for x in (lines or {}).get(p, ((), (), (), ()))) for p in AXIS}
    return SoloCard(id=f"solo-{number:02d}", number=number, year=year,
                    germany=AutomaPart(actions=tuple(germany), units=units),
                    japan=AutomaPart(actions=tuple(japan), units=japan_units or units), lines=drawn)


def tech_card(id: str, tech: str) -> Card:
    return Card(id=id, name=id, name_pl=id, op=4, tech=tech, colour="germany", event=Event(kind="research"))


TECHS = {
    t: Tech(id=t, name=t, name_pl=t, group="land", cube="place")
    for t in ("A1", "A2", "A4", "B1", "B2", "C1", "C2", "C3", "D1", "D2", "E1", "E2", "E3")
}
TECHS["A3"] = Tech(id="A3", name="A3", name_pl="A3", group="land", cube="place", requires=("A1", "A2"))
TECHS["B3"] = Tech(id="B3", name="B3", name_pl="B3", group="naval", cube="place", requires=("B1", "B2"))


def stub(monkeypatch: pytest.MonkeyPatch, solo: Iterable[SoloCard] = (), cards: Iterable[Card] = (),
         tokens: Mapping[str, Mapping[str, int]] | None = None) -> SimpleNamespace:
    text.catalogue()  # built from the real pack's names (or none), never from this stand-in
    data = SimpleNamespace(solo={c.id: c for c in solo}, cards={c.id: c for c in cards}, techs=TECHS,
                           tokens={n: dict(k) for n, k in (tokens or DEFAULT_TOKENS).items()},
                           boards={}, years={}, tracks={"usa": 4, "china": 2})
    monkeypatch.setattr(td_pack, "pack", lambda: data)
    monkeypatch.setattr(flow, "pack", lambda: data)  # flow took the name at import
    return data


def solo_stage(dealt: Sequence[str] = (), **kw: Any) -> GameState:
    """A staged state of a solo game: the automa runs Germany and Japan (no seat, no hand)."""
    options = {"players": 1, "bombers": False, "uboats": False, **kw.pop("options", {})}
    st = stage(options=options, **kw)
    st.seats = {"germany": "", "japan": "", "uk": "p1", "ussr": "p1"}
    st.seat_labels = {"p1": "United Kingdom + USSR"}
    st.hand_of = {"uk": "allies", "ussr": "allies"}
    st.hands = {"allies": []}
    st.solo = {"deck": [], "dealt": list(dealt), "removed": [], "used": [], "revealed": None, "revealed_for": ""}
    return st


def run(st: GameState, *tasks: dict[str, Any], seed: int = 1) -> list[engine.Event]:
    """Run these tasks to the end (the automa asks nobody) and return the log."""
    ctx = Ctx(st, random.Random(seed))
    ctx.push(*tasks)
    engine.run(ctx)
    assert not st.stack, f"the automa stopped on {st.stack[-1]}"
    return ctx.events


def turn(st: GameState, power: str = "germany") -> list[engine.Event]:
    return run(st, {"k": "automa_turn", "power": power})


def ids(events: list[engine.Event]) -> list[str]:
    return [e.msg.id for e in events if e.msg is not None]


def lines_of(events: list[engine.Event]) -> list[str]:
    return [e.text.lower() for e in events]


def where(st: GameState, nation: str, kind: str) -> list[str]:
    return sorted(u.space for u in st.units if u.nation == nation and u.kind == kind)
