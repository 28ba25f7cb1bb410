"""What the Total Domination board template draws: a seat's ``view()`` joined with the board's
geometry (the data pack's space ``xy``) and the cards' printed faces.

Two halves, both pure (no web imports):

* ``table_facts`` is a ``view_part``: the public facts the board shows that the state does not
  store (control, VP, the thresholds, each power's Tech Sheet costs, who the table waits on) and
  the seat's OWN pending decisions, so the board can highlight the legal targets. It adds nothing
  another seat could not learn from the table itself.
* ``board_context(view, seat)`` is the board's page extras (``GAME.package.board.context``): it
  only reshapes that view, so it can never show more than the view does.
"""

from __future__ import annotations

from typing import Any

from app.games.total_domination import costs, derived, engine
from app.games.total_domination import pack as td_pack
from app.games.total_domination.pack import COALITION, NEUTRAL, NONALIGNED, POWERS, UNIT_KINDS, side_of
from app.games.total_domination.state import GameState
from app.games.total_domination.text import as_json
from app.games.total_domination.views import view_part

AXIS_THRESHOLD = 29  # spec §10.1
NATION_ORDER: tuple[str, ...] = POWERS + COALITION + NONALIGNED + (NEUTRAL,)
# the Tech Sheet's rows as the sheet prints them (spec §6.2): build, move, attack
SHEET: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("build", ("build_army", "build_bomber", "build_fleet", "build_uboat")),
    ("move", ("move_army", "move_bomber", "move_fleet", "move_uboat")),
    ("attack", ("attack_army", "attack_bomber", "attack_fleet", "attack_uboat", "attack_resistance")),
)
H = 22  # half the width of a space's shape, in the 1000 x 1000 view box
CHIP_W = 19  # one stacked piece per nation, kind and side (ready / spent)
CHIP_GAP = 2
CHIPS_PER_ROW = 4
ARROW_STUB = 34  # an arrow link is drawn as two matched markers, one at each end
VP_TRACK = 45  # the VP bar's last mark: past the highest Allied threshold (37)
CARD_VERBS = ("ops", "event", "tech")  # "ops:td-07": the card's answers on the card itself


# ---------------------------------------------------------------------- the view part
def _decision(d: Any) -> dict[str, Any]:
    return {"id": d.id, "kind": d.kind, "prompt": d.prompt,
            "prompt_msg": as_json(d.prompt_msg) if d.prompt_msg else None, "min": d.min, "max": d.max,
            "choices": [{"id": c.id, "label": c.label, "msg": as_json(c.msg) if c.msg else None}
                        for c in d.choices]}


def waiting_on(state: GameState) -> dict[str, list[str]]:
    """Who the table waits on now: seats and, in a simultaneous step, the hands still to answer
    (public: "waiting on" is said of every seat, never what anyone chose)."""
    t = engine.current(state)
    if t is None:
        return {"seats": [], "hands": []}
    if "q" in t:
        return {"seats": [t["q"]["seat"]], "hands": []}
    missing = [h for h in t["qs"] if h not in t.get("got", {})]
    return {"seats": sorted({t["qs"][h]["seat"] for h in missing}), "hands": sorted(missing)}


@view_part
def table_facts(state: GameState, seat: str | None) -> dict[str, Any]:
    mine = [_decision(d) for d in engine.decisions(state) if seat is not None and d.seat == seat]
    out: dict[str, Any] = {
        "thresholds": {"axis": AXIS_THRESHOLD, "allies": derived.allied_threshold(state)},
        "costs": {p: {a: costs.cost(state, p, a) for _, row in SHEET for a in row} for p in POWERS},
        "waiting": waiting_on(state),
        "decisions": mine,
    }
    if _board(state.board) is None:  # a state staged without geography (a rule test's): no map facts
        return out
    cmap, vp = derived.control_map(state), derived.vp(state)
    side_vp = {side: sum(n for p, n in vp.items() if side_of(p) == side) for side in ("axis", "allies")}
    return {"control": {s: p for s, p in sorted(cmap.items()) if p}, "vp": vp, "side_vp": side_vp, **out}


# ---------------------------------------------------------------------- choices on the board
def parse_choice(choice_id: str) -> dict[str, str] | None:
    """A choice the board answers itself: a move ("move:u7:poland"), a build
    ("build:germany:army:germany"), an attack ("attack:u3:u9"), a card's use ("ops:td-07")."""
    parts = choice_id.split(":")
    if parts[0] == "move" and len(parts) == 3:
        return {"verb": "move", "unit": parts[1], "space": parts[2]}
    if parts[0] == "build" and len(parts) == 4:
        return {"verb": "build", "nation": parts[1], "kind": parts[2], "space": parts[3]}
    if parts[0] == "attack" and len(parts) == 3:
        return {"verb": "attack", "unit": parts[1], "target": parts[2]}
    if parts[0] in CARD_VERBS and len(parts) == 2:
        return {"verb": parts[0], "card": parts[1]}
    return None


def _is_card(card_id: str) -> bool:
    try:
        td_pack.card(card_id)
    except (KeyError, FileNotFoundError, ImportError, AttributeError):
        return False
    return True


def card_face(card_id: str) -> dict[str, Any]:
    """A card as printed: OP top left, tech icon top right, the event in its country's colour."""
    try:
        c = td_pack.card(card_id)
    except (KeyError, FileNotFoundError, ImportError, AttributeError):
        return {"id": card_id, "op": None, "tech": "", "colour": NEUTRAL, "event": "", "vp": 0, "value": None,
                "text": "", "text_pl": ""}
    return {"id": c.id, "op": c.op, "tech": c.tech, "tech_group": derived.tech_group(c.tech) if c.tech else "",
            "colour": c.colour, "event": c.event.kind, "value": c.event.value, "vp": c.event.vp, "deck": c.deck,
            "text": c.text, "text_pl": c.text_pl or c.text}  # the page shows the one of its language


# ---------------------------------------------------------------------- the board's geometry
def _octagon(x: float, y: float) -> str:
    k = H * 0.42
    pts = [(-k, -H), (k, -H), (H, -k), (H, k), (k, H), (-k, H), (-H, k), (-H, -k)]
    return " ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in pts)


def stacks(units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One piece per nation, kind and side (ready / spent), with its count and its units' ids."""
    out: dict[tuple[str, str, bool], dict[str, Any]] = {}
    for u in units:
        key = (u["nation"], u["kind"], bool(u.get("spent")))
        st = out.setdefault(key, {"nation": u["nation"], "kind": u["kind"], "spent": key[2], "ids": []})
        st["ids"].append(u["id"])
    order = {n: i for i, n in enumerate(NATION_ORDER)}
    kinds = {k: i for i, k in enumerate(UNIT_KINDS)}
    return sorted(({**st, "count": len(st["ids"])} for st in out.values()),
                  key=lambda st: (order.get(st["nation"], 99), kinds.get(st["kind"], 99), st["spent"]))


def place(piles: list[dict[str, Any]], x: float, y: float) -> list[dict[str, Any]]:
    """The pieces of a space in rows under its name, centred on the space."""
    out = []
    for i, st in enumerate(piles):
        row, col = divmod(i, CHIPS_PER_ROW)
        in_row = min(CHIPS_PER_ROW, len(piles) - row * CHIPS_PER_ROW)
        left = x - (in_row * CHIP_W + (in_row - 1) * CHIP_GAP) / 2
        out.append({**st, "x": left + col * (CHIP_W + CHIP_GAP) + CHIP_W / 2, "y": y + H + 22 + row * 17})
    return out


def links(geo: td_pack.Board) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(lines for land routes and sea lanes, matched markers for the arrow links)."""
    lines, arrows = [], []
    for n, link in enumerate(sorted(geo.links, key=lambda k: (k.kind, k.a, k.b))):
        a, b = geo.spaces[link.a], geo.spaces[link.b]
        (x1, y1), (x2, y2) = a.xy, b.xy
        if link.kind != "arrow":
            lines.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2, "kind": link.kind, "a": a.id, "b": b.id})
            continue
        dist = max(1.0, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
        ux, uy = (x2 - x1) / dist, (y2 - y1) / dist
        for (sx, sy), sign, here, there in (((x1, y1), 1, a.id, b.id), ((x2, y2), -1, b.id, a.id)):
            bx, by = sx + sign * ux * (H + 2), sy + sign * uy * (H + 2)
            ex, ey = bx + sign * ux * ARROW_STUB, by + sign * uy * ARROW_STUB
            arrows.append({"x1": bx, "y1": by, "x2": ex, "y2": ey, "tx": ex + sign * ux * 8, "ty": ey + sign * uy * 8,
                           "mark": n + 1, "from": here, "to": there})
    return lines, arrows


def _ring(s: td_pack.Space, holder: str | None, powers: dict[str, str]) -> str | None:
    if holder is None:  # a belligerent's capital with one enemy unit: held by nobody
        return "none" if s.capital and s.nation and powers.get(s.nation) in POWERS else None
    return None if holder == s.nation else holder


def _board(key: str) -> td_pack.Board | None:
    try:
        return td_pack.board(key)
    except (KeyError, FileNotFoundError, ImportError):
        return None


def _track_lengths() -> dict[str, int]:
    try:
        return dict(td_pack.pack().tracks)
    except (FileNotFoundError, ImportError, AttributeError):
        return {"usa": 0, "china": 0}


def op_left(view: dict[str, Any]) -> int | None:
    """The OP left of the card being played for operations (the operations module's view part)."""
    ops = view.get("operations")
    if isinstance(ops, dict) and isinstance(ops.get("op"), int):
        return int(ops["op"])
    return None


def drafting(view: dict[str, Any], faces: Any) -> dict[str, Any] | None:
    """The draft as this seat sees it (the strategic module's view part): its own packets to pick
    from and its own picks face up; of the other hands only how many they picked, and who the
    pick still waits on."""
    d = view.get("draft")
    if not isinstance(d, dict):
        return None
    mine = set((view.get("hands") or {}).keys()) | set(d.get("packets") or {}) | set(d.get("picks") or {})
    waiting = set(d.get("waiting_on") or [])
    return {
        "pick": d.get("pick"), "direction": d.get("direction"),
        "packets": [{"hand": h, "cards": faces(list(cs))} for h, cs in sorted((d.get("packets") or {}).items())],
        "picks": [{"hand": h, "cards": faces(list(cs))} for h, cs in sorted((d.get("picks") or {}).items()) if cs],
        "others": [{"hand": h, "picked": int(n), "waiting": h in waiting}
                   for h, n in sorted((d.get("picked") or {}).items()) if h not in mine],
        "waiting_on": sorted(waiting),
    }


def automa_card(view: dict[str, Any]) -> dict[str, Any] | None:
    """The solo card the automa resolves now (the solo module's view part): its number and year,
    the active Axis country's actions and unit priority, and the spaces along its four arrows."""
    solo = view.get("solo")
    shown = solo.get("revealed") if isinstance(solo, dict) else None
    if not isinstance(shown, dict):
        return None
    power = str(solo.get("revealed_for") or "")  # type: ignore[union-attr]
    part = shown.get(power) if isinstance(shown.get(power), dict) else {}
    return {"id": shown.get("id"), "number": shown.get("number"), "year": shown.get("year"), "power": power,
            "actions": [{"verb": str(a[0]), "unit": str(a[1])} for a in part.get("actions", []) if len(a) == 2],
            "units": [str(u) for u in part.get("units", [])],
            "lines": [list(line) for line in shown.get("lines") or []],
            "deck_size": solo.get("deck_size"), "used": len(solo.get("used") or [])}  # type: ignore[union-attr]


def board_context(view: dict[str, Any], seat: str | None) -> dict[str, Any]:
    geo = _board(str(view.get("board") or ""))
    decisions: list[dict[str, Any]] = list(view.get("decisions") or [])
    decision = decisions[0] if decisions else None
    one = decision is not None and decision["max"] == 1
    # what each space, unit and card answers on the board (single-answer decisions only: a
    # multi-pick one keeps its boxes in the prompt bar, the cards toggle them)
    space_choices: dict[str, list[dict[str, Any]]] = {}
    actors: set[str] = set()  # units a move or an attack starts from
    preys: set[str] = set()  # units an attack destroys: a click on one answers it
    card_actions: dict[str, list[dict[str, Any]]] = {}
    bare_cards: list[str] = []
    for d in decisions:
        for ch in d["choices"]:
            parsed = parse_choice(ch["id"])
            if d is decision and one and parsed is not None:
                if parsed["verb"] in ("move", "attack"):
                    actors.add(parsed["unit"])
                if parsed["verb"] == "attack":
                    preys.add(parsed["target"])
                if parsed["verb"] in ("move", "build"):
                    space_choices.setdefault(parsed["space"], []).append(ch)
                if parsed["verb"] in CARD_VERBS:
                    card_actions.setdefault(parsed["card"], []).append({**ch, "verb": parsed["verb"]})
            elif parsed is None and _is_card(ch["id"]):
                if d is decision and one:  # a multi-pick is made by toggling the cards (``picks``)
                    card_actions.setdefault(ch["id"], []).append({**ch, "verb": "pick"})
                bare_cards.append(ch["id"])

    units = view.get("units") or []
    here: dict[str, list[dict[str, Any]]] = {}
    for u in units:
        here.setdefault(u["space"], []).append(u)
    control = view.get("control") or {}
    destroyed = set(view.get("destroyed") or [])
    powers = {**{p: p for p in POWERS}, **(view.get("controller") or {})}
    spaces, lines, arrows = [], [], []
    if geo is not None:
        for s in sorted(geo.spaces.values(), key=lambda s: s.id):
            x, y = s.xy
            spaces.append({
                "id": s.id, "shape": s.shape, "x": x, "y": y, "left": x - H, "top": y - H, "size": 2 * H,
                "points": _octagon(x, y) if s.shape == "coastal" else "", "nation": s.nation or NEUTRAL,
                "stars": s.stars, "capital": s.capital, "factory": s.factory, "shipyard": s.shipyard,
                "uboat": s.uboat, "destroyed": s.id in destroyed, "control": control.get(s.id),
                # a ring says who holds the space where its colour does not: a neutral space held,
                # a home space taken or held for a coalition country, a capital held by nobody
                "ring": _ring(s, control.get(s.id), powers),
                "pieces": place(stacks(here.get(s.id, [])), x, y),
                "targets": space_choices.get(s.id, []),
            })
        lines, arrows = links(geo)

    # the hands this seat holds, the cards it picks from, the cards set aside
    in_hand = {c for cards in (view.get("hands") or {}).values() for c in cards}
    mine = list(view.get("my_powers") or [])

    def faces(cards: list[str]) -> list[dict[str, Any]]:
        return [{**card_face(c), "actions": card_actions.get(c, [])} for c in cards]

    hands = [{"id": h, "cards": faces(cards)} for h, cards in sorted((view.get("hands") or {}).items())]
    draft_view = drafting(view, faces)
    shown = in_hand | {c["id"] for p in (draft_view or {}).get("packets", []) for c in p["cards"]}
    # cards asked about that lie nowhere else on this board (Enigma's draw, a packet without a draft view)
    draft = faces([c for c in dict.fromkeys(bare_cards) if c not in shown])
    multi = [ch["id"] for ch in decision["choices"] if _is_card(ch["id"])] if decision and not one else []

    side_vp = view.get("side_vp") or {"axis": 0, "allies": 0}
    thresholds = view.get("thresholds") or {"axis": AXIS_THRESHOLD, "allies": 33}
    lengths = _track_lengths()
    tracks = [{"id": n, "pos": int((view.get("tracks") or {}).get(n, 0)), "last": lengths.get(n, 0),
               "joined": (view.get("controller") or {}).get(n) not in (None, "nonaligned")} for n in NONALIGNED]
    cost_rows = view.get("costs") or {}
    sheets = [{"power": p, "mine": p in mine, "techs": list((view.get("techs") or {}).get(p, [])),
               "face_down": (view.get("tech_played") or {}).get(p),
               "rows": [{"row": r, "cells": [{"action": a, "cost": (cost_rows.get(p) or {}).get(a)} for a in acts]}
                        for r, acts in SHEET],
               "vp": int((view.get("vp") or {}).get(p, 0))}
              for p in POWERS]
    waiting = view.get("waiting") or {"seats": [], "hands": []}
    return {
        "width": 1000, "height": 1000, "half": H, "chip": CHIP_W,
        "spaces": spaces, "lines": lines, "arrows": arrows, "has_board": geo is not None,
        "decision": decision, "one": one, "actors": sorted(actors), "preys": sorted(preys),
        "choice_ids": " ".join(ch["id"] for ch in decision["choices"]) if decision and one else "",
        "handled": [ch["id"] for chs in space_choices.values() for ch in chs]
        + [a["id"] for acts in card_actions.values() for a in acts],
        "hands": hands, "draft": draft, "picks": multi,
        "my_powers": mine, "active": view.get("active") or "", "year": view.get("year"),
        "phase": view.get("phase") or "", "op_left": op_left(view),
        "saved": view.get("saved") or {},
        "vp": {"axis": int(side_vp.get("axis", 0)), "allies": int(side_vp.get("allies", 0)),
               "axis_at": int(thresholds.get("axis", AXIS_THRESHOLD)),
               "allies_at": int(thresholds.get("allies", 33)), "top": VP_TRACK,
               "by_power": [{"power": p, "vp": int((view.get("vp") or {}).get(p, 0)), "side": side_of(p)}
                            for p in POWERS]},
        "tracks": tracks, "sheets": sheets,
        "hand_sizes": view.get("hand_sizes") or {}, "waiting": waiting,
        "draft_view": draft_view,
        "automa": automa_card(view),
        "operations": view.get("operations") if isinstance(view.get("operations"), dict) else None,
        "victory_mode": str((view.get("victory_rule") or {}).get("mode") or "thresholds"),
        "last_year": (view.get("victory_rule") or {}).get("last_year"),
        "discard_top": (view.get("discard") or [])[-1:],
        "deck_size": view.get("deck_size", 0),
        "own_zoom": True,  # the map pans and zooms in its own frame; the cards and sheets stay outside it
        "hand_on_board": True,  # the hand is drawn as real-looking cards by the board
    }
