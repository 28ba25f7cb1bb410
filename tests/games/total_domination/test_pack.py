"""The Total Domination data pack against every check of spec §18.

Each fact is asserted on the shipped pack, and the mutation tests at the end break a copy of the
YAML files and show that the loader (a ValueError naming file and item) or the audit catches it.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.games.total_domination import pack_load
from app.games.total_domination.pack import (
    AXIS,
    DATA_DIR,
    EDGES,
    NATIONS,
    POWERS,
    Board,
    Pack,
    board,
    line_on,
    pack,
    token_limit,
)

ROOT = Path(__file__).resolve().parents[3]
KEYS = ("basic", "alternative", "basic+arctic", "alternative+arctic")
ARCTIC = {"arctic", "iceland", "norway", "finland", "aleutians"}


@pytest.fixture(scope="module")
def p() -> Pack:
    return pack()


def home_stars(b: Board, power: str) -> int:
    nations = {power, {"uk": "france", "germany": "italy"}.get(power, power)}
    return sum(s.stars for s in b.spaces.values() if s.nation in nations)


# ------------------------------------------------------------------ loading


def test_the_pack_loads_with_four_boards_and_passes_its_audit(p: Pack) -> None:
    assert sorted(p.boards) == sorted(KEYS)
    assert pack_load.audit(p) == []
    assert 45 <= len(p.boards["basic"].spaces) <= 60
    assert board("basic") is p.boards["basic"]


# ------------------------------------------------------------------ §18.1 the board


@pytest.mark.parametrize("key", KEYS)
def test_home_stars_equal_starting_vp(p: Pack, key: str) -> None:
    # src §2.0 step 4: Japan 7, Germany 8 (with Italy), USSR 9, UK 10 (with France)
    assert p.starting_vp == {"japan": 7, "germany": 8, "ussr": 9, "uk": 10}
    assert {power: home_stars(p.boards[key], power) for power in POWERS} == p.starting_vp
    b = p.boards[key]
    assert sorted(b.home_spaces("germany")) == ["austria", "czechoslovakia", "germany"]
    assert b.home_spaces("italy") == ["italy"] and b.home_spaces("france") == ["france"]
    assert sorted(b.home_spaces("japan")) == ["japan", "manchuria", "nanking", "ryukyu"]  # §15.7's list


NAMED = {  # every place the rulebook names (spec §17, §18.1), with its Polish name
    "poland": "Polska", "ukraine": "Ukraina", "baltic_states": "Kraje bałtyckie", "benelux": "Kraje Beneluksu",
    "balkans": "Bałkany", "romania": "Rumunia", "austria": "Austria", "czechoslovakia": "Czechosłowacja",
    "libya": "Libia", "egypt": "Egipt", "persia": "Persja", "india": "Indie", "east_indies": "Indie Wschodnie",
    "indochina": "Indochiny", "siam": "Syjam", "burma": "Birma", "nanking": "Nankin", "manchuria": "Mandżuria",
    "ryukyu": "Riukiu", "philippines": "Filipiny", "marianas": "Mariany", "solomon_islands": "Wyspy Salomona",
    "hawaii": "Hawaje", "eastern_usa": "Wschodnie USA", "western_usa": "Zachodnie USA", "siberia": "Syberia",
    "northern_ussr": "Północny ZSRR", "southern_ussr": "Południowy ZSRR", "atlantic_ocean": "Ocean Atlantycki",
    "caribbean_sea": "Morze Karaibskie", "arctic": "Arktyka", "iceland": "Islandia", "norway": "Norwegia",
    "finland": "Finlandia", "aleutians": "Aleuty", "germany": "Niemcy", "italy": "Włochy", "france": "Francja",
    "great_britain": "Wielka Brytania", "japan": "Japonia", "china": "Chiny",
}


def test_every_place_the_book_names_is_on_the_board_with_its_polish_name(p: Pack) -> None:
    spaces = p.boards["basic+arctic"].spaces
    assert {sid: spaces[sid].name_pl for sid in NAMED if sid in spaces} == NAMED
    assert len({s.name for s in spaces.values()}) == len({s.name_pl for s in spaces.values()}) == len(spaces)


def test_capitals_have_three_stars_and_italy_is_not_one(p: Pack) -> None:
    b = p.boards["basic+arctic"]
    capitals = {s.nation: s.id for s in b.spaces.values() if s.capital}
    assert capitals == {"uk": "great_britain", "germany": "germany", "japan": "japan", "ussr": "moscow",
                        "usa": "eastern_usa"}
    assert all(b.spaces[c].stars == 3 and b.spaces[c].limit == 4 for c in capitals.values())
    assert all(s.capital for s in b.spaces.values() if s.stars == 3)
    assert not b.spaces["italy"].capital and b.spaces["italy"].limit == 2  # src §6.2: one UK fleet takes it


def test_germany_italy_and_france_have_factory_shipyard_and_coast(p: Pack) -> None:
    for sid in ("germany", "italy", "france"):
        s = p.boards["basic"].spaces[sid]
        assert (s.factory, s.shipyard, s.shape) == (True, True, "coastal"), sid
    for s in p.boards["basic+arctic"].spaces.values():
        if s.factory or s.shipyard:
            assert s.nation is not None, f"{s.id}: building needs a home space"


@pytest.mark.parametrize("key", KEYS)
def test_ukraine_is_coastal_with_a_land_route_to_poland(p: Pack, key: str) -> None:
    b = p.boards[key]
    assert b.spaces["ukraine"].shape == "coastal"
    assert b.kinds_between("ukraine", "poland") == {"land"}


@pytest.mark.parametrize("key", KEYS)
def test_italy_has_a_sea_lane_from_uk_territory_and_a_land_route_to_germany(p: Pack, key: str) -> None:
    b = p.boards[key]
    assert b.kinds_between("italy", "germany") == {"land"}
    assert any(k == "sea" and b.spaces[o].nation == "uk" for o, k in b.neighbours["italy"])


@pytest.mark.parametrize("key", ["basic", "basic+arctic"])
def test_romania_reaches_german_units_only_through_an_arrow_link(p: Pack, key: str) -> None:
    b = p.boards[key]
    german = {"germany", "austria", "czechoslovakia", "italy", "balkans"}  # the §16.5 position
    assert {o for o, k in b.neighbours["romania"] if k == "arrow"} & german
    assert not {o for o, k in b.neighbours["romania"] if k != "arrow"} & german
    assert "land" in b.kinds_between("germany", "balkans")  # a German army moves Germany -> Balkans


def test_uboat_spaces_take_fleets_and_carry_stars(p: Pack) -> None:
    for key in KEYS:
        got = {s.id for s in p.boards[key].spaces.values() if s.uboat}
        assert got == {"atlantic_ocean", "caribbean_sea"} | ({"iceland"} if "arctic" in key else set())
    for sid in ("atlantic_ocean", "caribbean_sea", "iceland"):
        s = p.boards["basic+arctic"].spaces[sid]
        assert s.shape != "land" and s.stars >= 1 and s.nation is None


def test_arctic_spaces_exist_only_on_the_arctic_boards(p: Pack) -> None:
    for key in KEYS:
        b = p.boards[key]
        assert ARCTIC & set(b.spaces) == (ARCTIC if key.endswith("+arctic") else set()), key
        assert all(not x.arctic for x in b.links) or key.endswith("+arctic")
        assert {s.id for s in b.spaces.values() if s.arctic} == (ARCTIC if key.endswith("+arctic") else set())
    assert [(x.space, x.nation, x.kind, x.count) for x in p.arctic_extra] == [("finland", "neutral", "army", 1)]


def test_the_alternative_side_has_no_arrow_links_and_connections_of_its_own(p: Pack) -> None:
    for key in ("alternative", "alternative+arctic"):
        assert not [x for x in p.boards[key].links if x.kind == "arrow"]
    assert [x for x in p.boards["basic"].links if x.kind == "arrow"]
    assert set(p.boards["basic"].spaces) == set(p.boards["alternative"].spaces)
    basic = {(x.a, x.b, x.kind) for x in p.boards["basic"].links}
    alt = {(x.a, x.b, x.kind) for x in p.boards["alternative"].links}
    assert alt - basic and basic - alt


@pytest.mark.parametrize("key", KEYS)
def test_every_space_reaches_every_other(p: Pack, key: str) -> None:
    b = p.boards[key]
    seen, todo = {"germany"}, ["germany"]
    while todo:
        for other, _ in b.neighbours[todo.pop()]:
            if other not in seen:
                seen.add(other)
                todo.append(other)
    assert seen == set(b.spaces)
    for nation in NATIONS:  # each country's homes form supply webs: none cut off from the board
        assert b.home_spaces(nation) and all(b.neighbours[h] for h in b.home_spaces(nation)), nation


def test_links_match_the_shapes_they_join(p: Pack) -> None:
    b = p.boards["basic+arctic"]
    for x in (*b.links, *p.boards["alternative+arctic"].links):
        shapes = {b.spaces[x.a].shape, b.spaces[x.b].shape}
        assert ("land" not in shapes) if x.kind == "sea" else ("island" not in shapes), x


def test_the_board_is_drawn_around_the_pole_with_each_power_at_its_edge(p: Pack) -> None:
    s = p.boards["basic+arctic"].spaces
    assert s["arctic"].xy == (500.0, 500.0)
    assert s["great_britain"].xy[1] > 700  # the UK edge at the bottom
    assert s["germany"].xy[0] > 700  # the German edge on the UK's right
    assert s["japan"].xy[0] < 300  # the Japanese edge on the UK's left
    assert s["moscow"].xy[1] < 500 and s["urals"].xy[1] < 300  # the Soviet edge at the top
    half = {"bottom": lambda x, y: y > 500, "right": lambda x, y: x > 500, "left": lambda x, y: x < 500,
            "top": lambda x, y: y < 500}
    for power, edge in EDGES.items():  # every capital on its power's half of the board
        assert half[edge](*s[p.boards["basic"].capital_of(power) or ""].xy), power


# ------------------------------------------------------------------ §18.2, §18.11 setups and scenarios


def test_standard_setup_is_on_home_spaces_with_four_neutral_armies(p: Pack) -> None:
    std = p.scenarios["full"].placements
    b = p.boards["basic"]
    for pl in std:
        assert b.spaces[pl.space].nation == (None if pl.nation == "neutral" else pl.nation), pl
    neutral = sorted(pl.space for pl in std if pl.nation == "neutral")
    assert len(neutral) == 4 and "romania" in neutral
    german_homes = {"germany", "austria", "czechoslovakia", "italy"}  # §16.5: every one garrisoned
    assert german_homes <= {pl.space for pl in std if pl.nation in ("germany", "italy")}
    assert set(b.home_spaces("japan")) <= {pl.space for pl in std if pl.nation == "japan"}


@pytest.mark.parametrize("scenario", ["full", "rise_of_the_axis", "fall_of_the_axis"])
def test_every_placement_fits_its_space_shape_and_stacking(p: Pack, scenario: str) -> None:
    b = p.boards["basic"]
    fits = {"army": ("land", "coastal"), "fleet": ("island", "coastal"), "uboat": ("island", "coastal")}
    stacked: Counter[str] = Counter()
    for pl in p.scenarios[scenario].placements:
        s = b.spaces[pl.space]
        assert s.shape in fits[pl.kind], pl
        if pl.kind == "uboat":
            assert s.uboat and pl.count <= 2
        else:
            stacked[pl.space] += pl.count
    assert all(n <= b.spaces[sid].limit for sid, n in stacked.items()), stacked
    assert pack_load._legal_placements(b, p.scenarios[scenario].placements, scenario) == []


def test_fall_of_the_axis_places_exactly_what_the_book_lists(p: Pack) -> None:
    fall = p.scenarios["fall_of_the_axis"]
    book = {  # spec §14.2, src §12.2
        ("poland", "germany", "army", 1), ("baltic_states", "germany", "army", 1), ("ukraine", "germany", "army", 1),
        ("benelux", "germany", "army", 1), ("libya", "italy", "army", 1), ("france", "germany", "fleet", 1),
        ("atlantic_ocean", "germany", "uboat", 2), ("caribbean_sea", "germany", "uboat", 1),
        ("india", "uk", "army", 1), ("persia", "uk", "army", 1), ("egypt", "uk", "army", 1),
        ("eastern_usa", "usa", "army", 1), ("western_usa", "usa", "army", 1), ("great_britain", "uk", "fleet", 2),
        ("atlantic_ocean", "uk", "fleet", 1), ("western_usa", "usa", "fleet", 1), ("hawaii", "usa", "fleet", 1),
        ("indochina", "japan", "army", 1), ("east_indies", "japan", "army", 1), ("siam", "japan", "army", 1),
        ("burma", "japan", "army", 1), ("nanking", "japan", "fleet", 1), ("ryukyu", "japan", "fleet", 1),
        ("philippines", "japan", "fleet", 1), ("marianas", "japan", "fleet", 1),
        ("solomon_islands", "japan", "fleet", 1), ("siberia", "ussr", "army", 2),
        ("northern_ussr", "ussr", "army", 1), ("southern_ussr", "ussr", "army", 1), ("china", "china", "army", 1),
    }
    got = [(pl.space, pl.nation, pl.kind, pl.count) for pl in fall.placements if pl.nation != "neutral"]
    assert len(got) == len(set(got)) and set(got) == book
    assert (fall.first_year, fall.last_year, fall.deal) == (1943, 1945, 5)
    assert fall.coalition == {"france": "germany", "italy": "germany"}
    for power in POWERS:  # 3 techs each, prerequisites included
        have = fall.techs[power]
        assert len(have) == 3
        for t in have:
            assert set(p.techs[t].requires) <= set(have)
            assert not p.techs[t].requires_any or set(p.techs[t].requires_any) & set(have)


def test_no_scenario_starts_at_a_win(p: Pack) -> None:
    assert pack_load.start_vp(p, p.scenarios["full"]) == {"axis": 15, "allies": 19}
    fall = pack_load.start_vp(p, p.scenarios["fall_of_the_axis"])
    assert fall["axis"] < 29 and fall["allies"] < 33 + 2 + 2, fall  # both joined: the Allies need 37


def test_the_full_game_and_the_rise_of_the_axis(p: Pack) -> None:
    full, rise = p.scenarios["full"], p.scenarios["rise_of_the_axis"]
    assert (full.first_year, full.last_year, rise.first_year, rise.last_year) == (1939, 1945, 1939, 1942)
    assert full.placements == rise.placements
    assert full.coalition == {"france": "uk", "italy": "germany"} and full.tracks == {"usa": 0, "china": 0}


def test_the_alternative_setup_follows_the_book(p: Pack) -> None:
    alt = p.alternative_setup
    assert alt["order"] == ["ussr", "japan", "uk", "germany"]  # src §11.3
    counts = {power: [(g["nation"], g["count"]) for g in groups] for power, groups in alt["units"].items()}
    assert counts == {
        "ussr": [("ussr", 4), ("china", 2)], "japan": [("japan", 6)],
        "uk": [("uk", 3), ("france", 1), ("usa", 1), ("usa", 2)], "germany": [("germany", 5), ("italy", 1)],
    }
    assert alt["units"]["uk"][2] == {"nation": "usa", "kinds": ["fleet"], "count": 1, "spaces": ["philippines"]}


def test_setup_units_stay_within_the_tokens(p: Pack) -> None:
    used: Counter[tuple[str, str]] = Counter()
    for pl in (*p.scenarios["full"].placements, *p.arctic_extra):
        used[(pl.nation, pl.kind)] += pl.count
    for (nation, kind), n in used.items():
        assert n <= token_limit(p, nation, kind), (nation, kind)


# ------------------------------------------------------------------ §18.3 the cards


def test_sixty_cards_54_main_4_usa_2_china(p: Pack) -> None:
    assert sorted(p.cards) == [f"td-{n:02d}" for n in range(1, 61)]
    decks = Counter(c.deck for c in p.cards.values())
    assert decks == {"main": 54, "usa": 4, "china": 2}
    assert all(c.colour == "usa" for c in p.cards.values() if c.deck == "usa")
    assert all(c.colour == "china" for c in p.cards.values() if c.deck == "china")
    assert not [c for c in p.cards.values() if c.deck == "main" and c.colour in ("usa", "china")]


def test_op_values_are_3_to_6(p: Pack) -> None:
    assert {c.op for c in p.cards.values()} == {3, 4, 5, 6}


def test_each_of_the_15_techs_is_on_4_cards(p: Pack) -> None:
    assert Counter(c.tech for c in p.cards.values()) == {t: 4 for t in p.techs}


def test_tactics_values_are_tied_to_op(p: Pack) -> None:
    tactics = [c for c in p.cards.values() if c.event.kind == "tactics"]
    assert {c.event.value for c in tactics} == {-1, 1, 5, 6, 7}
    for c in tactics:
        if c.event.value >= 5:
            assert c.op == c.event.value - 1, c.id  # src §7.1.B: 5 on a 4, 6 on a 5, 7 on a 6


def test_satellites_on_axis_colours_resistance_on_allied(p: Pack) -> None:
    for c in p.cards.values():
        icons = c.event.icons
        if "satellite" in icons:
            assert c.colour in (*AXIS, "italy"), c.id
        if "resistance" in icons:
            assert c.colour in ("uk", "ussr", "france", "usa", "china"), c.id
    kinds = {i for c in p.cards.values() for i in c.event.icons}
    assert kinds == {"army", "fleet", "bomber", "move", "satellite", "resistance"}


def test_solo_rule_9_finds_its_bomber_event_and_its_tactics_minus_one(p: Pack) -> None:
    assert any(c.event.kind == "logistics" and "bomber" in c.event.icons for c in p.cards.values())
    assert any(c.event.kind == "tactics" and c.event.value == -1 for c in p.cards.values())


def test_diplomacy_flags_and_vp(p: Pack) -> None:
    dip = [c for c in p.cards.values() if c.event.kind == "diplomacy"]
    flags = Counter(c.event.flag for c in dip)
    assert set(flags) == {"brazil", "spain", "sweden", "turkey"} and min(flags.values()) >= 2
    assert {c.event.vp for c in dip} == {1, 2}
    for flag in flags:  # same-flag comparisons of §7.4 happen between different powers' colours
        assert len({c.colour for c in dip if c.event.flag == flag}) >= 2


def test_the_american_peace_card_adds_one_op(p: Pack) -> None:
    peace = [c for c in p.cards.values() if c.event.kind == "peace"]
    assert any(c.deck == "usa" and c.event.op == 1 for c in peace)  # src §7.5: 3 + 1 = 4 OP
    assert all(c.event.op >= 1 for c in peace)


def test_every_colour_has_playable_events_with_texts(p: Pack) -> None:
    for nation in NATIONS:
        assert any(c.colour == nation for c in p.cards.values()), nation
    for c in p.cards.values():
        assert c.name and c.name_pl and c.text and c.text_pl, c.id
    assert len({c.name for c in p.cards.values()}) == 60


# ------------------------------------------------------------------ §18.4, §18.7 the solo deck


def test_eighteen_solo_cards_and_the_year_mix(p: Pack) -> None:
    assert sorted(p.solo) == [f"solo-{n:02d}" for n in range(1, 19)]
    years = Counter(c.year for c in p.solo.values())
    assert years[1939] >= 8  # 6 dealt in 1939, 2 leave in each of 1940..1943
    assert years[1939] >= 6
    deck = years[1939]
    for year, deal in ((1940, 5), (1941, 6), (1942, 7), (1943, 9)):  # solo rules 2 and 3
        deck += years[year] - 2
        assert deck >= deal, year
    assert deck >= 9  # the 1943 deck
    for c in p.solo.values():
        for part in (c.germany, c.japan):
            assert part.actions and sorted(part.units) == ["army", "fleet"]
            assert all(v in ("build", "move", "destroy") and u in ("army", "fleet") for v, u in part.actions)


def test_every_line_lists_known_spaces(p: Pack) -> None:
    spaces = p.boards["basic+arctic"].spaces
    for c in p.solo.values():
        assert sorted(c.lines) == ["germany", "japan"]
        for orient in ("germany", "japan"):
            assert len(c.lines[orient]) == 4
            for line in c.lines[orient]:
                assert line and set(line) <= set(spaces), (c.id, orient)
                assert len(set(line)) == len(line)
            for key in ("basic", "alternative"):  # every arrow offers a choice on either side without the Arctic
                assert all(line_on(p.boards[key], c, orient, n) for n in (1, 2, 3, 4)), (c.id, orient, key)


def test_the_lines_are_the_script_s_geometry(p: Pack) -> None:
    spec = importlib.util.spec_from_file_location("td_solo_lines", ROOT / "scripts" / "td_solo_lines.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["td_solo_lines"] = mod
    spec.loader.exec_module(mod)
    raw = yaml.safe_load((DATA_DIR / "solo.yaml").read_text(encoding="utf-8"))
    xy = mod.board_xy()
    for c in raw["cards"]:
        computed = mod.lines_for(xy, c["arrows"])
        assert {o: [tuple(x) for x in ls] for o, ls in computed.items()} == \
            {o: list(ls) for o, ls in p.solo[c["id"]].lines.items()}, c["id"]


def test_a_solo_card_reproduces_the_rulebook_example(p: Pack) -> None:
    """Spec §16.5: move army, build army, destroy army; along German arrow 1 the Balkans is the first
    empty space a German army can reach, and Romania (its neutral army) comes before Poland."""
    c = p.solo["solo-01"]
    assert c.germany.actions == (("move", "army"), ("build", "army"), ("destroy", "army"))
    assert c.germany.units[0] == "army"
    b = p.boards["basic"]
    line = line_on(b, c, "germany", 1)
    assert line.index("romania") < line.index("poland")
    occupied = {pl.space for pl in p.scenarios["full"].placements}
    first_empty = next(s for s in line if s not in occupied and b.spaces[s].shape != "island")
    assert first_empty == "balkans"
    assert "land" in b.kinds_between("germany", "balkans")
    assert "arrow" in b.kinds_between("romania", "czechoslovakia")


# ------------------------------------------------------------------ §18.5, §18.6, §18.9, §18.10 the sheets


def test_the_round_track(p: Pack) -> None:
    assert sorted(p.years) == list(range(1939, 1946))
    assert p.years[1939].starts == "germany"
    assert [p.years[y].passes for y in range(1939, 1946)] == ["left", "right"] * 3 + ["left"]
    assert p.years[1939].draw == p.years[1941].draw == 4
    assert all(y.starts in POWERS for y in p.years.values())


def test_the_non_aligned_tracks_end_where_their_decks_run_out(p: Pack) -> None:
    assert p.tracks == {"usa": 4, "china": 2}
    assert p.tracks["usa"] == sum(c.deck == "usa" for c in p.cards.values())
    assert p.tracks["china"] == sum(c.deck == "china" for c in p.cards.values())


def test_the_technology_sheet(p: Pack) -> None:
    assert sorted(p.techs) == ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "C1", "C2", "C3", "D1", "D2",
                               "E1", "E2", "E3"]
    assert {t.id for t in p.techs.values() if t.cube == "place"} == {"A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2"}
    assert {t.group for t in p.techs.values()} == {"land", "naval", "production", "intelligence", "rocketry"}
    a3, a4, b3, e2 = (p.techs[t] for t in ("A3", "A4", "B3", "E2"))
    assert {"A1", "A2"} < set(a3.requires) and len(a3.requires) == 3
    assert len(a4.requires) == 2 and set(b3.requires) == {"B1", "B2"}
    assert set(e2.requires_any) == {"D1", "D2"}
    assert p.techs["E3"].requires or p.techs["E3"].requires_any
    assert p.techs["C1"].name_pl == "Optymalizacja produkcji"


def test_the_unit_tokens(p: Pack) -> None:
    for power in POWERS:
        assert p.tokens[power]["army"] > 0 and p.tokens[power]["fleet"] > 0 and p.tokens[power]["bomber"] == 2
    assert p.tokens["germany"]["uboat"] >= 3
    assert not any("uboat" in p.tokens[n] for n in NATIONS if n != "germany")
    for nation in ("france", "italy", "usa", "china"):
        assert p.tokens[nation]["army"] > 0 and "fleet" in p.tokens[nation] and "bomber" not in p.tokens[nation]
    assert p.tokens["neutral"] == {"army": 5}
    assert token_limit(p, "uk", "resistance") == token_limit(p, "ussr", "resistance") == 6


def test_every_item_has_a_source(p: Pack) -> None:
    items = [s.source for s in p.boards["basic+arctic"].spaces.values()]
    items += [x.source for key in KEYS for x in p.boards[key].links]
    items += [c.source for c in p.cards.values()] + [t.source for t in p.techs.values()]
    items += [c.source for c in p.solo.values()] + [s.source for s in p.scenarios.values()]
    assert all(s.startswith(("reconstructed", "rulebook §")) for s in items)
    for name in ("board.yaml", "cards.yaml", "solo.yaml", "setup.yaml", "sheets.yaml"):
        assert yaml.safe_load((DATA_DIR / name).read_text(encoding="utf-8"))["source"]


# ------------------------------------------------------------------ a broken pack is caught


def broken_copy(tmp_path: Path, name: str, edit: Callable[[dict[str, Any]], None]) -> Path:
    out = tmp_path / "data"
    shutil.copytree(DATA_DIR, out)
    doc = yaml.safe_load((out / name).read_text(encoding="utf-8"))
    edit(doc)
    (out / name).write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return out


def _space(doc: dict[str, Any], sid: str) -> dict[str, Any]:
    return next(s for s in doc["spaces"] if s["id"] == sid)


def _card(doc: dict[str, Any], cid: str) -> dict[str, Any]:
    return next(c for c in doc["cards"] if c["id"] == cid)


def _link(doc: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    return next(x for x in doc["links"] if {x["a"], x["b"]} == {a, b})


LOADER_BREAKS: list[tuple[str, str, Callable[[dict[str, Any]], None], str]] = [
    ("link to an unknown space", "board.yaml", lambda d: d["links"].append({"a": "germany", "b": "atlantis",
                                                                           "kind": "land"}), "atlantis"),
    ("bad link kind", "board.yaml", lambda d: _link(d, "poland", "ukraine").update(kind="rail"), "rail"),
    ("bad shape", "board.yaml", lambda d: _space(d, "poland").update(shape="hexagon"), "hexagon"),
    ("duplicate space", "board.yaml", lambda d: d["spaces"].append(dict(_space(d, "poland"))), "duplicate"),
    ("sea lane into a land space", "board.yaml",
     lambda d: d["links"].append({"a": "poland", "b": "atlantic_ocean", "kind": "sea"}), "sea lane"),
    ("arctic link flag missing", "board.yaml", lambda d: _link(d, "arctic", "iceland").pop("arctic"), "arctic"),
    ("unknown key", "board.yaml", lambda d: _space(d, "poland").update(starz=2), "starz"),
    ("duplicate card", "cards.yaml", lambda d: _card(d, "td-02").update(id="td-01"), "duplicate"),
    ("unknown tech", "cards.yaml", lambda d: _card(d, "td-02").update(tech="F1"), "F1"),
    ("bad event kind", "cards.yaml", lambda d: _card(d, "td-02")["event"].update(kind="sabotage"), "sabotage"),
    ("bad flag", "cards.yaml", lambda d: _card(d, "td-06")["event"].update(flag="swiss"), "swiss"),
    ("placement on an unknown space", "setup.yaml",
     lambda d: d["standard"].append({"space": "atlantis", "nation": "uk", "kind": "army"}), "atlantis"),
    ("bad unit kind", "setup.yaml", lambda d: d["standard"][0].update(kind="tank"), "tank"),
    ("line through an unknown space", "solo.yaml",
     lambda d: d["cards"][0]["lines"]["germany"][0].append("atlantis"), "atlantis"),
    ("bad automa verb", "solo.yaml", lambda d: d["cards"][0]["germany"]["actions"][0].__setitem__(0, "bomb"),
     "bomb"),
    ("unknown prerequisite", "sheets.yaml", lambda d: d["techs"][2]["requires"].append("Z9"), "Z9"),
]


@pytest.mark.parametrize(("what", "name", "edit", "needle"), LOADER_BREAKS, ids=[b[0] for b in LOADER_BREAKS])
def test_the_loader_refuses_a_malformed_pack(tmp_path: Path, what: str, name: str,
                                             edit: Callable[[dict[str, Any]], None], needle: str) -> None:
    data = broken_copy(tmp_path, name, edit)
    with pytest.raises(ValueError, match=name.replace(".", r"\.")) as caught:
        pack_load.read(data, audit_pack=False)
    assert needle in str(caught.value), what


def _move_star(d: dict[str, Any]) -> None:
    _space(d, "austria")["stars"] = 2


def _drop_fall_army(d: dict[str, Any]) -> None:
    fall = next(s for s in d["scenarios"] if s["id"] == "fall_of_the_axis")
    fall["placements"] = [pl for pl in fall["placements"] if pl["space"] != "benelux"]


def _retag_tech(d: dict[str, Any]) -> None:
    _card(d, "td-01")["tech"] = "A2"


def _solo_example_moved(d: dict[str, Any]) -> None:
    d["cards"][0]["lines"]["germany"][0] = ["poland", "romania", "balkans"]


AUDIT_BREAKS: list[tuple[str, str, Callable[[dict[str, Any]], None]]] = [
    ("stars_equal_starting_vp", "board.yaml", _move_star),
    ("capitals", "board.yaml", lambda d: _space(d, "italy").update(capital=True, stars=3)),
    ("factories_and_shipyards", "board.yaml", lambda d: _space(d, "france").pop("shipyard")),
    ("worked_example_geography", "board.yaml", lambda d: _link(d, "poland", "ukraine").update(kind="sea")
     or _space(d, "poland").update(shape="coastal")),
    ("worked_example_geography", "board.yaml", lambda d: _link(d, "czechoslovakia", "romania").update(kind="land")),
    ("uboat_spaces", "board.yaml", lambda d: _space(d, "caribbean_sea").pop("uboat")),
    ("arctic_spaces", "board.yaml", lambda d: _space(d, "sweden").update(arctic=True) or
     [x.update(arctic=True) for x in d["links"] if "sweden" in (x["a"], x["b"])]),
    ("arctic_spaces", "setup.yaml", lambda d: d["arctic_extra"][0].update(space="norway")),
    ("alternative_side", "board.yaml", lambda d: _link(d, "czechoslovakia", "romania").pop("sides")),
    ("connectivity", "board.yaml", lambda d: d.update(links=[x for x in d["links"] if "hawaii" not in
                                                             (x["a"], x["b"])])),
    ("cards", "cards.yaml", lambda d: _card(d, "td-01").update(op=7)),
    ("cards", "cards.yaml", _retag_tech),
    ("cards", "cards.yaml", lambda d: _card(d, "td-59").pop("deck")),
    ("events", "cards.yaml", lambda d: _card(d, "td-01")["event"].update(value=7)),
    ("events", "cards.yaml", lambda d: _card(d, "td-08").update(colour="uk")),
    ("events", "cards.yaml", lambda d: _card(d, "td-06")["event"].update(vp=3)),
    ("solo_deck", "solo.yaml", lambda d: [c.update(year=1940) for c in d["cards"][:3]]),
    ("solo_example", "solo.yaml", _solo_example_moved),
    ("placements", "setup.yaml", lambda d: d["standard"].append({"space": "japan", "nation": "japan",
                                                                  "kind": "army", "count": 2})),
    ("placements", "setup.yaml", lambda d: d["standard"].append({"space": "hawaii", "nation": "usa",
                                                                  "kind": "army"})),
    ("scenarios", "setup.yaml", _drop_fall_army),
    ("scenarios", "board.yaml", lambda d: [_space(d, sid).update(stars=2) for sid in
                                           ("libya", "marianas", "solomon_islands", "east_indies")]),
    ("sheets", "sheets.yaml", lambda d: d["years"][1].update(passes="left")),
    ("techs", "sheets.yaml", lambda d: d["techs"][2].update(requires=["A1"])),
    ("sources", "board.yaml", lambda d: _space(d, "poland").update(source="my uncle's board")),
]


@pytest.mark.parametrize(("check", "name", "edit"), AUDIT_BREAKS,
                         ids=[f"{b[0]}-{i}" for i, b in enumerate(AUDIT_BREAKS)])
def test_the_audit_catches_a_broken_pack(tmp_path: Path, check: str, name: str,
                                         edit: Callable[[dict[str, Any]], None]) -> None:
    data = broken_copy(tmp_path, name, edit)
    built = pack_load.read(data, audit_pack=False)
    assert pack_load.CHECKS[check](built), f"{check} missed the break"
    with pytest.raises(ValueError, match=check):
        pack_load.read(data)
