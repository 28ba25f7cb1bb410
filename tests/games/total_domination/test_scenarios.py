"""The starting positions: the scenarios (spec §14) as rules.setup applies them from the data pack, and
the alternative setup (spec §13.3)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from app.games.protocol import Action
from app.games.total_domination import derived, scenarios
from app.games.total_domination.pack import pack
from app.games.total_domination.rules import GAME
from app.games.total_domination.state import dump
from tests.games.total_domination.admin_kit import run
from tests.games.total_domination.boards import home, land, stage, stub_pack


def new_game(players=4, seed=3, **options):
    return GAME.setup(options, GAME.roles(players, options), random.Random(seed))


def on_board(st, skip_neutral=True):
    return Counter((u.nation, u.kind, u.space) for u in st.units if not (skip_neutral and u.nation == "neutral"))


# ---------------------------------------------------------------- Fall of the Axis (§14.2), verbatim
FALL = {
    # Germany: 1 German army each in Poland, Baltic States, Ukraine, Benelux; 1 Italian army in Libya;
    # 1 German fleet in France; 2 U-boats in the Atlantic Ocean and 1 in the Caribbean Sea
    ("germany", "army", "poland"): 1, ("germany", "army", "baltic_states"): 1, ("germany", "army", "ukraine"): 1,
    ("germany", "army", "benelux"): 1, ("italy", "army", "libya"): 1, ("germany", "fleet", "france"): 1,
    ("germany", "uboat", "atlantic_ocean"): 2, ("germany", "uboat", "caribbean_sea"): 1,
    # UK: 1 British army each in India, Persia, Egypt; 1 US army each in Eastern and Western USA; 2 British
    # fleets in Great Britain and 1 in the Atlantic Ocean; 1 US fleet in Western USA and 1 in Hawaii
    ("uk", "army", "india"): 1, ("uk", "army", "persia"): 1, ("uk", "army", "egypt"): 1,
    ("usa", "army", "eastern_usa"): 1, ("usa", "army", "western_usa"): 1, ("uk", "fleet", "great_britain"): 2,
    ("uk", "fleet", "atlantic_ocean"): 1, ("usa", "fleet", "western_usa"): 1, ("usa", "fleet", "hawaii"): 1,
    # Japan: 1 Japanese army each in Indochina, East Indies, Siam, Burma; 1 Japanese fleet each in Nanking,
    # Ryukyu, Philippines, Marianas, Solomon Islands
    ("japan", "army", "indochina"): 1, ("japan", "army", "east_indies"): 1, ("japan", "army", "siam"): 1,
    ("japan", "army", "burma"): 1, ("japan", "fleet", "nanking"): 1, ("japan", "fleet", "ryukyu"): 1,
    ("japan", "fleet", "philippines"): 1, ("japan", "fleet", "marianas"): 1, ("japan", "fleet", "solomon_islands"): 1,
    # USSR: 2 Soviet armies in Siberia; 1 in Northern USSR and 1 in Southern USSR; 1 Chinese army in China
    ("ussr", "army", "siberia"): 2, ("ussr", "army", "northern_ussr"): 1, ("ussr", "army", "southern_ussr"): 1,
    ("china", "army", "china"): 1,
}


def test_fall_of_the_axis_places_exactly_the_units_of_14_2():
    st = new_game(scenario="fall_of_the_axis")
    assert on_board(st) == Counter(FALL)
    assert st.year == 1943 and st.options["first_year"] == 1943 and st.options["last_year"] == 1945


def test_fall_of_the_axis_france_is_germanys_with_the_french_units_in_the_german_pool():
    st = new_game(scenario="fall_of_the_axis")
    assert st.controller["france"] == "germany" and st.controller["italy"] == "germany"
    assert not any(u.nation == "france" for u in st.units)
    assert derived.controller(st, "france") == "germany" and derived.is_home_of(st, "france", "germany")


def test_fall_of_the_axis_starts_with_the_packs_techs_tracks_and_no_arctic():
    data = pack().scenarios["fall_of_the_axis"]
    st = new_game(scenario="fall_of_the_axis", arctic=True, setup="alternative")
    assert st.options["arctic"] is False and "arctic" not in st.board and st.options["setup"] == "standard"
    assert {p: tuple(t) for p, t in st.techs.items()} == {p: data.techs.get(p, ()) for p in st.techs}
    assert st.tracks == {"usa": 0, "china": 0, **data.tracks}
    for nation, joins in (("usa", "uk"), ("china", "ussr")):
        # a track set at its last space: the country has joined, and it counts for the Allied threshold
        if data.tracks.get(nation, 0) >= pack().tracks[nation]:
            assert st.controller[nation] == joins
    assert derived.allied_threshold(st) == 33 + 2 * sum(derived.joined(st, n) for n in ("usa", "china"))


def test_fall_of_the_axis_a_country_joined_at_the_start_has_its_cards_in_the_main_deck():
    data = pack()
    st = new_game(scenario="fall_of_the_axis")
    for nation in ("usa", "china"):
        if data.scenarios["fall_of_the_axis"].tracks.get(nation, 0) >= data.tracks[nation]:
            assert st.decks[nation] == []
            rest = json.dumps({k: v for k, v in dump(st).items() if k != "decks"})
            assert all(f'"{c.id}"' in rest for c in data.cards.values() if c.deck == nation)
    full = new_game()
    assert all(len(full.decks[n]) == sum(1 for c in data.cards.values() if c.deck == n) for n in ("usa", "china"))


def test_fall_of_the_axis_the_starting_techs_cards_lie_by_the_sheets_out_of_the_deck():
    data = pack()
    st = new_game(scenario="fall_of_the_axis")
    for power, techs in data.scenarios["fall_of_the_axis"].techs.items():
        cards = st.tech_cards[power]
        assert sorted(data.cards[c].tech for c in cards) == sorted(techs)
        assert all(data.cards[c].deck == "main" for c in cards)
    held = [c for cs in st.tech_cards.values() for c in cs]
    assert len(set(held)) == len(held) == sum(len(t) for t in data.scenarios["fall_of_the_axis"].techs.values())
    # nowhere else in the state: not in the deck, the discards, the hands or the draft's packets
    rest = json.dumps({k: v for k, v in dump(st).items() if k != "tech_cards"})
    assert not [c for c in held if f'"{c}"' in rest]


def test_rise_of_the_axis_runs_1939_to_1942_from_the_standard_setup():
    st = new_game(scenario="rise_of_the_axis")
    full = new_game(scenario="full")
    assert st.year == 1939 and st.options["last_year"] == 1942
    assert on_board(st, skip_neutral=False) == on_board(full, skip_neutral=False)


def test_the_full_game_starts_in_1939_from_the_standard_setup_with_the_arctic_extra_army():
    data = pack()
    st = new_game(arctic=True)
    standard = Counter()
    for pl in (*data.scenarios["full"].placements, *data.arctic_extra):
        standard[(pl.nation, pl.kind, pl.space)] += pl.count
    assert on_board(st, skip_neutral=False) == standard
    assert st.year == 1939 and st.options["last_year"] == 1945 and st.tech_cards == {}
    assert derived.vp(st) == {p: data.starting_vp[p] for p in derived.POWERS}


# ---------------------------------------------------------------- the alternative setup (§13.3)
def place_all(st, pick=lambda d: d.choices[0].id):
    """Answer every placement; returns the seats asked, in order, and the units placed per (power, nation)."""
    asked = []
    while (d := GAME.pending(st)) and d[0].kind == "place":
        asked.append(d[0].seat)
        GAME.apply(st, d[0].seat, Action(decision=d[0].id, choices=(pick(d[0]),)), random.Random(1))
    return asked


def test_alternative_setup_order_and_counts():
    st = new_game(setup="alternative", bombers=True)
    assert on_board(st) == Counter()  # only the neutral armies stand before the players place
    assert {u.space for u in st.units} == {pl.space for pl in pack().scenarios["full"].placements
                                           if pl.nation == "neutral"}
    asked = place_all(st)
    seat = {p: s for s in GAME.roles(4, {}) for p in s.roles}
    # USSR 4 + 2 Chinese, Japan 6, UK 3 + 1 French + 1 US fleet + 2 US, Germany 5 + 1 Italian; the US fleet
    # has one possible place (the Philippines), so it is placed without a question
    assert asked == [seat["ussr"].id] * 6 + [seat["japan"].id] * 6 + [seat["uk"].id] * 6 + [seat["germany"].id] * 6
    by_nation = Counter(u.nation for u in st.units if u.nation != "neutral")
    assert by_nation == {"ussr": 4, "china": 2, "japan": 6, "uk": 3, "france": 1, "usa": 3, "germany": 5, "italy": 1}
    geo = st.geo
    for u in st.units:
        if u.nation != "neutral":
            assert geo.spaces[u.space].nation == u.nation  # each on its own nation's home spaces
    assert {u.space for u in st.units if u.nation == "china"} <= set(geo.home_spaces("china"))
    assert [u.space for u in st.units if u.nation == "france"] == ["france"]
    assert [u.space for u in st.units if u.nation == "italy"] == ["italy"]
    us = sorted((u.kind, u.space) for u in st.units if u.nation == "usa")
    assert us[0] == ("fleet", "philippines") or ("fleet", "philippines") in us
    assert sum(1 for _, s in us if s in ("eastern_usa", "western_usa")) == 2
    assert st.phase != "setup" and GAME.pending(st) and GAME.pending(st)[0].kind != "place"


def test_alternative_setup_respects_shapes_stacking_and_the_bomber_limit():
    st = new_game(setup="alternative", bombers=True)
    greedy = {"bomber": 0}

    def pick(d):
        # always try a bomber first, then the first space offered (fills it to its limit)
        bombers = [c.id for c in d.choices if c.id.startswith("bomber@")]
        if bombers:
            greedy["bomber"] += 1
            return bombers[0]
        return d.choices[0].id

    place_all(st, pick)
    for space, sp in st.geo.spaces.items():
        here = [u for u in st.units if u.space == space and u.kind not in ("uboat", "resistance")]
        assert len(here) <= sp.limit
        for u in here:
            assert not (u.kind == "army" and sp.shape == "island") and not (u.kind == "fleet" and sp.shape == "land")
    per_power = Counter(st.power_of(u.nation) for u in st.units if u.kind == "bomber")
    assert all(n == 1 for n in per_power.values()) and len(per_power) == 4


def test_alternative_setup_placements_are_undoable_but_the_last():
    st = new_game(setup="alternative")
    first = GAME.pending(st)[0]
    assert first.undoable
    while (d := GAME.pending(st)) and d[0].kind == "place":
        last = d[0]
        GAME.apply(st, d[0].seat, Action(decision=d[0].id, choices=(d[0].choices[0].id,)), random.Random(1))
    assert not last.undoable


def test_without_the_alternative_setup_the_step_does_nothing():
    st = new_game()
    assert not GAME.pending(st) or GAME.pending(st)[0].kind != "place"


def test_alternative_setup_runs_only_in_the_first_year(monkeypatch):
    stub_pack(monkeypatch)
    st = stage(spaces=[home("moscow", "ussr", shape="land", capital=True)], year=1940,
               options={"setup": "alternative", "first_year": 1939})
    run(st, {"k": "alternative_setup"})
    assert st.stack == [] and st.units == []


def test_solo_alternative_setup_the_automa_keeps_its_standard_units():
    st = new_game(players=1, setup="alternative")
    data = pack()
    axis_standard = Counter((pl.nation, pl.kind, pl.space) for pl in data.scenarios["full"].placements
                            for _ in range(pl.count) if pl.nation in ("germany", "japan", "italy"))
    assert on_board(st) == axis_standard
    asked = place_all(st)
    assert len(asked) == 6 + 6 and set(asked) == {"p1"}  # the USSR's and the UK's (the US fleet goes by itself)
    assert Counter(u.nation for u in st.units if u.nation in ("ussr", "china", "uk", "france", "usa")) == {
        "ussr": 4, "china": 2, "uk": 3, "france": 1, "usa": 3}


def test_place_options_exclude_full_spaces_and_wrong_shapes(monkeypatch):
    stub_pack(monkeypatch)
    st = stage(spaces=[home("moscow", "ussr", shape="land", capital=True), home("kiev", "ussr", shape="land"),
                       home("odessa", "ussr"), land("poland")],
               units=[("ussr", "army", "kiev"), ("ussr", "army", "kiev")], options={"bombers": False})
    slot = {"power": "ussr", "nation": "ussr", "kinds": None, "spaces": None}
    assert scenarios.place_options(st, slot) == [("army", "moscow"), ("army", "odessa"), ("fleet", "odessa")]


@pytest.mark.parametrize("raw", [
    {"order": ["ussr", "germany"], "units": {"ussr": [{"nation": "china", "kinds": ["army"], "count": 2}],
                                             "germany": [{"nation": "germany", "count": 1}]}},
    {"order": ["ussr", "germany"], "ussr": [{"nation": "china", "kind": "army", "count": 2}],
     "germany": [{"nation": "germany", "kind": "any"}]},
])
def test_the_packs_alternative_setup_is_read_in_either_shape(raw):
    got = scenarios.slots(raw)
    assert [(s["power"], s["nation"], s["kinds"]) for s in got] == [("ussr", "china", ["army"])] * 2 + [
        ("germany", "germany", None)]


def test_book_lists_match_the_pack():
    pack_slots = Counter((s["power"], s["nation"]) for s in scenarios.slots(pack().alternative_setup))
    assert pack_slots == Counter((s["power"], s["nation"]) for s in scenarios.slots(scenarios.BOOK))
