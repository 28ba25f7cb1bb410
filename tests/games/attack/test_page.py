"""The Attack! board template, rendered from real views on a staged map: every seat and a spectator,
in English and Polish, without a missing catalogue entry and without another seat's hidden
Economics card (its id or its name) in the HTML; the pending decision's region choices become
clickable regions; a land battle shows each half-round's dice, hits and casualties; a naval
battle its lines and duels.

No server: the page layer's Jinja environment renders the game's board template (found through
``GAME.package.board``) with the context the table page gives it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from app.api.templating import board_extras, board_template, templates
from app.games.attack import GAME, engine, page
from app.games.attack.engine import Ctx
from app.games.attack.pack import Lane, Map, Region, SeaZone, pack, register_map
from app.games.attack.state import GameState
from app.games.attack.text import say
from app.i18n import use_lang
from app.sessions.views import decision_payload

G = "attack"
CSRF = "csrf-token-123"
CARD_ID = re.compile(r"\bec-\d{3}\b")
RULES = Path(__file__).resolve().parents[3] / "app" / "games" / "attack" / "rules"
TEMPLATES = Path(__file__).resolve().parents[3] / "app" / "games" / "attack" / "templates"
MAP_KEY = "test_page"


def region(rid: str, lon: float, lat: float, continent: str = "eurasia") -> Region:
    return Region(id=rid, name=rid.title(), name_pl=rid.title(), continent=continent, lon=lon, lat=lat)


def staged_map() -> Map:
    """Ukraine and its neighbours, Britain across the North Sea (anchored), Morocco by a lane,
    Brazil far west: the frame must hold both the Americas and the Urals."""
    m = Map.build(MAP_KEY,
                  [region("ukraine", 32, 49), region("poland", 20, 52), region("romania", 25, 45.5),
                   region("germany", 10, 51), region("britain", -2, 53), region("spain", -4, 40),
                   region("morocco", -6, 32, "africa"), region("brazil", -50, -10, "south_america")],
                  [("ukraine", "poland"), ("ukraine", "romania"), ("poland", "germany"), ("poland", "romania")],
                  lanes=[Lane("spain", "morocco"), Lane("brazil", "morocco")],
                  zones=[SeaZone(id="north_sea", name="North Sea", name_pl="Morze Północne", anchored=True,
                                 borders=("britain", "germany"), lon=3, lat=56)])
    register_map(m)
    return m


HANDS = {"p1": ["ec-001", "ec-002", "ec-003"], "p2": ["ec-004", "ec-005"], "p3": ["ec-006"]}


@engine.cont("test_page_answered")
def _answered(ctx: Ctx, t: engine.Task, choices: tuple[str, ...]) -> None:
    """The staged question's continuation: nothing follows it."""


def table(choices: list[str] | None = None, seat: str = "p1") -> GameState:
    """Three players mid-game: light brown (p1) holds Ukraine (its capital) and Poland, green (p2)
    Germany and Britain, blue (p3) Spain; green controls the seas. ``choices`` asks ``seat``."""
    staged_map()
    colours = [c.id for c in pack().colours]
    st = GameState(options={"end": "timed", "turn_limit": "36", "finish_round": False, "one_per_continent": False,
                            "players": 3},
                   map=MAP_KEY, seats=["p1", "p2", "p3"],
                   colours={"p1": colours[0], "p2": colours[1], "p3": colours[2]},
                   order=["p1", "p2", "p3"], phase="play", active="p1", round=2, turns_taken=3,
                   turn={"seat": "p1", "actions": ["MOVE"]})
    st.add_units("ukraine", "p1", {"INF": 3, "TNK": 2, "PLN": 1})
    st.add_units("poland", "p1", {"INF": 1})
    st.add_units("germany", "p2", {"INF": 2, "ART": 1})
    st.add_units("britain", "p2", {"TNK": 1})
    st.add_units("spain", "p3", {"INF": 1})
    st.capitals = {"p1": "ukraine", "p2": "germany", "p3": "spain"}
    st.hands = {s: list(cs) for s, cs in HANDS.items()}
    st.deck = [c for c in sorted(pack().econ) if not any(c in h for h in HANDS.values())]
    st.navy = {"p1": {"BB": 1, "DD": 2, "SS": 2}, "p2": {"BB": 2, "CV": 1}, "p3": {"DD": 1}}
    st.sea_controller = "p2"
    if choices is not None:
        st.stack.append(engine.ask(seat, say("prompt_action", seat=st.colours[seat], n=1, left=3),
                                   [(c, say("choice_end_turn")) for c in choices], "test_page_answered", kind="test"))
        engine.run(Ctx(st, random.Random(1)))
    return st


def render(state: GameState, seat: str | None, lang: str = "en", live: bool = True,
           extra: dict[str, Any] | None = None) -> str:
    """The board as ``seat`` sees it; ``extra``: view keys a rule part not yet merged would add."""
    use_lang(lang)
    try:
        view = {**GAME.view(state, seat), **(extra or {})}
        pending = [decision_payload(d) for d in GAME.pending(state) if d.seat == seat] if live else []
        ctx: dict[str, Any] = {
            "view": view, "board_ctx": board_extras(G, view, seat), "match_id": "m-1", "csrf": CSRF, "seq": 7,
            "pending": pending, "game_id": G,
            "seats": [{"seat": s, "label": s, "player": f"Name {s}", "bot": None} for s in state.seats],
        }
        return templates.env.get_template(board_template(G) or "").render(**ctx)
    finally:
        use_lang("en")


def block(html: str, rid: str) -> str:
    """The SVG group of one region (up to the next region's)."""
    regions = html[html.index('<g class="at-regions">'):html.index("</svg>", html.index('<g class="at-regions">'))]
    return next(part for part in regions.split('<g class="at-region ')[1:] if f'data-region="{rid}"' in part)


# ---------------------------------------------------------------------- the map
def test_every_region_is_drawn_in_its_owners_colour_with_counted_units_and_capitals() -> None:
    st = table()
    html = render(st, "p1")
    hexes = {c.id: c.hex for c in pack().colours}
    assert html.count('<g class="at-region ') == 8
    assert f'fill="{hexes[st.colours["p1"]]}"' in block(html, "ukraine")
    assert f'fill="{hexes[st.colours["p2"]]}"' in block(html, "germany")
    assert f'fill="{page.NEUTRAL}"' in block(html, "romania") and "neutral" in block(html, "romania")
    ukraine = block(html, "ukraine")
    # one counted icon per unit type, in the casualty order: 3 infantry, 2 tanks, 1 plane
    assert re.findall(r'class="at-chipu" data-type="(\w+)" data-count="(\d+)"', ukraine) == [
        ("INF", "3"), ("TNK", "2"), ("PLN", "1")]
    assert 'class="at-capital"' in ukraine and 'class="at-capital"' not in block(html, "poland")
    assert html.count('class="at-capital"') == 3
    assert html.count('<line class="at-link"') == 4  # the land borders
    assert html.count('<line class="at-lane"') == 2  # the grey sea lanes
    assert 'data-zone="north_sea"' in html and "⚓" in html
    assert html.count('class="at-zone-link anchored"') == 2  # the anchored zone to each shore region


def test_the_north_atlantic_box_shows_the_sea_controllers_fleet() -> None:
    st = table()
    html = render(st, None)
    box = html[html.index('class="at-atlantic'):html.index("</g>", html.index('class="at-atlantic'))]
    assert 'data-controller="p2"' in box and "BB×2 CV×1" in box
    st.sea_controller = None
    html = render(st, None)
    box = html[html.index('class="at-atlantic'):html.index("</g>", html.index('class="at-atlantic'))]
    assert 'data-controller=""' in box and "no fleet at sea" in box


def test_the_projection_keeps_the_world_in_order_inside_a_16_by_9_frame() -> None:
    m = staged_map()
    proj = page.projection(m)
    xy = {r.id: proj(r.lon, r.lat) for r in m.regions.values()}
    assert page.WIDTH * 9 == page.HEIGHT * 16
    for x, y in xy.values():
        assert page.MARGIN <= x <= page.WIDTH - page.MARGIN and page.MARGIN <= y <= page.HEIGHT - page.MARGIN
    assert xy["brazil"][0] < xy["morocco"][0] < xy["germany"][0] < xy["ukraine"][0]  # west to east
    assert xy["britain"][1] < xy["spain"][1] < xy["morocco"][1] < xy["brazil"][1]  # north to south
    far = page.Projection([(-170.0, 80.0), (100.0, -70.0)])  # a region outside the usual frame still fits
    for lon, lat in ((-170.0, 80.0), (100.0, -70.0)):
        x, y = far(lon, lat)
        assert 0 <= x <= page.WIDTH and 0 <= y <= page.HEIGHT


def test_the_strip_shows_the_round_the_turn_the_actions_and_the_seas() -> None:
    html = render(table(), "p2")
    strip = html[html.index('class="at-strip"'):html.index('class="zoomable')]
    assert "<strong>2</strong>" in strip and 'data-seat="p1"' in strip
    assert strip.count('class="at-action done"') == 1 and strip.count('class="at-action free"') == 2
    assert "3/36" in strip  # the timed game's turns


def test_the_seats_table_shows_public_counts_and_fleets() -> None:
    html = render(table(), "p3")
    row = html[html.index('class="at-seat" data-seat="p2"'):]
    row = row[:row.index("</tr>")]
    assert re.search(r"<td>2</td><td>4</td><td>2</td>", row)  # 2 regions, 4 units, 2 cards
    assert 'data-ship="BB"' in row and "⚓" in row  # p2 controls the seas
    assert 'class="at-seat mine" data-seat="p3"' in html


# ---------------------------------------------------------------------- decisions on the map
def test_the_regions_a_decision_names_are_clickable_for_its_seat_only() -> None:
    st = table(choices=["romania", "poland", "end"])
    html = render(st, "p1")
    assert 'class="at-map acting"' in html and 'id="at-map-form"' in html
    assert 'data-choices="romania"' in block(html, "romania") and "target" in block(html, "romania")
    assert 'data-choices="poland"' in block(html, "poland")
    assert "target" not in block(html, "germany")
    other = render(st, "p2")
    assert 'class="at-map acting"' not in other and 'data-choices=' not in other
    assert GAME.view(st, "p1")["decisions"][0]["kind"] == "test"
    assert GAME.view(st, "p2")["decisions"] == [] and GAME.view(st, None)["decisions"] == []
    assert GAME.view(st, None)["waiting"] == ["p1"]


def test_several_choices_in_one_region_point_at_the_prompt_bar() -> None:
    st = table(choices=["ukraine:INF", "ukraine:TNK", "poland:INF"])
    html = render(st, "p1")
    assert 'data-choices="ukraine:INF ukraine:TNK"' in block(html, "ukraine")
    assert 'data-choices="poland:INF"' in block(html, "poland")
    js = (TEMPLATES / "board.js").read_text(encoding="utf-8")
    assert "pointAt(here)" in js and "send(map, here[0])" in js


def test_a_move_is_its_origin_then_a_destination_and_declared_groups_are_arrows() -> None:
    st = table(choices=["ukraine>romania", "poland>romania", "poland>germany", "from:ukraine", "done"])
    html = render(st, "p1")
    assert 'data-moves="ukraine&gt;romania"' in block(html, "ukraine") and "origin" in block(html, "ukraine")
    assert 'data-moves="poland&gt;romania poland&gt;germany"' in block(html, "poland")
    assert 'data-choices="from:ukraine"' in block(html, "ukraine")  # an origin asked for first
    assert "data-moves" not in block(html, "romania")
    js = (TEMPLATES / "board.js").read_text(encoding="utf-8")
    assert "select(map, region)" in js and 'getAttribute("data-move")' in js
    movement = {"groups": [{"from": "poland", "to": "romania", "sea": False, "via": None, "units": {"TNK": 1},
                            "status": ""},
                           {"from": "spain", "to": "morocco", "sea": True, "via": None, "units": {"INF": 1},
                            "status": "on_lane"}],
                "attacks": [{"region": "romania", "units": {"TNK": 1}}]}
    html = render(st, "p2", extra={"movement": movement})
    assert 'class="at-arrow" points=' in html and 'class="at-arrow sea on_lane"' in html
    assert 'class="at-circle' not in html and "attacked" in block(html, "romania")
    assert '<circle class="at-attack"' in block(html, "romania")


# ---------------------------------------------------------------------- hidden information
def hidden_from(state: GameState, seat: str | None) -> set[str]:
    if seat is not None:
        return {s for s in GAME.secrets(state, seat) if isinstance(s, str)}
    return {s for other in state.seats for s in GAME.secrets(state, other) if isinstance(s, str)}


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_no_seat_sees_another_seats_economics_cards(lang: str) -> None:
    st = table(choices=["romania", "end"])
    for seat in ["p1", "p2", "p3", None]:
        html = render(st, seat, lang)
        hidden = hidden_from(st, seat)
        leaked = sorted(s for s in hidden if s in html)
        assert not leaked, f"{seat or 'spectator'} sees {leaked[:5]}"
        for c in (st.hands[seat] if seat else []):
            card = pack().econ[c]
            assert f'data-card="{c}"' in html  # one's own hand is on the board, with its value
            assert (card.name_pl if lang == "pl" else card.name) in html
        if seat is None:
            assert not CARD_ID.findall(html) and 'class="at-economy"' not in html


# ---------------------------------------------------------------------- battles
def section(html: str, cls: str) -> str:
    start = html.index(f'<section class="{cls}')
    return html[start:html.index("</section>", start)]


def test_a_land_battle_shows_each_half_round_dice_hits_and_casualties_land_ex_1() -> None:
    """LAND-EX-1 played with the book's dice (BATTLE's own example): the board lists the ten
    half-rounds, the defender's first in every round, with exactly the faces rolled, the hits by
    unit type and the enemy's losses; then who won and what each side lost."""
    from tests.games.attack.test_battle_example import EXPECTED, ROWS, _play_land_ex_1

    state, _, _ = _play_land_ex_1()
    for seat in ("p1", "p2", "p3", None):
        html = render(state, seat)
        battle = section(html, "at-battle")
        assert 'data-region="ukraine"' in battle and "Battle for Ukraine" in battle and "won by the Attacker" in battle
        halves = re.findall(r'class="at-half" data-role="(\w+)"', battle)
        assert halves == ["defender", "attacker"] * 5  # the defender rolls first in every round
        assert re.findall(r'data-faces="([\w ]*)"', battle) == [" ".join(row) for row in ROWS]
        assert battle.count('class="at-die f-') == sum(len(r) for r in ROWS)
        parts = battle.split('class="at-half"')[1:]
        for part, want in zip(parts, EXPECTED, strict=True):
            hits = part[part.index('class="at-hits"'):part.index('class="at-losses"')]
            lost = part[part.index('class="at-losses"'):]
            assert re.findall(r'data-type="(\w+)"', hits) == list(want["hits"])
            assert re.findall(r'data-type="(\w+)"', lost) == list(want["casualties"])
        defender = battle[battle.index('class="at-side-row" data-role="defender"'):]
        lost = defender[defender.index('class="at-lost"'):defender.index("</tr>")]
        assert re.findall(r'data-type="(\w+)"[^>]*>.*?<b>(\d+)</b>', lost) == [
            ("INF", "3"), ("TNK", "2"), ("ART", "2"), ("PLN", "2")]  # Green lost all nine
    polish = section(render(state, "p3", "pl"), "at-battle")
    assert "Bitwa o region" in polish and "Obrońca" in polish and "przeciwnik traci" in polish


def naval_ex_1() -> GameState:
    """NAVAL-EX-1's fleets: light brown (p1) at sea with BB, DD, SS; green (p2) challenges with BB,
    DD, DD, SS, CV; light brown fights."""
    from tests.games.attack.naval_kit import answer, table, take_naval

    state = table({"p1": {"BB": 1, "DD": 1, "SS": 1}, "p2": {"BB": 1, "DD": 2, "SS": 1, "CV": 1}}, controller="p1")
    take_naval(state, "p2")
    answer(state, "p1", "naval_challenge", "fight")
    return state


def test_the_naval_line_up_is_laid_in_click_order_and_stays_face_down_for_the_other_seat() -> None:
    from tests.games.attack.naval_kit import answer

    state = naval_ex_1()
    html = render(state, "p2")
    lineup = section(html, "at-lineup")
    assert 'data-n="3"' in lineup and 'class="at-lineup-form"' in lineup
    assert re.findall(r'data-choice="([\w#]+)"', lineup) == ["DD", "DD#2", "SS", "BB", "CV"]
    assert lineup.count('class="at-slot"') == 3 and "disabled" in lineup  # nothing laid yet
    assert 'class="at-lineup' in render(state, "p1")  # both lay at once
    assert 'class="at-lineup' not in render(state, None)
    answer(state, "p2", "naval_line", "BB", "CV", "DD")  # head first: G's line of the example
    mine, theirs, watcher = (section(render(state, s), "at-naval") for s in ("p2", "p1", None))
    own = mine[mine.index('class="at-line" data-role="attacker"'):]
    assert re.findall(r'data-ship="(\w+)"', own[:own.index("</ol>")]) == ["BB", "CV", "DD"]
    for other in (theirs, watcher):  # the line already laid: three cards face down, no ship named
        laid = other[other.index('class="at-line" data-role="attacker"'):]
        laid = laid[:laid.index("</ol>")]
        assert laid.count("face-down") == 3 and "data-ship" not in laid
    assert "choosing the line" in mine  # light brown still chooses


def test_the_naval_duels_show_both_rolls_the_modifiers_the_totals_and_the_hit() -> None:
    from tests.games.attack.dice_kit import ScriptedDice, pair
    from tests.games.attack.naval_kit import answer

    state = naval_ex_1()
    answer(state, "p2", "naval_line", "BB", "CV", "DD")
    # NAVAL-EX-1 duels 1 and 2 (G 11+1 vs LB 8+2; G 7+1 vs LB 7); the third, which the book lost: 5+1 vs 6, a tie
    dice = ScriptedDice(*pair(11), *pair(8), *pair(7), *pair(7), *pair(5), *pair(6))
    answer(state, "p1", "naval_line", "SS", "BB", "DD", rng=dice)
    html = render(state, "p3")
    naval = section(html, "at-naval")
    rows = naval.split('<li class="at-duel" ')[1:]
    assert len(rows) == 3
    first = rows[0]
    assert 'data-winner="attacker"' in first and first.count('class="at-blue"') == 4
    assert '<b class="at-total">12</b>' in first and '<b class="at-total">10</b>' in first
    assert 'title="carriers beside it in the line">+1' in first
    assert 'title="submarine against a battleship">+2' in first
    assert '<b class="at-total">8</b>' in rows[1] and 'title="carrier against a ship that is not a carrier"' in rows[1]
    assert "Submarine (position 1) — sunk" in naval.replace("submarine", "Submarine")
    assert "battleship (position 2) — damaged" in naval
    assert 'data-winner=""' in rows[2] and "tie, no hit" in naval
    polish = section(render(state, "p3", "pl"), "at-naval")
    assert "Bitwa morska" in polish and "zatopiony" in polish and "uszkodzony" in polish


# ---------------------------------------------------------------------- languages, rules pages
def test_the_board_reads_in_english_and_polish_without_a_missing_entry(monkeypatch: pytest.MonkeyPatch,
                                                                    tmp_path: Path) -> None:
    from app import i18n

    record = tmp_path / "misses.tsv"
    monkeypatch.setenv(i18n.MISSES_ENV, str(record))
    monkeypatch.setattr(i18n, "_missed", set())
    i18n.record_misses()
    try:
        st = table(choices=["romania", "poland", "end"])
        from tests.games.attack.test_battle_example import _play_land_ex_1

        battle, _, _ = _play_land_ex_1()
        naval = naval_ex_1()
        for lang in ("en", "pl"):
            for state, seat in [(st, "p1"), (st, "p2"), (st, None), (battle, "p1"), (naval, "p2"), (naval, None)]:
                html = render(state, seat, lang)
                assert "board_" not in html and "econ_" not in html, "a message id shown as text"
        polish = render(st, "p1", "pl")
        assert "Runda" in polish and "Kontrola nad morzami" in polish and "Północny Atlantyk" in polish
        assert "Round" in render(st, "p1", "en")
    finally:
        monkeypatch.delenv(i18n.MISSES_ENV)
        i18n.record_misses()
    rows = record.read_text(encoding="utf-8").splitlines() if record.exists() else []
    assert rows == []


def test_the_rules_reference_has_the_same_sections_in_both_languages_and_the_board_links_exist() -> None:
    ids = {lang: re.findall(r'<section id="([\w-]+)">', (RULES / f"{lang}.html").read_text(encoding="utf-8"))
           for lang in ("en", "pl")}
    assert ids["en"] == ids["pl"] and len(ids["en"]) >= 12
    linked = set(re.findall(r'rule\("([\w-]+)"', (TEMPLATES / "board.html").read_text(encoding="utf-8")))
    assert linked <= set(ids["en"]), linked - set(ids["en"])
    for lang in ("en", "pl"):
        text = (RULES / f"{lang}.html").read_text(encoding="utf-8")
        assert set(re.findall(r'href="#([\w-]+)"', text)) <= set(ids[lang])


def test_production_counts_capitals_and_marks_the_cards_of_a_set() -> None:
    """A-20.2 as ECONOMY counts it: the seat's PP with its capitals, the set's cards marked ×2."""
    st = table()
    by_type: dict[str, list[str]] = {}
    for c in sorted(pack().econ.values(), key=lambda c: c.id):
        by_type.setdefault(c.type, []).append(c.id)
    st.hands["p1"] = [by_type[t][0] for t in ("OIL", "MIN", "FAC", "RAIL", "POP")]
    st.deck = [c for c in st.deck if c not in st.hands["p1"]]
    view = GAME.view(st, "p1")
    html = render(st, "p1")
    economy = section(html, "at-economy")
    assert f'class="at-pp-total">{view["production"]["pp"]}<' in economy
    assert economy.count('<li class="at-card ') == 5 and economy.count('data-set="1"') == 4
    assert "1 capital (10)" in economy
    assert 'class="at-economy' not in render(st, None)


def test_the_seat_labels_colour_names_read_in_polish_as_the_pack_names_them() -> None:
    from app.games.attack.text import catalogue

    terms = catalogue().terms
    for c in pack().colours:
        assert terms["en"][c.name] == c.name and terms["pl"][c.name] == c.name_pl
    assert [s.label for s in GAME.roles(6, {})] == [c.name for c in pack().colours]


def test_the_card_list_names_the_economics_kinds_every_card_and_the_navy_cards() -> None:
    from app.games.attack import reference

    for lang in ("en", "pl"):
        entries = reference.cards(lang)
        keys = [e.key for e in entries]
        assert [k for k in keys if k.startswith("econ-")] == [f"econ-{t}" for t in ("POP", "MIN", "FAC", "OIL", "RAIL")]
        assert sorted(k for k in keys if k.startswith("ec-")) == sorted(pack().econ)
        assert [k for k in keys if k.startswith("navy-")] == ["navy-DD", "navy-SS", "navy-BB", "navy-CV"]
    cv = next(e for e in reference.cards("pl") if e.key == "navy-CV")
    assert cv.name == "lotniskowiec" and "20 PP" in cv.kind and "+1" in cv.text
