"""Autarcha's table page, rendered from real views: the printed board (grid, crossing numbers,
terrain, roads and rails, areas with their gold, deployment lines) drawn once in the page and the live
layers pushed on their own; units as oriented tokens; the seat's own mines only; the lid over the other
half; the squares and units the seat's own decision names become clickable (with an arrow per facing);
English and Polish without a missing entry.

No server: the page layer's Jinja environment renders the game's board template (found through
``GAME.package.board``) with the context the table page gives it (tests/games/autarcha/page_kit.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.games.autarcha import GAME, page
from app.games.autarcha.pack import TERRAINS, pack, square_id
from app.games.secrets import leaks
from tests.games.autarcha.page_kit import ask, dealt, render

HERE = Path(__file__).resolve().parents[3] / "app" / "games" / "autarcha"
RULES, TEMPLATES = HERE / "rules", HERE / "templates"


def unit_group(html: str, uid: str) -> str:
    start = html.index(f'data-unit="{uid}"')
    return html[html.rindex("<g", 0, start):html.index("</title>", start)]


def free_square(state: Any, row: int) -> str:
    """A square of ``row`` (or the first row north of it that has one) with no unit, on open ground."""
    data = pack()
    taken = state.occupied()
    for r in range(row, data.board.rows):
        for c in range(data.board.cols):
            if square_id((r, c)) not in taken and data.board.terrain[r][c] == "ground":
                return square_id((r, c))
    raise AssertionError(f"no free square from row {row}")


# ---------------------------------------------------------------------- the printed board
def test_the_grid_has_thick_lines_every_two_squares_and_the_crossing_numbers_on_its_edges() -> None:
    """U-3.1.3-3.2.1: big squares of 2 x 2 small squares; the crossings numbered LL (20) and OO (15)."""
    b = page.printed_board(False)
    assert b["width"] == 30 * page.CELL + 2 * page.MARGIN and b["height"] == 40 * page.CELL + 2 * page.MARGIN
    assert [x["text"] for x in b["lat_labels"]] == [f"{k:02d}" for k in range(1, 21)]
    assert [x["text"] for x in b["lon_labels"]] == [f"{k:02d}" for k in range(1, 16)]
    assert b["thick"].count("M") == 20 + 15 and b["thin"].count("M") == 21 + 16
    html = render(dealt(), "white")
    assert html.count('class="au-lat"') == 20 and html.count('class="au-lat r"') == 20
    assert html.count('class="au-lon"') == 30


def test_terrain_roads_rails_areas_and_the_deployment_lines_are_drawn() -> None:
    data = pack()
    b = page.printed_board(False)
    drawn = {t["t"] for t in b["terrain"]}
    assert drawn == {"water", "forest", "mountains", "city"}
    covered = sum(t["w"] * t["h"] for t in b["terrain"]) / page.CELL ** 2
    assert covered == sum(1 for row in data.board.terrain for t in row if t != "ground")
    assert b["roads"].count("M") == sum(len(d) for row in data.board.roads for d in row)
    assert b["rails"].count("M") == sum(len(d) for row in data.board.rails for d in row)
    assert sorted(a["id"] for a in b["areas"]) == sorted(data.areas)
    assert [(x["side"], x["line"]) for x in b["lines"]] == [("A", "07"), ("B", "14")]
    html = render(dealt(), "white")
    for a in data.areas.values():
        assert f"{a.name} · {a.gold}" in html
    for c in data.cities.values():
        assert c.name in html


def test_the_printed_board_is_drawn_once_and_a_push_carries_only_the_live_layers() -> None:
    """Lean pushes: the terrain, tracks and grid are in the page once (part "map"); a push (part "push")
    is the strip, the marks, the pieces, the targets and the seats, each a fragment with its own id."""
    st = dealt()
    full = render(st, "white", part="map")
    push = render(st, "white", part="push")
    assert 'class="au-map' in full and "au-terrain" in full
    for marker in ('class="au-map', "au-terrain", "au-roads", "au-grid-thick", "au-lat"):
        assert marker not in push, marker
    for fid in ("au-strip", "au-marks", "au-pieces", "au-targets", "au-seats"):
        assert re.search(rf'id="{fid}"[^>]*hx-swap-oob="true"', push), fid
    assert len(push) < len(full) / 2
    assert GAME.package.board is not None
    ctx = page.board_context(GAME.view(st, "white"), "white")
    assert ctx["parts"] and ctx["own_zoom"]


# ---------------------------------------------------------------------- pieces
def test_units_are_oriented_tokens_with_their_side_kind_letter_and_hits() -> None:
    """U-7.1.3: the facing is visible: the token's notch is turned towards it (N up for white; the board
    is turned half a circle for red, so its own side is at the bottom)."""
    st = dealt()
    w = st.units_of("white")[1]
    r = st.hq("red")
    assert r is not None
    st.units[w].update(facing="E", hits=0)
    st.units[r].update(facing="SW", hits=2)
    white = render(st, "white")
    g = unit_group(white, w)
    assert 's-white' in g and 'data-facing="E"' in g and "rotate(90)" in g and ">I</text>" in g
    g = unit_group(white, r)
    assert "s-red" in g and "rotate(225)" in g and ">HQ</text>" in g and 'class="au-hits"' in g and ">2<" in g
    red = render(st, "red")
    assert "rotate(270)" in unit_group(red, w) and "rotate(45)" in unit_group(red, r)
    # each seat's own side at the bottom
    wy = {s: float(re.search(r"translate\([\d.]+,([\d.]+)\)", unit_group(render(st, s), w)).group(1))
          for s in ("white", "red")}
    assert wy["white"] > page.printed_board(False)["height"] / 2 > wy["red"]


def test_a_seat_sees_its_own_mines_and_never_the_other_seats() -> None:
    """U-11.2.4: mines are secret; the board draws the view's ``mines`` (the seat's own, with each mine's
    id beside its square) and nothing else; a square the other seat mined is not named anywhere in the
    page (no unit stands there)."""
    st = dealt()
    mine_w, mine_r = free_square(st, 18), free_square(st, 20)
    st.mines = {"white": [{"id": "mine-white-1", "sq": mine_w, "call": "fire"}],
                "red": [{"id": "mine-red-1", "sq": mine_r, "call": "hold"}]}
    for seat, own, other in (("white", mine_w, mine_r), ("red", mine_r, mine_w)):
        html = render(st, seat)
        assert other not in html and f"mine-{seat}-1" in html and f'data-square="{own}"' in html
        assert GAME.secrets(st, seat) and not leaks(html, GAME.secrets(st, seat))
        ctx = page.board_context(GAME.view(st, seat), seat)
        assert [m["sq"] for m in ctx["mines"]] == [own]
    view = GAME.view(st, None)
    assert page.board_context(view, None)["mines"] == []


def test_the_lid_covers_the_other_sides_half_while_it_stands() -> None:
    """U-4.1: behind the lid each side sees only its own half (the other's half is covered)."""
    st = dealt()
    view = GAME.view(st, "white")
    view["lid"] = True
    ctx = page.board_context(view, "white")
    assert [c["side"] for c in ctx["lid"]["covered"]] == ["B"]
    top = page.printed_board(False)["top"]
    assert ctx["lid"]["covered"][0]["y"] == top  # the north of the board, above line 14
    red = page.board_context({**view, "lid": {"up": True}}, "red")
    assert [c["side"] for c in red["lid"]["covered"]] == ["A"]
    assert page.board_context({**view, "lid": {"up": False}}, "white")["lid"] is None
    assert page.board_context({**view, "lid": None}, "white")["lid"] is None


# ---------------------------------------------------------------------- answering on the board
def test_the_squares_a_decision_names_are_clickable_with_an_arrow_per_facing() -> None:
    st = dealt()
    u = st.units_of("white")[1]
    sq = st.units[u]["sq"]
    far = free_square(st, 4)
    ask(st, "white", "walk", [f"{sq}@N", f"{sq}@NE", f"{far}@N", "stay"])
    html = render(st, "white")
    assert html.count('class="au-square target"') == 2
    here = html[html.index(f'data-square="{sq}" data-cx'):]
    assert f'data-choices="{sq}@N {sq}@NE"' in here[:400] and f'data-facings="{sq}@N:0 {sq}@NE:45"' in here[:400]
    ctx = page.board_context(GAME.view(st, "white"), "white")
    assert set(ctx["handled"]) == {f"{sq}@N", f"{sq}@NE", f"{far}@N"}  # "stay" stays in the prompt bar
    assert 'id="au-map-form"' in html
    assert "au-target-svg" not in render(st, "red")  # never for the other seat


def test_unit_choices_make_the_units_clickable_and_plain_squares_answer_at_once() -> None:
    st = dealt()
    a, b = st.units_of("white")[:2]
    target = free_square(st, 30)
    ask(st, "white", "move", [f"unit:{a}", f"unit:{b}", target, "end"])
    html = render(st, "white")
    assert html.count('class="au-unit-pick target"') == 2 and f'data-choice="unit:{a}"' in html
    assert f'data-choices="{target}"' in html and "data-facings" not in html
    assert "choose_on_board" not in html


def test_the_step_cost_is_shown_where_the_view_gives_it() -> None:
    st = dealt()
    u = st.units_of("white")[1]
    sq = st.units[u]["sq"]
    ask(st, "white", "walk", [f"{sq}@N", f"{sq}@E"])
    view = GAME.view(st, "white")
    view["routes"] = {f"{sq}@N": {"steps": 0}, f"{sq}@E": 2}
    ctx = page.board_context(view, "white")
    assert [s["steps"] for s in ctx["squares"]] == [0]


def test_a_view_with_nonsense_in_it_draws_what_makes_sense_and_never_fails() -> None:
    st = dealt()
    view = GAME.view(st, "white")
    view["units"]["bad"] = {"seat": "white", "kind": "XX", "sq": "99.99.NW", "facing": "Q"}
    view["units"]["odd"] = {"seat": "red", "kind": "PIE", "sq": "01.01.NE", "facing": "Q", "hits": None}
    view["destroyed"] = {"zz": ["road"], "02.02.NW": ["forest"]}
    view["mines"] = ["nowhere", {"sq": 5}, {"id": "m1", "sq": "02.02.NE"}]
    view["decisions"] = [{"id": "x", "kind": "walk", "max": 1, "min": 1,
                          "choices": [{"id": "41.01.NW@N", "label": "?"}, {"id": "01.01.NW@Z", "label": "?"}]}]
    ctx = page.board_context(view, "white")
    assert [u["id"] for u in ctx["units"] if u["id"] in ("bad", "odd")] == ["odd"]
    assert ctx["units"][-1]["facing"] == "N" or all(u["facing"] != "Q" for u in ctx["units"])
    assert [d["sq"] for d in ctx["destroyed"]] == ["02.02.NW"] and [m["sq"] for m in ctx["mines"]] == ["02.02.NE"]
    assert ctx["squares"] == []


# ---------------------------------------------------------------------- languages, rules, cards
def test_the_board_reads_in_english_and_polish_without_a_missing_entry(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    from app import i18n

    record = tmp_path / "misses.tsv"
    monkeypatch.setenv(i18n.MISSES_ENV, str(record))
    monkeypatch.setattr(i18n, "_missed", set())
    i18n.record_misses()
    try:
        st = dealt()
        u = st.units_of("white")[0]
        st.destroyed = {"02.02.NW": ["forest", "road"]}
        st.damage = {"03.03.NW": {"city": 2}}
        st.control = {a: None for a in pack().areas} | {"south_pass": "white"}
        st.war = ["north_pass"]
        ask(st, "white", "walk", [f"{st.units[u]['sq']}@N", f"{st.units[u]['sq']}@E", "stay"])
        for lang in ("en", "pl"):
            for seat in ("white", "red", None):
                for part in (None, "push", "hand", "side"):
                    html = render(st, seat, lang, part=part)
                    assert "board_" not in html and "kind_" not in html and "scenario_" not in html, (lang, seat)
        polish = render(st, "white", "pl")
        for word in ("Tura", "Ruchy", "Potyczka", "Biały", "Przełęcz Południowa", "Złoto", "Sudogród"):
            assert word in polish, word
    finally:
        monkeypatch.delenv(i18n.MISSES_ENV)
        i18n.record_misses()
    rows = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    assert rows == []


def test_the_rules_reference_has_the_same_sections_in_both_languages_and_the_board_links_exist() -> None:
    ids = {lang: re.findall(r'<section id="([\w-]+)">', (RULES / f"{lang}.html").read_text(encoding="utf-8"))
           for lang in ("en", "pl")}
    assert ids["en"] == ids["pl"] and len(ids["en"]) >= 18
    linked = set(re.findall(r'rule\("([\w-]+)"', (TEMPLATES / "board.html").read_text(encoding="utf-8")))
    assert linked and linked <= set(ids["en"]), linked - set(ids["en"])
    for lang in ("en", "pl"):
        text = (RULES / f"{lang}.html").read_text(encoding="utf-8")
        assert set(re.findall(r'href="#([\w-]+)"', text)) <= set(ids[lang])


def test_the_card_list_is_the_troops_table_and_the_defence_table_in_both_languages() -> None:
    from app.games.autarcha import reference

    data = pack()
    for lang, word in (("en", "Durability"), ("pl", "Wytrzymałość")):
        entries = reference.cards(lang)
        assert [e.key for e in entries] == [*data.troops, *(f"tso-{t}" for t in TERRAINS if t in data.defence)]
        assert all(word in e.text for e in entries if e.key in data.troops)
    pie = next(e for e in reference.cards("en") if e.key == "PIE")
    assert "Cost: 3 gold" in pie.text and "water 1" in pie.text
    psz = next(e for e in reference.cards("en") if e.key == "PSZ")
    assert "water –" in psz.text  # "–": the HQ may not be in water


def test_the_printed_board_names_no_square_so_it_can_never_carry_a_secret_one() -> None:
    """The page's one big fragment is the same for every table and seat: no square id is in it (a mine's
    square could only come through the live layers, which draw the view alone)."""
    st = dealt()
    st.mines = {"white": [{"id": "mine-white-1", "sq": free_square(st, 18), "call": "fire"}],
                "red": [{"id": "mine-red-1", "sq": free_square(st, 22), "call": "fire"}]}
    for seat in ("white", "red", None):
        html = render(st, seat, part="map")
        start = html.index('<svg class="au-map')
        printed = html[start:html.index("</svg>", start)]
        assert "au-terrain" in printed and not re.search(r"\d\d\.\d\d\.(NW|NE|SW|SE)", printed)
    assert page.printed_board(False) is page.printed_board(False)  # drawn once per pack and orientation


def test_behind_the_lid_a_seat_sees_its_own_placements_and_the_other_half_covered() -> None:
    """U-4.1: while the lid stands each side's board shows its own placements as pieces and the other
    half covered; the other side's squares are in no part of the page (the value-level check)."""
    from tests.games.autarcha.econ_kit import Table

    table = Table("skirmish")
    for _ in range(3):  # three simultaneous steps: three units behind each side of the lid
        for seat in ("white", "red"):
            d = table.one(seat, "deploy")
            table.answer(seat, d.choice_ids()[0], kind="deploy")
    st = table.state
    screen = st.setup["screen"]
    for seat, other in (("white", "red"), ("red", "white")):
        html = render(st, seat)
        assert 'class="au-lid' in html
        for uid, sq in screen[seat].items():
            assert f'data-unit="{uid}" data-square="{sq}"' in html
        assert not any(f'data-unit="{uid}"' in html for uid in screen[other])
        assert GAME.secrets(st, seat) and not leaks(html, GAME.secrets(st, seat))


def test_a_walk_shows_each_reachable_square_with_its_step_cost() -> None:
    """The squares a selected unit can reach are lit on the board with the steps each costs (the cheapest
    route's, movement.destinations); the other seat's board shows none of it."""
    from app.games.autarcha import engine, movement
    from tests.games.autarcha.econ_kit import ctx

    st = dealt()
    unit = next(u for u in st.units_of(st.active) if movement.can_move(st, u))
    st.stack.append({"k": "walk", "unit": unit, "may_skip": False})
    engine.run(ctx(st))
    routes = movement.destinations(st, unit)
    html = render(st, st.active)
    shown = re.findall(r'class="au-steps"[^>]*>(\d+)<', html)
    assert shown and len(shown) == len({k.partition("@")[0] for k in routes})
    assert sorted(map(int, shown))[0] == min(r.steps for r in routes.values())
    assert 'class="au-steps"' not in render(st, st.other(st.active))
