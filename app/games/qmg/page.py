"""What the QMG board template draws: a seat's ``view()`` joined with the map pack and the layout.

Pure (no web imports). ``board_context(view, seat)`` is the board's page extras
(``GAME.package.board.context``) for ``templates/board.html``; it only reshapes what the seat's
view already holds, so it can never show more than that view does.
"""

from __future__ import annotations

from typing import Any

from app.games.qmg.data import AXIS, COUNTRIES, COUNTRY_TITLE, map_pack
from app.games.qmg.layout import layout

ROUNDS = 20  # rulebook: the game ends after round 20
INSTANT_WIN_LEAD = 30  # rulebook: a lead of 30 VP at the end of a round wins at once
FONT = 22  # label size in view-box units (the CSS says the same)
LINE_HEIGHT = 23
CHAR_WIDTH = 0.56 * FONT  # a rough average, to squeeze a label that would overflow its shape
TOKEN_GAP = 38
TOKEN_ROW = 32  # height kept free at the bottom of a space for its unit tokens
SPACE_CHOICE_PREFIXES = ("at", "declare", "u")  # choice ids "<prefix>:<space>[:<country>]" that name a space
CARD_VERBS = {"play": "Play", "discard": "Discard", "instead": "Use instead", "use": "Use"}
SHORT = {"germany": "G", "uk": "UK", "japan": "J", "ussr": "SU", "italy": "I", "usa": "US"}
PHASES = {"setup": "Opening discards", "turn_start": "Turn start", "action": "Action", "supply": "Supply",
          "dominance": "Victory", "discard": "Discard", "draw": "Draw", "over": "Game over"}


def space_of_choice(choice_id: str, spaces: set[str]) -> str | None:
    """The map space a choice names (a build, battle, deploy or elimination target), if any.

    Voluntary removal ("remove:<space>") is left to the decision panel on purpose: a stray
    click on the map must never take one's own unit off the board."""
    prefix, _, rest = choice_id.partition(":")
    space = rest.split(":", 1)[0]
    if prefix in SPACE_CHOICE_PREFIXES and space in spaces:
        return space
    return None


def card_actions(decision: dict[str, Any] | None) -> dict[str, list[dict[str, str]]]:
    """Card id -> the one-click answers of a single-choice decision that name that card."""
    out: dict[str, list[dict[str, str]]] = {}
    if not decision or decision["max"] != 1:
        return out
    for ch in decision["choices"]:
        verb, sep, card = ch["id"].partition(":")
        if sep and verb in CARD_VERBS:
            out.setdefault(card, []).append({"id": ch["id"], "verb": CARD_VERBS[verb], "label": ch["label"],
                                             "msg": ch.get("msg")})
        elif not sep and "-" in ch["id"]:  # a bare card id ("ussr-03"): pick that card
            out.setdefault(ch["id"], []).append({"id": ch["id"], "verb": "Choose", "label": ch["label"],
                                                 "msg": ch.get("msg")})
    return out


def label_lines(text: str, width: float) -> list[dict[str, Any]]:
    """The label's lines; one that would not fit the shape gets a squeezed length."""
    room = width - 14
    out = []
    for part in text.split("|"):
        part = part.strip()
        out.append({"text": part, "fit": room if len(part) * CHAR_WIDTH > room else None})
    return out


def polish_label(name: str, english_label: str) -> str:
    """The Polish name broken like the English label: where that one takes two lines, at the
    space nearest the middle (the layout's breaks are for the English words)."""
    if "|" not in english_label or " " not in name:
        return name
    middle = len(name) / 2
    cut = min((i for i, ch in enumerate(name) if ch == " "), key=lambda i: abs(i - middle))
    return name[:cut] + "|" + name[cut + 1:]


def _tokens(units: list[dict[str, Any]], x: float, y: float) -> list[dict[str, Any]]:
    start = x - (len(units) - 1) * TOKEN_GAP / 2
    return [{**u, "x": start + i * TOKEN_GAP, "y": y, "short": SHORT.get(u["country"], "?")}
            for i, u in enumerate(units)]


def polish_names() -> dict[str, str]:
    """Each space's Polish name, as the game's catalogue has it (the data pack's name_pl, or our own
    where the rulebook names none)."""
    from app.games.qmg.text import catalogue

    return catalogue().terms["pl"]


def board_context(view: dict[str, Any], seat: str | None) -> dict[str, Any]:
    lay = layout()
    pack = map_pack()
    ids = {s.id for s in pack.spaces}
    width = lay.view_box.width
    decision = view.get("decision")
    targets: dict[str, list[dict[str, str]]] = {}
    if decision and decision["max"] == 1:
        for ch in decision["choices"]:
            sid = space_of_choice(ch["id"], ids)
            if sid:
                targets.setdefault(sid, []).append(ch)
    anchors = {st.anchor: st for st in pack.straits}
    open_to = view.get("straits_open_to") or {}
    units = view.get("board") or {}

    spaces = []
    for s in pack.spaces:
        p = lay.spaces[s.id]
        room = p.w * (0.8 if s.type == "sea" else 1)
        lines = label_lines(p.label or s.name_en, room)
        # the board's words are chosen by the page's language (page.py knows none): both are drawn
        lines_pl = label_lines(polish_label(polish_names().get(s.id, s.name_en), p.label or s.name_en), room)
        here = units.get(s.id, [])
        # tokens sit at the bottom of a box, just under the middle of an ellipse; the label is
        # centred in the room above them (label_y = first line's baseline)
        token_y = p.y + p.h / 2 - TOKEN_ROW / 2 - 4
        if s.type == "sea":
            token_y = p.y + min(p.h / 2 - TOKEN_ROW / 2 - 4, 6 + (len(lines) - 1) * LINE_HEIGHT / 2 + TOKEN_ROW / 2)
        middle = (p.y - p.h / 2 + token_y - TOKEN_ROW / 2) / 2 if here else p.y
        label_y = middle - (len(lines) - 1) * LINE_HEIGHT / 2 + FONT / 3
        spaces.append({
            "id": s.id, "name": s.name_en, "name_pl": s.name_pl, "type": s.type, "supply": s.supply,
            "capital": s.capital, "home": s.home if s.capital else None,
            "x": p.x, "y": p.y, "w": p.w, "h": p.h, "left": p.x - p.w / 2, "top": p.y - p.h / 2,
            "lines": lines, "lines_pl": lines_pl, "label_y": label_y,
            "units": _tokens(here, p.x, token_y),
            "targets": targets.get(s.id, []),
            "strait": anchors[s.id].id if s.id in anchors else None,
        })
    by_id = {s["id"]: s for s in spaces}

    edges, seams, seen = [], [], set()
    for s in pack.spaces:
        for n in s.adjacent:
            key = tuple(sorted((s.id, n)))
            if key in seen:
                continue
            seen.add(key)
            a, b = by_id[key[0]], by_id[key[1]]
            if abs(a["x"] - b["x"]) > width / 2:
                # across the Pacific seam: a stub from each end to its own edge of the map
                for end, other in ((a, b), (b, a)):
                    edge_x = 0 if end["x"] < width / 2 else width
                    seams.append({"x1": end["x"], "y1": end["y"], "x2": edge_x, "y2": end["y"],
                                  "to": other["name"], "to_id": other["id"]})
            else:
                edges.append({"x1": a["x"], "y1": a["y"], "x2": b["x"], "y2": b["y"],
                              "sea": a["type"] == "sea" or b["type"] == "sea"})

    straits = []
    for st in pack.straits:
        anchor, (sea1, sea2) = by_id[st.anchor], (by_id[st.seas[0]], by_id[st.seas[1]])
        straits.append({
            "id": st.id, "name": st.name_en, "open_to": open_to.get(st.id, st.default_open_to),
            "x1": sea1["x"], "y1": sea1["y"], "x2": sea2["x"], "y2": sea2["y"],
            "cx": 2 * anchor["x"] - (sea1["x"] + sea2["x"]) / 2, "cy": 2 * anchor["y"] - (sea1["y"] + sea2["y"]) / 2,
            "mx": anchor["x"], "my": anchor["y"] - anchor["h"] / 2 + 2,
        })

    vp = view.get("vp") or {}
    axis, allies = int(vp.get("axis", 0)), int(vp.get("allies", 0))
    lead = max(-INSTANT_WIN_LEAD, min(INSTANT_WIN_LEAD, axis - allies))
    mine = set(view.get("your_countries") or [])
    actions = card_actions(decision)
    countries = []
    for c in COUNTRIES:
        info = (view.get("countries") or {}).get(c, {})
        countries.append({
            "id": c, "title": COUNTRY_TITLE[c], "team": "axis" if c in AXIS else "allies", "mine": c in mine,
            "active": view.get("active") == c, "info": info,
            "hand": [{**card, "actions": actions.get(card["id"], [])} for card in info.get("hand") or []],
            "responses": [{**card, "actions": actions.get(card["id"], [])} for card in info.get("responses") or []],
            "statuses": [{**card, "actions": actions.get(card["id"], [])} for card in info.get("statuses") or []],
        })
    return {
        "width": width, "height": lay.view_box.height,
        "spaces": spaces, "edges": edges, "seams": seams, "straits": straits,
        "decision": decision, "has_targets": bool(targets), "line_height": LINE_HEIGHT,
        "target_count": sum(len(v) for v in targets.values()),
        "countries": countries, "mine": [c for c in countries if c["mine"]],
        "round": view.get("round"), "rounds": ROUNDS, "phase": PHASES.get(str(view.get("phase")), view.get("phase")),
        "active": view.get("active"), "active_title": COUNTRY_TITLE.get(str(view.get("active")), ""),
        "vp": {"axis": axis, "allies": allies, "lead": lead, "limit": INSTANT_WIN_LEAD,
               # the marker on the tug-of-war bar, 0 % = Allies win at once, 100 % = Axis win at once
               "pos": 50 + 50 * lead / INSTANT_WIN_LEAD},
        "in_play": view.get("in_play") or [],
        "hand_on_board": bool(mine),
        "own_zoom": True,  # only the map pans and zooms (the table's zoom frame would crop the cards)
    }
