"""Attack!'s data pack: the map of the western world in 1935, the Economics deck, the dice.

The rulebook has no map and no card texts (spec §23), so the YAML files in ``data/`` are authored:
each item carries ``source:`` (a rulebook section, or ``reconstructed``). This module is the only
reader of those files (through ``pack_load``); the rules see typed, frozen objects. A map can also
be built in Python (``Map.build``) and registered under a key, so rule tests can stage exactly the
regions a worked example needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"

LAND_TYPES: tuple[str, ...] = ("INF", "TNK", "ART", "PLN")  # also the casualty order
NAVY_TYPES: tuple[str, ...] = ("DD", "SS", "BB", "CV")
ECON_TYPES: tuple[str, ...] = ("POP", "MIN", "FAC", "OIL", "RAIL")
SET_TYPES: tuple[str, ...] = ("OIL", "MIN", "FAC", "RAIL")  # a set: one of each; Population never
COSTS: dict[str, int] = {"INF": 5, "TNK": 10, "ART": 8, "PLN": 15, "DD": 5, "SS": 5, "BB": 10, "CV": 20}
CAPITAL_PP = 10
START_LAND: dict[str, int] = {"INF": 12, "TNK": 6, "ART": 4, "PLN": 2}
START_NAVY: dict[str, int] = {"BB": 1, "DD": 2, "SS": 2}
START_CARDS = 4
START_REGIONS = 4
MAX_ACTIONS = 3
OPENING = 4  # units each side commits at the start of a land battle
MIN_DICE = 2
MAX_LINE = 8  # naval line-up cap
CONTINENTS: tuple[str, ...] = ("north_america", "south_america", "africa", "eurasia")


@dataclass(frozen=True)
class Region:
    id: str  # "ukraine"
    name: str
    name_pl: str
    continent: str  # one of CONTINENTS
    lon: float  # where its label and units sit on the map (real geography, degrees)
    lat: float
    outline: tuple[tuple[float, float], ...] = ()  # (lon, lat) polygon, drawn on the map; may be empty
    source: str = "reconstructed"


@dataclass(frozen=True)
class SeaZone:
    id: str  # "north_sea"
    name: str
    name_pl: str
    anchored: bool  # an anchor: every bordering region is joined by sea to every other
    borders: tuple[str, ...]  # the land regions bordering it
    zones: tuple[str, ...] = ()  # adjacent sea zones (kept as data, unused by the base rules)
    lon: float = 0.0
    lat: float = 0.0
    source: str = "reconstructed"


@dataclass(frozen=True)
class Lane:
    """A sea lane (grey line) joining two regions (A-3.2.3)."""

    a: str
    b: str
    source: str = "reconstructed"


@dataclass(frozen=True)
class EconCard:
    id: str  # "ec-017": one width, so no id is part of another
    type: str  # one of ECON_TYPES
    value: int  # 1..4: the PP it gives
    defenders: tuple[tuple[str, int], ...]  # the neutral defenders it lists: (land type, count), A-16.3
    name: str  # what the card stands for ("Ploiești oil"), unique in the deck: a hand's secret in words too
    name_pl: str
    source: str = "reconstructed"

    def defending(self) -> dict[str, int]:
        return {t: n for t, n in self.defenders if n}


@dataclass(frozen=True)
class Colour:
    id: str  # "light_brown"
    name: str
    name_pl: str
    hex: str  # "#b58b5a"
    source: str = "reconstructed"


@dataclass(frozen=True)
class Map:
    key: str
    regions: dict[str, Region]
    land: dict[str, frozenset[str]]  # region -> land neighbours (symmetric)
    lanes: tuple[Lane, ...] = ()
    zones: dict[str, SeaZone] = field(default_factory=dict)
    sea: dict[str, frozenset[str]] = field(default_factory=dict)  # region -> regions one sea move away

    @classmethod
    def build(cls, key: str, regions: Iterable[Region], land: Iterable[tuple[str, str]],
              lanes: Iterable[Lane] = (), zones: Iterable[SeaZone] = ()) -> Map:
        regs = {r.id: r for r in regions}
        adj: dict[str, set[str]] = {r: set() for r in regs}
        for a, b in land:
            adj[a].add(b)
            adj[b].add(a)
        lanes, zs = tuple(lanes), {z.id: z for z in zones}
        sea: dict[str, set[str]] = {r: set() for r in regs}
        for lane in lanes:
            sea[lane.a].add(lane.b)
            sea[lane.b].add(lane.a)
        for z in zs.values():
            if z.anchored:  # as if a lane joined every pair of its bordering regions
                for a in z.borders:
                    sea[a].update(b for b in z.borders if b != a)
        return cls(key=key, regions=regs, land={r: frozenset(v) for r, v in adj.items()}, lanes=lanes, zones=zs,
                   sea={r: frozenset(v) for r, v in sea.items()})

    def neighbours(self, region: str) -> frozenset[str]:
        """Land neighbours."""
        return self.land[region]

    def by_sea(self, region: str) -> frozenset[str]:
        """Regions one sea move away: along a lane or across an anchored zone (A-7.3)."""
        return self.sea.get(region, frozenset())

    def adjacent(self, a: str, b: str) -> bool:
        """Adjacent for diplomacy and trade: by land, by a lane or an anchored zone (A-15.2, gap A-19.5)."""
        return b in self.land[a] or b in self.sea.get(a, frozenset())


@dataclass(frozen=True)
class Pack:
    map: Map
    econ: dict[str, EconCard]
    die_faces: tuple[str, ...]  # the battle die's six faces: LAND_TYPES or "BLANK" (A-2, gap §23.2)
    colours: tuple[Colour, ...]  # six player colours, in seat order
    navy_limit: dict[str, int] | None = None  # cards of each type in the Navy deck; None: unlimited (§24)
    problems: tuple[str, ...] = ()  # what pack_load found wrong while reading (audit() reports them)


_MAPS: dict[str, Map] = {}


def register_map(m: Map) -> None:
    """A map a test stages (or the pack's own) under its key."""
    _MAPS[m.key] = m


def geo(key: str) -> Map:
    if key not in _MAPS and key == "west":
        register_map(pack().map)
    return _MAPS[key]


@cache
def pack() -> Pack:
    from app.games.attack.pack_load import load_pack

    return load_pack(DATA_DIR)
