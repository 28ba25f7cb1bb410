"""Total Domination's data pack: both board sides, the Arctic add-on, the decks, the sheets.

The rulebook has no board and no card texts (spec §18), so the YAML files in ``data/`` are
authored: each item carries ``source:`` (a rulebook section, or ``reconstructed``). This module
is the only reader of those files; the rules see typed, frozen objects. A board can also be
built in Python (``Board.build``) and registered under a key, so rule tests can stage exactly
the spaces a worked example needs (spec §16: "holds on any board where the preconditions are true").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

DATA_DIR = Path(__file__).parent / "data"

# the belligerents in turn order (spec §3.3: Germany -> UK -> Japan -> USSR, alternating sides)
POWERS: tuple[str, ...] = ("germany", "uk", "japan", "ussr")
AXIS: tuple[str, ...] = ("germany", "japan")
ALLIES: tuple[str, ...] = ("uk", "ussr")
COALITION: tuple[str, ...] = ("france", "italy")
NONALIGNED: tuple[str, ...] = ("usa", "china")
NATIONS: tuple[str, ...] = POWERS + COALITION + NONALIGNED  # every country with home spaces and units
NEUTRAL = "neutral"  # the owner of the neutral armies and the colour of the light-grey spaces
JOINS = {"usa": "uk", "china": "ussr"}  # who a non-aligned country joins (spec §9.1)
# the board edge each power sits at (spec §3.3, §15.1): the solo lines start from the German and Japanese ones
EDGES: dict[str, str] = {"uk": "bottom", "germany": "right", "japan": "left", "ussr": "top"}
YEARS: tuple[int, ...] = (1939, 1940, 1941, 1942, 1943, 1944, 1945)

Shape = Literal["land", "island", "coastal"]
LinkKind = Literal["land", "sea", "arrow"]  # arrow: the shape-matched edge links, a land-route type
UnitKind = Literal["army", "fleet", "bomber", "uboat", "resistance"]
UNIT_KINDS: tuple[str, ...] = ("army", "fleet", "bomber", "uboat", "resistance")
EventKind = Literal["tactics", "logistics", "research", "diplomacy", "peace"]
TECH_GROUPS: tuple[str, ...] = ("land", "naval", "production", "intelligence", "rocketry")


def side_of(power: str) -> str:
    return "axis" if power in AXIS else "allies"


@dataclass(frozen=True)
class Space:
    id: str
    name: str  # English
    name_pl: str
    shape: Shape
    stars: int  # 0..3; a capital has 3
    nation: str | None = None  # the home country whose colour it has; None: a light-grey neutral space
    capital: bool = False
    factory: bool = False
    shipyard: bool = False
    uboat: bool = False  # a U-boat space (Atlantic Ocean, Caribbean Sea; Iceland with the Arctic)
    arctic: bool = False  # on the board only with the Arctic expansion
    xy: tuple[float, float] = (0.0, 0.0)  # where the board SVG draws it (a 1000 x 1000 view box)
    source: str = "reconstructed"

    @property
    def limit(self) -> int:
        """Stacking limit (spec §4.9; 0-star spaces take 2, gap G3)."""
        return 4 if self.capital else 2


@dataclass(frozen=True)
class Link:
    a: str
    b: str
    kind: LinkKind
    sides: tuple[str, ...] = ("basic", "alternative")
    arctic: bool = False  # only with the Arctic expansion
    source: str = "reconstructed"


@dataclass(frozen=True)
class Board:
    """One board side as played (with or without the Arctic): its spaces and its connections."""

    key: str
    spaces: dict[str, Space]
    links: tuple[Link, ...]
    neighbours: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # space -> ((other, kind), ...)

    @classmethod
    def build(cls, key: str, spaces: Iterable[Space], links: Iterable[Link]) -> Board:
        by_id = {s.id: s for s in spaces}
        kept = tuple(x for x in links if x.a in by_id and x.b in by_id)
        near: dict[str, list[tuple[str, str]]] = {s: [] for s in by_id}
        for x in kept:
            near[x.a].append((x.b, x.kind))
            near[x.b].append((x.a, x.kind))
        return cls(key=key, spaces=by_id, links=kept,
                   neighbours={s: tuple(sorted(v)) for s, v in near.items()})

    def adjacent(self, a: str, b: str) -> bool:
        return any(o == b for o, _ in self.neighbours[a])

    def kinds_between(self, a: str, b: str) -> set[str]:
        return {k for o, k in self.neighbours[a] if o == b}

    def home_spaces(self, nation: str) -> list[str]:
        return [s.id for s in self.spaces.values() if s.nation == nation]

    def capital_of(self, nation: str) -> str | None:
        return next((s.id for s in self.spaces.values() if s.nation == nation and s.capital), None)


@dataclass(frozen=True)
class Event:
    """A card's event field (spec §7, §18.3)."""

    kind: EventKind
    value: int | None = None  # tactics: +1 / -1 (a modifier) or 5 / 6 / 7 (the OP it replaces the card's with)
    icons: dict[str, int] = field(default_factory=dict)  # logistics: army/fleet/bomber/move/satellite/resistance
    flag: str | None = None  # diplomacy: the neutral country's flag (brazil, spain, sweden, turkey)
    vp: int = 0  # diplomacy: 1 or 2
    op: int = 0  # peace: the OP the card itself adds to the top card of the deck


@dataclass(frozen=True)
class Card:
    id: str  # "td-01" .. "td-60": fixed width, so no id is part of another
    name: str
    name_pl: str
    op: int  # 3..6, top left
    tech: str  # the tech icon, top right: "A1" .. "E3"
    colour: str  # the event background: a nation of NATIONS
    event: Event
    deck: Literal["main", "usa", "china"] = "main"
    text: str = ""  # the event in our own words (English)
    text_pl: str = ""
    source: str = "reconstructed"


@dataclass(frozen=True)
class Tech:
    id: str  # "A1"
    name: str
    name_pl: str
    group: str  # one of TECH_GROUPS
    cube: Literal["place", "remove"]
    requires: tuple[str, ...] = ()  # all of these, revealed in an earlier round
    requires_any: tuple[str, ...] = ()  # at least one of these, revealed in an earlier round
    source: str = "reconstructed"


@dataclass(frozen=True)
class AutomaPart:
    """One Axis country's half of a solo card (spec §15.2)."""

    actions: tuple[tuple[str, str], ...]  # (verb, unit): verb build / move / destroy, unit army / fleet
    units: tuple[str, ...]  # the unit priority, e.g. ("army", "fleet")


@dataclass(frozen=True)
class SoloCard:
    id: str  # "solo-01" .. "solo-18"
    number: int
    year: int  # 1939..1943
    germany: AutomaPart
    japan: AutomaPart
    # the space selection lines (spec §15.5, §18.7): for each orientation (germany / japan) and each
    # arrow 1..4, the spaces the line from that board edge crosses, nearest first
    lines: dict[str, tuple[tuple[str, ...], ...]]
    source: str = "reconstructed"


@dataclass(frozen=True)
class Year:
    year: int
    draw: int  # cards each player draws for the draft
    starts: str  # the power that starts every phase of the year
    passes: Literal["left", "right"]


@dataclass(frozen=True)
class Placement:
    space: str
    nation: str  # whose unit (neutral for the neutral armies)
    kind: str
    count: int = 1


@dataclass(frozen=True)
class Scenario:
    id: str  # "full", "rise_of_the_axis", "fall_of_the_axis"
    first_year: int
    last_year: int
    placements: tuple[Placement, ...]  # the units on the board at the start
    techs: dict[str, tuple[str, ...]] = field(default_factory=dict)  # power -> techs developed at the start
    tracks: dict[str, int] = field(default_factory=dict)  # usa / china -> marker position at the start
    coalition: dict[str, str] = field(default_factory=dict)  # france / italy -> controlling power at the start
    deal: int | None = None  # the first year's draft draws this many per player
    source: str = "reconstructed"


@dataclass(frozen=True)
class Pack:
    boards: dict[str, Board]  # "basic", "alternative", "basic+arctic", "alternative+arctic"
    cards: dict[str, Card]
    techs: dict[str, Tech]
    solo: dict[str, SoloCard]
    years: dict[int, Year]
    tracks: dict[str, int]  # usa / china -> the track's last space: the marker there joins the war
    tokens: dict[str, dict[str, int]]  # nation -> unit kind -> tokens in the box (the hard limit)
    scenarios: dict[str, Scenario]
    arctic_extra: tuple[Placement, ...]  # placed at setup with the Arctic expansion (a neutral army in Finland)
    alternative_setup: dict[str, Any]  # spec §13.3: the order and the units each power places
    starting_vp: dict[str, int]  # the VP track's start marks (spec §3.2 step 4)


_REGISTERED: dict[str, Board] = {}


def register_board(board: Board) -> None:
    """A test board reachable by its key from a state (rule tests stage their own geography)."""
    _REGISTERED[board.key] = board


def board(key: str) -> Board:
    return _REGISTERED[key] if key in _REGISTERED else pack().boards[key]


def board_key(side: str, arctic: bool) -> str:
    return side + ("+arctic" if arctic else "")


def card(card_id: str) -> Card:
    return pack().cards[card_id]


@cache
def pack() -> Pack:
    import app.games.total_domination.pack_load as pack_load  # the YAML reader, kept apart from the types

    return pack_load.read(DATA_DIR)


def line_on(b: Board, solo_card: SoloCard, orientation: str, arrow: int) -> tuple[str, ...]:
    """The spaces of a solo card's line (arrow 1..4) that are on this board, nearest the edge first.
    The pack's lines list every space the line crosses, Arctic ones included (spec §18.7)."""
    return tuple(s for s in solo_card.lines[orientation][arrow - 1] if s in b.spaces)


def token_limit(p: Pack, nation: str, kind: str) -> int:
    """Tokens in the box for a nation's unit kind (spec §3.6). Resistance markers are one pool of 6
    shared by the Allied players (src §1.0): count every Resistance unit on the board against it."""
    if kind == "resistance":
        return p.tokens.get("resistance", {}).get("resistance", 0)
    return p.tokens.get(nation, {}).get(kind, 0)
