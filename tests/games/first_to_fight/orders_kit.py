"""A staged First to Fight table for the orders' rules (orders.py and the order modules).

The staged pack is the real one (its regions, neighbour graph and the 54 soldiers, so Example 1's
cards are the book's) with every domination track made the same and plain: seven squares worth
0..6, every arrow 5, the last three squares (4, 5, 6) occupied. A test lays out exactly the soldiers
it needs, the top of the soldier deck, the hands and the tokens, then plays answers through the
game's own ``pending``/``apply``.

Seats, as in the book's examples, clockwise: p1 Yolanda, p2 Ann, p3 Paul, p4 Jacob."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from app.games.first_to_fight import GAME, text
from app.games.first_to_fight.engine import Ctx, run
from app.games.first_to_fight.pack import ORDERS, REGIONS, Pack, Soldier, pack, use_pack
from app.games.first_to_fight.state import GameState
from app.games.protocol import Action, Decision, Event

YOLANDA, ANN, PAUL, JACOB = "p1", "p2", "p3", "p4"
TRACK = (0, 1, 2, 3, 4, 5, 6)
ARROW = 5
LIGHT, DARK = 3, 4  # the last light square and the first dark one
FIRST = 0

# extra cards with exact values for the tests (id, formation, S, U, ability)
EXTRA = [("t01", "PILOT", 3, 2, "VICTORY_POINT"), ("t02", "INFANTRY", 2, 3, "VICTORY_POINT"),
         ("t03", "SAILOR", 2, 1, "VICTORY_POINT"), ("t04", "PILOT", 5, 5, "VICTORY_POINT"),
         ("t05", "SABOTEUR", 1, 5, "VICTORY_POINT"), ("t06", "INFANTRY", 4, 4, "ADDITIONAL_RECRUITMENT"),
         ("t07", "ARMORED", 3, 3, "TRAINING"), ("t08", "PARATROOPER", 3, 3, "UNDERGROUND"),
         ("t09", "SAILOR", 3, 3, "MOVEMENT"), ("t10", "SABOTEUR", 3, 3, "LIAISON"),
         ("t11", "INFANTRY", 2, 2, "VICTORY_POINT"), ("t12", "PILOT", 2, 2, "VICTORY_POINT"),
         ("t13", "ARMORED", 2, 2, "VICTORY_POINT"), ("t14", "PILOT", 4, 1, "MOVEMENT")]


def staged_pack() -> Pack:
    real = pack()
    regions = {r: dataclasses.replace(real.regions[r], track=TRACK, thresholds=(ARROW,) * (len(TRACK) - 1),
                                      start=1) for r in REGIONS}
    soldiers = dict(real.soldiers)
    for sid, formation, s, u, ability in EXTRA:
        soldiers[sid] = Soldier(id=sid, name=f"Test soldier {sid}", formation=formation, strength=s, underground=u,
                                ability=ability, note="", note_pl="", source="test")
    return dataclasses.replace(real, regions=regions, soldiers=soldiers)


@pytest.fixture
def staged() -> Iterator[Pack]:
    text.catalogue()  # the real names are cached before the staged pack is in place
    use_pack(None)
    p = staged_pack()
    use_pack(p)
    yield p
    use_pack(None)


def table(players: int = 4, soldiers: dict[str, Any] | None = None, deck: tuple[str, ...] = (),
          starter: str = YOLANDA, domination: dict[str, int] | None = None, nurses: dict[str, int] | None = None,
          hands: dict[str, list[str]] | None = None, events: tuple[str, ...] = (),
          concentration: tuple[str, str] | None = None, deck_rest: bool = True) -> GameState:
    """A round about to begin, ``starter`` choosing the first order. ``soldiers``: card id -> region, or
    -> (region, S, U, trained, wounds). ``deck``: the top of the soldier deck, the unused cards below it
    (unless ``deck_rest`` is False)."""
    seats = [f"p{i + 1}" for i in range(players)]
    state = GameState(options={"draft": False, "events": False, "players": players}, seats=seats)
    state.tiles = {o: {"active": True, "vp": 0} for o in ORDERS}
    state.domination = {r: 1 for r in REGIONS}
    state.domination.update(domination or {})
    for sid, where in (soldiers or {}).items():
        card = pack().soldiers[sid]
        region, s, u, trained, wounds = (where, card.strength, card.underground, False, 0) \
            if isinstance(where, str) else where
        state.soldiers[sid] = {"region": region, "s": s, "u": u, "trained": trained, "wounds": wounds}
    rest = [s for s in sorted(pack().soldiers) if s not in state.soldiers and s not in deck] if deck_rest else []
    state.soldier_deck = [*deck, *rest]
    for seat in seats:
        state.vp[seat], state.nurses[seat] = 0, (nurses or {}).get(seat, 0)
        state.hands[seat] = list((hands or {}).get(seat, []))
        state.succeeded[seat], state.failed[seat], state.discarded[seat] = [], [], []
        state.stage2_received[seat], state.started_four[seat] = 0, False
    state.stage2_deck = sorted(m for m, c in pack().missions.items() if c.stage == 2)
    state.event_deck = list(events) or sorted(pack().events)
    if concentration:
        state.concentration = {"region": concentration[0], "formation": concentration[1]}
    state.starter = state.chooser = starter
    state.stack = [{"k": "rounds"}]
    run(Ctx(state, random.Random(7)))
    return state


def decision(state: GameState) -> Decision:
    found = GAME.pending(state)
    assert len(found) == 1, found
    return found[0]


def choice_ids(state: GameState) -> list[str]:
    return list(decision(state).choice_ids())


def answer(state: GameState, seat: str, *choices: str, seed: int = 3) -> list[Event]:
    d = decision(state)
    assert d.seat == seat, f"{d.seat} answers {d.kind} ({d.prompt}), not {seat}"
    return GAME.apply(state, seat, Action(decision=d.id, choices=tuple(choices)), random.Random(seed))


def choose(state: GameState, seat: str, order: str) -> list[Event]:
    d = decision(state)
    assert d.kind == "order", d
    return answer(state, seat, order)


def passes(state: GameState, *seats: str) -> None:
    for seat in seats:
        assert "pass" in choice_ids(state), decision(state)
        answer(state, seat, "pass")


def texts(events: list[Event]) -> list[str]:
    return [e.text for e in events]
