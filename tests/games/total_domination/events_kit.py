"""A small table for the events / techs / rockets / Lend-Lease tests: one home space per country,
a stub pack holding exactly the cards a test names, and helpers that play a turn as a player would
(the "your turn" question of flow.py, then the follow-up questions)."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import pytest

from app.games.total_domination import engine, flow, text
from app.games.total_domination import pack as td_pack
from app.games.total_domination.engine import Ctx
from app.games.total_domination.pack import Card, Event, Tech, Year
from app.games.total_domination.state import GameState
from tests.games.total_domination.boards import DEFAULT_TOKENS, home, island, stage

GROUP = {"A": "land", "B": "naval", "C": "production", "D": "intelligence", "E": "rocketry"}
CUBE_REMOVE = {"A4", "C3", "D1", "D2", "E1", "E2", "E3"}
# the prerequisites these tests assume (the pack's are reconstructed: §8.2's most likely readings)
REQUIRES: dict[str, tuple[str, ...]] = {"A3": ("A1", "A2"), "A4": ("A1", "A2"), "B3": ("B1", "B2"), "E3": ("E2",)}
REQUIRES_ANY: dict[str, tuple[str, ...]] = {"E2": ("D1", "D2")}
TECH_IDS = [f"{g}{n}" for g in "ABCDE" for n in (1, 2, 3, 4) if not (g != "A" and n == 4)]
TECHS = {t: Tech(id=t, name=t, name_pl=t, group=GROUP[t[0]], cube="remove" if t in CUBE_REMOVE else "place",
                 requires=REQUIRES.get(t, ()), requires_any=REQUIRES_ANY.get(t, ())) for t in TECH_IDS}
YEARS = {y: Year(year=y, draw=4, starts="germany", passes="left" if y % 2 else "right") for y in range(1939, 1946)}


def cd(id: str, op: int = 4, colour: str = "germany", kind: str = "tactics", value: int | None = None,
       tech: str = "A1", vp: int = 0, flag: str | None = None, icons: dict[str, int] | None = None,
       peace_op: int = 0, deck: str = "main") -> Card:
    """A card: ``cd("t1", op=4, colour="uk", kind="tactics", value=1)``."""
    return Card(id=id, name=id, name_pl=id, op=op, tech=tech, colour=colour, deck=deck,  # type: ignore[arg-type]
                event=Event(kind=kind, value=value, icons=dict(icons or {}), flag=flag, vp=vp,  # type: ignore[arg-type]
                            op=peace_op))


def kit(monkeypatch: pytest.MonkeyPatch, cards: Iterable[Card] = (), tracks: dict[str, int] | None = None) -> None:
    """Make ``pack.pack()`` answer with these cards, the techs above and short non-aligned tracks."""
    text.catalogue()  # rendered once with the real pack's names (if any), before the stub stands in
    stub = SimpleNamespace(cards={c.id: c for c in cards}, techs=TECHS, years=YEARS, boards={},
                           tracks=dict(tracks or {"usa": 4, "china": 2}),
                           tokens={n: dict(k) for n, k in DEFAULT_TOKENS.items()})
    real = td_pack.pack
    for name, module in sorted(sys.modules.items()):  # flow, tracks... hold their own reference to pack()
        if name.startswith("app.games.total_domination") and getattr(module, "pack", None) is real:
            monkeypatch.setattr(module, "pack", lambda: stub)


def table(units: Iterable[tuple[Any, ...]] = (), **kw: Any) -> GameState:
    """Every country's home spaces: capitals London, Berlin, Tokyo, Moscow, Washington; Paris and
    Rome (2 stars), Hawaii (USA, 1), Nanking (China, 2); the Atlantic, a U-boat space."""
    spaces = [
        home("london", "uk", capital=True, factory=True, shipyard=True),
        home("berlin", "germany", capital=True, factory=True, shipyard=True),
        home("tokyo", "japan", capital=True, factory=True, shipyard=True),
        home("moscow", "ussr", capital=True, factory=True),
        home("washington", "usa", capital=True, factory=True, shipyard=True),
        home("hawaii", "usa", shape="island", stars=1),
        home("nanking", "china", stars=2, factory=True),
        home("paris", "france", stars=2, factory=True, shipyard=True),
        home("rome", "italy", stars=2, factory=True, shipyard=True),
        island("atlantic", stars=0, uboat=True),
    ]
    links = [("london", "atlantic", "sea"), ("atlantic", "washington", "sea"), ("london", "paris", "sea"),
             ("paris", "berlin", "land"), ("berlin", "rome", "land"), ("berlin", "moscow", "land"),
             ("moscow", "nanking", "land"), ("nanking", "tokyo", "sea"), ("tokyo", "hawaii", "sea"),
             ("hawaii", "washington", "sea")]
    hands = kw.pop("hands", None)
    st = stage(spaces, links, units, **kw)
    st.hands.update(hands or {})
    return st


def two_player(st: GameState) -> GameState:
    """The 2-player standard game: a seat per side, one shared hand per side."""
    st.options["players"] = 2
    st.seats = {"germany": "p1", "japan": "p1", "uk": "p2", "ussr": "p2"}
    st.hand_of = {"germany": "axis", "japan": "axis", "uk": "allies", "ussr": "allies"}
    st.hands = {"axis": [], "allies": []}
    return st


def solo(st: GameState) -> GameState:
    """The solo game: the player's shared Allied hand; the automa runs the Axis (no seat, no hand)."""
    st.options["players"] = 1
    st.seats = {"germany": "", "japan": "", "uk": "p1", "ussr": "p1"}
    st.hand_of = {"uk": "allies", "ussr": "allies"}
    st.hands = {"allies": []}
    return st


def choices(st: GameState, power: str) -> list[str]:
    """The answers to ``power``'s "play a card or pass" question."""
    return [c for c, _ in flow.turn_choices(st, power)]


def pending(st: GameState) -> list[engine.Decision]:
    return engine.decisions(st)


def start_turn(st: GameState, power: str, seed: int = 1) -> Ctx:
    ctx = Ctx(st, random.Random(seed))
    ctx.push({"k": "turn", "power": power})
    engine.run(ctx)
    return ctx


def answer(ctx: Ctx, *choice: str, seat: str | None = None) -> Ctx:
    """Answer the one open question (as its seat unless told otherwise)."""
    (d,) = engine.decisions(ctx.state)
    engine.apply_answer(ctx, seat or d.seat, d.id, tuple(choice))
    return ctx


def play(st: GameState, power: str, choice: str, *then: str, seed: int = 1) -> Ctx:
    """``power`` takes its turn with ``choice``, then answers the follow-up questions in order."""
    ctx = answer(start_turn(st, power, seed), choice)
    for c in then:
        answer(ctx, c)
    return ctx


def log(ctx: Ctx) -> list[str]:
    return [e.text for e in ctx.events]


def run_task(st: GameState, kind: str, seed: int = 1) -> Ctx:
    ctx = Ctx(st, random.Random(seed))
    ctx.push({"k": kind})
    engine.run(ctx)
    return ctx


def said(ctx: Ctx, seat: str | None = None) -> list[Any]:
    """Every parameter value of the public log lines (or of ``seat``'s private lines), lists flattened:
    what a line tells, whatever language renders it."""
    msgs = [e.msg for e in ctx.events] if seat is None else [e.private_msg.get(seat) for e in ctx.events]
    out: list[Any] = []
    for m in msgs:
        for v in (m.params.values() if m is not None else ()):
            out.extend(v if isinstance(v, list) else [v])
    return out
