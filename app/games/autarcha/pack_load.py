"""Reads Autarcha's YAML data pack (``data/``) into ``pack.Pack`` and audits it; the only reader of ``data/``.

Two layers, as in the other games' packs. ``load_pack`` reads each file strictly: a file that is missing,
not YAML, or an item without a required field or with a field of the wrong kind is refused at once
(``ValueError`` naming the file and the item), so nothing half-built reaches the rules. What can still be
read but is wrong (a duplicate id, an unknown key, a map character outside the legend) is kept as a
finding in ``Pack.problems``. ``audit`` then checks the built pack against the facts of the rulebook (the
notation and its grid, the lines 07 and 14, the prose's table values, the scenarios' forces and gold) and
against what the rules need of the data (roads and rails that run on, areas that cover the board, cities
inside one area, a symmetric map). ``load_pack`` refuses a pack with any finding unless told not to, so a
pack edited by hand cannot quietly break a rule.

Every finding names the file and the item: ``"troops.yaml: PC: road 3 is not the book's 4 (seed l.372)"``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.games.autarcha.pack import (
    CARDS,
    CONFIDENCE,
    COVER,
    DELTA,
    DEPLOYMENTS,
    DIRECTIONS,
    ENVIRONMENTS,
    KINDS,
    OPPOSITE,
    PRODUCERS,
    SCENARIOS,
    SIDES,
    TERRAINS,
    TRACKS,
    UNITS,
    WIN_CONDITIONS,
    ZONES,
    Area,
    Board,
    Cell,
    City,
    DeploymentLine,
    Pack,
    Range,
    Scenario,
    Square,
    Troop,
    crossing_squares,
    parse_crossing,
    square_id,
)
from app.games.pack_audit import Audit, YamlFile

BOARD_FILE = "board.yaml"
TROOPS_FILE = "troops.yaml"
SCENARIOS_FILE = "scenarios.yaml"

# the rulebook's figures
LINES = {"A": (7, "south"), "B": (14, "north")}  # "ponizej 07 u pierwszego i powyzej 14 u drugiego" (l.62-63)
AREA_COUNT = 12  # 12 area cards [external: the public copy's box contents, spec §2]
LEDGER_TURN1_INCOME = 16  # the sample ledger: 50 + 16 = 66 at turn 1 (l.289, spec U-6.4.2)
DEFENCE_VALUES = (1, 2, 3, 4, 5)  # both copies of the [TSO] (l.530, l.1043)
MAX_STEPS = 9  # "Liczby wieksze od zera 1,..,9 itd." (l.1021)
# what the prose states of the Troops Table (kind, column) -> value, with the passage
PROSE_STEPS: dict[tuple[str, str], tuple[int | None, str]] = {
    ("PIE", "ground"): (3, "l.322"), ("PC", "road"): (4, "l.372"), ("PC", "forest"): (1, "l.383"),
    ("PC", "ground"): (4, "l.384"), ("PC", "rail"): (6, "l.391"), ("ART", "mountains"): (0, "l.1006"),
    ("F", "water"): (None, "l.714"),
}
BUILT_AT = {"PSZ": "none", "PIE": "city", "PC": "factory", "ART": "factory", "SAP": "city", "F": "sappers",
            "MINE": "sappers"}  # l.949, l.978, l.1039-1042, l.967, l.988, l.1033, l.621
BOOK_SCENARIOS: dict[str, dict[str, Any]] = {  # §4: what the text fixes of each scenario
    "skirmish": {"economy": False, "units": {"PSZ": 1, "PIE": 9, "PC": 6, "ART": 3}, "factories": 0,
                 "deployment": "hidden", "win": {"hq_destroyed", "all_units_destroyed", "surrender"}},
    "autarchy": {"gold": 100, "units": {"PSZ": 1}, "factories": 1, "buy": True, "cards": "controlled",
                 "deployment": "surplus_then_alternate", "zone": "lines", "win": {"hq_destroyed"}},
    "civil_war": {"gold": 50, "units": {"PSZ": 1}, "factories": 1, "buy": True, "cards": "dealt",
                  "deployment": "surplus_then_alternate", "zone": "owned_areas", "win": {"hq_destroyed"}},
    "total_war": {"gold": 200, "units": {"PSZ": 1, "PIE": 15, "PC": 12, "ART": 6, "SAP": 3}, "factories": 2,
                  "deployment": "alternate", "per_drop": 3, "zone": "lines", "win": {"hq_destroyed"}},
    "absolute_zero": {"gold": 0, "units": {"PSZ": 1}, "factories": 0, "deployment": "hq_at_crossing",
                      "zone": "hq_crossing", "win": {"hq_destroyed"}},
}
PIECES_PER_SIDE = 37  # 74 pieces, 37 stickers of each colour [external]; Total War issues exactly that

BOARD_KEYS = {"source", "grid", "symmetry", "legend", "deployment", "areas", "cities", "terrain", "roads", "rails",
              "area_map"}
AREA_KEYS = {"id", "mark", "name", "name_pl", "gold", "source"}
CITY_KEYS = {"id", "name", "crossings", "source"}
LINE_KEYS = {"side", "line", "towards", "hq_crossing", "source"}
TROOP_KEYS = {"id", "name", "name_pl", "ocr", "source", "steps", "hp", "cost", "built_at", "transport", "attacks",
              "ranges"}
RANGE_KEYS = {"orthogonal", "diagonal", "confidence", "source", "note"}
RANGE_MARKS = {"U": "the unit", "x": "a square it fires at", ".": "nothing"}
CELL_KEYS = {"value", "confidence", "source", "note"}
DEFENCE_KEYS = {"terrain", "value", "confidence", "source", "note"}
SCENARIO_KEYS = {"id", "name", "name_pl", "minutes", "economy", "gold", "units", "factories", "buy", "cards",
                 "deployment", "per_drop", "zone", "win", "source"}
NO_TRACK = "."
DASH = "-"  # the book's "–" in a table cell


class _File(YamlFile):
    """One YAML file being read: every complaint names the file and the item."""

    def items(self, key: str, doc: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        got = (self.doc if doc is None else doc).get(key)
        if not isinstance(got, list) or not all(isinstance(x, dict) for x in got):
            raise ValueError(f"{self.name}: '{key}' must be a list of mappings")
        return got

    def field(self, item: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str,
              default: Any = ...) -> Any:
        if key not in item:
            if default is ...:
                raise ValueError(f"{self.name}: {where}: '{key}' is missing")
            return default
        value = item[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        # YAML's true/false are ints to Python: a bool where a number is due is a typo, not a 1
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise ValueError(f"{self.name}: {where}: '{key}' must be {names}, not {value!r}")
        return value

    def rows(self, key: str) -> list[str]:
        got = self.doc.get(key)
        if not isinstance(got, list) or not got or not all(isinstance(x, str) for x in got):
            raise ValueError(f"{self.name}: '{key}' must be a list of strings, one per row of small squares")
        return got


    def unique(self, items: list[dict[str, Any]], key: str = "id") -> None:
        ids = [str(x.get(key)) for x in items]
        dups = sorted({i for i in ids if ids.count(i) > 1})
        if dups:
            self.problems.append(f"{self.name}: duplicate {key}s {dups}")


def _where(item: dict[str, Any], i: int, key: str = "id") -> str:
    return str(item.get(key, f"item #{i + 1}"))


# ---------------------------------------------------------------------------------------------- board

def _read_board(f: _File) -> tuple[Board, dict[str, Area], dict[str, City], dict[str, DeploymentLine]]:
    doc = f.doc
    f.known(doc, BOARD_KEYS, "file")
    grid = f.field(doc, "grid", dict, "grid")
    latitudes = f.field(grid, "latitudes", int, "grid")
    longitudes = f.field(grid, "longitudes", int, "grid")
    symmetry = f.field(doc, "symmetry", str, "file")
    legend = f.field(doc, "legend", dict, "legend")
    terrain_legend = f.field(legend, "terrain", dict, "legend")
    track_legend = f.field(legend, "tracks", dict, "legend")
    for mark, kind in terrain_legend.items():
        if not (isinstance(mark, str) and len(mark) == 1 and isinstance(kind, str)):
            raise ValueError(f"{f.name}: legend: terrain {mark!r}: {kind!r} is not one character for one kind")
        if kind not in TERRAINS:
            f.problems.append(f"{f.name}: legend: terrain {mark!r} names {kind!r}, not one of {list(TERRAINS)}")
    tracks: dict[str, frozenset[str]] = {NO_TRACK: frozenset()}
    for mark, dirs in track_legend.items():
        if not (isinstance(mark, str) and len(mark) == 1 and isinstance(dirs, list)):
            raise ValueError(f"{f.name}: legend: track {mark!r} is not one character for a list of directions")
        bad = [d for d in dirs if d not in DIRECTIONS]
        if bad or not dirs:
            f.problems.append(f"{f.name}: legend: track {mark!r} has directions {dirs}, not among {list(DIRECTIONS)}")
        elif any(OPPOSITE[d] not in dirs for d in dirs):
            f.problems.append(f"{f.name}: legend: track {mark!r} {dirs}: a line runs both ways, so each "
                              "direction needs its opposite")
        tracks[mark] = frozenset(d for d in dirs if d in DIRECTIONS)
    if NO_TRACK in track_legend:
        f.problems.append(f"{f.name}: legend: {NO_TRACK!r} is reserved for 'no road or rail'")

    def layer(key: str) -> list[str]:
        return list(reversed(f.rows(key)))  # written north first; row 0 is the southern edge

    terrain_rows, road_rows, rail_rows, area_rows = (layer(k) for k in ("terrain", "roads", "rails", "area_map"))
    terrain = tuple(tuple(terrain_legend.get(ch, ch) for ch in row) for row in terrain_rows)
    for key, rows in (("roads", road_rows), ("rails", rail_rows)):
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch not in tracks:
                    f.problems.append(f"{f.name}: {key}: {ch!r} at {square_id((r, c))} is not in the tracks legend")
    roads = tuple(tuple(tracks.get(ch, frozenset()) for ch in row) for row in road_rows)
    rails = tuple(tuple(tracks.get(ch, frozenset()) for ch in row) for row in rail_rows)
    board = Board(latitudes=latitudes, longitudes=longitudes, symmetry=symmetry, terrain=terrain, roads=roads,
                  rails=rails, areas=tuple(tuple(row) for row in area_rows),
                  source=f.field(doc, "source", str, "file", ""))

    areas: dict[str, Area] = {}
    items = f.items("areas")
    f.unique(items)
    f.unique(items, "mark")
    for i, a in enumerate(items):
        where = _where(a, i)
        f.known(a, AREA_KEYS, where)
        area = Area(id=f.field(a, "id", str, where), mark=f.field(a, "mark", str, where),
                    name=f.field(a, "name", str, where), name_pl=f.field(a, "name_pl", str, where),
                    gold=f.field(a, "gold", int, where), source=f.field(a, "source", str, where, ""))
        areas.setdefault(area.id, area)

    cities: dict[str, City] = {}
    items = f.items("cities")
    f.unique(items)
    for i, c in enumerate(items):
        where = _where(c, i)
        f.known(c, CITY_KEYS, where)
        crossings = f.field(c, "crossings", list, where)
        if not crossings or not all(isinstance(x, str) for x in crossings):
            raise ValueError(f"{f.name}: {where}: 'crossings' must be a list of crossings like '03.08'")
        for x in crossings:
            try:
                parse_crossing(x)
            except ValueError as exc:
                raise ValueError(f"{f.name}: {where}: {exc}") from exc
        city = City(id=f.field(c, "id", str, where), name=f.field(c, "name", str, where), crossings=tuple(crossings),
                    source=f.field(c, "source", str, where, ""))
        cities.setdefault(city.id, city)

    lines: dict[str, DeploymentLine] = {}
    items = f.items("deployment")
    f.unique(items, "side")
    for i, d in enumerate(items):
        where = f"deployment {_where(d, i, 'side')}"
        f.known(d, LINE_KEYS, where)
        line = DeploymentLine(side=f.field(d, "side", str, where), line=f.field(d, "line", int, where),
                              towards=f.field(d, "towards", str, where),
                              hq_crossing=f.field(d, "hq_crossing", str, where),
                              source=f.field(d, "source", str, where, ""))
        try:
            parse_crossing(line.hq_crossing)
        except ValueError as exc:
            raise ValueError(f"{f.name}: {where}: {exc}") from exc
        lines.setdefault(line.side, line)
    return board, areas, cities, lines


# ---------------------------------------------------------------------------------------------- troops

def _cell(f: _File, raw: Any, where: str, kinds: tuple[type, ...]) -> Cell[Any]:
    if not isinstance(raw, dict):
        raise ValueError(f"{f.name}: {where}: must be a mapping with value, confidence, source")
    f.known(raw, CELL_KEYS, where)
    if "value" not in raw:
        raise ValueError(f"{f.name}: {where}: 'value' is missing")
    value = raw["value"]
    if value == DASH:
        value = None
    elif (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
        names = " or ".join(k.__name__ for k in kinds)
        raise ValueError(f"{f.name}: {where}: value must be {names} or '-', not {value!r}")
    return Cell(value=value, confidence=f.field(raw, "confidence", str, where),
                source=f.field(raw, "source", str, where, ""), note=f.field(raw, "note", str, where, ""))


def _pattern(f: _File, raw: Any, where: str) -> frozenset[Square]:
    """A range figure: rows of marks, the furthest ahead first, ``U`` the unit, ``x`` a square it fires at."""
    if not isinstance(raw, list) or not all(isinstance(r, str) for r in raw):
        raise ValueError(f"{f.name}: {where}: must be a list of strings, one row of the figure each")
    if not raw:
        return frozenset()
    if len({len(r) for r in raw}) != 1:
        raise ValueError(f"{f.name}: {where}: the rows are not all of one length")
    bad = sorted({ch for r in raw for ch in r} - set(RANGE_MARKS))
    if bad:
        raise ValueError(f"{f.name}: {where}: marks {bad}, not among {sorted(RANGE_MARKS)}")
    units = [(i, j) for i, r in enumerate(raw) for j, ch in enumerate(r) if ch == "U"]
    if len(units) != 1:
        raise ValueError(f"{f.name}: {where}: {len(units)} 'U' marks, the figure needs exactly one")
    ui, uj = units[0]
    return frozenset((ui - i, j - uj) for i, r in enumerate(raw) for j, ch in enumerate(r) if ch == "x")


def _read_range(f: _File, raw: Any, where: str) -> Range:
    if not isinstance(raw, dict):
        raise ValueError(f"{f.name}: {where}: must be a mapping with orthogonal, diagonal, confidence, source")
    f.known(raw, RANGE_KEYS, where)
    return Range(orthogonal=_pattern(f, f.field(raw, "orthogonal", list, where), f"{where}: orthogonal"),
                 diagonal=_pattern(f, f.field(raw, "diagonal", list, where), f"{where}: diagonal"),
                 confidence=f.field(raw, "confidence", str, where), source=f.field(raw, "source", str, where, ""),
                 note=f.field(raw, "note", str, where, ""))


def _read_troops(f: _File) -> tuple[dict[str, Troop], dict[str, Cell[int]], Cell[int]]:
    f.known(f.doc, {"die", "troops", "defence"}, "file")
    die = _cell(f, f.field(f.doc, "die", dict, "die"), "die", (int,))
    troops: dict[str, Troop] = {}
    items = f.items("troops")
    f.unique(items)
    for i, t in enumerate(items):
        where = _where(t, i)
        f.known(t, TROOP_KEYS, where)
        raw_steps = f.field(t, "steps", dict, where)
        f.known(raw_steps, set(ENVIRONMENTS), f"{where}: steps")
        steps = {}
        for env in ENVIRONMENTS:
            if env not in raw_steps:
                raise ValueError(f"{f.name}: {where}: steps: '{env}' is missing")
            steps[env] = _cell(f, raw_steps[env], f"{where}: steps: {env}", (int,))
        troop = Troop(id=f.field(t, "id", str, where), name=f.field(t, "name", str, where),
                      name_pl=f.field(t, "name_pl", str, where), steps=steps,
                      hp=_cell(f, f.field(t, "hp", dict, where), f"{where}: hp", (int,)),
                      cost=_cell(f, f.field(t, "cost", dict, where), f"{where}: cost", (int,)),
                      built_at=_cell(f, f.field(t, "built_at", dict, where), f"{where}: built_at", (str,)),
                      transport=_cell(f, f.field(t, "transport", dict, where), f"{where}: transport", (int,)),
                      attacks=_cell(f, f.field(t, "attacks", dict, where), f"{where}: attacks", (bool,)),
                      ocr=f.field(t, "ocr", str, where, ""), source=f.field(t, "source", str, where, ""),
                      ranges=_read_range(f, t["ranges"], f"{where}: ranges") if "ranges" in t else None)
        troops.setdefault(troop.id, troop)
    defence: dict[str, Cell[int]] = {}
    items = f.items("defence")
    f.unique(items, "terrain")
    for i, d in enumerate(items):
        where = f"defence {_where(d, i, 'terrain')}"
        f.known(d, DEFENCE_KEYS, where)
        terrain = f.field(d, "terrain", str, where)
        defence.setdefault(terrain, _cell(f, {k: v for k, v in d.items() if k != "terrain"}, where, (int,)))
    return troops, defence, die


# ---------------------------------------------------------------------------------------------- scenarios

def _read_scenarios(f: _File) -> dict[str, Scenario]:
    f.known(f.doc, {"scenarios"}, "file")
    out: dict[str, Scenario] = {}
    items = f.items("scenarios")
    f.unique(items)
    for i, s in enumerate(items):
        where = _where(s, i)
        f.known(s, SCENARIO_KEYS, where)
        minutes = f.field(s, "minutes", list, where)
        if len(minutes) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in minutes):
            raise ValueError(f"{f.name}: {where}: 'minutes' must be a pair of whole numbers")
        units = f.field(s, "units", dict, where)
        if not all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in units.items()):
            raise ValueError(f"{f.name}: {where}: 'units' must map unit kinds to whole numbers")
        win = f.field(s, "win", list, where)
        if not all(isinstance(x, str) for x in win):
            raise ValueError(f"{f.name}: {where}: 'win' must be a list of win conditions")
        scenario = Scenario(id=f.field(s, "id", str, where), name=f.field(s, "name", str, where),
                            name_pl=f.field(s, "name_pl", str, where), minutes=(minutes[0], minutes[1]),
                            economy=f.field(s, "economy", bool, where), gold=f.field(s, "gold", int, where),
                            units=dict(units), factories=f.field(s, "factories", int, where),
                            buy=f.field(s, "buy", bool, where), cards=f.field(s, "cards", str, where),
                            deployment=f.field(s, "deployment", str, where),
                            per_drop=f.field(s, "per_drop", int, where), zone=f.field(s, "zone", str, where),
                            win=tuple(win), source=f.field(s, "source", str, where, ""))
        out.setdefault(scenario.id, scenario)
    return out


def load_pack(data_dir: Path, *, check: bool = True) -> Pack:
    """Read ``data_dir``'s YAML into a ``Pack``; with ``check``, refuse it (ValueError listing every finding) if
    ``audit`` finds anything."""
    problems: list[str] = []
    board, areas, cities, lines = _read_board(_File(data_dir, BOARD_FILE, problems))
    troops, defence, die = _read_troops(_File(data_dir, TROOPS_FILE, problems))
    scenarios = _read_scenarios(_File(data_dir, SCENARIOS_FILE, problems))
    p = Pack(board=board, areas=areas, cities=cities, deployment=lines, troops=troops, defence=defence, die=die,
             scenarios=scenarios, problems=tuple(problems))
    found = audit(p)
    if found and check:
        raise ValueError(f"the Autarcha data pack in {data_dir} is refused:\n  " + "\n  ".join(found))
    return p


# ---------------------------------------------------------------------------------------------- audit

AUDIT = Audit()
CHECKS = AUDIT.checks
check = AUDIT.check


def audit(p: Pack) -> list[str]:
    """Every finding, each prefixed by the name of the check that made it (empty: the pack is sound)."""
    return AUDIT(p)


def _grid_ok(p: Pack) -> bool:
    return not grid(p)


# -- the grid and the terrain

@check
def grid(p: Pack) -> list[str]:
    """U-3.1.4, U-3.2: each crossing owns 2 x 2 small squares, so every layer is 2 * latitudes rows of
    2 * longitudes squares; the lines 07 and 14 must exist on it."""
    b = p.board
    out = []
    if b.latitudes < 1 or b.longitudes < 1:
        return [f"{BOARD_FILE}: grid: {b.latitudes} x {b.longitudes} crossings"]
    if b.latitudes > 99 or b.longitudes > 99:
        out.append(f"{BOARD_FILE}: grid: the notation has two digits per number, not {b.latitudes} x {b.longitudes}")
    want_rows, want_cols = 2 * b.latitudes, 2 * b.longitudes
    layers = {"terrain": b.terrain, "roads": b.roads, "rails": b.rails, "area_map": b.areas}
    for key, layer in layers.items():
        widths = [len(row) for row in layer]
        if len(widths) != want_rows:
            out.append(f"{BOARD_FILE}: {key}: {len(widths)} rows, the grid of {b.latitudes} latitudes needs "
                       f"{want_rows}")
        bad = sorted({w for w in widths if w != want_cols})
        if bad:
            out.append(f"{BOARD_FILE}: {key}: rows of {bad} squares, the grid of {b.longitudes} longitudes needs "
                       f"{want_cols}")
    if max(LINES.values())[0] >= b.latitudes:
        out.append(f"{BOARD_FILE}: grid: {b.latitudes} latitudes leave no room north of line 14 (l.62-63)")
    if b.latitudes + 1 != LINES["A"][0] + LINES["B"][0]:
        out.append(f"{BOARD_FILE}: grid: on 01..{b.latitudes:02d} the lines 07 and 14 are not mirror images "
                   f"(07 + 14 = 21 = 1 + latitudes)")
    return out


@check
def terrain(p: Pack) -> list[str]:
    """Every small square has one of the five landscapes (U-3.5.1: the 2/3 rule gives each square one)."""
    if not _grid_ok(p):
        return []
    b = p.board
    bad = [(sq, b.terrain[sq[0]][sq[1]]) for sq in b.squares() if b.terrain[sq[0]][sq[1]] not in TERRAINS]
    return [f"{BOARD_FILE}: terrain: {square_id(sq)} is {kind!r}, not in the legend or not one of {list(TERRAINS)}"
            for sq, kind in bad[:10]] + ([f"{BOARD_FILE}: terrain: {len(bad) - 10} more"] if len(bad) > 10 else [])


def _links(b: Board, kind: str) -> dict[Square, set[Square]]:
    """The line graph of a road or rail network: a square is joined to the track square one step away in
    one of its own directions (either square's directions will do: a bend is entered straight and left
    along the new direction)."""
    links: dict[Square, set[Square]] = {}
    for sq in b.squares():
        for d in b.track(kind, sq):
            nxt = b.step(sq, d)
            if b.on_board(nxt) and b.track(kind, nxt):
                links.setdefault(sq, set()).add(nxt)
                links.setdefault(nxt, set()).add(sq)
    return links


def _leaves_board(b: Board, kind: str, sq: Square) -> bool:
    return any(not b.on_board(b.step(sq, d)) for d in b.track(kind, sq))


def _city(b: Board, sq: Square) -> bool:
    return b.terrain[sq[0]][sq[1]] == "city"


@check
def tracks(p: Pack) -> list[str]:
    """Roads and rails are continuous lines (seed l.837-865): each track square leads on to a track square
    in its own direction; a line ends only at the board's edge or in a city (where it leads to); a bend
    is never on mountains or water, where a unit that may not be there dies if it leaves the line's
    direction (U-7.6.2), so the line must run straight through."""
    if not _grid_ok(p):
        return []
    b = p.board
    out = []
    for kind in TRACKS:
        links = _links(b, kind)
        where = f"{BOARD_FILE}: {kind}s"
        for sq in b.squares():
            dirs = b.track(kind, sq)
            if not dirs:
                continue
            ahead = [d for d in dirs if b.on_board(b.step(sq, d)) and b.track(kind, b.step(sq, d))]
            if not ahead and not _leaves_board(b, kind, sq):
                out.append(f"{where}: {square_id(sq)} leads to no {kind} square in its direction "
                           f"{sorted(dirs)}: the line is broken")
                continue
            degree = len(links.get(sq, ())) + _leaves_board(b, kind, sq)
            if degree < 2 and not _city(b, sq):
                out.append(f"{where}: the line ends at {square_id(sq)}, which is neither the board's edge nor a "
                           "city")
            if b.terrain[sq[0]][sq[1]] in ("mountains", "water"):
                for other in sorted(links.get(sq, ())):
                    d = next(x for x, v in DELTA.items() if (other[0] - sq[0], other[1] - sq[1]) == v)
                    if d not in dirs or d not in b.track(kind, other):
                        out.append(f"{where}: {square_id(sq)} on {b.terrain[sq[0]][sq[1]]} bends towards "
                                   f"{square_id(other)}: a line runs straight through mountains and water (U-7.6)")
    return out


@check
def mountain_tracks(p: Pack) -> list[str]:
    """"przez gory prowadzone sa drogi i koleje" (l.811-813): roads and rails lead through the mountains."""
    if not _grid_ok(p):
        return []
    b = p.board
    out = []
    for kind in TRACKS:
        if not any(b.track(kind, sq) and b.terrain[sq[0]][sq[1]] == "mountains" for sq in b.squares()):
            out.append(f"{BOARD_FILE}: no {kind} runs through the mountains (l.811-813)")
    return out


# -- areas and cities

@check
def areas(p: Pack) -> list[str]:
    """12 areas (the cards), each with a name and gold, covering the whole board (l.234 'Plansza podzielona
    jest na obszary'), each in one piece."""
    out = []
    if len(p.areas) != AREA_COUNT:
        out.append(f"{BOARD_FILE}: {len(p.areas)} areas, the box has {AREA_COUNT} area cards (spec §2)")
    for a in p.areas.values():
        where = f"{BOARD_FILE}: {a.id}"
        if a.gold < 1:
            out.append(f"{where}: gold {a.gold}: an area card pays gold (U-6.3)")
        if len(a.mark) != 1 or a.mark in (" ", NO_TRACK):
            out.append(f"{where}: mark {a.mark!r} is not one visible character")
        for key in ("name", "name_pl"):
            if not str(getattr(a, key)).strip():
                out.append(f"{where}: {key} is empty")
    names = [a.name.casefold() for a in p.areas.values()] + [a.name_pl.casefold() for a in p.areas.values()]
    dups = sorted({n for n in names if names.count(n) > 1})
    if dups:
        out.append(f"{BOARD_FILE}: area names {dups} are not unique: each card has its own name")
    if not _grid_ok(p):
        return out
    b = p.board
    marks = {a.mark: a.id for a in p.areas.values()}
    unknown = sorted({b.areas[r][c] for r, c in b.squares()} - set(marks))
    for m in unknown:
        first = next(sq for sq in b.squares() if b.areas[sq[0]][sq[1]] == m)
        out.append(f"{BOARD_FILE}: area_map: {m!r} (first at {square_id(first)}) is no area's mark: every square "
                   "belongs to an area")
    for mark, area_id in marks.items():
        cells = [sq for sq in b.squares() if b.areas[sq[0]][sq[1]] == mark]
        if not cells:
            out.append(f"{BOARD_FILE}: {area_id}: no square of the area_map carries its mark {mark!r}")
            continue
        seen, todo = {cells[0]}, [cells[0]]
        while todo:
            r, c = todo.pop()
            for d in ("N", "E", "S", "W"):
                nxt = b.step((r, c), d)
                if b.on_board(nxt) and nxt not in seen and b.areas[nxt[0]][nxt[1]] == mark:
                    seen.add(nxt)
                    todo.append(nxt)
        if len(seen) != len(cells):
            out.append(f"{BOARD_FILE}: {area_id}: the area is in several pieces")
    return out


@check
def ledger(p: Pack) -> list[str]:
    """The sample ledger's turn-1 income is 16 (l.289): we give each side's deployment zone areas worth
    exactly that, the income a side holding its whole zone collects on its first turn."""
    if not _grid_ok(p) or set(p.deployment) != set(SIDES):
        return []
    out = []
    for side in SIDES:
        met = {p.board.areas[r][c] for r, c in p.zone(side)}
        gold = sum(a.gold for a in p.areas.values() if a.mark in met)
        if gold != LEDGER_TURN1_INCOME:
            out.append(f"{BOARD_FILE}: the areas of side {side}'s zone pay {gold} gold, not the sample ledger's "
                       f"{LEDGER_TURN1_INCOME} (l.289)")
    return out


@check
def cities(p: Pack) -> list[str]:
    """The map's city squares are exactly the listed cities'; a city lies in one area (control of the area
    lets a side recruit there, l.873-876) and on the board, and can recruit onto a square off the city."""
    out = []
    if not p.cities:
        out.append(f"{BOARD_FILE}: no city: infantry and sappers are recruited only in cities (l.978, l.988)")
    if not _grid_ok(p):
        return out
    b = p.board
    listed: dict[Square, str] = {}
    for city in p.cities.values():
        where = f"{BOARD_FILE}: {city.id}"
        if not city.name.strip():
            out.append(f"{where}: name is empty")
        squares = p.city_squares(city)
        off = [x for x in city.crossings
               if not all(b.on_board(sq) for sq in crossing_squares(*parse_crossing(x)))]
        if off:
            out.append(f"{where}: crossings {off} are not on the {b.latitudes} x {b.longitudes} grid")
            continue
        for sq in squares:
            if sq in listed and listed[sq] != city.id:
                out.append(f"{where}: {square_id(sq)} is also {listed[sq]}'s")
            listed[sq] = city.id
            if not _city(b, sq):
                out.append(f"{where}: {square_id(sq)} is {b.terrain[sq[0]][sq[1]]} on the map, not city")
        marks = {b.areas[r][c] for r, c in squares}
        if len(marks) > 1:
            out.append(f"{where}: the city lies in several areas {sorted(marks)}")
    for sq in b.squares():
        if _city(b, sq) and sq not in listed:
            out.append(f"{BOARD_FILE}: terrain: {square_id(sq)} is city but belongs to no listed city")
    return out


@check
def deployment(p: Pack) -> list[str]:
    """"ponizej 07 u pierwszego i powyzej 14 u drugiego gracza" (l.62-63, l.114-115): side A south of line 07,
    side B north of line 14; Absolute Zero's arrow-marked crossing on each line (l.137-140), with a square
    on the side's own half that the HQ may stand on."""
    out = []
    if set(p.deployment) != set(SIDES):
        return [f"{BOARD_FILE}: deployment: sides {sorted(p.deployment)}, not {list(SIDES)}"]
    for side, (line, towards) in LINES.items():
        d = p.deployment[side]
        where = f"{BOARD_FILE}: deployment {side}"
        if (d.line, d.towards) != (line, towards):
            out.append(f"{where}: line {d.line:02d} {d.towards}, the book's is {towards} of {line:02d} (l.62-63)")
        lat, lon = parse_crossing(d.hq_crossing)
        if lat != d.line:
            out.append(f"{where}: the HQ crossing {d.hq_crossing} is not on line {d.line:02d}")
        if not _grid_ok(p):
            continue
        if not 1 <= lon <= p.board.longitudes:
            out.append(f"{where}: the HQ crossing {d.hq_crossing} is off the board")
            continue
        hq = p.troops.get("PSZ")
        zone = set(p.zone(side))
        spots = [sq for sq in crossing_squares(lat, lon) if sq in zone and p.board.on_board(sq)
                 and (hq is None or hq.may_stand_on(p.board.terrain[sq[0]][sq[1]]))]
        if not spots:
            out.append(f"{where}: no square of crossing {d.hq_crossing} on side {side}'s half where the HQ may stand")
    if not _grid_ok(p):
        return out
    overlap = set(p.zone("A")) & set(p.zone("B"))
    if overlap:
        out.append(f"{BOARD_FILE}: deployment: the zones overlap at {square_id(min(overlap))}")
    return out


@check
def symmetry(p: Pack) -> list[str]:
    """A declared mirror (balance: each side faces the same board, reflected north-south) must hold for
    the terrain, the roads and rails, the areas and their gold, the cities and the deployment lines."""
    b = p.board
    if b.symmetry == "none":
        return []
    if b.symmetry != "mirror":
        return [f"{BOARD_FILE}: symmetry {b.symmetry!r} is neither 'mirror' nor 'none'"]
    if not _grid_ok(p):
        return []
    out = []
    flip = {"N": "S", "S": "N", "NE": "SE", "SE": "NE", "NW": "SW", "SW": "NW", "E": "E", "W": "W"}
    pair: dict[str, str] = {}
    for r, c in b.squares():
        m = (b.rows - 1 - r, c)
        here, there = square_id((r, c)), square_id(m)
        if b.terrain[r][c] != b.terrain[m[0]][m[1]]:
            out.append(f"{BOARD_FILE}: terrain: {here} is {b.terrain[r][c]}, its mirror {there} "
                       f"{b.terrain[m[0]][m[1]]}")
        for kind in TRACKS:
            if {flip[d] for d in b.track(kind, (r, c))} != b.track(kind, m):
                out.append(f"{BOARD_FILE}: {kind}s: {here} and its mirror {there} differ")
        a, a2 = b.areas[r][c], b.areas[m[0]][m[1]]
        if pair.setdefault(a, a2) != a2:
            out.append(f"{BOARD_FILE}: area_map: area {a!r} mirrors onto both {pair[a]!r} and {a2!r}")
    gold = {a.mark: a.gold for a in p.areas.values()}
    for a, a2 in sorted(pair.items()):
        if a in gold and a2 in gold and gold[a] != gold[a2]:
            out.append(f"{BOARD_FILE}: areas {a!r} and its mirror {a2!r} pay {gold[a]} and {gold[a2]} gold")
    city_sets = {frozenset(p.city_squares(c)) for c in p.cities.values()}
    for city in p.cities.values():
        mirrored = frozenset((b.rows - 1 - r, c) for r, c in p.city_squares(city))
        if mirrored not in city_sets:
            out.append(f"{BOARD_FILE}: {city.id}: no city mirrors it")
    if set(p.deployment) == set(SIDES):
        a, bb = p.deployment["A"], p.deployment["B"]
        if a.line + bb.line != b.latitudes + 1 or parse_crossing(a.hq_crossing)[1] != parse_crossing(bb.hq_crossing)[1]:
            out.append(f"{BOARD_FILE}: deployment: the sides' lines or HQ crossings are not mirror images")
    return out[:20]


# -- the Troops Table and the [TSO]

def _cells(t: Troop) -> list[tuple[str, Cell[Any]]]:
    return [*((f"steps: {e}", t.steps[e]) for e in ENVIRONMENTS), ("hp", t.hp), ("cost", t.cost),
            ("built_at", t.built_at), ("transport", t.transport), ("attacks", t.attacks)]


@check
def troops(p: Pack) -> list[str]:
    """Every kind of the table, every value in range and marked with its confidence and source line."""
    out = []
    got, want = sorted(p.troops), sorted(KINDS)
    if got != want:
        out.append(f"{TROOPS_FILE}: the kinds are {got}, the Troops Table's are {want} (l.1052-1060)")
    for t in p.troops.values():
        where = f"{TROOPS_FILE}: {t.id}"
        for key in ("name", "name_pl", "ocr"):
            if not str(getattr(t, key)).strip():
                out.append(f"{where}: {key} is empty")
        for key, cell in _cells(t):
            if cell.confidence not in CONFIDENCE:
                out.append(f"{where}: {key}: confidence {cell.confidence!r} is not one of {list(CONFIDENCE)}")
            if not cell.source.strip():
                out.append(f"{where}: {key}: no source")
        for env in ENVIRONMENTS:
            v = t.steps[env].value
            if v is not None and not 0 <= v <= MAX_STEPS:
                out.append(f"{where}: steps: {env} {v} is outside 0..{MAX_STEPS} (l.1021)")
            if t.is_object and v not in (0, None):
                out.append(f"{where}: steps: {env} {v}: an object does not move, so 0 or '-'")
        if t.hp.value < 1:
            out.append(f"{where}: hp {t.hp.value} is below 1")
        if t.cost.value is not None and t.cost.value < 1:
            out.append(f"{where}: cost {t.cost.value} is below 1")
        if t.transport.value is not None and t.transport.value < 1:
            out.append(f"{where}: transport {t.transport.value} is below 1")
        if t.built_at.value not in PRODUCERS:
            out.append(f"{where}: built_at {t.built_at.value!r} is not one of {list(PRODUCERS)}")
        if t.id in UNITS and not any(t.may_stand_on(x) and (t.max_steps(x) or 0) > 0 for x in TERRAINS):
            out.append(f"{where}: the unit can move on no landscape")
    return out


@check
def book_troops(p: Pack) -> list[str]:
    """What the prose states of the Troops Table: the step values of the examples, where each kind is
    built, the factory's 4 durability points and no water, the sappers' no attack, the HQ not for sale."""
    out = []
    for (kind, env), (value, line) in PROSE_STEPS.items():
        t = p.troops.get(kind)
        if t is None:
            continue
        cell = t.steps[env]
        shown = "-" if value is None else value
        if cell.value != value:
            out.append(f"{TROOPS_FILE}: {kind}: {env} {'-' if cell.value is None else cell.value} is not the "
                       f"book's {shown} (seed {line})")
        elif cell.confidence != "prose":
            out.append(f"{TROOPS_FILE}: {kind}: {env} is stated by the book (seed {line}): confidence prose")
    for kind, producer in BUILT_AT.items():
        t = p.troops.get(kind)
        if t is not None and t.built_at.value != producer:
            out.append(f"{TROOPS_FILE}: {kind}: built_at {t.built_at.value!r}, the book's is {producer!r}")
    f = p.troops.get("F")
    if f is not None:
        if f.hp.value != 4:
            out.append(f"{TROOPS_FILE}: F: hp {f.hp.value}, the book's factory has 4 durability points (l.1036)")
        walls = [x for x in TERRAINS if x != "water" and not f.may_stand_on(x)]
        if walls:
            out.append(f"{TROOPS_FILE}: F: may not stand on {walls}: buildings go on any landscape but water (l.713)")
    sap = p.troops.get("SAP")
    if sap is not None and sap.attacks.value:
        out.append(f"{TROOPS_FILE}: SAP: attacks is true; sappers cannot attack (l.990)")
    hq = p.troops.get("PSZ")
    if hq is not None and hq.cost.value is not None:
        out.append(f"{TROOPS_FILE}: PSZ: cost {hq.cost.value}: the HQ cannot be duplicated, so not bought (l.949)")
    pc = p.troops.get("PC")
    if pc is not None and pc.cost.value != 6:
        out.append(f"{TROOPS_FILE}: PC: cost {pc.cost.value}, the sample ledger's armoured unit costs 6 (l.290)")
    for kind in ("PIE", "SAP"):
        t = p.troops.get(kind)
        if t is not None and not t.may_stand_on("city"):
            out.append(f"{TROOPS_FILE}: {kind}: may not stand in a city, where it is recruited (l.978, l.988)")
    return out


PIE_REACH = (4, 5)  # the infantry's figure keeps only its scale "01 : 02 : 03 : 04 ... 05" (l.545-549)


def _reach(offsets: frozenset[Square]) -> int:
    return max((max(abs(dr), abs(dc)) for dr, dc in offsets), default=0)


@check
def ranges(p: Pack) -> list[str]:
    """The attack ranges (the figures are lost, spec §18.4): a range for each kind that attacks and none for
    the others, figures symmetric about the facing, the infantry's reach on its figure's scale (l.545), the
    artillery's "very long but extremely directional" reach (l.971-973) the longest and all ahead of it."""
    out = []
    for t in p.troops.values():
        where = f"{TROOPS_FILE}: {t.id}: ranges"
        r = t.ranges
        if not t.attacks.value:
            if r is not None and (r.orthogonal or r.diagonal):
                out.append(f"{where}: the kind does not attack, yet has a range")
            continue
        if r is None or not r.orthogonal or not r.diagonal:
            out.append(f"{where}: the kind attacks, so it needs an orthogonal and a diagonal figure")
            continue
        if r.confidence not in CONFIDENCE:
            out.append(f"{where}: confidence {r.confidence!r} is not one of {list(CONFIDENCE)}")
        if not r.source.strip():
            out.append(f"{where}: no source")
        if r.orthogonal != {(dr, -dc) for dr, dc in r.orthogonal}:
            out.append(f"{where}: orthogonal: the figure is not the same to the left and to the right")
        if r.diagonal != {(dc, dr) for dr, dc in r.diagonal}:
            out.append(f"{where}: diagonal: the figure is not the same on both sides of the facing")
    pie, art = p.troops.get("PIE"), p.troops.get("ART")
    if pie is not None and pie.ranges is not None and _reach(pie.ranges.orthogonal) not in PIE_REACH:
        out.append(f"{TROOPS_FILE}: PIE: ranges: reach {_reach(pie.ranges.orthogonal)} ahead, the figure's scale "
                   f"is {PIE_REACH[0]}-{PIE_REACH[1]} squares (l.545)")
    if art is not None and art.ranges is not None:
        longest = _reach(art.ranges.orthogonal)
        others = [t.id for t in p.troops.values() if t.id != "ART" and t.ranges is not None
                  and _reach(t.ranges.orthogonal) >= longest]
        if others:
            out.append(f"{TROOPS_FILE}: ART: ranges: {others} reach as far as the artillery, whose range is "
                       "'very long' (l.971)")
        if any(dr <= 0 for dr, _ in art.ranges.orthogonal) or any(dr + dc <= 0 for dr, dc in art.ranges.diagonal):
            out.append(f"{TROOPS_FILE}: ART: ranges: a square beside or behind it; its range is 'extremely "
                       "directional' (l.972)")
    return out


@check
def defence(p: Pack) -> list[str]:
    """The [TSO]: one value per landscape, the values 1..5 of both copies (l.530, l.1043) each once, every one
    beatable by the die ("wyzszy niz", l.535), cover above open ground (spec §15.2.5)."""
    out = []
    if sorted(p.defence) != sorted(TERRAINS):
        out.append(f"{TROOPS_FILE}: defence: the terrains are {sorted(p.defence)}, the table's five are "
                   f"{sorted(TERRAINS)}")
    values = sorted(c.value for c in p.defence.values())
    if tuple(values) != DEFENCE_VALUES:
        out.append(f"{TROOPS_FILE}: defence: the values are {values}, the book's are {list(DEFENCE_VALUES)} each once")
    for terrain_, c in p.defence.items():
        if c.confidence not in CONFIDENCE:
            out.append(f"{TROOPS_FILE}: defence {terrain_}: confidence {c.confidence!r} is not one of "
                       f"{list(CONFIDENCE)}")
        if not c.source.strip():
            out.append(f"{TROOPS_FILE}: defence {terrain_}: no source")
        if not 0 <= c.value < p.die.value:
            out.append(f"{TROOPS_FILE}: defence {terrain_}: {c.value} cannot be beaten by a d{p.die.value}")
    if sorted(p.defence) == sorted(TERRAINS):
        low = max(p.defence[x].value for x in TERRAINS if x not in COVER)
        high = min(p.defence[x].value for x in COVER)
        if high <= low:
            out.append(f"{TROOPS_FILE}: defence: a covered landscape {list(COVER)} defends no better than open "
                       "ground or water")
    if p.die.value < 2:
        out.append(f"{TROOPS_FILE}: die: {p.die.value} faces")
    return out


# -- scenarios

@check
def scenarios(p: Pack) -> list[str]:
    """The five scenarios as the book gives them (§4): forces of known kinds, one HQ each, gold, factories,
    deployment and win conditions."""
    out = []
    got, want = sorted(p.scenarios), sorted(SCENARIOS)
    if got != want:
        out.append(f"{SCENARIOS_FILE}: the scenarios are {got}, the book's are {want}")
    for s in p.scenarios.values():
        where = f"{SCENARIOS_FILE}: {s.id}"
        for kind in sorted(set(s.units) - set(UNITS)):
            out.append(f"{where}: units name {kind!r}, not a unit kind {list(UNITS)}")
        if s.units.get("PSZ") != 1:
            out.append(f"{where}: {s.units.get('PSZ', 0)} HQ: each army has exactly one (l.948-951)")
        if any(n < 1 for n in s.units.values()):
            out.append(f"{where}: a unit count below 1")
        for key, vocabulary in (("cards", CARDS), ("deployment", DEPLOYMENTS), ("zone", ZONES)):
            if getattr(s, key) not in vocabulary:
                out.append(f"{where}: {key} {getattr(s, key)!r} is not one of {list(vocabulary)}")
        bad = [w for w in s.win if w not in WIN_CONDITIONS]
        if bad or not s.win:
            out.append(f"{where}: win {list(s.win)}: each one of {list(WIN_CONDITIONS)}, at least one")
        if s.gold < 0 or s.factories < 0 or s.per_drop < 1:
            out.append(f"{where}: negative gold or factories, or per_drop below 1")
        if not (0 < s.minutes[0] <= s.minutes[1]):
            out.append(f"{where}: minutes {list(s.minutes)}")
        if not s.economy and (s.gold or s.cards != "none" or s.buy):
            out.append(f"{where}: no economy, yet gold, cards or buying")
        for key in ("name", "name_pl"):
            if not str(getattr(s, key)).strip():
                out.append(f"{where}: {key} is empty")
        book = BOOK_SCENARIOS.get(s.id, {})
        for key, value in book.items():
            mine = set(s.win) if key == "win" else getattr(s, key)
            if mine != value:
                out.append(f"{where}: {key} {mine!r}, the book's is {value!r}")
    tw = p.scenarios.get("total_war")
    if tw is not None and sum(tw.units.values()) != PIECES_PER_SIDE:
        out.append(f"{SCENARIOS_FILE}: total_war: {sum(tw.units.values())} pieces, the box has {PIECES_PER_SIDE} "
                   "per side [external]")
    return out


# -- provenance

@check
def sources(p: Pack) -> list[str]:
    items = [*((BOARD_FILE, "file", p.board.source),
               *((BOARD_FILE, a.id, a.source) for a in p.areas.values()),
               *((BOARD_FILE, c.id, c.source) for c in p.cities.values()),
               *((BOARD_FILE, f"deployment {d.side}", d.source) for d in p.deployment.values()),
               *((TROOPS_FILE, t.id, t.source) for t in p.troops.values()),
               (TROOPS_FILE, "die", p.die.source),
               *((SCENARIOS_FILE, s.id, s.source) for s in p.scenarios.values()))]
    return [f"{file}: {i}: no source" for file, i, src in items if not src.strip()]

