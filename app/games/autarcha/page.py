"""What Autarcha's board template draws: a seat's ``view()`` over the data pack's printed board.

Two halves, both pure (no web imports):

* ``table_facts`` is a ``page_part``: who the table waits on and the seat's OWN pending decisions, so
  the board can make the squares and units they name clickable.
* ``board_context(view, seat)`` is the board's page extras (``GAME.package.board.context``). The
  printed board (terrain, roads and rails, areas, the grid and its labels) comes from the pack and is
  drawn once in the page (``parts``); the live layers (pieces, marks, targets, the strip, the seats)
  only reshape the view, so the board can never show more than the view does.

The board is drawn with north up for white and turned half a circle for red, so each seat has its
own side at the bottom; every position goes through ``Geometry.xy``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from app.games import taskgame
from app.games.autarcha import engine
from app.games.autarcha.pack import DELTA, DIRECTIONS, Pack, Square, pack, parse_crossing
from app.games.autarcha.state import SIDE_OF, GameState, at
from app.games.autarcha.views import page_part

CELL = 24  # px of a small square
MARGIN = 26  # room for the LL / OO labels around the grid
SQUARE_ID = re.compile(r"^(\d\d)\.(\d\d)\.(NW|NE|SW|SE)$")
PLACED = re.compile(r"^(\d\d\.\d\d\.(?:NW|NE|SW|SE))@(N|NE|E|SE|S|SW|W|NW)$")
KIND_LETTER: dict[str, str] = {"PSZ": "HQ", "PIE": "I", "PC": "A", "ART": "R", "SAP": "S"}
TERRAIN_DRAWN: tuple[str, ...] = ("water", "forest", "mountains", "city")  # ground is the sheet itself


# ---------------------------------------------------------------------- the view part
@page_part
def table_facts(state: GameState, seat: str | None) -> dict[str, Any]:
    return taskgame.table_facts(engine.ENGINE, state, seat)


# ---------------------------------------------------------------------- geometry
@dataclass(frozen=True)
class Geometry:
    rows: int
    cols: int
    flip: bool  # red: the board turned half a circle (its own side at the bottom)

    @property
    def width(self) -> int:
        return self.cols * CELL + 2 * MARGIN

    @property
    def height(self) -> int:
        return self.rows * CELL + 2 * MARGIN

    def xy(self, r: float, c: float) -> tuple[float, float]:
        """The page point of board coordinates (r rows north of the south edge, c columns east of the
        west edge; a square's centre is (row + .5, col + .5))."""
        if self.flip:
            return MARGIN + (self.cols - c) * CELL, MARGIN + r * CELL
        return MARGIN + c * CELL, MARGIN + (self.rows - r) * CELL

    def box(self, sq: Square) -> tuple[float, float]:
        """The top-left corner of a small square on the page."""
        x1, y1 = self.xy(sq[0], sq[1])
        x2, y2 = self.xy(sq[0] + 1, sq[1] + 1)
        return min(x1, x2), min(y1, y2)

    def centre(self, sq: Square) -> tuple[float, float]:
        return self.xy(sq[0] + 0.5, sq[1] + 0.5)

    def angle(self, facing: str) -> int:
        """Degrees clockwise from the page's up for a facing (N is up for white, down for red)."""
        return (DIRECTIONS.index(facing) * 45 + (180 if self.flip else 0)) % 360


def _n(x: float) -> str:
    return f"{x:g}"


def _runs(data: Pack, g: Geometry) -> list[dict[str, Any]]:
    """The terrain as horizontal runs of one landscape (far fewer shapes than 1200 squares)."""
    out = []
    b = data.board
    for r in range(b.rows):
        c = 0
        while c < b.cols:
            t = b.terrain[r][c]
            end = c
            while end + 1 < b.cols and b.terrain[r][end + 1] == t:
                end += 1
            if t in TERRAIN_DRAWN:
                x1, y1 = g.xy(r, c)
                x2, y2 = g.xy(r + 1, end + 1)
                out.append({"t": t, "x": min(x1, x2), "y": min(y1, y2), "w": abs(x2 - x1), "h": abs(y2 - y1)})
            c = end + 1
    return out


def _track_path(data: Pack, g: Geometry, kind: str) -> str:
    """One path for every road (or rail): from each square's centre half way towards each direction
    its track runs (two neighbours' halves meet on their shared edge or corner)."""
    b = data.board
    parts = []
    for r in range(b.rows):
        for c in range(b.cols):
            dirs = b.track(kind, (r, c))
            for d in sorted(dirs):
                dr, dc = DELTA[d]
                x1, y1 = g.centre((r, c))
                x2, y2 = g.xy(r + 0.5 + dr / 2, c + 0.5 + dc / 2)
                parts.append(f"M{_n(x1)},{_n(y1)}L{_n(x2)},{_n(y2)}")
    return "".join(parts)


def _area_borders(data: Pack, g: Geometry) -> str:
    """The area borders: every edge between two squares of different areas."""
    b = data.board
    parts = []
    for r in range(b.rows):
        for c in range(b.cols):
            a = b.areas[r][c]
            if c + 1 < b.cols and b.areas[r][c + 1] != a:
                x1, y1 = g.xy(r, c + 1)
                x2, y2 = g.xy(r + 1, c + 1)
                parts.append(f"M{_n(x1)},{_n(y1)}L{_n(x2)},{_n(y2)}")
            if r + 1 < b.rows and b.areas[r + 1][c] != a:
                x1, y1 = g.xy(r + 1, c)
                x2, y2 = g.xy(r + 1, c + 1)
                parts.append(f"M{_n(x1)},{_n(y1)}L{_n(x2)},{_n(y2)}")
    return "".join(parts)


def _middle(data: Pack, squares: list[Square], g: Geometry) -> tuple[float, float]:
    """Where a group's label goes: the member square nearest the group's mean (a label never lands
    outside an area shaped like a hook)."""
    mr = sum(s[0] for s in squares) / len(squares)
    mc = sum(s[1] for s in squares) / len(squares)
    best = min(squares, key=lambda s: (s[0] + 0.5 - mr) ** 2 + (s[1] + 0.5 - mc) ** 2)
    return g.centre(best)


def printed_board(flip: bool) -> dict[str, Any]:
    """The board as printed (the same for every table): drawn once in the page, never pushed."""
    data = pack()
    key = (id(data), flip)
    if key not in _PRINTED or _PRINTED[key][0] is not data:
        if len(_PRINTED) >= 8:  # staged packs come and go in the rule tests
            _PRINTED.clear()
        _PRINTED[key] = (data, _printed(data, flip))
    return _PRINTED[key][1]


# per pack (a rule test may stage its own: ``use_pack``) and orientation; the pack is kept beside its
# drawing so a new pack at the same address is never mistaken for the old one
_PRINTED: dict[tuple[int, bool], tuple[Pack, dict[str, Any]]] = {}


def _printed(data: Pack, flip: bool) -> dict[str, Any]:
    b = data.board
    g = Geometry(b.rows, b.cols, flip)
    gx0, gy0 = g.xy(0, 0)
    gx1, gy1 = g.xy(b.rows, b.cols)
    left, right, top, bottom = min(gx0, gx1), max(gx0, gx1), min(gy0, gy1), max(gy0, gy1)
    thin, thick = [], []
    for r in range(b.rows + 1):
        x1, y1 = g.xy(r, 0)
        x2, y2 = g.xy(r, b.cols)
        (thick if r % 2 == 1 else thin).append(f"M{_n(x1)},{_n(y1)}L{_n(x2)},{_n(y2)}")
    for c in range(b.cols + 1):
        x1, y1 = g.xy(0, c)
        x2, y2 = g.xy(b.rows, c)
        (thick if c % 2 == 1 else thin).append(f"M{_n(x1)},{_n(y1)}L{_n(x2)},{_n(y2)}")
    # the crossings' numbers: a thick line k runs between small rows (columns) 2k - 2 and 2k - 1
    lat_labels = [{"text": f"{k:02d}", "y": g.xy(2 * k - 1, 0)[1]} for k in range(1, b.rows // 2 + 1)]
    lon_labels = [{"text": f"{k:02d}", "x": g.xy(0, 2 * k - 1)[0]} for k in range(1, b.cols // 2 + 1)]
    # an area's name plate keeps off its city (the city's name is printed there) and the board's edge
    near_city = {(r + dr, c + dc) for r in range(b.rows) for c in range(b.cols) if b.terrain[r][c] == "city"
                 for dr in (-1, 0, 1) for dc in (-2, -1, 0, 1, 2)}
    areas = []
    for a in data.areas.values():
        squares = [(r, c) for r in range(b.rows) for c in range(b.cols) if b.areas[r][c] == a.mark]
        if not squares:
            continue
        clear = [sq for sq in squares if sq not in near_city and 2 <= sq[1] < b.cols - 2]
        x, y = _middle(data, clear or squares, g)
        # the plate fits the longer of the two names (the page's language is not known here)
        chars = max(len(a.name), len(a.name_pl)) + 4
        areas.append({"id": a.id, "gold": a.gold, "x": x, "y": y, "w": round(chars * 6.1 + 10)})
    cities = []
    for city in data.cities.values():
        squares = data.city_squares(city)
        x, y = _middle(data, squares, g)
        cities.append({"id": city.id, "name": city.name, "x": x, "y": y - CELL * 0.5,
                       "crossings": [parse_crossing(c) for c in city.crossings]})
    lines = []
    for side, d in sorted(data.deployment.items()):
        x1, y1 = g.xy(2 * d.line - 1, 0)
        x2, y2 = g.xy(2 * d.line - 1, b.cols)
        lines.append({"side": side, "line": f"{d.line:02d}", "x1": x1, "y1": y1, "x2": x2, "y2": y2})
    return {
        "width": g.width, "height": g.height, "cell": CELL, "flip": flip,
        "left": left, "right": right, "top": top, "bottom": bottom,
        "terrain": _runs(data, g), "roads": _track_path(data, g, "road"), "rails": _track_path(data, g, "rail"),
        "borders": _area_borders(data, g), "thin": "".join(thin), "thick": "".join(thick),
        "lat_labels": lat_labels, "lon_labels": lon_labels, "areas": areas, "cities": cities, "lines": lines,
    }


# ---------------------------------------------------------------------- choices on the board
def _square(text: str) -> Square | None:
    if not isinstance(text, str) or not SQUARE_ID.match(text):
        return None
    try:
        sq = at(text)
    except ValueError:
        return None
    data = pack()
    return sq if data.board.on_board(sq) else None


def _steps_of(view: dict[str, Any]) -> dict[str, int]:
    """The steps a walk choice costs, where the view gives them (``routes``: choice id -> a number
    or {"steps": n})."""
    out: dict[str, int] = {}
    routes = view.get("routes")
    if isinstance(routes, dict):
        for choice, r in routes.items():
            n = r.get("steps") if isinstance(r, dict) else r
            if isinstance(n, int) and not isinstance(n, bool):
                out[str(choice)] = n
    return out


def board_targets(decision: dict[str, Any] | None, view: dict[str, Any], g: Geometry
                  ) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The squares a one-answer decision names ("<sq>" or "<sq>@<facing>": each square once, with its
    facings), and the units it names ("unit:<uid>")."""
    if decision is None or decision["max"] != 1:
        return [], {}
    steps = _steps_of(view)
    squares: dict[str, dict[str, Any]] = {}
    units: dict[str, dict[str, Any]] = {}
    for c in decision["choices"]:
        cid = str(c["id"])
        m = PLACED.match(cid)
        sid, facing = (m.group(1), m.group(2)) if m else (cid, None)
        sq = _square(sid)
        if sq is not None:
            here = squares.get(sid)
            if here is None:
                x, y = g.box(sq)
                cx, cy = g.centre(sq)
                here = squares[sid] = {"sq": sid, "x": x, "y": y, "cx": cx, "cy": cy, "choices": [],
                                       "facings": [], "steps": None}
            here["choices"].append(c)
            if facing:
                here["facings"].append({"id": cid, "facing": facing, "angle": g.angle(facing)})
            if cid in steps:
                n = steps[cid]
                here["steps"] = n if here["steps"] is None else min(here["steps"], n)
        elif cid.startswith("unit:"):
            units[cid[5:]] = c
    return list(squares.values()), units


# ---------------------------------------------------------------------- the live parts
def _mines(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The seat's OWN mines (the view's ``mines``, mines.py's part: {id, sq, call}); each is drawn with
    its id beside its square, which is what the value-level leak check ties a mine's square to."""
    out = []
    for m in view.get("mines") or []:
        if isinstance(m, dict) and isinstance(m.get("sq"), str) and _square(m["sq"]) is not None:
            out.append({"id": str(m.get("id", "")), "sq": m["sq"], "call": str(m.get("call", ""))})
    return out


def _lid(view: dict[str, Any], seat: str | None) -> dict[str, Any] | None:
    """While the lid stands (Skirmish's hidden deployment) the other side's half is covered; the
    view says so with ``lid`` (True, or {"up": bool}) at its top or in ``deployment``."""
    lid = view.get("lid")
    dep = view.get("deployment")
    if lid is None and isinstance(dep, dict):
        lid = dep.get("lid")
    up = lid.get("up", True) if isinstance(lid, dict) else bool(lid)
    if not up:
        return None
    data = pack()
    b = data.board
    g = Geometry(b.rows, b.cols, seat == "red")
    covered = []
    for side in ("A", "B"):
        if seat is not None and SIDE_OF.get(seat) == side:
            continue
        d = data.deployment[side]
        edge = 2 * d.line - 1
        r0, r1 = (0, edge) if d.towards == "south" else (edge, b.rows)
        x1, y1 = g.xy(r0, 0)
        x2, y2 = g.xy(r1, b.cols)
        covered.append({"side": side, "x": min(x1, x2), "y": min(y1, y2), "w": abs(x2 - x1), "h": abs(y2 - y1),
                        "cx": (x1 + x2) / 2, "cy": (y1 + y2) / 2})
    return {"covered": covered}


def board_context(view: dict[str, Any], seat: str | None) -> dict[str, Any]:
    data = pack()
    b = data.board
    flip = seat == "red"
    g = Geometry(b.rows, b.cols, flip)
    decisions = view.get("decisions") or []
    decision = decisions[0] if decisions else None
    one = bool(decision and decision["max"] == 1)
    squares, unit_targets = board_targets(decision, view, g)

    units = []
    # behind the lid a seat sees its own placements (deployment.py's part) as the pieces they will be
    placed = {uid: {**d, "seat": seat} for uid, d in (view.get("behind_lid") or {}).items() if isinstance(d, dict)}
    for uid, d in sorted({**(view.get("units") or {}), **placed}.items(), key=lambda kv: str(kv[0])):
        if not isinstance(d, dict):
            continue
        sq = _square(d.get("sq"))
        if sq is None:
            continue
        cx, cy = g.centre(sq)
        kind = str(d.get("kind") or "")
        troop = data.troops.get(kind)
        hp = troop.hp.value if troop else 1
        facing = d.get("facing") if d.get("facing") in DIRECTIONS else "N"
        units.append({"id": uid, "seat": d.get("seat"), "kind": kind, "letter": KIND_LETTER.get(kind, kind[:1]),
                      "sq": d["sq"], "cx": cx, "cy": cy, "facing": facing, "angle": g.angle(facing),
                      "hits": int(d.get("hits") or 0), "hp": hp, "acted": bool(d.get("acted")),
                      "new": bool(d.get("new")), "mine": d.get("seat") == seat,
                      "target": unit_targets.get(str(uid))})
    factories = []
    for fid, d in sorted((view.get("factories") or {}).items()):
        sq = _square(d.get("sq")) if isinstance(d, dict) else None
        if sq is None:
            continue
        x, y = g.box(sq)
        factories.append({"id": fid, "sq": d["sq"], "x": x, "y": y, "hits": int(d.get("hits") or 0),
                          "hp": data.troops["F"].hp.value if "F" in data.troops else 4})
    destroyed = []
    for sid, what in sorted((view.get("destroyed") or {}).items()):
        sq = _square(sid)
        if sq is not None and what:
            x, y = g.box(sq)
            destroyed.append({"sq": sid, "x": x, "y": y, "what": list(what)})
    damaged = []
    for sid, hits in sorted((view.get("damage") or {}).items()):
        sq = _square(sid)
        if sq is not None and isinstance(hits, dict) and any(hits.values()):
            x, y = g.box(sq)
            damaged.append({"sq": sid, "x": x, "y": y, "hits": sum(int(v or 0) for v in hits.values())})
    mines = []
    for m in _mines(view):
        cx, cy = g.centre(at(m["sq"]))
        mines.append({**m, "cx": cx, "cy": cy})
    control = view.get("control") or {}
    war = set(view.get("war") or [])
    printed = printed_board(flip)
    areas = [{**a, "control": control.get(a["id"]), "war": a["id"] in war} for a in printed["areas"]]

    seats = []
    for s in view.get("seats") or []:
        sid = s.get("id")
        reserve = s.get("reserve") or {}
        seats.append({**s, "mine": sid == seat, "active": sid == view.get("active"),
                      "reserve_list": [{"kind": k, "n": reserve[k]} for k in KIND_LETTER if reserve.get(k)],
                      "ledger_tail": list(s.get("ledger") or [])[-8:],
                      "areas": sorted(a for a, who in control.items() if who == sid)})
    # what the board answers itself (a lit square, a unit's token) stays out of the prompt bar: the bar
    # keeps one line and the side options (a formation, ending the turn)
    handled = [c["id"] for s in squares for c in s["choices"]] + [f"unit:{u}" for u in unit_targets] if one else []
    return {
        **printed,
        "units": units, "factories": factories, "destroyed": destroyed, "damaged": damaged, "mines": mines,
        "area_marks": areas, "lid": _lid(view, seat), "squares": squares,
        "unit_targets": sorted(unit_targets), "decision": decision, "one": one,
        "seats": seats, "me": seat, "phase": str(view.get("phase") or ""), "turn": int(view.get("turn") or 0),
        "active": view.get("active") or "", "moves_left": int(view.get("moves_left") or 0),
        "moves": list(range(5)), "waiting": list(view.get("waiting") or []),
        "scenario": view.get("scenario") or "", "outcome": view.get("outcome"),
        "kinds": [{"kind": k, "letter": v} for k, v in KIND_LETTER.items()],
        # the squares the seat's decision names are answered on the board; the rest stays in the bar
        "handled": handled,
        "own_zoom": True,  # the map zooms in its own frame (viewBox); the seats' panel stays outside it
        # the page draws the printed board once; only the live layers travel in a push
        "parts": True,
        # the seats' gold, ledgers and reserves take the hand panel's place (Autarcha has no cards)
        "hand_on_board": True,
    }
