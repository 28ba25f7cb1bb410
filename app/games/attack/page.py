"""What Attack!'s board template draws: a seat's ``view()`` joined with the map's geometry (the data
pack's lon/lat) and the Economics cards' printed faces.

Two halves, both pure (no web imports):

* ``table_facts`` is a ``view_part``: who the table waits on, the seat's OWN pending decisions (so
  the board can make their regions clickable) and the seat's OWN production figures (the Build
  action's PP: they come from its hand, so no other seat gets them).
* ``board_context(view, seat)`` is the board's page extras (``GAME.package.board.context``): it
  only reshapes that view, so it can never show more than the view does.
"""

from __future__ import annotations

import math
from typing import Any

from app.games.attack import engine
from app.games.attack.pack import COSTS, ECON_TYPES, LAND_TYPES, NAVY_TYPES, SET_TYPES, Map, geo, pack
from app.games.attack.state import GameState
from app.games.attack.text import as_json
from app.games.attack.views import view_part

WIDTH, HEIGHT = 1600, 900  # the map's view box: 16:9
# the part of the globe the board shows (western hemisphere, Europe, Africa, the Middle East, the
# western USSR); a map with a region outside it widens the frame rather than losing the region
LON_SPAN = (-128.0, 62.0)
LAT_SPAN = (-56.0, 72.0)
MARGIN = 36  # px kept free at the frame's edge for labels
MARK_R = 13  # a region's marker when the pack has no outline for it
CHIP_W, CHIP_H = 24, 12  # one unit type's counted icon
ATLANTIC = (-38.0, 36.0)  # where the North Atlantic box stands when the pack names no such zone
NEUTRAL = "#e9e2cf"


# ---------------------------------------------------------------------- the view part
def _decision(d: Any) -> dict[str, Any]:
    return {"id": d.id, "kind": d.kind, "prompt": d.prompt,
            "prompt_msg": as_json(d.prompt_msg) if d.prompt_msg else None, "min": d.min, "max": d.max,
            "choices": [{"id": c.id, "label": c.label, "msg": as_json(c.msg) if c.msg else None}
                        for c in d.choices]}


def waiting_on(state: GameState) -> list[str]:
    """The seats the table waits on now (public: never what anyone chose in a simultaneous step)."""
    t = engine.current(state)
    if t is None:
        return []
    if "q" in t:
        return [t["q"]["seat"]]
    return sorted({q["seat"] for h, q in t["qs"].items() if h not in t.get("got", {})})


def production_of(state: GameState, seat: str) -> dict[str, Any] | None:
    """The seat's own PP (ECONOMY's ``build.production``); None until that module is installed."""
    try:
        from app.games.attack import build  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None
    fn = getattr(build, "production", None)
    return dict(fn(state, seat)) if fn is not None else None


@view_part
def table_facts(state: GameState, seat: str | None) -> dict[str, Any]:
    mine = [_decision(d) for d in engine.decisions(state) if seat is not None and d.seat == seat] \
        if state.outcome is None else []
    out: dict[str, Any] = {"waiting": waiting_on(state), "decisions": mine}
    if seat is not None and seat in state.seats and state.phase == "play":
        prod = production_of(state, seat)
        if prod is not None:
            out["production"] = prod
    return out


# ---------------------------------------------------------------------- the projection
class Projection:
    """Longitude/latitude to the board's 1600 x 900 box: Mercator latitudes (so crowded Europe gets
    room), stretched to fill the 16:9 frame around the part of the world the map uses."""

    def __init__(self, points: list[tuple[float, float]]) -> None:
        lons = [p[0] for p in points] + list(LON_SPAN)
        lats = [p[1] for p in points] + list(LAT_SPAN)
        self.lon0, self.lon1 = min(lons) - 2, max(lons) + 2
        self.y0, self.y1 = self._merc(max(lats) + 1.5), self._merc(min(lats) - 1.5)

    @staticmethod
    def _merc(lat: float) -> float:
        lat = max(-80.0, min(80.0, lat))
        return -math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        x = MARGIN + (lon - self.lon0) / (self.lon1 - self.lon0) * (WIDTH - 2 * MARGIN)
        y = MARGIN + (self._merc(lat) - self.y0) / (self.y1 - self.y0) * (HEIGHT - 2 * MARGIN)
        return round(x, 1), round(y, 1)


def projection(m: Map) -> Projection:
    pts = [(r.lon, r.lat) for r in m.regions.values()] + [(z.lon, z.lat) for z in m.zones.values()]
    return Projection(pts)


# ---------------------------------------------------------------------- choices on the board
def region_choices(decision: dict[str, Any] | None, regions: set[str]) -> dict[str, list[dict[str, Any]]]:
    """The decision's choices each region answers: a choice that IS a region id ("ukraine"), or
    starts with one ("ukraine:INF"; several of those point at the prompt bar's buttons)."""
    out: dict[str, list[dict[str, Any]]] = {}
    if decision is None or decision["max"] != 1:
        return out
    for ch in decision["choices"]:
        head = str(ch["id"]).split(":", 1)[0]
        if head in regions:
            out.setdefault(head, []).append(ch)
    return out


def _chips(units: dict[str, int], x: float, y: float) -> list[dict[str, Any]]:
    """A region's units as counted icons, one per type, two a row under its marker."""
    kinds = [t for t in LAND_TYPES if units.get(t)]
    out = []
    for i, t in enumerate(kinds):
        row, col = divmod(i, 2)
        in_row = min(2, len(kinds) - row * 2)
        left = x - (in_row * CHIP_W + (in_row - 1) * 2) / 2
        out.append({"type": t, "count": int(units[t]), "x": round(left + col * (CHIP_W + 2), 1),
                    "y": round(y + MARK_R + 3 + row * (CHIP_H + 2), 1)})
    return out


def _colour_hex() -> dict[str, str]:
    return {c.id: c.hex for c in pack().colours}


def _map(key: str) -> Map | None:
    try:
        return geo(key)
    except (KeyError, FileNotFoundError):
        return None


def fleet(counts: dict[str, int] | None) -> list[dict[str, Any]]:
    return [{"type": t, "count": int((counts or {}).get(t, 0))} for t in NAVY_TYPES if (counts or {}).get(t)]


# ---------------------------------------------------------------------- the battles' panels
def _units(d: Any) -> list[dict[str, Any]]:
    """{"INF": 2, ...} as counted units in the casualty order (a unit type absent: none)."""
    if not isinstance(d, dict):
        return []
    return [{"type": t, "count": int(d[t])} for t in LAND_TYPES if isinstance(d.get(t), int) and d[t]]


def _faces(faces: Any) -> list[str]:
    return [str(f) for f in faces] if isinstance(faces, list) else []


def land_battle(view: dict[str, Any], colour_of: dict[str, str]) -> dict[str, Any] | None:
    """The land battle in progress (BATTLE's view, ``view["battle"]`` of kind "land"), as the board
    shows it: both sides' engaged units and reserves, then each half-round's dice, hits matched to
    unit types, and casualties."""
    b = view.get("battle")
    if not isinstance(b, dict) or b.get("kind", "land") != "land" or not b.get("region"):
        return None
    sides = []
    for role in ("defender", "attacker"):
        side = b.get(role) if isinstance(b.get(role), dict) else {}
        who = side.get("seat") if isinstance(side, dict) else None
        sides.append({"role": role, "seat": who, "colour": colour_of.get(str(who), "neutral") if who else "neutral",
                      "neutral": bool(side.get("neutral")) or who is None,
                      "engaged": _units(side.get("engaged")), "reserve": _units(side.get("reserve"))})
    halves = []
    for h in b.get("log") or b.get("halves") or []:
        if not isinstance(h, dict):
            continue
        halves.append({"round": int(h.get("round") or 0), "role": str(h.get("side") or h.get("role") or ""),
                       "faces": _faces(h.get("faces") or h.get("dice")), "hits": _units(h.get("hits")),
                       "casualties": _units(h.get("casualties") or h.get("losses")),
                       "reinforced": _units(h.get("reinforced") or h.get("reinforcements"))})
    rounds: list[dict[str, Any]] = []
    for h in halves:
        if not rounds or rounds[-1]["round"] != h["round"]:
            rounds.append({"round": h["round"], "halves": []})
        rounds[-1]["halves"].append(h)
    return {"region": str(b["region"]), "round": int(b.get("round") or 0), "sides": sides, "rounds": rounds,
            "card": b.get("card") if isinstance(b.get("card"), str) else None}


def naval_battle(view: dict[str, Any], colour_of: dict[str, str]) -> dict[str, Any] | None:
    """The naval battle in progress (NAVAL's view, ``view["naval"]``): the two lines head first
    (face down until the reveal: the view gives the other line only as a count), the pairs'
    duels, each side's hand."""
    n = view.get("naval")
    if not isinstance(n, dict):
        return None
    sides = []
    for role in ("attacker", "defender"):
        side = n.get(role) if isinstance(n.get(role), dict) else {}
        who = side.get("seat")
        line = side.get("line")
        sides.append({"role": role, "seat": who, "colour": colour_of.get(str(who), "neutral"),
                      "line": [str(s) for s in line] if isinstance(line, list) else [],
                      "face_down": int(side.get("face_down") or 0) if not isinstance(line, list) else 0,
                      "hand": fleet(side.get("hand") if isinstance(side.get("hand"), dict) else None),
                      "damaged": [str(s) for s in side.get("damaged") or []]})
    duels = []
    for d in n.get("duels") or []:
        if isinstance(d, dict):
            duels.append({"pair": int(d.get("pair") or len(duels) + 1), "round": int(d.get("round") or 0),
                          "attacker": d.get("attacker") if isinstance(d.get("attacker"), dict) else {},
                          "defender": d.get("defender") if isinstance(d.get("defender"), dict) else {},
                          "winner": d.get("winner"), "hit": d.get("hit")})
    return {"round": int(n.get("round") or 0), "size": int(n.get("size") or 0), "sides": sides, "duels": duels}


# ---------------------------------------------------------------------- Economics cards
def card_face(card_id: str) -> dict[str, Any]:
    c = pack().econ.get(card_id)
    if c is None:
        return {"id": card_id, "type": "", "value": None, "defenders": []}
    return {"id": c.id, "type": c.type, "value": c.value, "set_type": c.type in SET_TYPES,
            "defenders": [{"type": t, "count": n} for t, n in c.defenders if n]}


def production(view: dict[str, Any]) -> dict[str, Any] | None:
    p = view.get("production")
    if not isinstance(p, dict):
        return None
    return {"pp": int(p.get("pp") or 0), "capitals": int(p.get("capitals") or 0),
            "sets": [[card_face(c) for c in s] for s in p.get("sets") or [] if isinstance(s, list)],
            "single": [card_face(c) for c in p.get("single") or []]}


# ---------------------------------------------------------------------- the board's context
def board_context(view: dict[str, Any], seat: str | None) -> dict[str, Any]:
    m = _map(str(view.get("map") or ""))
    decisions: list[dict[str, Any]] = list(view.get("decisions") or [])
    decision = decisions[0] if decisions else None
    one = decision is not None and decision["max"] == 1
    seats = list(view.get("seats") or [])
    colour_of = {s["id"]: s["colour"] for s in seats}
    hexes = _colour_hex()
    owner = view.get("owner") or {}
    units = view.get("units") or {}
    capitals = {r: s for s, r in (view.get("capitals") or {}).items()}
    regions: list[dict[str, Any]] = []
    lines: list[dict[str, Any]] = []
    lanes: list[dict[str, Any]] = []
    zones: list[dict[str, Any]] = []
    atlantic = {"x": 0.0, "y": 0.0}
    if m is not None:
        proj = projection(m)
        targets = region_choices(decision, set(m.regions))
        xy = {r.id: proj(r.lon, r.lat) for r in m.regions.values()}
        for r in sorted(m.regions.values(), key=lambda r: r.id):
            x, y = xy[r.id]
            who = owner.get(r.id)
            col = colour_of.get(who, "") if who else ""
            regions.append({
                "id": r.id, "x": x, "y": y, "continent": r.continent, "owner": who, "colour": col,
                "outline": " ".join(f"{a:.1f},{b:.1f}" for a, b in (proj(lo, la) for lo, la in r.outline)),
                "capital": capitals.get(r.id), "capital_colour": colour_of.get(capitals.get(r.id, ""), ""),
                "chips": _chips(units.get(r.id) or {}, x, y), "units": sum((units.get(r.id) or {}).values()),
                "targets": targets.get(r.id, []) if one else [],
            })
        for a in sorted(m.land):
            for b in sorted(m.land[a]):
                if a < b:
                    lines.append({"a": a, "b": b, "x1": xy[a][0], "y1": xy[a][1], "x2": xy[b][0], "y2": xy[b][1]})
        for lane in sorted(m.lanes, key=lambda k: (k.a, k.b)):
            lanes.append({"a": lane.a, "b": lane.b, "x1": xy[lane.a][0], "y1": xy[lane.a][1],
                          "x2": xy[lane.b][0], "y2": xy[lane.b][1]})
        for z in sorted(m.zones.values(), key=lambda z: z.id):
            zx, zy = proj(z.lon, z.lat)
            zones.append({"id": z.id, "x": zx, "y": zy, "anchored": z.anchored,
                          "borders": [{"id": r, "x": xy[r][0], "y": xy[r][1]} for r in z.borders if r in xy]})
        na = m.zones.get("north_atlantic")
        ax, ay = proj(*(ATLANTIC if na is None else (na.lon, na.lat)))
        atlantic = {"x": ax, "y": ay}
    controller = view.get("sea_controller")
    navy = view.get("navy") or {}
    hand = [card_face(c) for c in view.get("hand") or []]
    handled = [ch["id"] for r in regions for ch in r["targets"]]
    actions = list(view.get("actions_taken") or [])
    return {
        "width": WIDTH, "height": HEIGHT, "mark": MARK_R, "chip_w": CHIP_W, "chip_h": CHIP_H,
        "has_map": m is not None, "regions": regions, "lines": lines, "lanes": lanes, "zones": zones,
        "colours": hexes, "neutral": NEUTRAL,
        "atlantic": {**atlantic, "controller": controller, "colour": colour_of.get(controller or "", ""),
                     "fleet": fleet(navy.get(controller)) if controller else []},
        "decision": decision, "one": one,
        "choice_ids": " ".join(ch["id"] for ch in decision["choices"]) if decision and one else "",
        "handled": handled,
        "seats": [{**s, "navy": fleet(navy.get(s["id"])), "capital": (view.get("capitals") or {}).get(s["id"]),
                   "mine": s["id"] == seat, "at_sea": s["id"] == controller} for s in seats],
        "me": seat, "my_colour": colour_of.get(seat or "", ""),
        "active": view.get("active") or "", "active_colour": colour_of.get(view.get("active") or "", ""),
        "phase": view.get("phase") or "", "round": int(view.get("round") or 0),
        "turns_taken": int(view.get("turns_taken") or 0), "actions": actions,
        "actions_left": max(0, 3 - len(actions)) if view.get("active") else None,
        "waiting": [colour_of.get(s, s) for s in view.get("waiting") or []],
        "deck_size": int(view.get("deck_size") or 0),
        "hand": hand, "production": production(view),
        "costs": [{"type": t, "cost": COSTS[t], "navy": t in NAVY_TYPES} for t in (*LAND_TYPES, *NAVY_TYPES)],
        "econ_types": list(ECON_TYPES),
        "battle": land_battle(view, colour_of), "naval": naval_battle(view, colour_of),
        "trade": view.get("trade") if isinstance(view.get("trade"), dict) else None,
        "options": view.get("options") or {},
        "own_zoom": True,  # the map pans and zooms in its own frame; the panels stay outside it
        "hand_on_board": True,  # the Economics hand is drawn by the board, with values and defenders
    }
