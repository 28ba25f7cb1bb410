"""The QMG table in parts (issue 9): what a push carries, the pieces' stacks, the VP bar, the turn
strip in the opening discards, and the status line that never waits on oneself.

No server: the page layer's Jinja environment renders the table's fragments (panels_oob.html, the
same template a push and an answer send) from a context shaped like ``table_context``'s.
"""

from __future__ import annotations

import random
import re
from typing import Any

from app.api.templating import board_extras, board_template, templates, view_sections
from app.games.qmg import GAME
from app.games.qmg.page import PIECE_GAP, PIECE_W, board_context, place_stacks, stacks
from app.games.qmg.state import GameState
from app.sessions.views import decision_payload
from tests.games.qmg_web.test_qmg_board_page import decision_state, new_game


def table_ctx(state: GameState, seats: list[Any], seat: str | None, names: dict[str, str]) -> dict[str, Any]:
    """What table_context gives the panels, for ``seat`` (None: a spectator)."""
    view = GAME.view(state, seat)
    pending = [decision_payload(d) for d in GAME.pending(state) if d.seat == seat]
    waiting = {d.seat for d in GAME.pending(state) if not d.optional}
    hand, _private, _not_public = view_sections("qmg", view)
    extras = board_extras("qmg", view, seat)
    return {
        "match_id": "m-1", "game_id": "qmg", "game_title": "Quartermaster General WW2", "mode": "live",
        "status": "active", "seq": 9, "you": seat, "signed_in": True, "host": False, "invite": "", "csrf": "tok",
        "seats": [{"seat": s.id, "label": s.label, "player": names[s.id], "bot": None, "you": s.id == seat,
                   "waiting": s.id in waiting, "resigned": False, "taken": True, "clock": "", "timed_out": False,
                   "vacation": None, "extra": {}} for s in seats],
        "columns": [], "waiting_labels": [s.label for s in seats if s.id in waiting], "outcome": None,
        "view": view, "pending": pending, "log": [], "my_turn": any(not d["optional"] for d in pending),
        "hand": hand, "hand_decision": None, "hand_choices": set(), "private": [], "public": [],
        "board_template": board_template("qmg"), "board_ctx": extras,
        "hand_on_board": bool(extras.get("hand_on_board")),
        "chat": [], "can_chat": True, "can_undo": False, "can_resign": True, "can_reclaim": False,
        "has_history": True, "moves_waiting": 0, "engine_warning": None,
    }


def push(ctx: dict[str, Any]) -> str:
    return templates.env.get_template("panels_oob.html").render(**ctx, flash="", with_flash=False)


def page(ctx: dict[str, Any]) -> str:
    panels = templates.env.get_template("_panels.html").make_module(ctx)
    return str(panels.board_panel())


def top_level_tags(html: str) -> list[str]:
    """The opening tags at the top of a fragment list (depth 0), void elements aside."""
    tags, depth = [], 0
    for m in re.finditer(r"<(/?)([a-zA-Z][\w-]*)([^>]*?)(/?)>", html):
        closing, name, attrs, self_closing = m.groups()
        if name.lower() in ("input", "br", "img", "meta", "link", "hr"):
            continue
        if closing:
            depth -= 1
        else:
            if depth == 0:
                tags.append(m.group(0))
            if not self_closing:
                depth += 1
    return tags


def test_a_push_is_a_flat_list_of_fragments_each_with_its_own_id_and_no_map_geometry() -> None:
    seats, state = new_game(2, seed=5)
    names = {s.id: f"Name {s.id}" for s in seats}
    for seat in [s.id for s in seats] + [None]:
        html = push(table_ctx(state, seats, seat, names))
        tags = top_level_tags(html)
        ids = [re.search(r'\bid="([^"]+)"', tag) for tag in tags]
        assert all(ids), [t for t, i in zip(tags, ids, strict=True) if not i]
        assert all('hx-swap-oob="true"' in tag for tag in tags)
        found = [i.group(1) for i in ids if i]
        assert len(found) == len(set(found)), "two fragments with one id"
        assert {"status", "prompt", "seats", "log", "qmg-round", "qmg-vp", "qmg-turn", "qmg-targets", "units-germany",
                "qmg-country-uk"} <= set(found)
        if seat:  # one's own cards, a fragment per country, and the small form they answer through
            assert {"qmg-hand-form", "qmg-hand-germany" if seat == "p1" else "qmg-hand-uk"} <= set(found)
        else:
            assert not [f for f in found if f.startswith("qmg-hand")]
        # the map's shapes, edges and names are drawn once in the page, never pushed
        assert 'class="qmg-map"' not in html and 'class="edge' not in html and 'class="name"' not in html
        assert 'class="qmg-map"' in page(table_ctx(state, seats, seat, names))


def test_each_space_is_its_own_small_fragment() -> None:
    seats, state = new_game(3, seed=2)
    html = push(table_ctx(state, seats, "p1", {s.id: s.id for s in seats}))
    layers = re.findall(r'<svg class="qmg-layer qmg-units" id="units-(\w+)".*?</svg>', html, re.S)
    assert len(layers) == 52
    germany = re.search(r'<svg class="qmg-layer qmg-units" id="units-germany".*?</svg>', html, re.S)
    assert germany and len(germany.group(0)) < 800
    assert 'data-sig="germany.army.1"' in germany.group(0)


def test_two_countries_in_one_sea_get_one_stack_each_with_its_count_side_by_side() -> None:
    units = [{"country": "uk", "kind": "navy", "protected": False},
             {"country": "germany", "kind": "navy", "protected": False},
             {"country": "uk", "kind": "navy", "protected": True}]
    piles = stacks(units)
    assert [(p["country"], p["count"], p["protected"]) for p in piles] == [("germany", 1, False), ("uk", 2, True)]
    placed = place_stacks(units, x=500, bottom=300, width=200)
    assert len(placed) == 2
    a, b = sorted(placed, key=lambda p: p["x"])
    assert b["x"] - a["x"] >= PIECE_W + PIECE_GAP and a["y"] == b["y"]  # never one over the other


def test_a_narrow_space_stacks_its_countries_in_rows() -> None:
    units = [{"country": c, "kind": "army", "protected": False} for c in ("germany", "italy", "ussr")]
    placed = place_stacks(units, x=100, bottom=200, width=PIECE_W + 10)
    assert len({(p["x"], p["y"]) for p in placed}) == 3
    assert len({p["y"] for p in placed}) == 3


def test_the_vp_marker_moves_toward_the_side_that_leads() -> None:
    seats, state = new_game(2, seed=1)
    view = GAME.view(state, None)
    for axis, allies, side in ((12, 2, "axis"), (3, 20, "allies"), (5, 5, "even")):
        view["vp"] = {"axis": axis, "allies": allies}
        pos = board_context(view, None)["vp"]["pos"]
        # the bar reads "Axis [....] Allies": an Axis lead is left of the middle
        assert {"axis": pos < 50, "allies": pos > 50, "even": pos == 50}[side], (axis, allies, pos)
    view["vp"] = {"axis": 40, "allies": 0}
    assert board_context(view, None)["vp"]["pos"] == 0  # a lead of 30 or more: at the Axis end


def test_the_turn_strip_names_whom_the_opening_discards_wait_for() -> None:
    seats, state = new_game(2, seed=4)
    rng = random.Random(4)
    d = GAME.pending(state)[0]
    GAME.apply(state, d.seat, GAME.bot(state, d, rng), rng)  # Germany has discarded: the UK's turn to
    waiting = GAME.pending(state)[0]
    assert waiting.kind == "setup_discard" and "United Kingdom" in waiting.prompt
    for seat in ("p1", "p2", None):
        html = push(table_ctx(state, seats, seat, {"p1": "Ala", "p2": "Bob"}))
        turn = re.search(r'<div class="qmg-turn"[^>]*>(.*?)</div>', html, re.S)
        assert turn and "United Kingdom" in turn.group(1) and "Germany" not in turn.group(1)


def test_the_status_never_waits_on_oneself() -> None:
    seats, state = decision_state("action")
    d = GAME.pending(state)[0]
    names = {s.id: f"Name {s.id}" for s in seats}
    mine = push(table_ctx(state, seats, d.seat, names))
    status = re.search(r'<section id="status".*?</section>', mine, re.S)
    assert status and "your move" in status.group(0) and names[d.seat] not in status.group(0)
    assert "Waiting on" not in status.group(0)
    assert 'data-my-turn="1"' in mine
    other = next(s.id for s in seats if s.id != d.seat)
    theirs = push(table_ctx(state, seats, other, names))
    status = re.search(r'<section id="status".*?</section>', theirs, re.S)
    assert status and f"Waiting on: {names[d.seat]}" in status.group(0) and names[other] not in status.group(0)
    prompt = re.search(r'<section id="prompt"[^>]*>', theirs)
    assert prompt and 'data-my-turn="0"' in prompt.group(0)
    # who the game waits on, in the bar's line (an element of its own: a move sends that alone)
    line = re.search(r'<span id="prompt-waiting">(.*?)</p>', theirs, re.S)
    assert line and f"Waiting for {names[d.seat]}" in line.group(1)


def test_cards_answer_the_action_and_the_bar_keeps_only_the_other_buttons() -> None:
    seats, state = decision_state("action")
    d = GAME.pending(state)[0]
    html = push(table_ctx(state, seats, d.seat, {s.id: s.id for s in seats}))
    form = re.search(r'<form class="qmg-hand-form"[^>]*id="qmg-hand-form"[^>]*hx-swap-oob="true"', html)
    assert form
    for ch in d.choices:
        if ch.id.startswith("play:"):
            assert re.search(rf'<button class="qmg-card-face" type="submit" form="qmg-hand-form" name="choice" '
                             rf'value="{ch.id}"', html)
        if ch.id.startswith("discard:"):
            assert re.search(rf'<button class="qmg-card-alt discard" type="submit" form="qmg-hand-form" name="choice" '
                             rf'value="{ch.id}"', html)
    bar = re.search(r'<section id="decisions".*?</section>', html, re.S)
    assert bar and "play:" not in bar.group(0) and "discard:" not in bar.group(0)


def test_a_pick_of_cards_toggles_the_boxes_kept_in_the_prompt_bar() -> None:
    seats, state = new_game(2, seed=6)
    d = GAME.pending(state)[0]
    assert d.kind == "setup_discard"
    html = push(table_ctx(state, seats, d.seat, {s.id: s.id for s in seats}))
    form = re.search(r'<form class="decision"[^>]*id="answer-[^"]+" hx-preserve="true".*?</form>', html, re.S)
    assert form, "the multi-pick form is not preserved across pushes"
    boxes = dict(re.findall(r'id="(pick-[^"]+)" name="choices" value="([^"]+)"', form.group(0)))
    assert len(boxes) == 10
    for box, card in boxes.items():
        assert re.search(rf'<li class="qmg-card [^"]*" id="qmg-card-{card}" data-card="{card}">\s*'
                         rf'<label class="qmg-card-face pick" for="{box}"', html), card


def test_a_table_abandoned_before_its_game_began_draws_no_board() -> None:
    seats, state = new_game(2, seed=1)
    ctx = table_ctx(state, seats, "p1", {"p1": "Ala", "p2": "Bob"})
    ctx.update(status="abandoned", view={}, board_ctx={}, pending=[], hand=[], hand_on_board=False, my_turn=False)
    html = page(ctx) + push(ctx)  # the page's board and a push: no view, no board template, no error
    assert 'id="board" class="panel board hidden' in html and "qmg-map" not in html


def test_a_card_and_the_maps_keys_link_to_the_rules_they_are_about() -> None:
    seats, state = decision_state("action")
    d = GAME.pending(state)[0]
    ctx = table_ctx(state, seats, d.seat, {s.id: s.id for s in seats})
    html = push(ctx)
    hand = [c["id"] for c in (ctx["view"]["countries"][ctx["board_ctx"]["mine"][0]["id"]].get("hand") or [])]
    assert hand
    for card_id in hand:  # every card in the hand: its entry in the card list
        assert f'<a class="qmg-card-rule" href="/games/qmg/cards#card-{card_id}"' in html
    legend = str(templates.env.get_template("_panels.html").make_module(ctx).board_side_panel())  # beside the map
    for anchor in ("units", "supply", "straits"):  # the map's keys: their sections of the rules
        assert f'href="/games/qmg/rules#{anchor}"' in legend
