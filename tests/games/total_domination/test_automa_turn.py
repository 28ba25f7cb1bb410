"""The automa's turn (spec §15.4–§15.7, §15.3 rules 7–11) on staged boards, §16.5 verbatim."""

from __future__ import annotations

import pytest

from app.games.total_domination import derived
from app.games.total_domination.automa import type_order
from app.games.total_domination.state import GameState
from tests.games.total_domination.automa_boards import ids, lines_of, run, solo_card, solo_stage, stub, turn, where
from tests.games.total_domination.boards import coastal, home, land

# A piece of Europe as §16.5 needs it: the four German home spaces of the Defence Priority, the
# Balkans next to Germany, Poland next to Germany, Romania joined to Czechoslovakia by an arrow link.
SPACES = [
    home("germany", "germany", capital=True, factory=True, shipyard=True),
    home("italy", "italy", stars=2, factory=True, shipyard=True),
    home("austria", "germany", shape="land", factory=True),
    home("czechoslovakia", "germany", shape="land"),
    land("balkans"), land("poland"), land("romania"), coastal("baltic"), land("ukraine"),
    home("london", "uk", capital=True, factory=True, shipyard=True),
]
LINKS = [
    ("germany", "italy", "land"), ("germany", "austria", "land"), ("germany", "czechoslovakia", "land"),
    ("germany", "balkans", "land"), ("germany", "poland", "land"), ("italy", "austria", "land"),
    ("austria", "balkans", "land"), ("czechoslovakia", "romania", "arrow"), ("poland", "ukraine", "land"),
    ("germany", "baltic", "sea"), ("baltic", "london", "sea"), ("romania", "ukraine", "land"),
]
# arrow 1 from the German edge: Italy, Austria, the Balkans, Romania, Poland (Romania before Poland)
LINES = {"germany": (("italy", "austria", "balkans", "romania", "poland"), ("baltic", "poland"),
                     ("czechoslovakia", "ukraine"), ("london",))}
GARRISON = [("germany", "army", "germany"), ("germany", "army", "germany"), ("italy", "army", "italy"),
            ("germany", "army", "austria"), ("germany", "army", "czechoslovakia")]


def europe(monkeypatch: pytest.MonkeyPatch, germany: list[tuple[str, str]], units: list[tuple[str, ...]],
           techs: list[str] | None = None, lines: dict[str, tuple[tuple[str, ...], ...]] | None = None,
           unit_priority: tuple[str, ...] = ("army", "fleet")) -> GameState:
    card = solo_card(1, germany=germany, units=unit_priority, lines=lines or LINES)
    stub(monkeypatch, solo=[card])
    return solo_stage(dealt=[card.id], spaces=SPACES, links=LINKS, units=units, techs={"germany": techs or []})


def test_16_5_an_automa_turn_for_germany(monkeypatch: pytest.MonkeyPatch) -> None:
    st = europe(monkeypatch, [("move", "army"), ("build", "army"), ("destroy", "army")],
                GARRISON + [("uk", "army", "poland"), ("neutral", "army", "romania")], techs=["C1", "C2"])
    deck, discard = list(st.deck), list(st.discard)
    log = turn(st)
    text = [t.lower() for t in lines_of(log)]
    # 1. move army: every home space holds a unit, so Defence Priority picks Germany; arrow 1's
    #    first empty space a German army can reach is the Balkans; Germany keeps one unit
    assert where(st, "germany", "army").count("balkans") == 1
    move = next(t for t in text if "moves" in t)
    assert "from germany to balkans" in move and "defence priority: out of germany" in move and "arrow 1" in move
    # 2. build army in Germany, plus an army (Production Optimization) and a fleet (Shipbuilding
    #    Industry): Germany holds 4 units, the capital's limit
    assert sorted(u.kind for u in st.units_at("germany")) == ["army", "army", "army", "fleet"]
    assert ids(log).count("automa_build") == 3 and ids(log).count("automa_extra") == 2
    # 3. destroy army: no Allied unit on a German home space; along arrow 1 the neutral army in
    #    Romania (reached by the arrow link from Czechoslovakia) comes before the UK army in Poland
    assert where(st, "neutral", "army") == [] and where(st, "uk", "army") == ["poland"]
    assert any("destroys" in t and "romania" in t and "arrow 1" in t for t in text)
    # the turn ends; the automa pays no OP and plays nothing from the main deck
    assert ids(log)[-1] == "automa_turn_ends"
    assert (st.deck, st.discard) == (deck, discard)
    assert st.solo["used"] == ["solo-01"] and st.solo["dealt"] == []


def test_actions_resolve_left_to_right(monkeypatch: pytest.MonkeyPatch) -> None:
    # destroy first: with the order reversed the neutral army goes before the move opens the Balkans
    st = europe(monkeypatch, [("destroy", "army"), ("move", "army")],
                GARRISON + [("uk", "army", "poland"), ("neutral", "army", "romania")])
    log = ids(turn(st))
    assert log.index("automa_destroy") < log.index("automa_move")


# ------------------------------------------------------------------ the line procedure (§15.5)
def test_arrow_2_when_arrow_1_crosses_no_candidate(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = {"germany": (("london",), ("poland", "balkans"), ("balkans",), ())}
    st = europe(monkeypatch, [("move", "army")], GARRISON, lines=lines)
    text = lines_of(turn(st))
    assert "poland" in where(st, "germany", "army")
    assert any("arrow 2" in t for t in text)


def test_arrow_3_then_4(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = {"germany": (("london",), ("italy",), ("austria",), ("ukraine", "balkans"))}
    st = europe(monkeypatch, [("move", "army")], GARRISON, lines=lines)
    text = lines_of(turn(st))
    assert "balkans" in where(st, "germany", "army") and any("arrow 4" in t for t in text)
    lines = {"germany": ((), (), ("poland",), ("balkans",))}
    st = europe(monkeypatch, [("move", "army")], GARRISON, lines=lines)
    text = lines_of(turn(st))
    assert "poland" in where(st, "germany", "army") and any("arrow 3" in t for t in text)


def test_no_line_settles_it_the_nearest_space(monkeypatch: pytest.MonkeyPatch) -> None:
    st = europe(monkeypatch, [("move", "army")], GARRISON, lines={"germany": ((), (), (), ())})
    text = lines_of(turn(st))
    # Balkans and Poland are both one step from Germany: the id breaks the tie
    assert "balkans" in where(st, "germany", "army")
    assert any("no arrow" in t for t in text)


def test_destroy_follows_the_line_not_the_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = {"germany": (("poland", "romania"), (), (), ())}
    st = europe(monkeypatch, [("destroy", "army")], GARRISON + [("uk", "army", "poland"),
                                                               ("neutral", "army", "romania")], lines=lines)
    turn(st)
    assert where(st, "uk", "army") == [] and where(st, "neutral", "army") == ["romania"]


# ------------------------------------------------------------------ Defence Priority and rule 10
def test_move_goes_out_of_the_first_home_space_that_keeps_a_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    # Germany has one unit only: the army moves out of Austria (2 units), the next in the list
    units = [("germany", "army", "germany"), ("italy", "army", "italy"), ("germany", "army", "austria"),
             ("germany", "army", "austria"), ("germany", "army", "czechoslovakia")]
    st = europe(monkeypatch, [("move", "army")], units)
    text = lines_of(turn(st))
    assert where(st, "germany", "army").count("austria") == 1 and "balkans" in where(st, "germany", "army")
    assert any("out of austria" in t for t in text)


def test_the_last_unit_never_leaves_a_home_space(monkeypatch: pytest.MonkeyPatch) -> None:
    units = [("germany", "army", "germany"), ("italy", "army", "italy"), ("germany", "army", "austria"),
             ("germany", "army", "czechoslovakia")]
    st = europe(monkeypatch, [("move", "army")], units)
    log = turn(st)
    assert where(st, "germany", "army") == ["austria", "czechoslovakia", "germany"]
    assert "automa_impossible" in ids(log)


def test_a_unit_away_from_home_moves_when_no_home_space_can_spare_one(monkeypatch: pytest.MonkeyPatch) -> None:
    units = [("germany", "army", "germany"), ("italy", "army", "italy"), ("germany", "army", "austria"),
             ("germany", "army", "czechoslovakia"), ("germany", "army", "balkans")]
    st = europe(monkeypatch, [("move", "army")], units, lines={"germany": (("ukraine",), (), (), ())})
    # every home space holds its last unit: the Balkans army moves; Ukraine (arrow 1) is out of its
    # reach, so the empty space nearest Germany: Poland (one step; Romania is two)
    text = lines_of(turn(st))
    assert where(st, "germany", "army") == ["austria", "czechoslovakia", "germany", "poland"]
    assert any("no home space can spare" in t and "no arrow" in t for t in text)


def test_rule_10_refills_an_empty_home_space_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # Austria is empty: the move goes there (not to the Balkans the line would pick), by the unit
    # away from home rather than one of Germany's two
    units = [("germany", "army", "germany"), ("germany", "army", "germany"), ("italy", "army", "italy"),
             ("germany", "army", "czechoslovakia"), ("germany", "army", "balkans")]
    st = europe(monkeypatch, [("move", "army")], units)
    text = lines_of(turn(st))
    assert where(st, "germany", "army") == ["austria", "czechoslovakia", "germany", "germany"]
    assert any("rule 10" in t and "austria" in t for t in text)


def test_rule_10_never_takes_the_last_unit_of_another_home_space(monkeypatch: pytest.MonkeyPatch) -> None:
    # Czechoslovakia is empty and every other home space holds its last unit: nobody may go
    units = [("germany", "army", "germany"), ("italy", "army", "italy"), ("germany", "army", "austria")]
    st = europe(monkeypatch, [("move", "army")], units)
    log = ids(turn(st))
    assert where(st, "germany", "army") == ["austria", "germany"] and "automa_impossible" in log
    # an army away from home (Poland) may: through Germany to Czechoslovakia
    st = europe(monkeypatch, [("move", "army")], units + [("germany", "army", "poland")])
    text = lines_of(turn(st))
    assert where(st, "germany", "army") == ["austria", "czechoslovakia", "germany"]
    assert any("rule 10" in t for t in text)


def test_rule_10_refill_comes_from_a_home_space_that_keeps_a_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    units = [("germany", "army", "germany"), ("germany", "army", "germany"), ("italy", "army", "italy"),
             ("germany", "army", "austria")]
    st = europe(monkeypatch, [("move", "army")], units)
    text = lines_of(turn(st))
    assert where(st, "germany", "army") == ["austria", "czechoslovakia", "germany"]
    assert any("rule 10" in t for t in text)


def test_build_on_the_first_home_space_where_it_is_legal(monkeypatch: pytest.MonkeyPatch) -> None:
    # Germany is full (4): the army is built in Italy (an Italian army: the space's colour)
    units = [("germany", "army", "germany")] * 4 + [("italy", "army", "italy"), ("germany", "army", "austria"),
                                                     ("germany", "army", "czechoslovakia")]
    st = europe(monkeypatch, [("build", "army")], units)
    text = lines_of(turn(st))
    assert where(st, "italy", "army") == ["italy", "italy"]
    assert any("defence priority: italy" in t for t in text)


def test_destroy_an_allied_unit_on_a_home_space_first(monkeypatch: pytest.MonkeyPatch) -> None:
    # a UK fleet in Italy (a German home space) goes before the army the icon and the line point at
    units = GARRISON + [("uk", "fleet", "italy"), ("neutral", "army", "romania")]
    st = europe(monkeypatch, [("destroy", "army")], units)
    text = lines_of(turn(st))
    assert where(st, "uk", "fleet") == [] and where(st, "neutral", "army") == ["romania"]
    assert any("home space italy" in t for t in text)


def test_the_capital_attacks_an_enemy_unit_inside_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # a UK army in Germany, no other German unit next to it but Germany's own: the capital attacks
    units = [("germany", "army", "germany"), ("uk", "army", "germany"), ("italy", "army", "italy"),
             ("germany", "army", "austria"), ("germany", "army", "czechoslovakia")]
    st = europe(monkeypatch, [("destroy", "fleet")], units)
    turn(st)
    assert where(st, "uk", "army") == []


def test_destroy_needs_adjacency(monkeypatch: pytest.MonkeyPatch) -> None:
    # the UK army in Ukraine is next to no German unit: the destroy is ignored
    st = europe(monkeypatch, [("destroy", "army")], GARRISON + [("uk", "army", "ukraine")])
    log = turn(st)
    assert where(st, "uk", "army") == ["ukraine"] and "automa_impossible" in ids(log)


# ------------------------------------------------------------------ unit types (§15.4 item 4), rule 8
def test_type_order() -> None:
    assert type_order("army", ("fleet", "army")) == ["army", "fleet"]
    assert type_order("any", ("fleet", "army")) == ["fleet", "army"]


def test_build_army_impossible_so_a_fleet(monkeypatch: pytest.MonkeyPatch) -> None:
    # no German or Italian army token is left in the pool: the build is a fleet, in Germany
    st = europe(monkeypatch, [("build", "army")], GARRISON)
    tokens = {"germany": {"army": 4, "fleet": 10}, "italy": {"army": 1, "fleet": 10}}
    stub(monkeypatch, solo=[solo_card(1, germany=[("build", "army")], lines=LINES)], tokens=tokens)
    log = turn(st)
    assert "automa_other_type" in ids(log)
    assert sorted(u.kind for u in st.units_at("germany")) == ["army", "army", "fleet"]
    # with no fleet token either, the action is ignored
    st = europe(monkeypatch, [("build", "army")], GARRISON)
    stub(monkeypatch, solo=[solo_card(1, germany=[("build", "army")], lines=LINES)],
         tokens={"germany": {"army": 4, "fleet": 0}, "italy": {"army": 1, "fleet": 0}})
    assert "automa_impossible" in ids(turn(st)) and len(st.units) == len(GARRISON)


def test_move_fleet_impossible_so_an_army(monkeypatch: pytest.MonkeyPatch) -> None:
    st = europe(monkeypatch, [("move", "fleet")], GARRISON)
    log = turn(st)
    assert "automa_other_type" in ids(log) and "balkans" in where(st, "germany", "army")


def test_bomber_icons_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    st = europe(monkeypatch, [("build", "bomber"), ("move", "army")], GARRISON)
    log = ids(turn(st))
    assert "automa_icon_ignored" in log and "automa_build" not in log and "automa_move" in log
    assert not [u for u in st.units if u.kind == "bomber"]


def test_impossible_actions_are_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    st = europe(monkeypatch, [("destroy", "fleet"), ("move", "army")], GARRISON)
    log = ids(turn(st))
    assert log.index("automa_impossible") < log.index("automa_move")


# ------------------------------------------------------------------ rule 7: tech extras (§15.6)
def test_mechanization_moves_an_extra_army(monkeypatch: pytest.MonkeyPatch) -> None:
    units = GARRISON + [("germany", "army", "germany")]
    st = europe(monkeypatch, [("move", "army")], units, techs=["A1"])
    turn(st)
    # the first army to the Balkans, the extra one (Germany still has two) to Romania, the next
    # empty space along arrow 1 (through Czechoslovakia and its arrow link)
    assert where(st, "germany", "army") == ["austria", "balkans", "czechoslovakia", "germany", "romania"]
    assert "italy" in where(st, "italy", "army")


def test_two_land_techs_destroy_two_extra_armies_never_a_fleet(monkeypatch: pytest.MonkeyPatch) -> None:
    units = GARRISON + [("uk", "army", "poland"), ("neutral", "army", "romania"), ("uk", "army", "balkans"),
                        ("uk", "fleet", "baltic")]
    st = europe(monkeypatch, [("destroy", "fleet")], units, techs=["A2", "A3"])
    log = turn(st)
    # the fleet in the Baltic (arrow 2), then one army each for A2 and A3 along arrow 1: the
    # Balkans, then Romania; Poland, further along, stays
    assert where(st, "uk", "fleet") == [] and where(st, "neutral", "army") == []
    assert where(st, "uk", "army") == ["poland"]
    assert ids(log).count("automa_extra") == 2 and ids(log).count("automa_destroy") == 3


def test_modern_battleships_never_destroy_an_army(monkeypatch: pytest.MonkeyPatch) -> None:
    units = GARRISON + [("uk", "army", "poland"), ("neutral", "army", "romania")]
    st = europe(monkeypatch, [("destroy", "army")], units, techs=["B2"])
    log = ids(turn(st))
    assert where(st, "uk", "army") == ["poland"] and "automa_extra_impossible" in log


def test_no_extra_when_the_action_is_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    st = europe(monkeypatch, [("destroy", "army")], GARRISON, techs=["A2"])
    log = ids(turn(st))
    assert "automa_extra" not in log


# ------------------------------------------------------------------ rule 11, running out
def test_rule_11_bonus_when_nothing_can_be_done_and_homes_held(monkeypatch: pytest.MonkeyPatch) -> None:
    st = europe(monkeypatch, [("destroy", "fleet")], GARRISON)
    before = derived.vp(st)["germany"]
    log = ids(turn(st))
    assert "automa_bonus" in log and st.bonus_vp == {"germany": 1}
    assert derived.vp(st)["germany"] == before + 1


def test_rule_11_no_bonus_without_every_home_space(monkeypatch: pytest.MonkeyPatch) -> None:
    # a card the automa cannot use at all (rule 8) while the UK holds Czechoslovakia
    units = [u for u in GARRISON if u[2] != "czechoslovakia"] + [("uk", "army", "czechoslovakia")]
    st = europe(monkeypatch, [("build", "bomber")], units)
    log = ids(turn(st))
    assert "automa_no_bonus" in log and not st.bonus_vp


def test_rule_11_not_when_an_action_was_carried_out(monkeypatch: pytest.MonkeyPatch) -> None:
    st = europe(monkeypatch, [("destroy", "fleet"), ("move", "army")], GARRISON)
    log = ids(turn(st))
    assert "automa_bonus" not in log and not st.bonus_vp


def test_out_of_cards_both_axis_powers_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    st = europe(monkeypatch, [("move", "army")], GARRISON)
    st.solo["dealt"] = []
    log = ids(run(st, {"k": "automa_turn", "power": "japan"}))
    assert st.passed == ["germany", "japan"] and log == ["automa_out_of_cards"]
    assert not st.bonus_vp


def test_the_same_state_gives_the_same_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    units = GARRISON + [("uk", "army", "poland"), ("neutral", "army", "romania")]
    texts = []
    for seed in (1, 2):
        st = europe(monkeypatch, [("move", "army"), ("build", "army"), ("destroy", "army")], units, techs=["C1"])
        texts.append(lines_of(run(st, {"k": "automa_turn", "power": "germany"}, seed=seed)))
    assert texts[0] == texts[1]  # the turn draws no randomness at all


# ------------------------------------------------------------------ Japan's orientation
def test_japan_uses_its_own_part_lines_and_defence_priority(monkeypatch: pytest.MonkeyPatch) -> None:
    spaces = [home("japan", "japan", capital=True, factory=True, shipyard=True), home("nanking", "japan"),
              home("manchuria", "japan", shape="land", factory=True), home("ryukyu", "japan", shape="island"),
              coastal("korea"), coastal("shanghai"), land("mongolia")]
    links = [("japan", "korea", "sea"), ("korea", "manchuria", "land"), ("manchuria", "mongolia", "land"),
             ("nanking", "shanghai", "land"), ("japan", "ryukyu", "sea"), ("ryukyu", "shanghai", "sea"),
             ("korea", "nanking", "land"), ("japan", "nanking", "sea")]
    card = solo_card(2, germany=[("destroy", "fleet")], japan=[("move", "army"), ("build", "fleet")],
                     lines={"germany": (("korea",), (), (), ()), "japan": (("mongolia", "shanghai"), (), (), ())})
    stub(monkeypatch, solo=[card])
    units = [("japan", "army", "japan"), ("japan", "fleet", "nanking"), ("japan", "army", "manchuria"),
             ("japan", "army", "manchuria"), ("japan", "fleet", "ryukyu")]
    st = solo_stage(dealt=[card.id], spaces=spaces, links=links, units=units)
    log = turn(st, "japan")
    # Japan has 1 unit: Manchuria (2 units) is the first that can spare an army; arrow 1: Mongolia
    assert where(st, "japan", "army") == ["japan", "manchuria", "mongolia"]
    assert sorted(u.kind for u in st.units_at("japan")) == ["army", "fleet"]
    assert "automa_destroy" not in ids(log)


# ------------------------------------------------------------------ §16.5 on the real board
def test_16_5_on_the_basic_board() -> None:
    import random

    from app.games.total_domination import GAME
    from app.games.total_domination.pack import pack
    from tests.games.total_domination.automa_boards import run as run_tasks

    st = GAME.setup({}, GAME.roles(1, {}), random.Random(0))
    st.units, st.stack, st.bonus_vp = [], [], {}
    for pl in pack().scenarios["full"].placements:  # the standard setup: Germany holds 2 units (§16.5)
        for _ in range(pl.count):
            st.new_unit(pl.nation, pl.kind, pl.space)
    st.new_unit("uk", "army", "poland")
    st.techs["germany"] = ["C1", "C2"]
    st.solo.update(dealt=["solo-01"], used=[])
    assert len(st.units_at("germany")) == 2 and all(st.units_at(s) for s in ("italy", "austria", "czechoslovakia"))
    text = [e.text.lower() for e in run_tasks(st, {"k": "automa_turn", "power": "germany"})]
    assert any("from germany to balkans" in t and "out of germany" in t and "arrow 1" in t for t in text)
    assert len(st.units_at("germany")) == 4  # 1 left + the army built + the extra army and fleet
    assert not st.units_at("romania") and [u.nation for u in st.units_at("poland")] == ["uk"]
    assert any("destroys" in t and "romania" in t and "arrow 1" in t for t in text)


def test_rule_9_the_automa_plays_no_card_and_no_event(monkeypatch: pytest.MonkeyPatch) -> None:
    st = europe(monkeypatch, [("move", "army"), ("build", "army"), ("destroy", "army")],
                GARRISON + [("neutral", "army", "romania")])
    st.deck, st.discard = ["td-01", "td-02"], ["td-03"]
    st.tactics = [{"card": "td-04", "power": "germany", "value": -1}]  # a −1 Tactics the player put down
    turn(st)
    assert (st.deck, st.discard, st.diplomacy, st.hands) == (["td-01", "td-02"], ["td-03"], [], {"allies": []})
    assert st.tactics == [{"card": "td-04", "power": "germany", "value": -1}]


def test_rule_10_refill_with_another_type(monkeypatch: pytest.MonkeyPatch) -> None:
    # Italy is empty; the armies of Austria and Czechoslovakia are their spaces' last units, so a
    # fleet of Germany's two goes, though the icon says army
    units = [("germany", "fleet", "germany"), ("germany", "fleet", "germany"), ("germany", "army", "austria"),
             ("germany", "army", "czechoslovakia")]
    st = europe(monkeypatch, [("move", "army")], units)
    text = lines_of(turn(st))
    assert where(st, "germany", "fleet") == ["germany", "italy"]
    assert any("rule 10" in t and "italy" in t for t in text)


def test_intruders_go_by_defence_priority(monkeypatch: pytest.MonkeyPatch) -> None:
    # enemy armies on Czechoslovakia and Italy (both German home spaces): Italy comes first in the list
    units = [u for u in GARRISON if u[2] not in ("italy", "czechoslovakia")] + [
        ("uk", "army", "czechoslovakia"), ("uk", "army", "italy")]
    st = europe(monkeypatch, [("destroy", "army")], units)
    turn(st)
    assert where(st, "uk", "army") == ["czechoslovakia"]
