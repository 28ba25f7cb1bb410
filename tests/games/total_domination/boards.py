"""Stage a small Total Domination board and a state on it, for rule tests.

The rulebook's examples hold "on any board where the preconditions are true" (spec §16), so a
test builds exactly the spaces its example needs:

    st = stage(
        spaces=[home("germany", "germany", capital=True, factory=True), land("poland"), coastal("ukraine")],
        links=[("germany", "poland", "land"), ("poland", "ukraine", "land")],
        units=[("germany", "army", "poland"), ("germany", "fleet", "germany")],
    )

Units get ids u1, u2, ... in the order given. ``stub_pack`` stands in for the data pack where a
rule reads it (token counts, cards), so these tests do not depend on the authored YAML.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from types import SimpleNamespace
from typing import Any

import pytest

from app.games.total_domination import pack as td_pack
from app.games.total_domination.pack import POWERS, Board, Card, Event, Link, Space, register_board
from app.games.total_domination.state import GameState

_keys = itertools.count(1)

DEFAULT_OPTIONS: dict[str, Any] = {"players": 4, "bombers": True, "uboats": True, "arctic": False,
                                   "scenario": "full"}
DEFAULT_CONTROLLER = {"france": "uk", "italy": "germany", "usa": "nonaligned", "china": "nonaligned"}
DEFAULT_TOKENS: dict[str, dict[str, int]] = {
    **{n: {"army": 10, "fleet": 10, "bomber": 2} for n in POWERS},
    **{n: {"army": 10, "fleet": 10} for n in ("france", "italy", "usa", "china")},
    "neutral": {"army": 5},
}
DEFAULT_TOKENS["germany"]["uboat"] = 6
DEFAULT_TOKENS["uk"]["resistance"] = DEFAULT_TOKENS["ussr"]["resistance"] = 6


def space(id: str, shape: str = "land", stars: int = 1, nation: str | None = None, **kw: Any) -> Space:
    """A space; capitals get 3 stars unless told otherwise."""
    if kw.get("capital") and "stars" not in kw:
        stars = 3
    return Space(id=id, name=id.title(), name_pl=id.title(), shape=shape, stars=stars,  # type: ignore[arg-type]
                 nation=nation, **kw)


def land(id: str, stars: int = 1, nation: str | None = None, **kw: Any) -> Space:
    return space(id, "land", stars, nation, **kw)


def coastal(id: str, stars: int = 1, nation: str | None = None, **kw: Any) -> Space:
    return space(id, "coastal", stars, nation, **kw)


def island(id: str, stars: int = 1, nation: str | None = None, **kw: Any) -> Space:
    return space(id, "island", stars, nation, **kw)


def home(id: str, nation: str, shape: str = "coastal", stars: int = 1, **kw: Any) -> Space:
    """A home space of ``nation`` (coastal by default, so any unit may stand there)."""
    return space(id, shape, 3 if kw.get("capital") else stars, nation, **kw)


def stage(
    spaces: Iterable[Space],
    links: Iterable[Link | tuple[str, str, str]] = (),
    units: Iterable[tuple[Any, ...]] = (),
    controller: Mapping[str, str] | None = None,
    techs: Mapping[str, list[str]] | None = None,
    year: int = 1939,
    options: Mapping[str, Any] | None = None,
    destroyed: Iterable[str] = (),
    **fields: Any,
) -> GameState:
    """A 4-player state on a fresh registered board. A unit is (nation, kind, space) or
    (nation, kind, space, spent); ``controller`` overrides the coalition / non-aligned defaults
    (France UK, Italy Germany, USA and China non-aligned); ``fields`` sets any other state field."""
    key = f"test-{next(_keys)}"
    register_board(Board.build(key, list(spaces), [x if isinstance(x, Link) else Link(x[0], x[1], x[2])  # type: ignore[arg-type]
                                                    for x in links]))
    given: dict[str, Any] = {
        "seats": {p: p for p in POWERS},
        "seat_labels": {p: p for p in POWERS},
        "hand_of": {p: p for p in POWERS},
        "hands": {p: [] for p in POWERS},
        "phase": "action",
        **fields,
    }
    st = GameState(
        options={**DEFAULT_OPTIONS, **(options or {})},
        board=key,
        year=year,
        controller={**DEFAULT_CONTROLLER, **(controller or {})},
        techs={p: list((techs or {}).get(p, [])) for p in POWERS},
        destroyed=list(destroyed),
        **given,
    )
    for u in units:
        unit = st.new_unit(u[0], u[1], u[2])
        if len(u) > 3:
            unit.spent = bool(u[3])
    return st


def card(id: str, op: int = 4, kind: str = "tactics", value: int | None = None, vp: int = 0,
         flag: str | None = None, colour: str = "germany") -> Card:
    return Card(id=id, name=id, name_pl=id, op=op, tech="A1", colour=colour,
                event=Event(kind=kind, value=value, vp=vp, flag=flag))  # type: ignore[arg-type]


def stub_pack(monkeypatch: pytest.MonkeyPatch, cards: Iterable[Card] = (),
              tokens: Mapping[str, Mapping[str, int]] | None = None) -> SimpleNamespace:
    """Make ``pack.pack()`` (and so ``pack.card``) answer from these cards and token counts."""
    stub = SimpleNamespace(cards={c.id: c for c in cards},
                           tokens={n: dict(k) for n, k in (tokens or DEFAULT_TOKENS).items()})
    monkeypatch.setattr(td_pack, "pack", lambda: stub)
    return stub


def ids(st: GameState, nation: str, kind: str) -> list[str]:
    return [u.id for u in st.units if u.nation == nation and u.kind == kind]
