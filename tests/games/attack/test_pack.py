"""Attack!'s data pack: the facts of spec §23 on the shipped pack, then every audit check proven by
breaking a copy of the YAML files (the loader refuses the broken pack, and the audit names the check).
"""

from __future__ import annotations

import copy
import functools
import shutil
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.games.attack import pack_load
from app.games.attack.pack import (
    CONTINENTS,
    COSTS,
    DATA_DIR,
    ECON_TYPES,
    LAND_TYPES,
    SET_TYPES,
    START_CARDS,
    START_LAND,
    START_NAVY,
    START_REGIONS,
    Map,
    Pack,
    geo,
    pack,
)
from app.games.attack.text import catalogue

FILES = ("map.yaml", "economics.yaml", "dice.yaml", "colours.yaml")
ISLANDS = ("iceland", "ireland", "britain", "newfoundland", "greenland", "cuba", "hispaniola", "madagascar")


@pytest.fixture(scope="module")
def p() -> Pack:
    return pack()


# ------------------------------------------------------------------ the shipped pack


def test_the_pack_loads_and_passes_its_audit(p: Pack) -> None:
    assert pack_load.audit(p) == []
    assert p.problems == ()
    assert 70 <= len(p.map.regions) <= 95  # the western half of the world as named regions (§23.1)
    assert 90 <= len(p.econ) <= 110
    assert geo("west") is p.map


def test_the_loader_builds_the_same_map_as_map_build(p: Pack) -> None:
    m = p.map
    built = Map.build("again", m.regions.values(), [(a, b) for a in m.land for b in m.land[a]], m.lanes,
                      m.zones.values())
    assert built.land == m.land and built.sea == m.sea


def test_starting_forces_are_the_books_A_4_1() -> None:
    assert START_LAND == {"INF": 12, "TNK": 6, "ART": 4, "PLN": 2} and sum(START_LAND.values()) == 24
    assert START_NAVY == {"BB": 1, "DD": 2, "SS": 2}
    assert (START_CARDS, START_REGIONS) == (4, 4)


def test_costs_are_the_books_A_20_5() -> None:
    assert COSTS == {"INF": 5, "TNK": 10, "ART": 8, "PLN": 15, "DD": 5, "SS": 5, "BB": 10, "CV": 20}


def test_battle_die_faces_A_2_gap_23_2(p: Pack) -> None:
    # the Polish text names infantry, tank, gun, plane and one blank; the English book a second plane
    assert sorted(p.die_faces) == sorted(("INF", "TNK", "ART", "PLN", "PLN", "BLANK"))


def test_the_navy_deck_has_no_limit_gap_23_4(p: Pack) -> None:
    assert p.navy_limit is None  # spec §24 default: the deck's size is unknown


def test_six_colours_with_the_books_three_A_2(p: Pack) -> None:
    assert len(p.colours) == 6
    assert {"light_brown", "green", "blue"} <= {c.id for c in p.colours}


def test_land_ex_1_ukraine_and_its_neighbours(p: Pack) -> None:
    m = p.map
    ukraine = m.regions["ukraine"]
    assert (ukraine.name, ukraine.name_pl, ukraine.continent) == ("Ukraine", "Ukraina", "eurasia")
    assert "rulebook" in ukraine.source
    assert m.neighbours("ukraine") == {"poland", "belorussia", "romania", "moscow", "volga", "caucasus"}
    assert 30 <= ukraine.lon <= 35 and 47 <= ukraine.lat <= 51


def test_the_black_sea_is_part_of_the_mediterranean_A_3_2_5(p: Pack) -> None:
    med = p.map.zones["mediterranean"]
    assert med.anchored
    assert {"ukraine", "romania", "bulgaria", "turkey", "caucasus"} <= set(med.borders)
    # one sea move from the Black Sea to the far end of the Mediterranean
    assert {"spain", "morocco", "egypt"} <= p.map.by_sea("ukraine")


def test_panama_borders_the_caribbean_A_3_2_5(p: Pack) -> None:
    m = p.map
    assert "panama" in m.zones["caribbean"].borders and m.zones["caribbean"].anchored
    assert m.neighbours("panama") == {"central_america", "colombia"}
    assert "venezuela" in m.by_sea("panama") and "cuba" in m.by_sea("panama")


def test_the_north_sea_zone_is_anchored_A_7_3_3(p: Pack) -> None:
    m = p.map
    assert m.zones["north_sea"].anchored
    assert {"norway", "germany", "denmark", "low_countries", "france"} <= m.by_sea("britain")
    assert m.adjacent("britain", "norway")  # the anchor counts for diplomacy too


def test_the_north_atlantic_is_the_centre_of_the_board_not_an_anchor_A_3_2_6(p: Pack) -> None:
    atlantic = p.map.zones["north_atlantic"]
    assert not atlantic.anchored  # an anchor there would join every Atlantic coast in one move
    assert {"eastern_usa", "britain", "morocco"} <= set(atlantic.borders)
    assert "britain" not in p.map.by_sea("morocco")  # Atlantic crossings go by lanes only


def test_sea_lanes_cross_the_oceans(p: Pack) -> None:
    m = p.map
    assert "cuba" in m.by_sea("florida") and "britain" in m.by_sea("eastern_usa")
    assert "senegal" in m.by_sea("brazil")  # the narrows of the South Atlantic
    assert "mozambique" in m.by_sea("madagascar")


@pytest.mark.parametrize("island", ISLANDS)
def test_islands_have_no_land_links(p: Pack, island: str) -> None:
    assert p.map.neighbours(island) == frozenset() and p.map.by_sea(island)


def test_continents_A_3_3_and_A_4_4(p: Pack) -> None:
    regions = p.map.regions.values()
    counts = {c: sum(r.continent == c for r in regions) for c in CONTINENTS}
    assert min(counts.values()) >= 6  # six players may each need one region on every continent
    assert {r: p.map.regions[r].continent for r in ("egypt", "turkey", "panama", "rio_de_la_plata", "greenland")} == \
        {"egypt": "africa", "turkey": "eurasia", "panama": "north_america", "rio_de_la_plata": "south_america",
         "greenland": "north_america"}
    # the continents touch where the world does: Panama-Colombia and Egypt-Palestine by land
    assert "colombia" in p.map.neighbours("panama") and "palestine" in p.map.neighbours("egypt")


def test_buenos_aires_lies_in_rio_de_la_plata(p: Pack) -> None:
    r = p.map.regions["rio_de_la_plata"]
    assert "Buenos Aires" in r.source and abs(r.lon - -58.4) < 5 and abs(r.lat - -34.6) < 3


def test_polish_names_are_exonyms(p: Pack) -> None:
    pl = {r.id: r.name_pl for r in p.map.regions.values()}
    assert {k: pl[k] for k in ("britain", "germany", "italy", "belorussia", "caucasus", "egypt", "mexico")} == {
        "britain": "Wielka Brytania", "germany": "Niemcy", "italy": "Włochy", "belorussia": "Białoruś",
        "caucasus": "Kaukaz", "egypt": "Egipt", "mexico": "Meksyk"}
    assert p.map.zones["north_sea"].name_pl == "Morze Północne"
    assert p.map.zones["mediterranean"].name_pl == "Morze Śródziemne"


def test_every_item_has_a_source_and_the_books_places_cite_it(p: Pack) -> None:
    m = p.map
    for item in [*m.regions.values(), *m.zones.values(), *m.lanes, *p.econ.values(), *p.colours]:
        assert item.source
    for zone in ("north_sea", "mediterranean", "caribbean", "north_atlantic"):
        assert m.zones[zone].source.startswith("rulebook")
    assert m.regions["panama"].source.startswith("rulebook")


def test_the_economics_deck_A_17(p: Pack) -> None:
    cards = list(p.econ.values())
    assert {c.type for c in cards} == set(ECON_TYPES)
    assert {c.value for c in cards} == {1, 2, 3, 4}
    assert len(cards) >= len(p.map.regions)  # a card for every region gained
    assert all(1 <= sum(c.defending().values()) <= 6 and set(c.defending()) <= set(LAND_TYPES) for c in cards)
    by_value = {v: statistics.mean(sum(c.defending().values()) for c in cards if c.value == v) for v in (1, 2, 3, 4)}
    assert by_value[1] < by_value[2] < by_value[3] < by_value[4]  # richer places are better defended
    assert p.econ["ec-001"].defenders[0][0] == "INF"  # defenders in the casualty order


def test_sets_are_within_reach_A_17_6(p: Pack) -> None:
    counts = {t: sum(c.type == t for c in p.econ.values()) for t in SET_TYPES}
    assert min(counts.values()) >= 15  # six players can each complete two disjoint sets
    assert sum(c.type == "POP" for c in p.econ.values()) >= 20


def test_the_production_example_can_be_dealt_A_20_3(p: Pack) -> None:
    found = pack_load.example_a20_3(p)
    assert found is not None
    the_set, others = found
    assert sorted(p.econ[c].type for c in the_set) == sorted(SET_TYPES)
    assert sum(p.econ[c].value for c in the_set) == 9 and sum(p.econ[c].value for c in others) == 9
    assert 10 + 2 * 9 + 9 == 37  # one capital, the set doubled, the rest at face value: the book's 37 PP


def test_card_names_never_appear_in_the_catalogues_texts(p: Pack) -> None:
    """A card in a hand is a secret matched as text (spec §25.2): no other word of the game may contain it."""
    cat = catalogue()
    card_ids = set(p.econ)
    texts: list[str] = []
    for lang in ("en", "pl"):
        for template in cat.messages[lang].values():
            texts += list(template.values()) if isinstance(template, dict) else [template]
        texts += [name for key, name in cat.terms[lang].items() if key.split(":")[0] not in card_ids]
    for card in p.econ.values():
        for name in (card.name, card.name_pl):
            hits = [t for t in texts if name.casefold() in t.casefold()]
            assert hits == [], (card.id, name, hits)


def test_every_region_has_an_outline_around_its_centre(p: Pack) -> None:
    for r in p.map.regions.values():
        assert len(r.outline) >= 6 and pack_load._inside(r.lon, r.lat, r.outline), r.id


def test_coordinates_are_in_the_western_half_of_the_world(p: Pack) -> None:
    for r in p.map.regions.values():
        assert -170 <= r.lon <= 70 and -56 <= r.lat <= 85, r.id
    assert p.map.regions["eastern_usa"].lon < p.map.regions["britain"].lon < p.map.regions["moscow"].lon
    assert p.map.regions["egypt"].lat > p.map.regions["south_africa"].lat


# ------------------------------------------------------------------ each check, by breaking a copy


Docs = dict[str, Any]


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


@functools.cache
def _shipped() -> Docs:
    return {name: yaml.load((DATA_DIR / name).read_text(encoding="utf-8"), Loader=_LOADER) for name in FILES}


def _docs() -> Docs:
    return copy.deepcopy(_shipped())


def _write(tmp_path: Path, docs: Docs) -> Path:
    """A copy of the data folder with the edited files rewritten (the others copied as they are)."""
    out = tmp_path / "data"
    shutil.copytree(DATA_DIR, out)
    for name, doc in docs.items():
        if doc != _shipped()[name]:
            (out / name).write_text(yaml.dump(doc, Dumper=_DUMPER, allow_unicode=True, sort_keys=False),
                                    encoding="utf-8")
    return out


def _region(d: Docs, rid: str) -> dict[str, Any]:
    return next(r for r in d["map.yaml"]["regions"] if r["id"] == rid)


def _zone(d: Docs, zid: str) -> dict[str, Any]:
    return next(z for z in d["map.yaml"]["zones"] if z["id"] == zid)


def _card(d: Docs, cid: str) -> dict[str, Any]:
    return next(c for c in d["economics.yaml"]["cards"] if c["id"] == cid)


def _drop_region_from(d: Docs, zid: str, rid: str) -> None:
    _zone(d, zid)["borders"].remove(rid)


def _unreachable_madagascar(d: Docs) -> None:
    d["map.yaml"]["lanes"] = [x for x in d["map.yaml"]["lanes"] if "madagascar" not in (x["a"], x["b"])]


def _small_continent(d: Docs) -> None:
    for r in d["map.yaml"]["regions"]:
        if r["continent"] == "south_america" and r["id"] not in ("colombia", "peru", "chile"):
            r["continent"] = "africa"


def _no_example(d: Docs) -> None:
    for c in d["economics.yaml"]["cards"]:
        if c["type"] in SET_TYPES:
            c["value"] = 4


BREAKS: list[tuple[str, Callable[[Docs], Any], str]] = [
    ("one-sided land link", lambda d: _region(d, "ukraine")["land"].remove("poland"), "land_symmetric"),
    ("unknown land neighbour", lambda d: _region(d, "ukraine")["land"].append("atlantis"), "ids_resolve"),
    ("unknown zone border", lambda d: _zone(d, "north_sea")["borders"].append("atlantis"), "ids_resolve"),
    ("unknown lane end", lambda d: d["map.yaml"]["lanes"].append({"a": "cuba", "b": "atlantis", "source": "x"}),
     "ids_resolve"),
    ("unknown adjacent zone", lambda d: _zone(d, "red_sea")["zones"].append("sargasso"), "ids_resolve"),
    ("one-sided zone adjacency", lambda d: _zone(d, "red_sea")["zones"].remove("indian_ocean"), "links"),
    ("lane to itself", lambda d: d["map.yaml"]["lanes"].append({"a": "cuba", "b": "cuba", "source": "x"}), "links"),
    ("lane written twice", lambda d: d["map.yaml"]["lanes"].append({"a": "cuba", "b": "florida", "source": "x"}),
     "links"),
    ("lane between land neighbours",
     lambda d: d["map.yaml"]["lanes"].append({"a": "spain", "b": "portugal", "source": "x"}), "links"),
    ("lane across an anchored zone",
     lambda d: d["map.yaml"]["lanes"].append({"a": "britain", "b": "norway", "source": "x"}), "links"),
    ("region its own neighbour", lambda d: _region(d, "ukraine")["land"].append("ukraine"), "links"),
    ("land neighbour listed twice", lambda d: _region(d, "ukraine")["land"].append("poland"), "reading"),
    ("zone border listed twice", lambda d: _zone(d, "north_sea")["borders"].append("britain"), "reading"),
    ("duplicate region id", lambda d: d["map.yaml"]["regions"].append(dict(_region(d, "cuba"))), "reading"),
    ("unknown key", lambda d: _region(d, "cuba").update(capital=True), "reading"),
    ("the die without a source", lambda d: d["dice.yaml"].pop("source"), "reading"),
    ("unreachable region", _unreachable_madagascar, "reachable"),
    ("anchored zone of one region", lambda d: _zone(d, "baltic_sea").update(borders=["sweden"]), "anchored_zones"),
    ("unknown continent", lambda d: _region(d, "cuba").update(continent="asia"), "continents"),
    ("continent too small for six", _small_continent, "continents"),
    ("lon and lat swapped", lambda d: _region(d, "ukraine").update(lon=48.8, lat=31.5), "geography"),
    ("region on the wrong continent", lambda d: _region(d, "egypt").update(continent="south_america"), "geography"),
    ("a centre off its outline", lambda d: _region(d, "cuba").update(lon=-75.0, lat=24.0), "geography"),
    ("five die faces", lambda d: d["dice.yaml"]["faces"].pop(), "die"),
    ("unknown die face", lambda d: d["dice.yaml"].update(faces=["INF", "TNK", "ART", "PLN", "PLN", "SKULL"]), "die"),
    ("no tank face", lambda d: d["dice.yaml"].update(faces=["INF", "INF", "ART", "PLN", "PLN", "BLANK"]), "die"),
    ("unknown card type", lambda d: _card(d, "ec-001").update(type="GOLD"), "econ_cards"),
    ("card value 5", lambda d: _card(d, "ec-001").update(value=5), "econ_cards"),
    ("card value 0", lambda d: _card(d, "ec-001").update(value=0), "econ_cards"),
    ("unknown defender type", lambda d: _card(d, "ec-001")["defenders"].update(CAV=1), "econ_cards"),
    ("card without defenders", lambda d: _card(d, "ec-001").update(defenders={"INF": 0}), "econ_cards"),
    ("negative defenders", lambda d: _card(d, "ec-001")["defenders"].update(TNK=-1), "econ_cards"),
    ("deck smaller than the map", lambda d: d["economics.yaml"].update(cards=d["economics.yaml"]["cards"][:60]),
     "deck"),
    ("too few oil cards for sets",
     lambda d: d["economics.yaml"].update(cards=[c for c in d["economics.yaml"]["cards"] if c["type"] != "OIL"]
                                          + [c for c in d["economics.yaml"]["cards"] if c["type"] == "OIL"][:3]),
     "deck"),
    ("A-20.3 impossible", _no_example, "deck"),
    ("card ids of two widths", lambda d: _card(d, "ec-001").update(id="ec-0001"), "ids"),
    ("region id not snake_case", lambda d: _region(d, "cuba").update(id="Cuba Island"), "ids"),
    ("a zone id that is a region id", lambda d: _zone(d, "red_sea").update(id="egypt"), "ids"),
    ("region without a source", lambda d: _region(d, "cuba").pop("source"), "sources"),
    ("lane without a source", lambda d: d["map.yaml"]["lanes"][0].update(source=" "), "sources"),
    ("card without a source", lambda d: _card(d, "ec-001").pop("source"), "sources"),
    ("two regions of one name", lambda d: _region(d, "cuba").update(name="Florida"), "names"),
    ("a card named after a region", lambda d: _card(d, "ec-001").update(name="Cuban sugar"), "names"),
    ("a card named after a region, in Polish", lambda d: _card(d, "ec-001").update(name_pl="Cukier z Kuby i Peru"),
     "names"),
    ("a card name inside another", lambda d: _card(d, "ec-002").update(name="Baku oil fields of the Caspian"),
     "names"),
    ("a card name inside a region's", lambda d: _card(d, "ec-001").update(name="Flor"), "names"),
    ("a card without a Polish name", lambda d: _card(d, "ec-001").update(name_pl=""), "names"),
    ("five colours", lambda d: d["colours.yaml"]["colours"].pop(), "colours"),
    ("a bad hex colour", lambda d: d["colours.yaml"]["colours"][0].update(hex="brown"), "colours"),
    ("a navy deck too small for the starting fleets", lambda d: d["dice.yaml"].update(navy_limit={"DD": 3}), "navy"),
    ("Ukraine renamed", lambda d: _region(d, "ukraine").update(name_pl="Małorosja"), "book_facts"),
    ("the Black Sea coast off the Mediterranean", lambda d: _drop_region_from(d, "mediterranean", "romania"),
     "book_facts"),
    ("Panama off the Caribbean", lambda d: _drop_region_from(d, "caribbean", "panama"), "book_facts"),
    ("the North Sea without its anchor", lambda d: _zone(d, "north_sea").update(anchored=False), "book_facts"),
    ("no North Atlantic", lambda d: _zone(d, "north_atlantic").update(id="atlantic"), "book_facts"),
    ("no Rio de la Plata", lambda d: _region(d, "rio_de_la_plata").update(id="argentina"), "book_facts"),
]


@pytest.mark.parametrize(("what", "edit", "check"), BREAKS, ids=[b[0] for b in BREAKS])
def test_the_audit_catches_a_broken_copy(tmp_path: Path, what: str, edit: Callable[[Docs], Any], check: str) -> None:
    docs = _docs()
    edit(docs)
    data = _write(tmp_path, docs)
    found = pack_load.audit(pack_load.load_pack(data, check=False))
    assert any(f.startswith(f"{check}: ") for f in found), (what, found)
    with pytest.raises(ValueError, match="refused"):
        pack_load.load_pack(data)


def test_an_unbroken_copy_passes(tmp_path: Path) -> None:
    assert pack_load.audit(pack_load.load_pack(_write(tmp_path, _docs()), check=False)) == []


@pytest.mark.parametrize(("what", "edit", "message"), [
    ("a region without a name", lambda d: _region(d, "cuba").pop("name"), "region cuba: 'name' is missing"),
    ("a centre that is not a number", lambda d: _region(d, "cuba").update(lon="west"), "region cuba: 'lon'"),
    ("an anchor that is not yes or no", lambda d: _zone(d, "north_sea").update(anchored="yes"), "zone north_sea"),
    ("a value that is not a number", lambda d: _card(d, "ec-001").update(value="4"), "card ec-001: 'value'"),
    ("regions that are not a list", lambda d: d["map.yaml"].update(regions={"cuba": 1}), "'regions' must be"),
], ids=lambda x: x if isinstance(x, str) else "")
def test_the_loader_refuses_a_malformed_item_naming_it(tmp_path: Path, what: str, edit: Callable[[Docs], Any],
                                                       message: str) -> None:
    docs = _docs()
    edit(docs)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("'", "'")):
        pack_load.load_pack(_write(tmp_path, docs), check=False)


def test_the_loader_refuses_a_missing_file(tmp_path: Path) -> None:
    data = _write(tmp_path, _docs())
    (data / "economics.yaml").unlink()
    with pytest.raises(ValueError, match="economics.yaml: missing"):
        pack_load.load_pack(data)


def test_every_check_is_proven_by_a_break() -> None:
    proven = {b[2] for b in BREAKS}
    assert set(pack_load.CHECKS) | {"reading"} == proven
