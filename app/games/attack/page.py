"""What Attack!'s board template draws: a seat's ``view()`` joined with the map's geometry (the data
pack's lon/lat) and the Economics cards' printed faces.

Two halves, both pure (no web imports):

* ``table_facts`` is a ``page_part``: who the table waits on and the seat's OWN pending decisions
  (so the board can make their regions clickable and lay its naval line in order).
* ``board_context(view, seat)`` is the board's page extras (``GAME.package.board.context``): it
  only reshapes that view, so it can never show more than the view does.
"""

from __future__ import annotations

import math
from typing import Any

from app.games import taskgame
from app.games.attack import engine
from app.games.attack.pack import COSTS, ECON_TYPES, LAND_TYPES, NAVY_TYPES, SET_TYPES, Map, geo, pack
from app.games.attack.state import GameState
from app.games.attack.views import page_part

WIDTH, HEIGHT = 1600, 900  # the map's view box: 16:9
# the part of the globe the board shows (western hemisphere, Europe, Africa, the Middle East, the
# western USSR); a map with a region outside it widens the frame rather than losing the region
LON_SPAN = (-128.0, 62.0)
LAT_SPAN = (-56.0, 72.0)
MARGIN = 36  # px kept free at the frame's edge for labels
MARK_R = 15  # a region's marker when the pack has no outline for it
CHIP_W, CHIP_H = 30, 15  # one unit type's counted icon
ATLANTIC = (-38.0, 36.0)  # where the North Atlantic box stands when the pack names no such zone
NEUTRAL = "#e9e2cf"


# ---------------------------------------------------------------------- the view part
@page_part
def table_facts(state: GameState, seat: str | None) -> dict[str, Any]:
    return taskgame.table_facts(engine.ENGINE, state, seat)


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
    starts with one ("ukraine:INF"; several of those point at the prompt bar's buttons), a move's
    origin first ("from:ukraine"), a battle to fight ("battle:ukraine")."""
    out: dict[str, list[dict[str, Any]]] = {}
    if decision is None or decision["max"] != 1:
        return out
    for ch in decision["choices"]:
        cid = str(ch["id"])
        if cid.startswith(("from:", "battle:")):
            cid = cid.split(":", 1)[1]
        head = cid.split(":", 1)[0]
        if head in regions:
            out.setdefault(head, []).append(ch)
    return out


def moves(decision: dict[str, Any] | None, regions: set[str]) -> list[dict[str, Any]]:
    """The group moves a decision offers ("poland>ukraine" by land, "spain~morocco" by sea): a click
    on the origin, then on the destination, answers one."""
    out: list[dict[str, Any]] = []
    if decision is None or decision["max"] != 1:
        return out
    for ch in decision["choices"]:
        cid = str(ch["id"])
        for sep in (">", "~"):
            a, found, b = cid.partition(sep)
            if found and a in regions and b in regions:
                out.append({"id": cid, "from": a, "to": b, "sea": sep == "~", "label": ch.get("label"),
                            "msg": ch.get("msg")})
    return out


def arrows(view: dict[str, Any], xy: dict[str, tuple[float, float]]) -> list[dict[str, Any]]:
    """This action's declared groups (MOVES' ``movement`` view) as arrows: by land (through ``via``),
    by sea, waiting on the lane for the sea controller."""
    mv = view.get("movement") if isinstance(view.get("movement"), dict) else {}
    out = []
    for g in mv.get("groups") or []:
        a, b, via = g.get("from"), g.get("to"), g.get("via")
        if a not in xy or b not in xy:
            continue
        pts = [xy[a], *([xy[via]] if via in xy else []), xy[b]]
        (x2, y2), (x1, y1) = pts[-1], pts[-2]
        d = max(1.0, math.hypot(x2 - x1, y2 - y1))
        end = (x2 - (x2 - x1) / d * (MARK_R + 4), y2 - (y2 - y1) / d * (MARK_R + 4))  # the head short of the mark
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in [*pts[:-1], end])
        out.append({"from": a, "to": b, "sea": bool(g.get("sea")), "status": str(g.get("status") or ""),
                    "points": path, "units": _units(g.get("units"))})
    return out


def attacks(view: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The forces waiting, off the map, to attack a region (MOVES' view)."""
    mv = view.get("movement") if isinstance(view.get("movement"), dict) else {}
    return {str(a["region"]): _units(a.get("units")) for a in mv.get("attacks") or [] if isinstance(a, dict)}


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


ROLES = {"A": "attacker", "D": "defender"}


def land_battle(view: dict[str, Any], colour_of: dict[str, str]) -> dict[str, Any] | None:
    """The land battle in progress, or the last one of this action (BATTLE's ``land_battle`` view),
    as the board shows it: both sides' units in battle and in reserve, then each half-round, the
    defender's first: the reinforcements, the dice faces, the hits matched to unit types, the
    opponent's casualties."""
    b = view.get("land_battle")
    if not isinstance(b, dict) or not b.get("region"):
        return None
    sides_in = b.get("sides") if isinstance(b.get("sides"), dict) else {}
    sides = []
    for key in ("D", "A"):
        side = sides_in.get(key) if isinstance(sides_in.get(key), dict) else {}
        seat = b.get("attacker") if key == "A" else b.get("defender")
        commander = b.get("commander") if key == "D" and seat is None else None
        sides.append({"role": ROLES[key], "seat": seat, "colour": colour_of.get(str(seat), "") if seat else "",
                      "commander": commander, "commander_colour": colour_of.get(str(commander), ""),
                      "engaged": _units(side.get("engaged")), "reserve": _units(side.get("reserve")),
                      "lost": _units(side.get("lost"))})
    rounds: list[dict[str, Any]] = []
    for h in b.get("halves") or []:
        if not isinstance(h, dict):
            continue
        half = {"round": int(h.get("round") or 0), "role": ROLES.get(str(h.get("side")), str(h.get("side"))),
                "added": _units(h.get("added")), "engaged": _units(h.get("engaged")),
                "faces": [str(f) for f in h.get("dice") or []], "hits": _units(h.get("hits")),
                "wasted": int(h.get("wasted") or 0), "casualties": _units(h.get("casualties"))}
        if not rounds or rounds[-1]["round"] != half["round"]:
            rounds.append({"round": half["round"], "halves": []})
        rounds[-1]["halves"].append(half)
    winner = b.get("winner")
    return {"region": str(b["region"]), "round": int(b.get("round") or 0), "sides": sides, "rounds": rounds,
            "neutral": bool(b.get("neutral")), "over": bool(b.get("over")),
            "winner": ROLES.get(str(winner), winner) if winner else None,
            "turn": ROLES.get(str(b.get("turn")), "")}


def _pair(p: dict[str, Any], att: str, dfn: str) -> dict[str, Any]:
    """One pair of a naval round: both ships, and once duelled both rolls, modifiers and totals,
    who won and where the hit went (the loser's frontmost ship: maybe not the one in this pair)."""
    d = p.get("duel") if isinstance(p.get("duel"), dict) else {}
    ships, status = p.get("ships") or {}, p.get("status") or {}
    role = {att: "attacker", dfn: "defender"}

    def side(s: str) -> dict[str, Any]:
        return {"ship": ships.get(s), "status": status.get(s, "afloat"),
                "dice": list((d.get("rolls") or {}).get(s) or []),
                "mods": [{"mod": str(m.get("mod")), "bonus": int(m.get("bonus") or 0)}
                         for m in (d.get("mods") or {}).get(s) or []],
                "total": (d.get("totals") or {}).get(s)}

    hit = d.get("hit") if isinstance(d.get("hit"), dict) else None
    return {"pos": int(p.get("pos") or 0), "attacker": side(att), "defender": side(dfn), "fought": bool(d),
            "winner": role.get(str(d.get("winner"))), "hit": {**hit, "role": role.get(str(hit.get("seat")))}
            if hit else None}


def naval_battle(view: dict[str, Any], seat: str | None, colour_of: dict[str, str]) -> dict[str, Any] | None:
    """The naval battle of this turn (NAVAL's ``naval`` view): both fleets, the line this seat laid
    while the other still chooses (the other's only as face-down cards), then every round's pairs
    head to tail with both rolls, the modifiers, the totals and where the hit went."""
    n = view.get("naval")
    if not isinstance(n, dict) or not n.get("attacker"):
        return None
    att, dfn = str(n["attacker"]), str(n.get("defender") or "")
    sides_in = n.get("sides") if isinstance(n.get("sides"), dict) else {}
    laid = set(n.get("laid") or [])
    sides = []
    for role, s in (("attacker", att), ("defender", dfn)):
        side = sides_in.get(s) if isinstance(sides_in.get(s), dict) else {}
        sides.append({"role": role, "seat": s, "colour": colour_of.get(s, ""), "fleet": fleet(side.get("fleet")),
                      "sunk": fleet(side.get("sunk")), "damaged_out": int(side.get("damaged_out") or 0),
                      "laid": s in laid, "mine": s == seat})
    rounds = [{"round": int(rnd.get("round") or 0), "n": int(rnd.get("n") or 0),
               "pairs": [_pair(p, att, dfn) for p in rnd.get("pairs") or [] if isinstance(p, dict)]}
              for rnd in n.get("rounds") or [] if isinstance(rnd, dict)]
    winner = n.get("winner")
    return {"round": int(n.get("round") or 0), "n": int(n.get("n") or 0), "step": str(n.get("step") or ""),
            "sides": sides, "rounds": rounds, "my_line": [str(x) for x in n.get("my_line") or []],
            "winner": ("attacker" if winner == att else "defender") if winner else None,
            "reason": n.get("reason"), "me": seat in (att, dfn)}


def lineup(decision: dict[str, Any] | None) -> dict[str, Any] | None:
    """The seat's own naval line-up decision: its ships to lay, head of the line first, in the
    order they are clicked (board.js keeps that order; the answer's order is the line's)."""
    if decision is None or decision.get("kind") != "naval_line":
        return None
    ships = [{"id": c["id"], "type": str(c["id"]).split("#", 1)[0], "label": c.get("label"), "msg": c.get("msg")}
             for c in decision["choices"]]
    return {"decision": decision["id"], "n": int(decision["max"]), "ships": ships}


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


def building(view: dict[str, Any], colour_of: dict[str, str]) -> dict[str, Any] | None:
    """A Build in progress (ECONOMY's ``build`` view): what was bought and is still to place; its
    PP and what is left only to the builder."""
    b = view.get("build")
    if not isinstance(b, dict):
        return None
    bought = b.get("bought") or {}
    return {"seat": b.get("seat"), "colour": colour_of.get(str(b.get("seat")), ""),
            "bought": [{"type": t, "count": int(bought[t])} for t in (*LAND_TYPES, *NAVY_TYPES) if bought.get(t)],
            "to_place": _units(b.get("to_place")), "pp": b.get("pp"), "left": b.get("left")}


def trade_offer(view: dict[str, Any], seat: str | None, colour_of: dict[str, str]) -> dict[str, Any] | None:
    """The offer under discussion (ECONOMY's ``trade_offer`` view): in full to its two parties
    (the cards given, the request, the cards taken), to the others only who trades with whom."""
    o = view.get("trade_offer")
    if not isinstance(o, dict) or not o.get("from"):
        return None
    from app.games.attack.trade import request_label

    ask = o.get("ask")
    return {"from": o["from"], "to": o.get("to"), "from_colour": colour_of.get(str(o["from"]), ""),
            "to_colour": colour_of.get(str(o.get("to")), ""), "party": seat in (o["from"], o.get("to")),
            "give": [card_face(c) for c in o.get("give") or []] if "give" in o else None,
            "take": [card_face(c) for c in o.get("take") or []] if "take" in o else None,
            "ask": {"msg": request_label(str(ask)), "text": str(ask)} if isinstance(ask, str) else None}


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
    offered: list[dict[str, Any]] = []
    arrow_list: list[dict[str, Any]] = []
    lines: list[dict[str, Any]] = []
    lanes: list[dict[str, Any]] = []
    zones: list[dict[str, Any]] = []
    atlantic = {"x": 0.0, "y": 0.0}
    if m is not None:
        proj = projection(m)
        targets = region_choices(decision, set(m.regions))
        offered = moves(decision, set(m.regions)) if one else []
        origins = {mv["from"] for mv in offered}
        xy = {r.id: proj(r.lon, r.lat) for r in m.regions.values()}
        waiting = attacks(view)
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
                "moves": " ".join(mv["id"] for mv in offered if mv["from"] == r.id), "origin": r.id in origins,
                "attack": waiting.get(r.id, []),
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
        arrow_list = arrows(view, xy)
        na = m.zones.get("north_atlantic")
        ax, ay = proj(*(ATLANTIC if na is None else (na.lon, na.lat)))
        atlantic = {"x": ax, "y": ay}
    controller = view.get("sea_controller")
    navy = view.get("navy") or {}
    prod = production(view)
    in_sets = {c["id"]: i + 1 for i, cards in enumerate(prod["sets"] if prod else []) for c in cards}
    hand = [{**card_face(c), "set": in_sets.get(c)} for c in view.get("hand") or []]
    # a region with one choice answers it itself: the prompt bar leaves it out; several choices in one
    # region ("ukraine:INF", "ukraine:TNK") stay in the bar, where a click on the region points; the
    # moves stay there too (a phone's finger may miss a small region), the map answers them as well
    handled = [r["targets"][0]["id"] for r in regions if len(r["targets"]) == 1]
    actions = list(view.get("actions_taken") or [])
    return {
        "width": WIDTH, "height": HEIGHT, "mark": MARK_R, "chip_w": CHIP_W, "chip_h": CHIP_H,
        "has_map": m is not None, "regions": regions, "lines": lines, "lanes": lanes, "zones": zones,
        "colours": hexes, "neutral": NEUTRAL,
        "atlantic": {**atlantic, "controller": controller, "colour": colour_of.get(controller or "", ""),
                     "fleet": fleet(navy.get(controller)) if controller else []},
        "decision": decision, "one": one,
        "choice_ids": " ".join(ch["id"] for ch in decision["choices"]) if decision and one else "",
        "moves": offered, "arrows": arrow_list,
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
        "hand": hand, "production": prod,
        "costs": [{"type": t, "cost": COSTS[t], "navy": t in NAVY_TYPES} for t in (*LAND_TYPES, *NAVY_TYPES)],
        "econ_types": list(ECON_TYPES),
        "battle": land_battle(view, colour_of), "naval": naval_battle(view, seat, colour_of),
        "lineup": lineup(decision),
        "build": building(view, colour_of),
        "trade": trade_offer(view, seat, colour_of),
        "options": view.get("options") or {},
        "own_zoom": True,  # the map pans and zooms in its own frame; the panels stay outside it
        "hand_on_board": True,  # the Economics hand is drawn by the board, with values and defenders
    }
