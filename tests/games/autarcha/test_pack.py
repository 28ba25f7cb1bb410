"""Autarcha's data pack: the facts of the rulebook as loaded (spec §3, §4, §6, §7, §11-15, §17), the board's
notation and geometry, and every check of the audit, each proved by breaking a copy of the YAML files."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.games.autarcha.pack import (
    CITY_SQUARE_HITS,
    CONFIDENCE,
    DATA_DIR,
    DEMINE_SQUARES,
    ENVIRONMENTS,
    FORMATION_MIN,
    KINDS,
    MINE_STRENGTH,
    MOVES_PER_TURN,
    SCENARIOS,
    TERRAINS,
    TRACK_OR_FOREST_HITS,
    Pack,
    close_surroundings,
    crossing_squares,
    parse_square,
    square_id,
)
from app.games.autarcha.pack_load import CHECKS, audit, load_pack

README = Path(DATA_DIR).parent / "README.md"


@pytest.fixture(scope="module")
def shipped() -> Pack:
    return load_pack(DATA_DIR)


def terrain_at(p: Pack, sq: str) -> str:
    r, c = parse_square(sq)
    return p.board.terrain[r][c]


# ------------------------------------------------------------------------------------ notation and geometry

def test_the_book_s_example_square_names_a_small_square_by_its_crossing() -> None:
    assert parse_square("03.02.NW") == (5, 2)  # latitude 03, longitude 02, north-west of the crossing
    assert square_id((5, 2)) == "03.02.NW"
    assert [square_id(sq) for sq in crossing_squares(3, 2)] == ["03.02.SW", "03.02.SE", "03.02.NW", "03.02.NE"]
    for bad in ("03.02", "03.02.N", "aa.02.NW", "03.02.NW.1"):
        with pytest.raises(ValueError):
            parse_square(bad)


def test_every_small_square_touches_exactly_one_crossing(shipped: Pack) -> None:
    b = shipped.board
    owned = [sq for lat in range(1, b.latitudes + 1) for lon in range(1, b.longitudes + 1)
             for sq in crossing_squares(lat, lon)]
    assert sorted(owned) == sorted(b.squares())
    assert all(parse_square(square_id(sq)) == sq for sq in b.squares())


def test_the_grid_is_20_by_15_crossings_of_2x2_small_squares(shipped: Pack) -> None:
    b = shipped.board
    assert (b.latitudes, b.longitudes, b.rows, b.cols) == (20, 15, 40, 30)
    assert square_id((0, 0)) == "01.01.SW" and square_id((39, 29)) == "20.15.NE"


def test_close_surroundings_are_the_four_big_squares_around_the_crossing(shipped: Pack) -> None:
    b = shipped.board
    bo = close_surroundings(b, parse_square("03.08.SE"))
    assert len(bo) == 16
    assert sorted({r for r, _ in bo}) == [3, 4, 5, 6] and sorted({c for _, c in bo}) == [13, 14, 15, 16]
    # U-3.3.3: the same [BO] from every square of the crossing, facing aside
    for sq in crossing_squares(3, 8):
        assert close_surroundings(b, sq) == bo
    assert len(close_surroundings(b, (0, 0))) == 9  # clipped by the board's corner


def test_the_prose_s_figures() -> None:
    assert MOVES_PER_TURN == 5 and FORMATION_MIN == 3 and DEMINE_SQUARES == 4  # l.953, l.421, l.736
    assert CITY_SQUARE_HITS == 4 and TRACK_OR_FOREST_HITS == 1 and MINE_STRENGTH == 1  # l.882, l.803, l.658


# ------------------------------------------------------------------------------------ the shipped pack

def test_the_shipped_pack_passes_its_audit(shipped: Pack) -> None:
    assert audit(shipped) == []
    assert shipped.problems == ()


def test_deployment_lines_are_below_07_and_above_14(shipped: Pack) -> None:
    a, b = shipped.zone("A"), shipped.zone("B")
    assert {r for r, _ in a} == set(range(0, 13))  # south of the thick line 07: up to 07.xx.S*
    assert {r for r, _ in b} == set(range(27, 40))  # north of the thick line 14: from 14.xx.N*
    assert "07.08.SW" in {square_id(sq) for sq in a} and "07.08.NW" not in {square_id(sq) for sq in a}
    assert "14.08.NE" in {square_id(sq) for sq in b} and "14.08.SE" not in {square_id(sq) for sq in b}
    assert (shipped.deployment["A"].hq_crossing, shipped.deployment["B"].hq_crossing) == ("07.08", "14.08")


def test_the_board_is_a_north_south_mirror(shipped: Pack) -> None:
    b = shipped.board
    assert b.symmetry == "mirror"
    for r, c in b.squares():
        assert b.terrain[r][c] == b.terrain[b.rows - 1 - r][c]


def test_every_landscape_is_on_the_board_and_roads_cross_mountains_and_water(shipped: Pack) -> None:
    b = shipped.board
    assert {x for row in b.terrain for x in row} == set(TERRAINS)
    on = {(kind, b.terrain[r][c]) for kind in ("road", "rail") for r, c in b.squares() if b.track(kind, (r, c))}
    assert {("road", "mountains"), ("rail", "mountains"), ("road", "water"), ("rail", "water")} <= on


def test_the_main_road_runs_from_edge_to_edge_through_both_capitals(shipped: Pack) -> None:
    b = shipped.board
    assert all(b.track("road", (r, 14)) >= {"N", "S"} for r in range(b.rows))
    assert terrain_at(shipped, "03.08.SW") == "city" and terrain_at(shipped, "18.08.SW") == "city"


def test_twelve_areas_cover_the_board_and_each_side_s_zone_pays_16(shipped: Pack) -> None:
    assert len(shipped.areas) == 12
    assert all(shipped.area_of(sq) is not None for sq in shipped.board.squares())
    for side in ("A", "B"):
        zone_areas = {shipped.area_of(sq).id for sq in shipped.zone(side)}  # type: ignore[union-attr]
        assert sum(shipped.areas[a].gold for a in zone_areas) == 16  # the sample ledger's turn 1 (U-6.4.2)
        assert len(zone_areas) == 3
    assert sum(a.gold for a in shipped.areas.values()) == 54


def test_each_city_lies_in_one_area_and_recruits_around_itself(shipped: Pack) -> None:
    assert len(shipped.cities) == 6
    for city in shipped.cities.values():
        assert len({shipped.area_of(sq) for sq in shipped.city_squares(city)}) == 1
        around = shipped.recruitment_squares(city)
        assert set(shipped.city_squares(city)) < set(around)
    assert len(shipped.recruitment_squares(shipped.cities["sudogrod"])) == 24  # two crossings' [BO]s


def test_move_ex_1_the_armoured_unit_s_road_forest_ground_and_rail(shipped: Pack) -> None:
    pc = shipped.troops["PC"]
    assert [pc.max_steps(e) for e in ("road", "forest", "ground", "rail")] == [4, 1, 4, 6]
    taken = 3  # 2 road steps and a 45° turn off the road (spec §7.3)
    assert max(0, pc.max_steps("forest") - taken) == 0  # type: ignore[operator]
    assert max(0, pc.max_steps("ground") - taken) == 1  # type: ignore[operator]
    assert pc.max_steps("rail") - (taken + 1) == 2  # type: ignore[operator]


def test_move_ex_2_infantry_makes_three_steps_in_ground(shipped: Pack) -> None:
    assert shipped.troops["PIE"].max_steps("ground") == 3


def test_the_prose_s_table_facts(shipped: Pack) -> None:
    t = shipped.troops
    assert t["F"].hp.value == 4 and not t["F"].may_stand_on("water")
    assert all(t["F"].may_stand_on(x) for x in TERRAINS if x != "water")
    assert t["ART"].max_steps("mountains") == 0  # blocked, carried out by sappers (U-11.6)
    assert t["SAP"].attacks.value is False and t["PSZ"].cost.value is None
    assert {k: t[k].built_at.value for k in KINDS} == {"PSZ": "none", "PIE": "city", "PC": "factory",
                                                       "ART": "factory", "SAP": "city", "F": "sappers",
                                                       "MINE": "sappers"}
    assert t["PC"].cost.value == 6  # the sample ledger


def test_every_table_value_carries_a_confidence_and_a_source(shipped: Pack) -> None:
    for t in shipped.troops.values():
        cells = [*t.steps.values(), t.hp, t.cost, t.built_at, t.transport, t.attacks]
        assert len(cells) == len(ENVIRONMENTS) + 5
        assert all(c.confidence in CONFIDENCE and c.source for c in cells), t.id
    assert all(c.confidence in CONFIDENCE and c.source for c in shipped.defence.values())


def test_tso_ex_a_value_3_target_is_missed_on_3_and_hit_on_4(shipped: Pack) -> None:
    value = {t: c.value for t, c in shipped.defence.items()}
    assert sorted(value.values()) == [1, 2, 3, 4, 5] and shipped.die.value == 6
    (three,) = [t for t, v in value.items() if v == 3]

    def hits(roll: int, target_terrain: str) -> bool:
        return roll > value[target_terrain]  # "numer wyzszy niz ... skutecznosc obrony" (l.535)

    assert not hits(3, three) and hits(4, three)
    assert min(value[x] for x in ("forest", "mountains", "city")) > max(value["ground"], value["water"])


def test_the_five_scenarios_as_the_book_gives_them(shipped: Pack) -> None:
    s = shipped.scenarios
    assert sorted(s) == sorted(SCENARIOS)
    assert s["skirmish"].units == {"PSZ": 1, "PIE": 9, "PC": 6, "ART": 3} and not s["skirmish"].economy
    assert (s["autarchy"].gold, s["civil_war"].gold, s["total_war"].gold, s["absolute_zero"].gold) == (100, 50, 200, 0)
    assert sum(s["total_war"].units.values()) == 37 and s["total_war"].per_drop == 3
    assert [s[x].factories for x in SCENARIOS] == [0, 1, 1, 2, 0]
    assert set(s["skirmish"].win) == {"hq_destroyed", "all_units_destroyed", "surrender"}
    assert all(s[x].win == ("hq_destroyed",) for x in SCENARIOS if x != "skirmish")
    assert s["civil_war"].cards == "dealt" and s["civil_war"].zone == "owned_areas"


def test_the_readme_lists_every_guessed_table_value() -> None:
    text = README.read_text(encoding="utf-8")
    p = load_pack(DATA_DIR)
    for t in p.troops.values():
        cells = {**t.steps, "hp": t.hp, "cost": t.cost, "built_at": t.built_at, "transport": t.transport,
                 "attacks": t.attacks}
        for key, cell in cells.items():
            if cell.confidence == "guess":
                assert f"| {t.id} | {key} |" in text, (t.id, key)
    for terrain_ in p.defence:
        assert f"| [TSO] | {terrain_} |" in text


# ------------------------------------------------------------------------------------ the audit, broken copies

def staged(tmp_path: Path, file: str, edit: Callable[[Any], None]) -> Path:
    """A copy of the shipped data with ``edit`` applied to one file's parsed YAML."""
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    doc = yaml.safe_load((target / file).read_text(encoding="utf-8"))
    edit(doc)
    (target / file).write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target


def findings(tmp_path: Path, file: str, edit: Callable[[Any], None]) -> list[str]:
    return audit(load_pack(staged(tmp_path, file, edit), check=False))


def item(doc: dict[str, Any], key: str, id_: str, field: str = "id") -> dict[str, Any]:
    (found,) = [x for x in doc[key] if x[field] == id_]
    return found


def named(found: list[str], check: str, *words: str) -> bool:
    """A finding of ``check`` that names every one of ``words`` (the file, the item...)."""
    return any(f.startswith(f"{check}: ") and all(w in f for w in words) for f in found)


def put(doc: dict[str, Any], layer: str, sq: str, ch: str, *, mirror: bool = False) -> None:
    """Write ``ch`` at square ``sq`` of a map layer (rows are written north first), and at its mirror."""
    r, c = parse_square(sq)
    rows = doc[layer]
    for row in ({r, len(rows) - 1 - r} if mirror else {r}):
        i = len(rows) - 1 - row
        rows[i] = rows[i][:c] + ch + rows[i][c + 1:]


def test_every_check_has_a_test() -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    assert all(f'"{name}"' in source for name in CHECKS)


def test_load_pack_refuses_a_broken_pack_naming_file_and_item(tmp_path: Path) -> None:
    data = staged(tmp_path, "troops.yaml", lambda d: item(d, "troops", "PC")["steps"]["road"].update(value=3))
    with pytest.raises(ValueError, match=r"troops\.yaml: PC: road 3 is not the book's 4"):
        load_pack(data)


# -- reading

def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    data = staged(tmp_path, "scenarios.yaml", lambda d: None)
    (data / "scenarios.yaml").unlink()
    with pytest.raises(ValueError, match="scenarios.yaml: missing"):
        load_pack(data)


def test_a_file_that_is_not_yaml_is_refused(tmp_path: Path) -> None:
    data = staged(tmp_path, "board.yaml", lambda d: None)
    (data / "board.yaml").write_text("terrain: [\n", encoding="utf-8")
    with pytest.raises(ValueError, match="board.yaml: not valid YAML"):
        load_pack(data)


def test_a_missing_or_mistyped_field_is_refused_naming_file_and_item(tmp_path: Path) -> None:
    data = staged(tmp_path, "board.yaml", lambda d: item(d, "areas", "lower_burgh").pop("gold"))
    with pytest.raises(ValueError, match="board.yaml: lower_burgh: 'gold' is missing"):
        load_pack(data)
    data = staged(tmp_path / "2", "scenarios.yaml", lambda d: item(d, "scenarios", "autarchy").update(gold=True))
    with pytest.raises(ValueError, match="scenarios.yaml: autarchy: 'gold' must be int"):
        load_pack(data)
    data = staged(tmp_path / "3", "troops.yaml", lambda d: item(d, "troops", "ART")["steps"]["water"].update(value="x"))
    with pytest.raises(ValueError, match="troops.yaml: ART: steps: water: value must be int or '-'"):
        load_pack(data)
    data = staged(tmp_path / "4", "troops.yaml", lambda d: item(d, "troops", "SAP")["steps"].pop("rail"))
    with pytest.raises(ValueError, match="troops.yaml: SAP: steps: 'rail' is missing"):
        load_pack(data)
    data = staged(tmp_path / "5", "board.yaml", lambda d: item(d, "cities", "brzezin").update(crossings=["9-3"]))
    with pytest.raises(ValueError, match="board.yaml: brzezin: '9-3' is not a crossing"):
        load_pack(data)
    data = staged(tmp_path / "6", "board.yaml", lambda d: d["terrain"].__setitem__(0, 7))
    with pytest.raises(ValueError, match="board.yaml: 'terrain' must be a list of strings"):
        load_pack(data)


def test_duplicate_ids_and_unknown_keys_are_found(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "scenarios", "civil_war").update(id="autarchy")
        item(d, "scenarios", "total_war").update(turns=20)
    found = findings(tmp_path, "scenarios.yaml", edit)
    assert named(found, "reading", "scenarios.yaml", "duplicate ids", "autarchy")
    assert named(found, "reading", "scenarios.yaml", "total_war", "unknown keys", "turns")


def test_legend_and_map_characters_outside_the_vocabulary_are_found(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        d["legend"]["terrain"]["s"] = "swamp"
        d["legend"]["tracks"][">"] = ["E"]
        put(d, "roads", "05.05.SW", "?")
    found = findings(tmp_path, "board.yaml", edit)
    assert named(found, "reading", "board.yaml", "'s'", "swamp")
    assert named(found, "reading", "board.yaml", "'>'", "opposite")
    assert named(found, "reading", "board.yaml", "roads", "'?'", "05.05.SW")


# -- the grid and the terrain

def test_audit_wants_every_layer_on_the_grid(tmp_path: Path) -> None:
    found = findings(tmp_path, "board.yaml", lambda d: d["rails"].pop())
    assert named(found, "grid", "board.yaml", "rails", "39 rows", "40")
    found = findings(tmp_path / "2", "board.yaml", lambda d: d["area_map"].__setitem__(3, d["area_map"][3][:-1]))
    assert named(found, "grid", "board.yaml", "area_map", "[29]", "30")
    found = findings(tmp_path / "3", "board.yaml", lambda d: d["grid"].update(latitudes=22))
    assert named(found, "grid", "board.yaml", "terrain", "44")
    assert named(found, "grid", "board.yaml", "mirror images")


def test_audit_wants_every_square_s_terrain_valid(tmp_path: Path) -> None:
    found = findings(tmp_path, "board.yaml", lambda d: put(d, "terrain", "10.10.NE", "s"))
    assert named(found, "terrain", "board.yaml", "10.10.NE", "'s'")


def test_audit_wants_roads_continuous(tmp_path: Path) -> None:
    # a gap in the main road: both sides of it end in open country
    found = findings(tmp_path, "board.yaml", lambda d: put(d, "roads", "07.08.SW", ".", mirror=True))
    assert named(found, "tracks", "board.yaml", "roads", "ends at 06.08.NW")
    assert named(found, "tracks", "board.yaml", "roads", "ends at 07.08.NW")
    # a road square turned across its line leads nowhere
    found = findings(tmp_path / "2", "board.yaml", lambda d: put(d, "roads", "06.08.SW", "-", mirror=True))
    assert named(found, "tracks", "board.yaml", "roads", "06.08.SW", "leads to no road")


def test_audit_wants_rails_continuous(tmp_path: Path) -> None:
    found = findings(tmp_path, "board.yaml", lambda d: put(d, "rails", "02.10.NW", ".", mirror=True))
    assert named(found, "tracks", "board.yaml", "rails", "ends at 02.09.NE")


def test_audit_wants_lines_straight_through_mountains(tmp_path: Path) -> None:
    # a spur off the road through the western mountains: a bend on a mountain square
    found = findings(tmp_path, "board.yaml", lambda d: put(d, "roads", "06.02.SE", "|", mirror=True))
    assert named(found, "tracks", "board.yaml", "roads", "05.02.NE on mountains bends towards 06.02.SE")


def test_audit_wants_roads_and_rails_through_the_mountains(tmp_path: Path) -> None:
    found = findings(tmp_path, "board.yaml", lambda d: d["legend"]["terrain"].update({"^": "forest"}))
    assert named(found, "mountain_tracks", "board.yaml", "no road")
    assert named(found, "mountain_tracks", "board.yaml", "no rail")


# -- areas and cities

def test_audit_wants_twelve_areas_with_gold_and_names(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "areas", "lower_meadows").update(gold=0)
        item(d, "areas", "upper_meadows").update(name="Lower Haven")
    found = findings(tmp_path, "board.yaml", edit)
    assert named(found, "areas", "board.yaml", "lower_meadows", "gold 0")
    assert named(found, "areas", "board.yaml", "lower haven", "not unique")
    found = findings(tmp_path / "2", "board.yaml",
                     lambda d: d.update(areas=[a for a in d["areas"] if a["id"] != "upper_haven"]))
    assert named(found, "areas", "board.yaml", "11 areas")
    assert named(found, "areas", "board.yaml", "'F'", "no area's mark")


def test_audit_wants_areas_in_one_piece(tmp_path: Path) -> None:
    found = findings(tmp_path, "board.yaml", lambda d: put(d, "area_map", "05.13.NE", "a", mirror=False))
    assert named(found, "areas", "board.yaml", "south_pass", "several pieces")


def test_audit_wants_each_zone_s_areas_worth_the_ledger_s_16(tmp_path: Path) -> None:
    found = findings(tmp_path, "board.yaml", lambda d: item(d, "areas", "south_pass").update(gold=6))
    assert named(found, "ledger", "board.yaml", "side A", "17 gold", "16")


def test_audit_wants_city_squares_to_be_the_listed_cities(tmp_path: Path) -> None:
    found = findings(tmp_path, "board.yaml",
                     lambda d: d.update(cities=[c for c in d["cities"] if c["id"] != "olszyn"]))
    assert named(found, "cities", "board.yaml", "08.12.SW", "no listed city")
    found = findings(tmp_path / "2", "board.yaml", lambda d: item(d, "cities", "brzezin").update(crossings=["09.04"]))
    assert named(found, "cities", "board.yaml", "brzezin", "09.04.SW", "not city")
    found = findings(tmp_path / "3", "board.yaml", lambda d: item(d, "cities", "brzezin").update(crossings=["29.03"]))
    assert named(found, "cities", "board.yaml", "brzezin", "not on the 20 x 15 grid")


def test_audit_wants_a_city_in_one_area(tmp_path: Path) -> None:
    found = findings(tmp_path, "board.yaml", lambda d: put(d, "area_map", "03.07.SW", "a"))
    assert named(found, "cities", "board.yaml", "sudogrod", "several areas")


def test_audit_wants_the_book_s_deployment_lines(tmp_path: Path) -> None:
    found = findings(tmp_path, "board.yaml", lambda d: item(d, "deployment", "A", "side").update(line=8))
    assert named(found, "deployment", "board.yaml", "deployment A", "line 08", "south of 07")
    found = findings(tmp_path / "2", "board.yaml",
                     lambda d: item(d, "deployment", "B", "side").update(towards="south"))
    assert named(found, "deployment", "board.yaml", "deployment B", "north of 14")
    found = findings(tmp_path / "3", "board.yaml",
                     lambda d: item(d, "deployment", "A", "side").update(hq_crossing="06.08"))
    assert named(found, "deployment", "board.yaml", "06.08", "not on line 07")


def test_audit_wants_the_hq_able_to_stand_at_its_crossing(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        for sq in ("07.08.SW", "07.08.SE"):
            put(d, "terrain", sq, "~", mirror=True)
    found = findings(tmp_path, "board.yaml", edit)
    assert named(found, "deployment", "board.yaml", "deployment A", "07.08", "HQ may stand")


def test_audit_wants_a_declared_mirror_to_hold(tmp_path: Path) -> None:
    found = findings(tmp_path, "board.yaml", lambda d: put(d, "terrain", "02.02.NW", "^"))
    assert named(found, "symmetry", "board.yaml", "02.02.NW", "19.02.SW")
    found = findings(tmp_path / "2", "board.yaml", lambda d: item(d, "areas", "north_pass").update(gold=4))
    assert named(found, "symmetry", "board.yaml", "'a'", "'A'", "5 and 4")
    found = findings(tmp_path / "3", "board.yaml", lambda d: d.update(symmetry="rotation"))
    assert named(found, "symmetry", "board.yaml", "'rotation'")
    found = findings(tmp_path / "4", "board.yaml",
                     lambda d: (d.update(symmetry="none"), put(d, "terrain", "02.02.NW", "^")))
    assert not [f for f in found if f.startswith("symmetry")]


# -- the tables

def test_audit_wants_every_kind_of_the_troops_table(tmp_path: Path) -> None:
    found = findings(tmp_path, "troops.yaml", lambda d: d.update(troops=[t for t in d["troops"] if t["id"] != "SAP"]))
    assert named(found, "troops", "troops.yaml", "the kinds are", "SAP")


def test_audit_wants_table_values_in_range(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "troops", "PIE")["steps"]["forest"].update(value=12)
        item(d, "troops", "MINE")["steps"]["ground"].update(value=1)
        item(d, "troops", "ART")["hp"].update(value=0)
        item(d, "troops", "PC")["built_at"].update(value="barracks")
    found = findings(tmp_path, "troops.yaml", edit)
    assert named(found, "troops", "troops.yaml", "PIE", "forest 12", "0..9")
    assert named(found, "troops", "troops.yaml", "MINE", "ground 1", "does not move")
    assert named(found, "troops", "troops.yaml", "ART", "hp 0")
    assert named(found, "troops", "troops.yaml", "PC", "barracks")


def test_audit_wants_every_value_sourced_with_a_confidence(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "troops", "SAP")["steps"]["city"].update(confidence="likely")
        item(d, "troops", "PSZ")["transport"].update(source=" ")
    found = findings(tmp_path, "troops.yaml", edit)
    assert named(found, "troops", "troops.yaml", "SAP", "city", "'likely'")
    assert named(found, "troops", "troops.yaml", "PSZ", "transport", "no source")


def test_audit_wants_the_prose_s_step_values(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "troops", "ART")["steps"]["mountains"].update(value=2)
        item(d, "troops", "PC")["steps"]["rail"].update(confidence="best_fit")
        item(d, "troops", "F")["steps"]["water"].update(value=0)
    found = findings(tmp_path, "troops.yaml", edit)
    assert named(found, "book_troops", "troops.yaml", "ART", "mountains 2", "book's 0")
    assert named(found, "book_troops", "troops.yaml", "PC", "rail", "confidence prose")
    assert named(found, "book_troops", "troops.yaml", "F", "water 0", "book's -")


def test_audit_wants_the_prose_s_other_table_facts(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "troops", "F")["hp"].update(value=3)
        item(d, "troops", "F")["steps"]["city"].update(value="-")
        item(d, "troops", "SAP")["attacks"].update(value=True)
        item(d, "troops", "PSZ")["cost"].update(value=20)
        item(d, "troops", "PC")["cost"].update(value=7)
        item(d, "troops", "PIE")["steps"]["city"].update(value="-")
        item(d, "troops", "ART")["built_at"].update(value="city")
    found = findings(tmp_path, "troops.yaml", edit)
    assert named(found, "book_troops", "troops.yaml", "F: hp 3", "4 durability")
    assert named(found, "book_troops", "troops.yaml", "F: may not stand on ['city']")
    assert named(found, "book_troops", "troops.yaml", "SAP", "cannot attack")
    assert named(found, "book_troops", "troops.yaml", "PSZ: cost 20")
    assert named(found, "book_troops", "troops.yaml", "PC: cost 7", "ledger")
    assert named(found, "book_troops", "troops.yaml", "PIE", "city, where it is recruited")
    assert named(found, "book_troops", "troops.yaml", "ART", "'city'", "'factory'")


def test_audit_wants_the_defence_table_s_five_values(tmp_path: Path) -> None:
    found = findings(tmp_path, "troops.yaml", lambda d: item(d, "defence", "city", "terrain").update(value=4))
    assert named(found, "defence", "troops.yaml", "[1, 2, 3, 4, 4]")
    found = findings(tmp_path / "2", "troops.yaml",
                     lambda d: d.update(defence=[x for x in d["defence"] if x["terrain"] != "water"]))
    assert named(found, "defence", "troops.yaml", "the terrains are")


def test_audit_wants_cover_above_open_ground_and_values_the_die_can_beat(tmp_path: Path) -> None:
    def swap(d: Any) -> None:
        item(d, "defence", "ground", "terrain").update(value=5)
        item(d, "defence", "city", "terrain").update(value=2)
    found = findings(tmp_path, "troops.yaml", swap)
    assert named(found, "defence", "troops.yaml", "covered landscape")
    found = findings(tmp_path / "2", "troops.yaml", lambda d: d["die"].update(value=5))
    assert named(found, "defence", "troops.yaml", "city", "cannot be beaten by a d5")


# -- scenarios and provenance

def test_audit_wants_scenario_forces_of_known_kinds_and_one_hq(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "scenarios", "skirmish")["units"]["TANK"] = 2
        item(d, "scenarios", "autarchy")["units"]["PSZ"] = 2
    found = findings(tmp_path, "scenarios.yaml", edit)
    assert named(found, "scenarios", "scenarios.yaml", "skirmish", "'TANK'")
    assert named(found, "scenarios", "scenarios.yaml", "autarchy", "2 HQ")


def test_audit_wants_the_book_s_gold_forces_and_endings(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "scenarios", "autarchy").update(gold=150)
        item(d, "scenarios", "total_war")["units"]["PIE"] = 14
        item(d, "scenarios", "civil_war").update(win=["hq_destroyed", "capital_taken"])
        item(d, "scenarios", "absolute_zero").update(deployment="anywhere")
    found = findings(tmp_path, "scenarios.yaml", edit)
    assert named(found, "scenarios", "scenarios.yaml", "autarchy", "gold 150", "100")
    assert named(found, "scenarios", "scenarios.yaml", "total_war", "36 pieces")
    assert named(found, "scenarios", "scenarios.yaml", "civil_war", "capital_taken")
    assert named(found, "scenarios", "scenarios.yaml", "absolute_zero", "'anywhere'")
    found = findings(tmp_path / "2", "scenarios.yaml",
                     lambda d: d.update(scenarios=[s for s in d["scenarios"] if s["id"] != "civil_war"]))
    assert named(found, "scenarios", "scenarios.yaml", "the scenarios are")


def test_audit_wants_no_gold_in_a_scenario_without_economy(tmp_path: Path) -> None:
    found = findings(tmp_path, "scenarios.yaml", lambda d: item(d, "scenarios", "skirmish").update(gold=10))
    assert named(found, "scenarios", "scenarios.yaml", "skirmish", "no economy")


def test_audit_wants_a_source_on_every_item(tmp_path: Path) -> None:
    found = findings(tmp_path, "board.yaml", lambda d: item(d, "areas", "lower_haven").update(source=""))
    assert named(found, "sources", "board.yaml", "lower_haven")
    found = findings(tmp_path / "2", "board.yaml", lambda d: item(d, "cities", "olszyn").pop("source"))
    assert named(found, "sources", "board.yaml", "olszyn")
    found = findings(tmp_path / "3", "troops.yaml", lambda d: item(d, "troops", "PC").update(source=" "))
    assert named(found, "sources", "troops.yaml", "PC")
    found = findings(tmp_path / "4", "scenarios.yaml", lambda d: item(d, "scenarios", "total_war").pop("source"))
    assert named(found, "sources", "scenarios.yaml", "total_war")
    found = findings(tmp_path / "5", "board.yaml", lambda d: item(d, "deployment", "B", "side").update(source=""))
    assert named(found, "sources", "board.yaml", "deployment B")


def test_audit_wants_attack_ranges_that_fit_the_prose(tmp_path: Path) -> None:
    """The "ranges" check (spec §18.4: the figures are lost, ours are reconstructed)."""
    def edit(d: Any) -> None:
        item(d, "troops", "PSZ")["ranges"]["orthogonal"] = []
        item(d, "troops", "F")["ranges"] = {"confidence": "guess", "source": "x", "orthogonal": ["x", "U"],
                                            "diagonal": []}
        item(d, "troops", "PC")["ranges"]["orthogonal"] = ["xx.", ".U."]
        item(d, "troops", "PIE")["ranges"]["orthogonal"] = ["x", "x", "U"]
        item(d, "troops", "ART")["ranges"]["diagonal"] = ["Ux", "x."]
    found = findings(tmp_path, "troops.yaml", edit)
    assert named(found, "ranges", "troops.yaml", "PSZ", "needs an orthogonal and a diagonal figure")
    assert named(found, "ranges", "troops.yaml", "F", "does not attack")
    assert named(found, "ranges", "troops.yaml", "PC", "orthogonal", "left and to the right")
    assert named(found, "ranges", "troops.yaml", "PIE", "reach 2", "l.545")
    assert named(found, "ranges", "troops.yaml", "ART", "directional")


def test_the_shipped_ranges_load_and_turn_with_the_facing(shipped: Pack, tmp_path: Path) -> None:
    for kind in ("PSZ", "PIE", "PC", "ART"):
        r = shipped.troops[kind].ranges
        assert r is not None and r.confidence == "guess" and r.source.startswith("reconstructed")
        assert r.reach("N") == r.orthogonal and r.reach("NE") == r.diagonal
        assert r.reach("S") == {(-dr, -dc) for dr, dc in r.orthogonal}
    assert shipped.troops["SAP"].ranges is None
    with pytest.raises(ValueError, match="exactly one"):
        load_pack(staged(tmp_path, "troops.yaml",
                         lambda d: item(d, "troops", "PC")["ranges"].update(orthogonal=["x.x", "..."])))
