"""Autarcha's data pack: the board (small squares grouped in big squares, terrain, roads and rails, the
12 areas and their gold, the cities, the deployment lines), the Troops Table, the Defence Effectiveness
Table [TSO] and the five scenarios.

The rulebook's figures and its board are missing from the OCR, and its two tables are garbled (spec
§14–15, §18), so most of ``data/`` is authored. Every item carries ``source:`` (a rulebook passage with
its line in ``shared/seeds/autarcha.pl.txt``, or ``reconstructed``), and every table value carries its
confidence: ``prose`` (a sentence of the book states or forces it), ``best_fit`` (a legible OCR glyph in
the column the reconstruction assigns it) or ``guess``. This module is the only reader of those files
(through ``pack_load``); the rules see typed, frozen objects.

Geometry (spec §3, reconstructed where the book is silent, see README): the board is
``2 * latitudes`` small rows by ``2 * longitudes`` small columns. Row 0 is the southern edge (side A,
"below 07"), column 0 the western edge. A small square is named ``LL.OO.DD`` after the crossing of thick
lines it touches: every crossing owns the 2 x 2 small squares around it, so each small square touches
exactly one crossing, and the thick lines run between rows (and columns) 2k-1 and 2k.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Generic, TypeVar

DATA_DIR = Path(__file__).parent / "data"

# the landscape of a small square (U-3.5: the 2/3 rule is applied when the map is drawn); the five
# columns of the [TSO] are exactly these (spec §15.2.5)
TERRAINS: tuple[str, ...] = ("ground", "water", "forest", "mountains", "city")
COVER: tuple[str, ...] = ("forest", "mountains", "city")  # the prose gives cover to these (U-3.5.3, U-3.5.8)
TRACKS: tuple[str, ...] = ("road", "rail")  # directional overlays (U-3.5.6)
# the Troops Table's seven movement columns M1..M7 in the order of spec §14.3's best fit
ENVIRONMENTS: tuple[str, ...] = ("road", "forest", "mountains", "ground", "water", "city", "rail")
DIRECTIONS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")  # 8 facings, 45 degrees apart
DELTA: dict[str, tuple[int, int]] = {"N": (1, 0), "NE": (1, 1), "E": (0, 1), "SE": (-1, 1), "S": (-1, 0),
                                     "SW": (-1, -1), "W": (0, -1), "NW": (1, -1)}  # (rows north, columns east)
OPPOSITE: dict[str, str] = {d: DIRECTIONS[(i + 4) % 8] for i, d in enumerate(DIRECTIONS)}
QUARTERS: tuple[str, ...] = ("NW", "NE", "SW", "SE")  # a small square's place around its crossing (U-3.2.1)

UNITS: tuple[str, ...] = ("PSZ", "PIE", "PC", "ART", "SAP")  # HQ, infantry, armoured, artillery, sappers
OBJECTS: tuple[str, ...] = ("F", "MINE")  # factory, land mine ("x" in the book)
KINDS: tuple[str, ...] = UNITS + OBJECTS
PRODUCERS: tuple[str, ...] = ("factory", "city", "sappers", "none")  # where a kind appears (Troops Table)
CONFIDENCE: tuple[str, ...] = ("prose", "best_fit", "guess")
SIDES: tuple[str, ...] = ("A", "B")  # A deploys below line 07 (south), B above line 14 (north)

SCENARIOS: tuple[str, ...] = ("skirmish", "autarchy", "civil_war", "total_war", "absolute_zero")  # §4
WIN_CONDITIONS: tuple[str, ...] = ("hq_destroyed", "all_units_destroyed", "surrender")
DEPLOYMENTS: tuple[str, ...] = ("hidden", "surplus_then_alternate", "alternate", "hq_at_crossing")
ZONES: tuple[str, ...] = ("lines", "owned_areas", "hq_crossing")
CARDS: tuple[str, ...] = ("none", "controlled", "dealt")  # area cards at the start

# figures the prose gives (line numbers in shared/seeds/autarcha.pl.txt)
MOVES_PER_TURN = 5  # l.953 "Daje 5 ruchow"
FORMATION_MIN = 3  # l.421 "nie mniej niz 3 jednostki"
CITY_SQUARE_HITS = 4  # l.882 "Kazda mata kratka musi otrzymac 4 trafienia"
TRACK_OR_FOREST_HITS = 1  # l.803 "zniszczony tak jak droga lub kolej jednym trafieniem"
MINE_STRENGTH = 1  # l.658 "jednostka jest zawsze trafiana z sila 1"
DEMINE_SQUARES = 4  # l.736 "wskazuje 4 male kratki"
BIG_SQUARE = 2  # small squares along a big square's side (U-3.1.4, inferred from the notation)
BO_SIDE = 2 * BIG_SQUARE  # [BO]: the four big squares around a crossing, a 4 x 4 block (U-3.3.1)

V = TypeVar("V")
Square = tuple[int, int]  # (row from the south edge, column from the west edge)


@dataclass(frozen=True)
class Cell(Generic[V]):
    """One value of a table with its provenance. ``None`` stands for the book's "–"."""

    value: V
    confidence: str  # one of CONFIDENCE
    source: str  # the seed line(s) and, for prose, the passage
    note: str = ""


@dataclass(frozen=True)
class Range:
    """A kind's attack range (U-9.2; the book's figures are lost, spec §18.4): the squares it fires at, as
    offsets (rows north, columns east) from its own square, drawn for a unit facing north (``orthogonal``)
    and one facing north-east (``diagonal``); the other facings turn these by quarter turns."""

    orthogonal: frozenset[Square]
    diagonal: frozenset[Square]
    confidence: str  # one of CONFIDENCE
    source: str
    note: str = ""

    def reach(self, facing: str) -> frozenset[Square]:
        """The offsets a unit facing ``facing`` fires at."""
        i = DIRECTIONS.index(facing)
        out = self.diagonal if i % 2 else self.orthogonal
        for _ in range(i // 2):  # a quarter turn clockwise: north becomes east, east south
            out = frozenset((-dc, dr) for dr, dc in out)
        return out


@dataclass(frozen=True)
class Troop:
    """One row of the Troops Table (spec §14)."""

    id: str  # one of KINDS
    name: str
    name_pl: str
    steps: dict[str, Cell[int | None]]  # per ENVIRONMENTS: >0 steps per move, 0 may stay but not move, None "–"
    hp: Cell[int]  # durability: hits it takes to be destroyed
    cost: Cell[int | None]  # gold; None: cannot be bought (the HQ)
    built_at: Cell[str]  # one of PRODUCERS: in whose [BO] it appears
    transport: Cell[int | None]  # the "[t]" column; drives no rule of this rulebook
    attacks: Cell[bool]
    ocr: str  # the raw OCR row
    source: str
    ranges: Range | None = None  # None: no attack (SAP, objects)

    @property
    def is_object(self) -> bool:
        return self.id in OBJECTS

    def max_steps(self, environment: str) -> int | None:
        return self.steps[environment].value

    def may_stand_on(self, terrain: str) -> bool:
        """Whether this kind may be on a square of ``terrain`` off any road or rail mode ("–" loses a unit,
        U-7.1.6). The road and rail columns are movement modes, not places: a unit facing along a track it
        may use is on the track, whatever the landscape under it (U-7.6.2, README)."""
        return self.steps[terrain].value is not None


@dataclass(frozen=True)
class Area:
    id: str
    mark: str  # its character in the board's area map
    name: str
    name_pl: str
    gold: int  # on its card: collected each turn by the side controlling it (U-6.3)
    source: str = "reconstructed"


@dataclass(frozen=True)
class City:
    id: str
    name: str
    crossings: tuple[str, ...]  # "LL.OO": the city is the small squares of these crossings
    source: str = "reconstructed"


@dataclass(frozen=True)
class DeploymentLine:
    side: str  # one of SIDES
    line: int  # the thick line of latitude marked with an arrow
    towards: str  # "south" (below the line) or "north" (above it)
    hq_crossing: str  # "LL.OO": Absolute Zero's arrow-marked crossing on the line
    source: str = ""


@dataclass(frozen=True)
class Board:
    latitudes: int  # crossings 01..latitudes, south to north
    longitudes: int  # crossings 01..longitudes, west to east
    symmetry: str  # "mirror" (north-south) or "none"
    terrain: tuple[tuple[str, ...], ...]  # [row][col]: one of TERRAINS (or an unknown mark, kept for the audit)
    roads: tuple[tuple[frozenset[str], ...], ...]  # [row][col]: the directions along the road (empty: none)
    rails: tuple[tuple[frozenset[str], ...], ...]
    areas: tuple[tuple[str, ...], ...]  # [row][col]: the area's mark
    source: str = ""

    @property
    def rows(self) -> int:
        return len(self.terrain)

    @property
    def cols(self) -> int:
        return len(self.terrain[0]) if self.terrain else 0

    def on_board(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.rows and 0 <= sq[1] < self.cols

    def step(self, sq: Square, direction: str) -> Square:
        dr, dc = DELTA[direction]
        return sq[0] + dr, sq[1] + dc

    def squares(self) -> list[Square]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols)]

    def track(self, kind: str, sq: Square) -> frozenset[str]:
        return (self.roads if kind == "road" else self.rails)[sq[0]][sq[1]]


def square_id(sq: Square) -> str:
    """The book's notation (U-3.2.1): ``(4, 15)`` -> ``"03.08.SE"``."""
    r, c = sq
    return f"{r // 2 + 1:02d}.{c // 2 + 1:02d}.{'N' if r % 2 else 'S'}{'E' if c % 2 else 'W'}"


def parse_square(text: str) -> Square:
    """``"03.08.SE"`` -> ``(4, 15)``; ValueError for anything else."""
    lat, lon, quarter = text.split(".")
    if quarter not in QUARTERS or not (lat.isdigit() and lon.isdigit()):
        raise ValueError(f"{text!r} is not a square like '03.02.NW'")
    return (int(lat) - 1) * 2 + (quarter[0] == "N"), (int(lon) - 1) * 2 + (quarter[1] == "E")


def parse_crossing(text: str) -> tuple[int, int]:
    """``"03.08"`` -> ``(3, 8)``; ValueError for anything else."""
    lat, _, lon = text.partition(".")
    if not (lat.isdigit() and lon.isdigit()):
        raise ValueError(f"{text!r} is not a crossing like '03.02'")
    return int(lat), int(lon)


def crossing_squares(lat: int, lon: int) -> list[Square]:
    """The four small squares touching crossing ``lat.lon`` (they carry its number in their names)."""
    return [(2 * lat - 2 + dr, 2 * lon - 2 + dc) for dr in (0, 1) for dc in (0, 1)]


def close_surroundings(board: Board, sq: Square) -> list[Square]:
    """[BO] (U-3.3.1): the four big squares around the crossing ``sq`` touches, clipped to the board."""
    lat, lon = sq[0] // 2 + 1, sq[1] // 2 + 1
    return [(r, c) for r in range(2 * lat - 3, 2 * lat + 1) for c in range(2 * lon - 3, 2 * lon + 1)
            if board.on_board((r, c))]


@dataclass(frozen=True)
class Scenario:
    id: str  # one of SCENARIOS
    name: str
    name_pl: str
    minutes: tuple[int, int]  # the stated duration
    economy: bool  # False: no gold is collected (Skirmish)
    gold: int  # starting gold per side
    units: dict[str, int]  # units issued to each side (PSZ always 1)
    factories: int  # factories issued to each side, placed after deployment
    buy: bool  # whether the sides buy units with their gold before deploying
    cards: str  # one of CARDS
    deployment: str  # one of DEPLOYMENTS
    per_drop: int  # units placed at a time when deploying in turn (Total War: 3)
    zone: str  # one of ZONES
    win: tuple[str, ...]  # WIN_CONDITIONS, any of which ends the game
    source: str = ""


@dataclass(frozen=True)
class Pack:
    board: Board
    areas: dict[str, Area]
    cities: dict[str, City]
    deployment: dict[str, DeploymentLine]  # by side
    troops: dict[str, Troop]
    defence: dict[str, Cell[int]]  # [TSO] by terrain: the attack hits if the die shows MORE than this
    die: Cell[int]  # faces of the one die
    scenarios: dict[str, Scenario]
    problems: tuple[str, ...] = field(default=())

    @cached_property
    def _area_by_mark(self) -> dict[str, Area]:
        return {a.mark: a for a in self.areas.values()}

    def area_of(self, sq: Square) -> Area | None:
        return self._area_by_mark.get(self.board.areas[sq[0]][sq[1]])

    def zone(self, side: str) -> list[Square]:
        """The squares a side may deploy on under the arrow-marked lines (spec §4.2): south of thick line k
        are the rows below 2k - 1, north of it the rows from 2k - 1 up."""
        d = self.deployment[side]
        edge = 2 * d.line - 1
        return [sq for sq in self.board.squares() if (sq[0] < edge if d.towards == "south" else sq[0] >= edge)]

    def city_squares(self, city: City) -> list[Square]:
        return [sq for x in city.crossings for sq in crossing_squares(*parse_crossing(x))]

    def recruitment_squares(self, city: City) -> list[Square]:
        """Where a city places its recruits: the [BO] of its squares (U-12.1), before the rules take out the
        occupied squares and those the unit may not stand on."""
        found: set[Square] = set()
        for sq in self.city_squares(city):
            found.update(close_surroundings(self.board, sq))
        return sorted(found)


_PACK: list[Pack] = []


def pack() -> Pack:
    """The game's data pack (loaded once; a test may install its own with ``use_pack``)."""
    if not _PACK:
        from app.games.autarcha.pack_load import load_pack

        _PACK.append(load_pack(DATA_DIR))
    return _PACK[-1]


def use_pack(staged: Pack | None) -> None:
    """Install ``staged`` as the pack (None: back to the data files). For rule tests."""
    _PACK.clear()
    if staged is not None:
        _PACK.append(staged)
