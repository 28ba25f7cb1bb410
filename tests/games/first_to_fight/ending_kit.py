"""Staging for the Ending Phase's tests: small packs (the real board, soldiers and cards of the test's
own), a table without a deal, scripted dice, and answering whatever is asked."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from app.games.first_to_fight import engine, flow
from app.games.first_to_fight import rules as _rules  # noqa: F401  (every rule module registers)
from app.games.first_to_fight.engine import Ctx
from app.games.first_to_fight.pack import ORDERS, Effect, Event, Mission, Pack, Soldier, month_index, pack, use_pack
from app.games.first_to_fight.state import GameState
from app.games.protocol import Decision

REAL = pack()


class Dice(random.Random):
    """A seeded RNG whose d6 faces are scripted (``randint(1, 6)``); everything else is seeded."""

    def __init__(self, *faces: int) -> None:
        super().__init__(7)
        self.faces = list(faces)
        self.rolled: list[int] = []

    def randint(self, a: int, b: int) -> int:
        if (a, b) == (1, 6) and self.faces:
            face = self.faces.pop(0)
            self.rolled.append(face)
            return face
        return super().randint(a, b)


def soldier(sid: str, formation: str = "INFANTRY", s: int = 2, u: int = 2, name: str = "") -> Soldier:
    return Soldier(id=sid, name=name or sid, formation=formation, strength=s, underground=u, ability="VICTORY_POINT",
                   note="", note_pl="", source="test")


def mission(mid: str, month: str, region: str = "NEA", formation: str = "INFANTRY", difficulty: int = 5, vp: int = 4,
            title: str = "") -> Mission:
    date = month_index(month)
    return Mission(id=mid, title=title or f"Mission {mid}", title_pl=title or f"Misja {mid}", date=date,
                   stage=1 if date < 40 else 2, region=region, formation=formation, difficulty=difficulty, vp=vp)


def event(eid: str, month: str, region: str = "WEU", advance: int = 3, effects: tuple[Effect, ...] = (),
          title: str = "") -> Event:
    return Event(id=eid, title=title or f"Event {eid}", title_pl=title or f"Wydarzenie {eid}", region=region,
                 advance=advance, date=month_index(month), effects=effects)


def staged(soldiers: list[Soldier] | None = None, missions: list[Mission] | None = None,
           events: list[Event] | None = None, tracks: dict[str, tuple[int, ...]] | None = None) -> Pack:
    """The real board (a region's track may be replaced) with the test's cards; install it with use_pack."""
    regions = dict(REAL.regions)
    for r, track in (tracks or {}).items():
        regions[r] = replace(regions[r], track=track, thresholds=tuple(4 for _ in track[1:]),
                             start=min(regions[r].start, len(track) - 1))
    return Pack(regions=regions, links=REAL.links, soldiers={s.id: s for s in soldiers or []},
                missions={m.id: m for m in missions or []}, events={e.id: e for e in events or []})


@pytest.fixture
def own_pack() -> Iterator[None]:
    yield
    use_pack(None)


def table(players: int = 4, time: str = "IX 1939", **options: Any) -> GameState:
    """A table after setup with nothing dealt: every marker on its start, empty hands and decks."""
    seats = [f"p{i + 1}" for i in range(players)]
    state = GameState(options={"draft": False, "events": False, **options, "players": players}, seats=seats)
    state.tiles = {o: {"active": True, "vp": 0} for o in ORDERS}
    state.domination = {r: reg.start for r, reg in pack().regions.items()}
    for s in seats:
        state.hands[s], state.vp[s], state.nurses[s] = [], 0, 0
        state.succeeded[s], state.failed[s], state.discarded[s] = [], [], []
        state.stage2_received[s], state.started_four[s] = 0, False
    state.time = month_index(time)
    state.starter = state.chooser = seats[0]
    state.phase = "orders"
    return state


def place(state: GameState, sid: str, region: str, wounds: int = 0, trained: bool | None = None,
          s: int | None = None, u: int | None = None) -> None:
    card = pack().soldiers[sid]
    state.soldiers[sid] = {"region": region, "s": card.strength if s is None else s,
                           "u": card.underground if u is None else u,
                           "trained": bool(wounds) if trained is None else trained, "wounds": wounds}


def ending(state: GameState, leader: str, rng: random.Random | None = None) -> list[Any]:
    """The leader chooses Maneuvers with every other tile already chosen: the Ending Phase runs until
    its first question (or to its end). The log lines so far."""
    for o in ORDERS:
        state.tiles[o]["active"] = o == "MANEUVERS"
    ctx = Ctx(state, rng or Dice())
    flow.maneuvers(ctx, leader)
    engine.run(ctx)
    return ctx.events


def pending(state: GameState) -> list[Decision]:
    return engine.decisions(state)


def answer(state: GameState, seat: str, *choices: str, rng: random.Random | None = None) -> list[Any]:
    """``seat`` answers its pending decision; the log lines it wrote."""
    mine = [d for d in pending(state) if d.seat == seat]
    assert mine, f"{seat} has nothing to answer: {[(d.seat, d.kind) for d in pending(state)]}"
    ctx = Ctx(state, rng or Dice())
    engine.apply_answer(ctx, seat, mine[0].id, tuple(choices))
    return ctx.events


def ids(events: list[Any]) -> list[str]:
    return [e.msg.id for e in events]
