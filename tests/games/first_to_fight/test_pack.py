"""First to Fight's data pack: the facts of the rulebook as loaded (spec §4, §12, §13), the time track's
labels, and every check of the audit, each proved by breaking a copy of the YAML files."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.games.first_to_fight.pack import (
    ABILITIES,
    DATA_DIR,
    FORMATIONS,
    LAST_MONTH,
    OCCUPIED_SQUARES,
    REGIONS,
    STAGE_II_FROM,
    Pack,
    month_index,
    month_label,
)
from app.games.first_to_fight.pack_load import audit, load_pack


@pytest.fixture(scope="module")
def shipped() -> Pack:
    return load_pack(DATA_DIR)


def soldier(p: Pack, surname: str) -> Any:
    (found,) = [s for s in p.soldiers.values() if surname in s.name]
    return found


def mission(p: Pack, title: str) -> Any:
    (found,) = [m for m in p.missions.values() if m.title == title]
    return found


def event(p: Pack, title: str) -> Any:
    (found,) = [e for e in p.events.values() if e.title == title]
    return found


# ------------------------------------------------------------------------------------ the time track

def test_month_index_follows_the_spec_formula() -> None:
    assert month_index("IX 1939") == 0
    assert month_index("V 1940") == 8
    assert month_index("VIII 1940") == 11
    assert month_index("XI 1940") == 14
    assert month_index("XII 1942") == 39
    assert month_index("I 1943") == STAGE_II_FROM == 40
    assert month_index("VI 1944") == 57
    assert month_index("V 1945") == LAST_MONTH == 68


def test_month_label_is_the_inverse_of_month_index() -> None:
    assert month_label(0) == "IX 1939"
    assert month_label(14) == "XI 1940"
    assert month_label(68) == "V 1945"
    for i in range(LAST_MONTH + 1):
        assert month_index(month_label(i)) == i


def test_month_index_refuses_a_label_that_is_no_date() -> None:
    for bad in ("13 1940", "VIII", "Sierpień 1940", "VIII 19x0"):
        with pytest.raises(ValueError):
            month_index(bad)


# ------------------------------------------------------------------------------------ the shipped pack

def test_the_shipped_pack_passes_its_audit(shipped: Pack) -> None:
    assert audit(shipped) == []
    assert shipped.problems == ()


def test_the_rulebook_counts(shipped: Pack) -> None:
    assert len(shipped.regions) == 5
    assert len(shipped.soldiers) == 54
    assert len(shipped.missions) == 30
    assert len(shipped.events) == 24
    stages = [m.stage for m in shipped.missions.values()]
    assert (stages.count(1), stages.count(2)) == (16, 14)  # OQ-2: 16 red = 4 players x 4 dealt


def test_regions_rules_and_recruitment_follow_the_book(shipped: Pack) -> None:
    r = shipped.regions
    assert sorted(r) == sorted(REGIONS)
    assert {x.id: x.rule for x in r.values()} == {"WAR": "DROPS", "POL": "UNDERGROUND_STATE", "NEA": "TRAINING_CAMP",
                                                   "WEU": "MAIN_FRONT", "NAI": "REVEAL_TWO"}
    assert [x.id for x in r.values() if not x.recruitable] == ["NAI"]
    assert r["WAR"].rule_name_pl == "Zrzuty Cichociemnych"
    assert r["POL"].rule_name_pl == "Polskie Państwo Podziemne"


def test_adjacency_is_the_provisional_graph_of_oq1(shipped: Pack) -> None:
    assert shipped.links == {frozenset(x) for x in (("WAR", "POL"), ("POL", "WEU"), ("WEU", "NEA"), ("WEU", "NAI"))}
    assert shipped.neighbours("WEU") == ["NAI", "NEA", "POL"]
    assert shipped.adjacent("POL", "WAR") and shipped.adjacent("WAR", "POL")
    assert not shipped.adjacent("WAR", "NEA")


def test_tracks_end_in_three_occupied_squares_and_start_free(shipped: Pack) -> None:
    for r in shipped.regions.values():
        assert r.occupied_from == len(r.track) - OCCUPIED_SQUARES
        assert len(r.thresholds) == len(r.track) - 1
        assert 0 <= r.start < r.occupied_from
        assert list(r.track) == sorted(r.track) and r.track[0] == 0


def test_warsaw_and_poland_start_one_push_from_occupation_the_west_far_from_it(shipped: Pack) -> None:
    r = shipped.regions
    for region in ("WAR", "POL"):
        assert r[region].start == r[region].occupied_from - 1
    for region in ("NEA", "WEU", "NAI"):
        assert r[region].occupied_from - r[region].start >= 4


def test_nea_shows_level_1_in_1940_as_in_example_3(shipped: Pack) -> None:
    nea = shipped.regions["NEA"]
    assert nea.track[nea.start] == 1


def test_krasnodebski_is_the_book_s_card(shipped: Pack) -> None:
    k = soldier(shipped, "Krasnodębski")
    assert k.name == "płk Zdzisław Krasnodębski ps. „Król”"
    assert (k.formation, k.strength, k.underground, k.ability) == ("PILOT", 3, 2, "TRAINING")


def test_the_six_soldiers_the_book_names_are_in_the_deck(shipped: Pack) -> None:
    for surname in ("Chruściel", "Rapp-Kochańska", "Krasnodębski", "Nahorski", "Bałuk", "Pilch"):
        assert soldier(shipped, surname).source.startswith("rulebook")


def test_example_3_wound_order_nahorski_and_krasnodebski_first_then_the_tied_pair(shipped: Pack) -> None:
    k, n, b, p = (soldier(shipped, x) for x in ("Krasnodębski", "Nahorski", "Bałuk", "Pilch"))
    assert b.underground == p.underground
    assert max(k.underground, n.underground) < b.underground
    assert b.formation != "PILOT" and p.formation != "PILOT"


def test_example_3_battle_of_britain_fails_by_two_with_the_pack_s_values(shipped: Pack) -> None:
    bob = mission(shipped, "Battle of Britain")
    nea = shipped.regions["NEA"]
    trained_krasnodebski = soldier(shipped, "Krasnodębski").strength + 1  # Example 1's Training: 4/2
    strength = trained_krasnodebski + 1 + 1 + 1  # Nahorski wounded, Bałuk and Pilch of other formations
    assert (strength, bob.difficulty + nea.track[nea.start]) == (7, 9)


def test_soldiers_are_spread_over_formations_and_abilities(shipped: Pack) -> None:
    s = list(shipped.soldiers.values())
    for f in FORMATIONS:
        assert 7 <= sum(x.formation == f for x in s) <= 10, f
    for a in ABILITIES:
        assert sum(x.ability == a for x in s) == 9, a
    assert all(1 <= x.strength <= 5 and 1 <= x.underground <= 5 for x in s)
    assert all(x.source and x.note and x.note_pl for x in s)


def test_battle_of_britain_is_the_book_s_card(shipped: Pack) -> None:
    m = mission(shipped, "Battle of Britain")
    assert (m.title_pl, m.date, m.stage, m.region, m.formation, m.difficulty) == \
        ("Bitwa o Anglię", month_index("VIII 1940"), 1, "NEA", "PILOT", 8)


BOOK_MISSIONS = [  # spec §12.3: the appendix's titles and dates
    ("Sinking of MS Rio de Janeiro", "IV 1940"), ("Battle of Narvik", "V 1940"), ("Attack on Montbard", "VI 1940"),
    ("Battle of Britain", "VIII 1940"), ("Establishment of the resistance movement in Auschwitz", "X 1940"),
    ('Establishment of the "Wawer" Small Sabotage', "XII 1940"), ("First drop of the Silent Unseen", "II 1941"),
    ("Bombing of Berlin", "III 1941"), ("Regular radio connection with London", "IV 1941"),
    ("Chase and sinking of the Bismarck", "V 1941"), ('Establishment of the "Wachlarz" organization', "VIII 1941"),
    ("Defense of Tobruk", "XI 1941"), ("Establishment of the Home Army", "II 1942"), ("Battle of Gazala", "V 1942"),
    ("Dieppe Raid", "VIII 1942"), ("Operation Garland", "X 1942"), ("Escort of convoy ON-166", "II 1943"),
    ("Operation Arsenal", "III 1943"), ("Fights at the Salerno Bay", "IX 1943"),
    ("Assassination attempt on Hans Frank", "I 1944"), ("Operation Kutschera", "II 1944"),
    ("Battle of Monte Cassino", "V 1944"), ("Normandy landings", "VI 1944"), ("Battle of Ushant", "VI 1944"),
    ("Operation Wildhorn III", "VII 1944"), ("Battle of Ancona", "VII 1944"), ("Battle of Falaise", "VIII 1944"),
    ("Warsaw Uprising", "VIII 1944"), ("Battle of Arnhem", "IX 1944"), ("Battle of Bologna", "IV 1945"),
]


def test_the_missions_are_the_appendix_s_thirty_with_its_dates(shipped: Pack) -> None:
    got = sorted((m.title, m.date) for m in shipped.missions.values())
    assert got == sorted((t, month_index(d)) for t, d in BOOK_MISSIONS)
    for m in shipped.missions.values():
        assert m.stage == (1 if m.date <= month_index("XII 1942") else 2)
        assert m.vp >= 1 and m.difficulty >= 1


def test_missions_regions_follow_their_settings(shipped: Pack) -> None:
    where = {m.title: m.region for m in shipped.missions.values()}
    assert where["Battle of Narvik"] == "NEA"
    assert where["Defense of Tobruk"] == "NAI"
    assert where["Attack on Montbard"] == "WEU"
    assert where["Warsaw Uprising"] == "WAR"
    assert where["Battle of Arnhem"] == "WEU"
    assert where["Battle of Monte Cassino"] == "NAI"


def test_operation_overlord_is_the_book_s_card(shipped: Pack) -> None:
    o = event(shipped, "Operation Overlord")
    assert (o.date, o.region, o.advance) == (month_index("VI 1944"), "WEU", 6)


def test_pearl_harbor_lowers_domination_in_weu_and_nea(shipped: Pack) -> None:
    h = event(shipped, "Attack on Pearl Harbor")
    assert sorted((x.op, x.region, x.n) for x in h.effects) == [("domination", "NEA", -1), ("domination", "WEU", -1)]


def test_the_event_deck_carries_the_war_to_v_1945_in_12_to_16_rounds(shipped: Pack) -> None:
    advances = sorted(e.advance for e in shipped.events.values())
    assert sum(advances) >= LAST_MONTH  # the deck lasts: 122 months

    def cards_to_the_end(order: list[int]) -> int:
        month = 0
        for n, a in enumerate(order, start=1):
            month += a
            if month >= LAST_MONTH:
                return n
        raise AssertionError("the deck ran out before V 1945")

    assert cards_to_the_end(sorted(advances, reverse=True)) == 12  # the fastest possible game
    assert cards_to_the_end(advances) == 16  # the slowest


def test_events_are_dated_on_the_track_and_spread_over_the_regions(shipped: Pack) -> None:
    e = list(shipped.events.values())
    assert all(0 <= x.date <= LAST_MONTH and x.advance >= 1 and x.effects and x.source for x in e)
    for region in REGIONS:
        assert 4 <= sum(x.region == region for x in e) <= 5, region


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


def item(doc: dict[str, Any], key: str, id_: str) -> dict[str, Any]:
    (found,) = [x for x in doc[key] if x["id"] == id_]
    return found


def by_title(doc: dict[str, Any], key: str, title: str) -> dict[str, Any]:
    (found,) = [x for x in doc[key] if x["title"] == title]
    return found


def named(found: list[str], check: str, *words: str) -> bool:
    """A finding of ``check`` that names every one of ``words`` (the file, the item...)."""
    return any(f.startswith(f"{check}: ") and all(w in f for w in words) for f in found)


def test_load_pack_refuses_a_broken_pack_naming_file_and_item(tmp_path: Path) -> None:
    data = staged(tmp_path, "soldiers.yaml", lambda d: item(d, "soldiers", "s07").update(strength=6))
    with pytest.raises(ValueError, match=r"soldiers\.yaml: s07: strength 6 is outside 1\.\.5"):
        load_pack(data)


# -- reading

def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    data = staged(tmp_path, "events.yaml", lambda d: None)
    (data / "events.yaml").unlink()
    with pytest.raises(ValueError, match="events.yaml: missing"):
        load_pack(data)


def test_a_file_that_is_not_yaml_is_refused(tmp_path: Path) -> None:
    data = staged(tmp_path, "missions.yaml", lambda d: None)
    (data / "missions.yaml").write_text("missions: [\n", encoding="utf-8")
    with pytest.raises(ValueError, match="missions.yaml: not valid YAML"):
        load_pack(data)


def test_a_missing_field_is_refused_naming_file_and_item(tmp_path: Path) -> None:
    data = staged(tmp_path, "soldiers.yaml", lambda d: item(d, "soldiers", "s12").pop("formation"))
    with pytest.raises(ValueError, match="soldiers.yaml: s12: 'formation' is missing"):
        load_pack(data)


def test_a_field_of_the_wrong_kind_is_refused(tmp_path: Path) -> None:
    data = staged(tmp_path, "missions.yaml", lambda d: item(d, "missions", "m03").update(difficulty=True))
    with pytest.raises(ValueError, match="missions.yaml: m03: 'difficulty' must be int"):
        load_pack(data)
    data = staged(tmp_path / "2", "regions.yaml", lambda d: item(d, "regions", "POL").update(track=[0, "x", 1]))
    with pytest.raises(ValueError, match="regions.yaml: POL: 'track' must be a list of whole numbers"):
        load_pack(data)


def test_a_date_that_is_not_a_month_is_refused(tmp_path: Path) -> None:
    data = staged(tmp_path, "events.yaml", lambda d: item(d, "events", "ev05").update(date="Summer 1943"))
    with pytest.raises(ValueError, match="events.yaml: ev05: 'date' 'Summer 1943' is not a date"):
        load_pack(data)


def test_a_link_that_is_not_a_pair_is_refused(tmp_path: Path) -> None:
    data = staged(tmp_path, "regions.yaml", lambda d: d["links"].append(["WAR", "POL", "NEA"]))
    with pytest.raises(ValueError, match="regions.yaml: link #5"):
        load_pack(data)


def test_duplicate_ids_are_found(tmp_path: Path) -> None:
    found = findings(tmp_path, "soldiers.yaml", lambda d: item(d, "soldiers", "s02").update(id="s01"))
    assert named(found, "reading", "soldiers.yaml", "duplicate ids", "s01")


def test_unknown_keys_are_found(tmp_path: Path) -> None:
    found = findings(tmp_path, "missions.yaml", lambda d: item(d, "missions", "m09").update(colour="red"))
    assert named(found, "reading", "missions.yaml", "m09", "unknown keys", "colour")


def test_a_link_listed_twice_is_found(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml", lambda d: d["links"].append(["POL", "WAR"]))
    assert named(found, "reading", "regions.yaml", "listed twice")


def test_links_without_a_source_are_found(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml", lambda d: d.pop("links_source"))
    assert named(found, "reading", "regions.yaml", "links_source")


# -- regions

def test_audit_wants_exactly_the_five_regions(tmp_path: Path) -> None:
    def drop_nai(d: Any) -> None:
        d["regions"] = [r for r in d["regions"] if r["id"] != "NAI"]
        d["links"] = [x for x in d["links"] if "NAI" not in x]
    assert named(findings(tmp_path, "regions.yaml", drop_nai), "region_ids", "regions.yaml", "NAI")


def test_audit_wants_known_and_distinct_region_rules(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml", lambda d: item(d, "regions", "WAR").update(rule="AIRLIFT"))
    assert named(found, "region_rules", "regions.yaml", "WAR", "AIRLIFT")
    found = findings(tmp_path / "2", "regions.yaml", lambda d: item(d, "regions", "NAI").update(rule="MAIN_FRONT"))
    assert named(found, "region_rules", "regions.yaml", "NAI", "REVEAL_TWO")
    assert named(found, "region_rules", "regions.yaml", "share the rule", "MAIN_FRONT")


def test_audit_wants_nai_alone_unrecruitable(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml", lambda d: item(d, "regions", "NAI").update(recruitable=True))
    assert named(found, "recruitable", "regions.yaml", "NAI")
    found = findings(tmp_path / "2", "regions.yaml", lambda d: item(d, "regions", "POL").update(recruitable=False))
    assert named(found, "recruitable", "regions.yaml", "POL")


def test_audit_wants_colours_and_names(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml", lambda d: item(d, "regions", "WEU").update(colour="green"))
    assert named(found, "region_texts", "regions.yaml", "WEU", "colour")
    found = findings(tmp_path / "2", "regions.yaml",
                     lambda d: item(d, "regions", "WEU").update(colour=item(d, "regions", "NEA")["colour"]))
    assert named(found, "region_texts", "regions.yaml", "share a colour")
    found = findings(tmp_path / "3", "regions.yaml", lambda d: item(d, "regions", "POL").update(name_pl=" "))
    assert named(found, "region_texts", "regions.yaml", "POL", "name_pl")


def test_audit_wants_links_between_known_regions(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml", lambda d: d["links"].append(["WAR", "BER"]))
    assert named(found, "links", "regions.yaml", "BER-WAR", "unknown")
    found = findings(tmp_path / "2", "regions.yaml", lambda d: d["links"].append(["NEA", "NEA"]))
    assert named(found, "links", "regions.yaml", "itself")


def test_audit_wants_a_connected_map(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml", lambda d: d["links"].remove(["WEU", "NAI"]))
    assert named(found, "links", "regions.yaml", "NAI", "connected")


def test_audit_wants_one_threshold_between_each_two_squares(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml", lambda d: item(d, "regions", "POL")["thresholds"].pop())
    assert named(found, "tracks", "regions.yaml", "POL", "thresholds")


def test_audit_wants_tracks_of_four_squares_or_more(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml",
                     lambda d: item(d, "regions", "WAR").update(track=[0, 1, 2], thresholds=[4, 5], start=0))
    assert named(found, "tracks", "regions.yaml", "WAR", "3 squares")


def test_audit_wants_levels_rising_to_the_right(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml", lambda d: item(d, "regions", "WEU")["track"].reverse())
    assert named(found, "tracks", "regions.yaml", "WEU", "fall to the right")
    found = findings(tmp_path / "2", "regions.yaml",
                     lambda d: item(d, "regions", "WEU")["thresholds"].__setitem__(0, 0))
    assert named(found, "tracks", "regions.yaml", "WEU", "threshold below 1")


def test_audit_wants_the_start_on_the_light_part(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml", lambda d: item(d, "regions", "WAR").update(start=5))
    assert named(found, "tracks", "regions.yaml", "WAR", "start square 5")
    found = findings(tmp_path / "2", "regions.yaml", lambda d: item(d, "regions", "POL").update(start=-1))
    assert named(found, "tracks", "regions.yaml", "POL", "start square -1")


def test_audit_wants_nea_able_to_show_level_1(tmp_path: Path) -> None:
    found = findings(tmp_path, "regions.yaml",
                     lambda d: item(d, "regions", "NEA").update(track=[0, 0, 2, 2, 2, 2, 2, 3, 3, 4]))
    assert named(found, "tracks", "regions.yaml", "NEA", "Example 3")


# -- soldiers

def test_audit_wants_54_soldiers(tmp_path: Path) -> None:
    found = findings(tmp_path, "soldiers.yaml", lambda d: d["soldiers"].pop())
    assert named(found, "soldiers", "soldiers.yaml", "53 soldiers")


def test_audit_wants_attributes_from_1_to_5(tmp_path: Path) -> None:
    found = findings(tmp_path, "soldiers.yaml", lambda d: item(d, "soldiers", "s30").update(underground=0))
    assert named(found, "soldiers", "soldiers.yaml", "s30", "underground 0")


def test_audit_wants_known_formations_and_abilities(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "soldiers", "s40").update(formation="CAVALRY")
        item(d, "soldiers", "s41").update(ability="STEALTH")
    found = findings(tmp_path, "soldiers.yaml", edit)
    assert named(found, "soldiers", "soldiers.yaml", "s40", "CAVALRY")
    assert named(found, "soldiers", "soldiers.yaml", "s41", "STEALTH")


def test_audit_wants_soldier_ids_and_notes(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "soldiers", "s40").update(id="x40")
        item(d, "soldiers", "s41").update(note_pl="")
    found = findings(tmp_path, "soldiers.yaml", edit)
    assert named(found, "soldiers", "soldiers.yaml", "x40", "s<two digits>")
    assert named(found, "soldiers", "soldiers.yaml", "s41", "note_pl")


def test_audit_wants_krasnodebski_as_the_book_prints_him(tmp_path: Path) -> None:
    found = findings(tmp_path, "soldiers.yaml",
                     lambda d: [s.update(strength=4) for s in d["soldiers"] if "Krasnodębski" in s["name"]])
    assert named(found, "book_soldiers", "soldiers.yaml", "Krasnodębski", "3/2")


def test_audit_wants_the_six_named_soldiers(tmp_path: Path) -> None:
    found = findings(tmp_path, "soldiers.yaml",
                     lambda d: [s.update(name="kmdr Jan Kowalski") for s in d["soldiers"] if "Nahorski" in s["name"]])
    assert named(found, "book_soldiers", "soldiers.yaml", "Nahorski")


def test_audit_wants_example_3_s_underground_order(tmp_path: Path) -> None:
    found = findings(tmp_path, "soldiers.yaml",
                     lambda d: [s.update(underground=5) for s in d["soldiers"] if "Pilch" in s["name"]])
    assert named(found, "book_soldiers", "soldiers.yaml", "Bałuk and Pilch tie")
    found = findings(tmp_path / "2", "soldiers.yaml",
                     lambda d: [s.update(underground=4) for s in d["soldiers"] if "Nahorski" in s["name"]])
    assert named(found, "book_soldiers", "soldiers.yaml", "first wounds")


def test_audit_wants_balk_and_pilch_not_pilots(tmp_path: Path) -> None:
    found = findings(tmp_path, "soldiers.yaml",
                     lambda d: [s.update(formation="PILOT") for s in d["soldiers"] if "Bałuk" in s["name"]])
    assert named(found, "book_soldiers", "soldiers.yaml", "Bałuk", "no Pilot")


# -- missions

def test_audit_wants_30_missions_16_and_14(tmp_path: Path) -> None:
    found = findings(tmp_path, "missions.yaml", lambda d: d["missions"].pop())
    assert named(found, "missions", "missions.yaml", "29 missions")
    assert named(found, "missions", "missions.yaml", "13 stage 2 missions")


def test_audit_wants_the_stage_to_match_the_date(tmp_path: Path) -> None:
    found = findings(tmp_path, "missions.yaml", lambda d: item(d, "missions", "m16").update(date="I 1943"))
    assert named(found, "missions", "missions.yaml", "m16", "does not match its date")
    found = findings(tmp_path / "2", "missions.yaml", lambda d: item(d, "missions", "m17").update(stage=3))
    assert named(found, "missions", "missions.yaml", "m17", "stage 3")


def test_audit_wants_mission_dates_on_the_track(tmp_path: Path) -> None:
    found = findings(tmp_path, "missions.yaml", lambda d: item(d, "missions", "m30").update(date="VI 1945"))
    assert named(found, "missions", "missions.yaml", "m30", "off the time track")


def test_audit_wants_mission_regions_and_formations(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "missions", "m02").update(region="NOR")
        item(d, "missions", "m03").update(formation="CAVALRY")
    found = findings(tmp_path, "missions.yaml", edit)
    assert named(found, "missions", "missions.yaml", "m02", "NOR")
    assert named(found, "missions", "missions.yaml", "m03", "CAVALRY")


def test_audit_wants_difficulty_and_vp_of_1_or_more(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "missions", "m05").update(difficulty=0)
        item(d, "missions", "m06").update(vp=0)
    found = findings(tmp_path, "missions.yaml", edit)
    assert named(found, "missions", "missions.yaml", "m05", "difficulty 0")
    assert named(found, "missions", "missions.yaml", "m06", "vp 0")


def test_audit_wants_mission_ids_and_titles(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "missions", "m05").update(id="mission5")
        item(d, "missions", "m06").update(title_pl="")
    found = findings(tmp_path, "missions.yaml", edit)
    assert named(found, "missions", "missions.yaml", "mission5", "m<two digits>")
    assert named(found, "missions", "missions.yaml", "m06", "title_pl")


def test_audit_wants_battle_of_britain_as_the_book_prints_it(tmp_path: Path) -> None:
    found = findings(tmp_path, "missions.yaml",
                     lambda d: by_title(d, "missions", "Battle of Britain").update(difficulty=7))
    assert named(found, "book_missions", "missions.yaml", "m04", "difficulty 8")
    found = findings(tmp_path / "2", "missions.yaml",
                     lambda d: by_title(d, "missions", "Battle of Britain").update(region="WEU"))
    assert named(found, "book_missions", "missions.yaml", "m04", "NEA")


# -- events

def test_audit_wants_24_events(tmp_path: Path) -> None:
    found = findings(tmp_path, "events.yaml", lambda d: d["events"].pop())
    assert named(found, "events", "events.yaml", "23 events")


def test_audit_wants_event_regions_advances_and_dates(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "events", "ev03").update(region="USA")
        item(d, "events", "ev04").update(advance=0)
        item(d, "events", "ev05").update(date="VIII 1939")
    found = findings(tmp_path, "events.yaml", edit)
    assert named(found, "events", "events.yaml", "ev03", "USA")
    assert named(found, "events", "events.yaml", "ev04", "advance 0")
    assert named(found, "events", "events.yaml", "ev05", "off the time track")


def test_audit_wants_effects_from_the_vocabulary(tmp_path: Path) -> None:
    def edit(d: Any) -> None:
        item(d, "events", "ev07")["effects"] = [{"op": "bomb", "region": "POL", "n": 1}]
        item(d, "events", "ev08")["effects"] = [{"op": "domination", "region": "POL", "n": 0}]
        item(d, "events", "ev10")["effects"] = [{"op": "recruit", "n": 2}]
        item(d, "events", "ev14")["effects"] = [{"op": "nurses", "region": "NEA", "n": 1}]
        item(d, "events", "ev24")["effects"] = [{"op": "heal", "region": "ROM"}]
        item(d, "events", "ev09")["effects"] = []
    found = findings(tmp_path, "events.yaml", edit)
    assert named(found, "events", "events.yaml", "ev07 effect #1", "bomb")
    assert named(found, "events", "events.yaml", "ev08 effect #1", "0 squares")
    assert named(found, "events", "events.yaml", "ev10 effect #1", "recruit needs a region")
    assert named(found, "events", "events.yaml", "ev14 effect #1", "every player")
    assert named(found, "events", "events.yaml", "ev24 effect #1", "ROM")
    assert named(found, "events", "events.yaml", "ev09", "no effect")


def test_audit_wants_the_deck_to_last_to_v_1945(tmp_path: Path) -> None:
    found = findings(tmp_path, "events.yaml", lambda d: [e.update(advance=2) for e in d["events"]])
    assert named(found, "events", "events.yaml", "48 months")


def test_audit_wants_overlord_as_the_book_prints_it(tmp_path: Path) -> None:
    found = findings(tmp_path, "events.yaml", lambda d: by_title(d, "events", "Operation Overlord").update(advance=5))
    assert named(found, "book_events", "events.yaml", "ev02", "advance 6")


def test_audit_wants_pearl_harbor_s_effect(tmp_path: Path) -> None:
    found = findings(tmp_path, "events.yaml",
                     lambda d: by_title(d, "events", "Attack on Pearl Harbor")["effects"].pop())
    assert named(found, "book_events", "events.yaml", "ev01", "WEU and in NEA")


# -- provenance and names

def test_audit_wants_a_source_on_every_item(tmp_path: Path) -> None:
    found = findings(tmp_path, "soldiers.yaml", lambda d: item(d, "soldiers", "s09").pop("source"))
    assert named(found, "sources", "soldiers.yaml", "s09")
    found = findings(tmp_path / "2", "regions.yaml", lambda d: item(d, "regions", "NAI").update(source=""))
    assert named(found, "sources", "regions.yaml", "NAI")
    found = findings(tmp_path / "3", "missions.yaml", lambda d: item(d, "missions", "m11").update(source=" "))
    assert named(found, "sources", "missions.yaml", "m11")
    found = findings(tmp_path / "4", "events.yaml", lambda d: item(d, "events", "ev11").pop("source"))
    assert named(found, "sources", "events.yaml", "ev11")


def test_audit_wants_unique_names(tmp_path: Path) -> None:
    found = findings(tmp_path, "soldiers.yaml",
                     lambda d: item(d, "soldiers", "s02").update(name=item(d, "soldiers", "s03")["name"]))
    assert named(found, "names", "soldiers.yaml", "s03", "also soldiers.yaml: s02")


def test_audit_wants_no_secret_name_inside_another(tmp_path: Path) -> None:
    found = findings(tmp_path, "events.yaml",
                     lambda d: item(d, "events", "ev13").update(title="Battle of Britain ends"))
    assert named(found, "names", "missions.yaml", "m04", "inside events.yaml: ev13")
    found = findings(tmp_path / "2", "soldiers.yaml", lambda d: item(d, "soldiers", "s54").update(name="Gnys"))
    assert named(found, "names", "soldiers.yaml", "s54", "inside soldiers.yaml")


def test_audit_wants_no_public_text_quoting_a_secret_name(tmp_path: Path) -> None:
    found = findings(tmp_path, "soldiers.yaml",
                     lambda d: item(d, "soldiers", "s17").update(note="Fought in the Battle of Britain."))
    assert named(found, "public_texts", "soldiers.yaml: s17", "missions.yaml: m04")
