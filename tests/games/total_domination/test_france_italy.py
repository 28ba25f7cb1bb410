"""Administrative step B: France and Italy change sides (spec §11; T15, T16; gap G2 for the retreat)."""

from __future__ import annotations

from app.games.total_domination.derived import control_map, vp
from app.games.total_domination.france_italy import new_controller, retreat_spaces
from app.games.total_domination.movement import build_spaces
from tests.games.total_domination.admin_kit import answer, logged, pending, run_admin
from tests.games.total_domination.boards import coastal, home, land, stage, stub_pack

SOLO_SEATS = {"germany": "", "japan": "", "uk": "p1", "ussr": "p1"}


def europe(units=(), controller=None, destroyed=(), extra_spaces=(), extra_links=(), **kw):
    """France between Germany, the UK (by sea) and Spain; Poland between Germany and the USSR's
    Belarus and Moscow; Italy south of Germany, Japan far away over an arrow link; the Channel a
    neutral coastal space off France."""
    return stage(
        spaces=[home("france", "france", stars=2, factory=True, shipyard=True),
                home("germany", "germany", shape="land", capital=True, factory=True),
                home("italy", "italy", stars=2, shipyard=True), home("uk", "uk", capital=True, shipyard=True),
                home("moscow", "ussr", shape="land", capital=True, factory=True),
                home("belarus", "ussr", shape="land"), home("japan", "japan", capital=True),
                land("spain"), land("poland"), coastal("channel"), coastal("libya"), *extra_spaces],
        links=[("france", "germany", "land"), ("france", "uk", "sea"), ("france", "spain", "land"),
               ("france", "channel", "sea"), ("germany", "poland", "land"), ("poland", "belarus", "land"),
               ("belarus", "moscow", "land"), ("germany", "italy", "land"), ("italy", "libya", "sea"),
               ("libya", "japan", "arrow"), *extra_links],
        units=units, controller=controller, destroyed=destroyed, **kw)


def nations(st, space):
    return sorted((u.nation, u.kind) for u in st.units_at(space))


# ---------------------------------------------------------------- France goes to the Axis
def test_t15_france_becomes_germanys_and_its_units_leave_the_board(monkeypatch):
    stub_pack(monkeypatch)
    st = europe(units=[("germany", "army", "france"), ("france", "fleet", "channel"), ("france", "army", "spain")],
                destroyed=["france"])
    before = vp(st)
    ctx = run_admin(st, "coalition_switch", "remove_destruction")
    assert st.controller["france"] == "germany"  # the France tile on its Germany side
    assert not any(u.nation == "france" for u in st.units)  # to the German pool: no token is lost
    assert nations(st, "france") == [("germany", "army")]
    # France was already German-held: its VP do not move; the Channel and Spain lose their French holders
    after = vp(st)
    assert after["germany"] == before["germany"] and after["uk"] == before["uk"] - 2
    assert control_map(st)["channel"] is None and control_map(st)["spain"] is None
    assert "france" not in st.destroyed  # step C: Germany now controls its own coalition home space
    ids = logged(ctx)
    assert ids.index("coalition_switches") < ids.index("destruction_removed") and "vp_changes" in ids
    # from the next action Germany builds French units (and only French ones) in France
    assert ("france", "army", "france") in build_spaces(st, "germany")
    assert not any(s == "france" and n != "france" for n, _, s in build_spaces(st, "germany"))


def test_france_goes_to_japan_when_japan_holds_it():
    st = europe(units=[("japan", "army", "france")])
    run_admin(st, "coalition_switch")
    assert st.controller["france"] == "japan" and nations(st, "france") == [("japan", "army")]


def test_no_switch_while_the_country_is_held_by_its_own_side():
    st = europe(units=[("france", "army", "france"), ("germany", "army", "italy"), ("italy", "army", "italy")])
    ctx = run_admin(st, "coalition_switch")
    assert st.controller == {"france": "uk", "italy": "germany", "usa": "nonaligned", "china": "nonaligned"}
    assert len(st.units) == 3 and "coalition_switches" not in logged(ctx)


def test_the_switch_happens_only_at_step_b():
    st = europe(units=[("germany", "army", "france")])
    assert new_controller(st, "france") == "germany" and st.controller["france"] == "uk"


# ---------------------------------------------------------------- France comes back to the UK
def test_the_uk_retaking_france_gets_it_back_and_the_axis_loses_the_french_units():
    st = europe(units=[("uk", "army", "france"), ("france", "army", "spain")], controller={"france": "germany"})
    run_admin(st, "coalition_switch")
    assert st.controller["france"] == "uk" and nations(st, "france") == [("uk", "army")]
    assert not any(u.nation == "france" for u in st.units)


def test_t16_soviet_liberation_france_goes_to_the_uk_and_the_soviet_army_retreats(monkeypatch):
    # Spain is nearer but Soviet-held and cut off (unsupplied); Poland is full; Belarus is the nearest fit
    st = europe(units=[("ussr", "army", "france"), ("ussr", "army", "spain"), ("ussr", "army", "poland"),
                       ("ussr", "army", "poland")], controller={"france": "germany"})
    before = vp(st)
    ctx = run_admin(st, "coalition_switch")
    assert st.controller["france"] == "uk"
    assert nations(st, "france") == [] and nations(st, "belarus") == [("ussr", "army")]
    assert pending(st) == []  # one nearest space: no question, and no OP paid (no card is involved)
    after = vp(st)
    assert after["ussr"] == before["ussr"] - 2 and after["uk"] == before["uk"] + 2  # France is British again
    assert "retreat" in logged(ctx)


def test_retreat_ties_are_the_retreating_players_choice():
    st = europe(units=[("ussr", "army", "france")], controller={"france": "germany"},
                extra_spaces=[home("kiev", "ussr", shape="land")],
                extra_links=[("poland", "kiev", "land")])
    st.new_unit("ussr", "army", "poland")
    st.new_unit("ussr", "army", "poland")
    # Poland is full; Belarus and Kiev are both 3 steps away
    run_admin(st, "coalition_switch")
    d = pending(st)
    assert len(d) == 1 and d[0].seat == "ussr" and d[0].kind == "retreat"
    assert sorted(c.id for c in d[0].choices) == ["belarus", "kiev"]
    assert not d[0].undoable
    answer(st, "kiev")
    assert nations(st, "kiev") == [("ussr", "army")] and pending(st) == []
    assert st.controller["france"] == "uk"


def test_every_liberating_unit_retreats_each_to_the_nearest_space_left_with_room():
    st = europe(units=[("ussr", "army", "france"), ("ussr", "army", "france"), ("ussr", "army", "belarus")],
                controller={"france": "germany"})
    run_admin(st, "coalition_switch")
    assert nations(st, "belarus") == [("ussr", "army")] * 2 and nations(st, "moscow") == [("ussr", "army")]


def test_a_unit_with_nowhere_to_retreat_goes_to_the_pool():
    st = europe(units=[("ussr", "army", "france")] + [("ussr", "army", "moscow")] * 4
                + [("ussr", "army", "belarus")] * 2, controller={"france": "germany"})
    ctx = run_admin(st, "coalition_switch")
    assert nations(st, "france") == [] and sum(1 for u in st.units if u.nation == "ussr") == 6
    assert "retreat_no_space" in logged(ctx)


def test_retreat_spaces_respect_shapes():
    st = europe(units=[("ussr", "fleet", "france")], controller={"france": "germany"})
    fleet = st.units[0]
    assert retreat_spaces(st, fleet, "ussr") == []  # the USSR's spaces here are all land


# ---------------------------------------------------------------- Italy
def test_italy_goes_to_the_allied_power_holding_it_and_its_units_leave_the_board():
    st = europe(units=[("uk", "fleet", "italy"), ("italy", "army", "libya")])
    before = vp(st)
    run_admin(st, "coalition_switch")
    assert st.controller["italy"] == "uk" and nations(st, "italy") == [("uk", "fleet")]
    assert not any(u.nation == "italy" for u in st.units)
    assert vp(st)["uk"] == before["uk"] and vp(st)["germany"] == before["germany"] - 1  # Libya is lost


def test_italy_goes_to_the_ussr_when_the_ussr_holds_it():
    st = europe(units=[("ussr", "army", "italy")])
    run_admin(st, "coalition_switch")
    assert st.controller["italy"] == "ussr" and nations(st, "italy") == [("ussr", "army")]


def test_italy_returns_to_germany_when_germany_retakes_it():
    st = europe(units=[("germany", "army", "italy"), ("italy", "fleet", "libya")], controller={"italy": "uk"})
    run_admin(st, "coalition_switch")
    assert st.controller["italy"] == "germany" and nations(st, "italy") == [("germany", "army")]
    assert nations(st, "libya") == []


def test_japanese_liberation_italy_returns_to_germany_and_the_japanese_unit_retreats():
    st = europe(units=[("japan", "fleet", "italy"), ("japan", "fleet", "libya")], controller={"italy": "ussr"})
    run_admin(st, "coalition_switch")
    assert st.controller["italy"] == "germany"
    # Libya (1 step, Japanese-held and supplied over the arrow link from Japan) has room
    assert nations(st, "italy") == [] and nations(st, "libya") == [("japan", "fleet")] * 2


def test_automa_retreat_takes_the_first_of_equally_near_spaces_without_asking():
    # Libya and Malta: both one step from Italy, Japanese-held, supplied over arrow links from Japan
    st = europe(units=[("japan", "fleet", "italy"), ("japan", "fleet", "libya"), ("japan", "fleet", "malta")],
                controller={"italy": "uk"}, extra_spaces=[coastal("malta")],
                extra_links=[("italy", "malta", "sea"), ("malta", "japan", "arrow")])
    st.options["players"] = 1
    st.seats = dict(SOLO_SEATS)
    ctx = run_admin(st, "coalition_switch")
    assert pending(st) == [] and nations(st, "italy") == []
    assert nations(st, "libya") == [("japan", "fleet")] * 2 and nations(st, "malta") == [("japan", "fleet")]
    assert "retreat" in logged(ctx)


def test_both_countries_can_switch_in_one_step():
    st = europe(units=[("germany", "army", "france"), ("uk", "fleet", "italy")])
    run_admin(st, "coalition_switch")
    assert st.controller["france"] == "germany" and st.controller["italy"] == "uk"


def test_a_retreat_waiting_for_its_answer_survives_dump_and_load():
    import json

    from app.games.total_domination.state import dump, load

    st = europe(units=[("ussr", "army", "france"), ("ussr", "army", "france"), ("germany", "army", "italy")],
                controller={"france": "germany", "italy": "uk"},
                extra_spaces=[home("kiev", "ussr", shape="land")], extra_links=[("poland", "kiev", "land")])
    st.new_unit("ussr", "army", "poland")
    st.new_unit("ussr", "army", "poland")
    run_admin(st, "coalition_switch")
    copy = load(json.loads(json.dumps(dump(st))))
    for s in (st, copy):
        answer(s, "kiev")
        answer(s, "kiev")
    assert dump(copy) == dump(st)
    # both retreats done, then Italy (Germany retook it from the UK) went home
    assert nations(st, "kiev") == [("ussr", "army")] * 2 and st.controller["italy"] == "germany"
