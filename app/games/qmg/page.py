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
# one stacked piece per country and kind: at the desktop table's default zoom (the 2000-unit map
# about 1,130 px wide) 54 x 50 units is a piece of about 30 x 28 px, large enough to read and to tap
PIECE_W = 54
PIECE_H = 50
PIECE_GAP = 6
SPACE_CHOICE_PREFIXES = ("at", "declare", "u")  # choice ids "<prefix>:<space>[:<country>]" that name a space
CARD_VERBS = {"play": "Play", "discard": "Discard", "instead": "Use instead", "use": "Use"}
SHORT = {"germany": "G", "uk": "UK", "japan": "J", "ussr": "SU", "italy": "I", "usa": "US"}
SETUP_HAND_KEPT = 7  # rulebook: each country keeps 7 of its 10 opening cards
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


def stacks(units: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One stack per country and kind, in turn order: two countries' navies in one sea are two
    pieces side by side, each with its count, never one drawn over the other."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for u in units:
        key = (u["country"], u["kind"])
        if key not in out:
            out[key] = {"country": u["country"], "kind": u["kind"], "count": 0, "protected": False}
        out[key]["count"] += 1
        out[key]["protected"] = out[key]["protected"] or bool(u.get("protected"))
    order = {c: i for i, c in enumerate(COUNTRIES)}
    return sorted(out.values(), key=lambda st: (order.get(st["country"], 99), st["kind"]))


def place_stacks(units: list[dict[str, Any]], x: float, bottom: float, width: float) -> list[dict[str, Any]]:
    """The stacks of one space in rows centred on ``x``, the first row's centre at ``bottom``,
    further rows above it; as many per row as the space is wide (at least one)."""
    per_row = max(1, int((width + PIECE_GAP) // (PIECE_W + PIECE_GAP)))
    piles = stacks(units)
    out = []
    for i, st in enumerate(piles):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(piles) - row * per_row)
        start = x - (in_row - 1) * (PIECE_W + PIECE_GAP) / 2
        out.append({**st, "x": start + col * (PIECE_W + PIECE_GAP), "y": bottom - row * (PIECE_H + PIECE_GAP),
                    "short": SHORT.get(st["country"], "?")})
    return out


def signature(units: list[dict[str, Any]]) -> str:
    """What stands in a space, as one string: the page marks a space whose signature changed
    since the previous push (the last move, and what the game did by itself)."""
    return " ".join(f"{st['country']}.{st['kind']}.{st['count']}{'p' if st['protected'] else ''}"
                    for st in stacks(units))


def waiting_countries(view: dict[str, Any]) -> list[str]:
    """The countries the game waits on now, from the public view: in the opening discards the
    waiting seat's countries that still hold all ten cards (not the first country of the turn
    order, which is what ``active`` says before the first turn); later the active country."""
    waiting = view.get("waiting_for") or {}
    countries = view.get("countries") or {}
    if view.get("phase") == "setup":
        seat = waiting.get("seat")
        return [c for c in COUNTRIES if (countries.get(c) or {}).get("seat") == seat
                and int((countries.get(c) or {}).get("hand_count") or 0) > SETUP_HAND_KEPT][:1]
    return [str(view["active"])] if view.get("active") else []


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
        # pieces sit on the bottom edge of a box (half over it, so a two-line name keeps its room)
        # and low in an ellipse; the name is centred in the room above the pieces, wherever they
        # stand (label_y = first line's baseline), so it never moves when a piece comes or goes
        token_y = p.y + p.h / 2 - PIECE_H / 2 + 12
        if s.type == "sea":
            token_y = p.y + p.h / 2 - PIECE_H / 2 - max(4.0, p.h * .12)
        room_bottom = token_y - PIECE_H / 2
        middle = max(p.y - p.h / 2 + FONT, (p.y - p.h / 2 + room_bottom) / 2 + 2)
        label_y = middle - (len(lines) - 1) * LINE_HEIGHT / 2 + FONT / 3
        spaces.append({
            "id": s.id, "name": s.name_en, "name_pl": s.name_pl, "type": s.type, "supply": s.supply,
            "capital": s.capital, "home": s.home if s.capital else None,
            "x": p.x, "y": p.y, "w": p.w, "h": p.h, "left": p.x - p.w / 2, "top": p.y - p.h / 2,
            "lines": lines, "lines_pl": lines_pl, "label_y": label_y,
            "units": place_stacks(here, p.x, token_y, p.w * (0.85 if s.type == "sea" else 1)),
            "sig": signature(here),
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
    handled = [ch["id"] for chs in targets.values() if len(chs) == 1 for ch in chs]
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
        # the bar reads "Axis [....|....] Allies": the marker moves toward the side that leads,
        # 0 % = an Axis lead of 30 (Axis win at once), 100 % = the same for the Allies
        "vp": {"axis": axis, "allies": allies, "lead": lead, "limit": INSTANT_WIN_LEAD,
               "pos": 50 - 50 * lead / INSTANT_WIN_LEAD},
        "waiting": waiting_countries(view), "setup": view.get("phase") == "setup",
        # choices the board answers itself (a space with one answer, a card's own buttons): the
        # prompt bar leaves them out and keeps its buttons for the rest
        "handled": handled + [a["id"] for acts in actions.values() for a in acts],
        "picks": picks_on_cards(decision, mine, view),
        "in_play": view.get("in_play") or [],
        "hand_on_board": bool(mine),
        "own_zoom": True,  # only the map pans and zooms (the table's zoom frame would crop the cards)
        # the table page renders the board in parts: the map's geometry once, in the page; the
        # pieces, targets, strip and hand as small fragments of their own, pushed when they change
        "parts": True,
    }


def picks_on_cards(decision: dict[str, Any] | None, mine: set[str], view: dict[str, Any]) -> list[str]:
    """A multi-pick decision (opening discards, pick 3) whose choices are cards in this seat's
    hands: those cards toggle the choice (their boxes stay in the prompt bar's form)."""
    if not decision or (decision["min"] == 1 and decision["max"] == 1):
        return []
    held = {card["id"] for c in mine for card in ((view.get("countries") or {}).get(c) or {}).get("hand") or []}
    return [ch["id"] for ch in decision["choices"] if ch["id"] in held]
