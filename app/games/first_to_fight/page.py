"""What First to Fight's board template draws: a seat's ``view()`` joined with the data pack's printed
faces (regions and their tracks, soldier cards, the seat's own mission cards, event cards).

Two halves, both pure (no web imports):

* ``table_facts`` is a ``page_part``: who the table waits on and the seat's OWN pending decisions
  (so the board can make the tiles, regions and cards they name clickable).
* ``board_context(view, seat)`` is the board's page extras (``GAME.package.board.context``): it
  only reshapes that view, looking up the pack's printed faces for the ids the view names, so it
  can never show more than the view does.
"""

from __future__ import annotations

from typing import Any

from app.games import taskgame
from app.games.first_to_fight import engine
from app.games.first_to_fight.pack import (
    FORMATIONS,
    LAST_MONTH,
    ORDERS,
    REGIONS,
    STAGE_II_FROM,
    START_MONTH,
    Pack,
    month_label,
    pack,
)
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.views import page_part

# the schematic board (spec §4.2's mini-map): the North and the West on the left, Warsaw and Poland
# on the right, North Africa and Italy below the West; a region a staged pack adds goes after them
WIDTH, HEIGHT = 1000, 640
BOX_W, BOX_H = 460, 180
SLOTS: dict[str, tuple[int, int]] = {"NEA": (0, 0), "WAR": (1, 0), "WEU": (0, 1), "POL": (1, 1), "NAI": (0, 2)}
COL_X, ROW_Y = (20, 520), (20, 230, 440)
SQUARE_GAP = 16  # room between two squares for the threshold's arrow
TRACK_Y = 78  # the track's top, from the box's top
TRACK_MAX_SQ = 36
CHIP_STEP = 58  # a soldier's chip in its region's box: formation and Strength/Underground
CHIPS_MAX = 6  # then "+n" (the cards below the board show every one)


# ---------------------------------------------------------------------- the view part
@page_part
def table_facts(state: GameState, seat: str | None) -> dict[str, Any]:
    return taskgame.table_facts(engine.ENGINE, state, seat)


# ---------------------------------------------------------------------- printed faces
def soldier_face(data: Pack, sid: str, on_board: dict[str, Any] | None = None) -> dict[str, Any]:
    """A soldier card as the table shows it: the printed card, and on the board its current values
    (a training token covers the printed pair), its wounds and whether the concentration token holds it."""
    card = data.soldiers.get(sid)
    if card is None:
        return {"id": sid, "known": False}
    here = on_board or {}
    s, u = int(here.get("s", card.strength)), int(here.get("u", card.underground))
    return {"id": sid, "known": True, "name": card.name, "formation": card.formation, "ability": card.ability,
            "printed_s": card.strength, "printed_u": card.underground, "s": s, "u": u,
            "trained": bool(here.get("trained")), "wounds": int(here.get("wounds") or 0),
            "note": card.note, "note_pl": card.note_pl or card.note, "region": here.get("region")}


def mission_face(data: Pack, mid: str, level: dict[str, int] | None = None) -> dict[str, Any]:
    m = data.missions.get(mid)
    if m is None:
        return {"id": mid, "known": False}
    lv = (level or {}).get(m.region)
    return {"id": mid, "known": True, "title": m.title, "title_pl": m.title_pl or m.title, "date": m.date,
            "month": month_label(m.date), "stage": m.stage, "region": m.region, "formation": m.formation,
            "difficulty": m.difficulty, "vp": m.vp, "level": lv, "target": None,
            "goal": m.difficulty + lv if lv is not None else None}  # §7.3: difficulty + the region's level


def event_face(data: Pack, eid: str) -> dict[str, Any]:
    e = data.events.get(eid)
    if e is None:
        return {"id": eid, "known": False}
    return {"id": eid, "known": True, "title": e.title, "title_pl": e.title_pl or e.title, "region": e.region,
            "advance": e.advance, "date": e.date, "month": month_label(e.date), "text": e.text,
            "text_pl": e.text_pl or e.text}


# ---------------------------------------------------------------------- the schematic board
def _slot(rid: str, i: int) -> tuple[float, float]:
    col, row = SLOTS.get(rid, (i % 2, i // 2))
    return COL_X[col % 2], ROW_Y[min(row, len(ROW_Y) - 1)]


def track(region: Any, square: int, x: float, y: float) -> dict[str, Any]:
    """A domination track's squares (level, dark or light, the start, the marker) and the
    thresholds on the arrows between them, laid out inside a region's box."""
    n = len(region.track)
    avail = BOX_W - 24
    sq = min(TRACK_MAX_SQ, (avail - (n - 1) * SQUARE_GAP) / max(n, 1))
    left = x + 12
    squares = []
    for i, lv in enumerate(region.track):
        sx = left + i * (sq + SQUARE_GAP)
        squares.append({"i": i, "level": lv, "x": round(sx, 1), "y": y + TRACK_Y, "dark": i >= region.occupied_from,
                        "start": i == region.start, "marker": i == square})
    arrows = []
    for i, th in enumerate(region.thresholds):
        gx = left + (i + 1) * (sq + SQUARE_GAP) - SQUARE_GAP / 2
        arrows.append({"i": i, "value": th, "x": round(gx, 1), "y": y + TRACK_Y + sq / 2,
                       "active": i + 1 == square})
    return {"sq": round(sq, 1), "squares": squares, "arrows": arrows}


def _clip(ax: float, ay: float, bx: float, by: float, rect: tuple[float, float, float, float]) -> float:
    """The share of the way from a to b at which the segment leaves ``rect`` (a inside it)."""
    x0, y0, x1, y1 = rect
    dx, dy = bx - ax, by - ay
    ts = []
    if dx:
        ts += [(x0 - ax) / dx, (x1 - ax) / dx]
    if dy:
        ts += [(y0 - ay) / dy, (y1 - ay) / dy]
    return min(t for t in ts if t > 0) if any(t > 0 for t in ts) else 0.0


def links(data: Pack, boxes: dict[str, tuple[float, float]]) -> list[dict[str, Any]]:
    """The neighbour arrows (§4.2), box edge to box edge, both heads (neighbourhood is symmetric)."""
    out = []
    for link in sorted(tuple(sorted(pair)) for pair in data.links):
        a, b = link
        if a not in boxes or b not in boxes:
            continue
        (ax, ay), (bx, by) = boxes[a], boxes[b]
        ca, cb = (ax + BOX_W / 2, ay + BOX_H / 2), (bx + BOX_W / 2, by + BOX_H / 2)
        t0 = _clip(*ca, *cb, (ax, ay, ax + BOX_W, ay + BOX_H))
        t1 = 1 - _clip(*cb, *ca, (bx, by, bx + BOX_W, by + BOX_H))
        pad = 6 / max(1.0, ((cb[0] - ca[0]) ** 2 + (cb[1] - ca[1]) ** 2) ** 0.5)
        p0 = (ca[0] + (cb[0] - ca[0]) * (t0 + pad), ca[1] + (cb[1] - ca[1]) * (t0 + pad))
        p1 = (ca[0] + (cb[0] - ca[0]) * (t1 - pad), ca[1] + (cb[1] - ca[1]) * (t1 - pad))
        out.append({"a": a, "b": b, "x1": round(p0[0], 1), "y1": round(p0[1], 1), "x2": round(p1[0], 1),
                    "y2": round(p1[1], 1)})
    return out


# ---------------------------------------------------------------------- choices on the board
def targets(decision: dict[str, Any] | None, ids: set[str]) -> dict[str, dict[str, Any]]:
    """The choices of a one-answer decision that ARE one of ``ids`` (a tile, a region, a card):
    clicking that thing answers it."""
    if decision is None or decision["max"] != 1:
        return {}
    return {str(c["id"]): c for c in decision["choices"] if str(c["id"]) in ids}


def time_track(now: int, events: list[dict[str, Any]], missions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The time track by year (IX 1939 .. V 1945, a square a month): the marker, the placed events'
    dates and the dates of the seat's own missions."""
    years: dict[int, list[dict[str, Any]]] = {}
    for i in range(START_MONTH, LAST_MONTH + 1):
        label = month_label(i)
        roman, year = label.split()
        years.setdefault(int(year), []).append({
            "i": i, "label": label, "roman": roman, "now": i == now, "past": i < now,
            "stage": 2 if i >= STAGE_II_FROM else 1,
            "events": [e for e in events if e.get("date") == i],
            "missions": [m for m in missions if m.get("date") == i]})
    out = []
    for year, months in sorted(years.items()):
        first = (months[0]["i"] + 8) % 12  # the calendar month the year's row starts at (0 = January)
        out.append({"year": year, "skip": first, "months": months})
    return out


def board_context(view: dict[str, Any], seat: str | None) -> dict[str, Any]:
    data = pack()
    domination = view.get("domination") or {}
    soldiers_in = view.get("soldiers") or {}
    levels = {r: int(d.get("level") or 0) for r, d in domination.items() if isinstance(d, dict)}
    decisions = view.get("decisions") or []
    decision = decisions[0] if decisions else None
    one = bool(decision and decision["max"] == 1)
    concentration = view.get("concentration") if isinstance(view.get("concentration"), dict) else None

    soldiers = {sid: soldier_face(data, sid, d) for sid, d in soldiers_in.items() if isinstance(d, dict)}
    # the resolving order's once-only lists (ORDERS' "order" view): a soldier moved or trained, a region
    # sabotaged or recruited in, may not be again in this order
    order = view.get("order") if isinstance(view.get("order"), dict) else {}
    moved, trained = set(order.get("moved") or []), set(order.get("trained") or [])
    used_regions = {str(r) for r in order.get("regions") or []}
    for sid, face in soldiers.items():
        face["moved_now"], face["trained_now"] = sid in moved, sid in trained
    if concentration:
        for face in soldiers.values():
            face["locked"] = (face.get("region") == concentration.get("region")
                              and face.get("formation") == concentration.get("formation"))
    tile_targets = targets(decision, set(ORDERS))
    region_ids = [r for r in REGIONS if r in data.regions] + sorted(set(data.regions) - set(REGIONS))
    region_targets = targets(decision, set(region_ids))
    soldier_targets = targets(decision, set(soldiers))
    hand_ids = [str(m) for m in view.get("hand") or []]
    mission_targets = targets(decision, set(hand_ids))

    boxes: dict[str, tuple[float, float]] = {}
    regions = []
    for i, rid in enumerate(region_ids):
        r = data.regions[rid]
        x, y = _slot(rid, i)
        boxes[rid] = (x, y)
        dom = domination.get(rid) if isinstance(domination.get(rid), dict) else {}
        square = int(dom.get("square", r.start))
        in_region = sorted((s for s in soldiers.values() if s.get("region") == rid), key=lambda s: s["id"])
        conc = concentration if concentration and concentration.get("region") == rid else None
        regions.append({
            "id": rid, "x": x, "y": y, "w": BOX_W, "h": BOX_H, "colour": r.colour, "rule": f"rule_{r.rule}",
            "recruitable": r.recruitable,
            "level": int(dom.get("level", r.track[square] if square < len(r.track) else 0)),
            "occupied": bool(dom.get("occupied", square >= r.occupied_from)), "square": square,
            "track": track(r, square, x, y), "soldiers": in_region, "count": len(in_region),
            "concentration": conc, "target": region_targets.get(rid), "used_now": rid in used_regions,
            "neighbours": data.neighbours(rid)})
    for s in soldiers.values():
        s["target"] = soldier_targets.get(s["id"])

    tiles_in = view.get("tiles") or {}
    chosen = [str(o) for o in view.get("chosen") or []]
    tiles = [{"id": o, "active": bool((tiles_in.get(o) or {}).get("active", True)),
              "vp": int((tiles_in.get(o) or {}).get("vp") or 0),
              "chosen": chosen.index(o) + 1 if o in chosen else None,
              "resolving": view.get("phase") == "orders" and chosen and chosen[-1] == o and o != "MANEUVERS",
              "target": tile_targets.get(o)} for o in ORDERS]

    hand = []
    for mid in hand_ids:
        face = mission_face(data, mid, levels)
        face["target"] = mission_targets.get(mid)
        hand.append(face)
    hand.sort(key=lambda m: (m.get("date", 0), m["id"]))

    # the cards a seat's own decision offers that lie nowhere on the table yet (soldiers drawn to
    # recruit, stage II missions drawn, the events a Liaison looks at): shown to that seat alone
    offered: list[dict[str, Any]] = []
    if decision is not None:
        for c in decision["choices"]:
            cid = str(c["id"])
            face: dict[str, Any] | None = None
            if cid in data.soldiers and cid not in soldiers:
                face = {"kind": "soldier", **soldier_face(data, cid)}
            elif cid in data.missions and cid not in hand_ids:
                face = {"kind": "mission", **mission_face(data, cid, levels)}
            elif cid in data.events:
                face = {"kind": "event", **event_face(data, cid)}
            if face is not None:
                face["target"] = c if one else None
                face["choice"] = c
                offered.append(face)

    placed = [event_face(data, e) for e in view.get("event_track") or []]
    mine_on_track = [{"id": m["id"], "date": m["date"], "title": m["title"], "title_pl": m["title_pl"],
                      "stage": m["stage"]} for m in hand if m.get("known")]
    revealed = view.get("revealed") if isinstance(view.get("revealed"), dict) else {}
    seats = []
    for s in view.get("seats") or []:
        sid = s.get("id")
        seats.append({**s, "mine": sid == seat,
                      "succeeded": [mission_face(data, m) for m in s.get("succeeded") or []],
                      "failed": [mission_face(data, m) for m in s.get("failed") or []],
                      "discarded": [mission_face(data, m) for m in s.get("discarded") or []],
                      # revealed on its date and not yet resolved (ENDING's "revealed": public)
                      "revealed": [mission_face(data, m) for m in revealed.get(sid) or []],
                      "chooser": sid == view.get("chooser") and view.get("phase") == "orders",
                      "leader": sid == view.get("leader") and view.get("phase") == "ending",
                      "starter": sid == view.get("starter")})
    drawn = view.get("event_drawn")
    return {
        "width": WIDTH, "height": HEIGHT, "box_w": BOX_W, "box_h": BOX_H, "chip_step": CHIP_STEP,
        "chips_max": CHIPS_MAX,
        "regions": regions, "links": links(data, boxes),
        "tiles": tiles, "hand": hand, "offered": offered, "order": str(order.get("kind") or ""),
        "soldiers_by_region": {r["id"]: r["soldiers"] for r in regions},
        "concentration": concentration,
        "time": int(view.get("time") or 0), "month": view.get("month") or month_label(int(view.get("time") or 0)),
        "time_track": time_track(int(view.get("time") or 0), placed, mine_on_track),
        "event": event_face(data, str(drawn)) if drawn else None, "placed": placed,
        "events_gone": len(view.get("events_gone") or []),
        "fallen": [soldier_face(data, f) for f in view.get("fallen") or []],
        "seats": seats, "me": seat, "phase": str(view.get("phase") or ""), "round": int(view.get("round") or 0),
        "chooser": view.get("chooser") or "", "leader": view.get("leader") or "", "starter": view.get("starter") or "",
        "waiting": list(view.get("waiting") or []), "decks": view.get("decks") or {},
        "options": view.get("options") or {}, "formations": list(FORMATIONS),
        # the prompt bar keeps every button (a phone's finger may miss a card): the board answers as well
        "decision": decision, "one": one, "handled": [],
        "own_zoom": True,  # the schematic board scrolls in its own frame; the cards stay outside it
        "hand_on_board": True,  # the seat's missions are drawn by the board, with their dates and values
    }
