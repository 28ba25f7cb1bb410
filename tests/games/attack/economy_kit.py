"""Stage a small Attack! table in the middle of play, for the ECONOMY rule tests (diplomacy, build, trade).

    st = stage(["a", "b", "c"], land=[("a", "b")], owner={"a": "p1", "c": "p2"})
    answer(st, "p1", "DIPLO")            # the active seat picks the action
    answer(st, "p1", "b", rng=ScriptedDice(*pair(8)))

The map is registered under a fresh key; regions belong to the continent "eurasia". Every owned
region gets one infantry unless ``units`` says otherwise. ``Cards`` hands out distinct cards of the
data pack by type and value, so the tests do not depend on the authored card ids."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from app.games.attack import GAME
from app.games.attack.engine import Ctx, run
from app.games.attack.pack import Lane, Map, Region, SeaZone, pack, register_map
from app.games.attack.state import GameState
from app.games.protocol import Action, Decision, Event
from app.games.secrets import leaks

_keys = itertools.count(1)
SEATS = ("p1", "p2", "p3", "p4")


def region(rid: str) -> Region:
    return Region(id=rid, name=rid.title(), name_pl=rid.title(), continent="eurasia", lon=0.0, lat=0.0)


def zone(zid: str, borders: Iterable[str], anchored: bool = True) -> SeaZone:
    return SeaZone(id=zid, name=zid.title(), name_pl=zid.title(), anchored=anchored, borders=tuple(borders))


class Cards:
    """Distinct Economics cards of the pack, asked for by type and value."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def __call__(self, kind: str, value: int) -> str:
        for cid, card in sorted(pack().econ.items()):
            if card.type == kind and card.value == value and cid not in self.used:
                self.used.add(cid)
                return cid
        raise LookupError(f"the pack has no more {kind} cards of value {value}")

    def rest(self) -> list[str]:
        return [c for c in sorted(pack().econ) if c not in self.used]


def stage(regions: Iterable[str], land: Iterable[tuple[str, str]] = (), lanes: Iterable[tuple[str, str]] = (),
          zones: Iterable[SeaZone] = (), owner: Mapping[str, str] | None = None,
          units: Mapping[str, dict[str, int]] | None = None, capitals: Mapping[str, str] | None = None,
          hands: Mapping[str, list[str]] | None = None, deck: list[str] | None = None, players: int = 3,
          sea_controller: str | None = None, options: Mapping[str, Any] | None = None) -> GameState:
    """A table whose first seat's turn is about to begin (run ``begin`` to reach its first decision)."""
    geo = Map.build(f"econ-{next(_keys)}", [region(r) for r in regions], land, [Lane(a, b) for a, b in lanes], zones)
    register_map(geo)
    seats = list(SEATS[:players])
    colours = pack().colours
    owner = dict(owner or {})
    state = GameState(
        options={"end": "elimination", "turn_limit": "36", "finish_round": False, "one_per_continent": False,
                 "players": players, **(options or {})},
        map=geo.key, seats=seats, colours={s: colours[i].id for i, s in enumerate(seats)},
        seat_labels={s: colours[i].name for i, s in enumerate(seats)}, order=list(seats),
    )
    for r, seat in owner.items():
        state.add_units(r, seat, (units or {}).get(r, {"INF": 1}))
    state.capitals = dict(capitals or {})
    state.hands = {s: list((hands or {}).get(s, [])) for s in seats}
    state.deck = list(deck if deck is not None else [])
    state.navy = {s: {"BB": 1, "DD": 2, "SS": 2} for s in seats}
    state.sea_controller = sea_controller
    state.phase = "play"
    state.stack = [{"k": "rounds", "next": 0}]
    return state


def begin(state: GameState, rng: random.Random | None = None) -> list[Event]:
    ctx = Ctx(state, rng or random.Random(0))
    run(ctx)
    return ctx.events


def pending(state: GameState, seat: str | None = None) -> list[Decision]:
    return [d for d in GAME.pending(state) if seat is None or d.seat == seat]


def decision(state: GameState, seat: str) -> Decision:
    found = pending(state, seat)
    assert found, f"{seat} has no decision; pending: {[(d.seat, d.kind) for d in GAME.pending(state)]}"
    return found[0]


def choice_ids(state: GameState, seat: str) -> list[str]:
    return [c.id for c in decision(state, seat).choices]


def answer(state: GameState, seat: str, *choices: str, rng: random.Random | None = None) -> list[Event]:
    d = decision(state, seat)
    return GAME.apply(state, seat, Action(decision=d.id, choices=tuple(choices)), rng or random.Random(0))


def seen_by(events: list[Event], seat: str | None) -> list[str]:
    """The log lines as ``seat`` reads them (its private text, else the public one); None: a spectator."""
    return [e.private.get(seat, e.text) if seat else e.text for e in events]


def leaked(state: GameState, seat: str, events: list[Event]) -> list[Any]:
    """What ``seat``'s view, pending decisions and log lines give away of what it must not know."""
    hidden = GAME.secrets(state, seat)
    payload = json.dumps(GAME.view(state, seat)) + json.dumps(seen_by(events, seat))
    payload += json.dumps([(d.prompt, [c.label for c in d.choices]) for d in pending(state, seat)])
    payload += json.dumps([[e.msg.params if e.msg else None] for e in events], default=str)
    return leaks(payload, hidden)
