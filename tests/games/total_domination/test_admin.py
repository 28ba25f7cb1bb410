"""The Administrative Phase (spec §5.4): the victory check (§10, §14.1, §15.1; T17, T18), the order of
the steps A–G, Destruction markers off at C (§4.13), bombers, rockets and Radar ready at E."""

from __future__ import annotations

import pytest

from app.games.total_domination import admin, derived, engine, flow
from app.games.total_domination.engine import task
from app.games.total_domination.rules import GAME
from tests.games.total_domination.admin_kit import logged, run, run_admin, years_from_germany
from tests.games.total_domination.boards import home, land, stage

SOLO_SEATS = {"germany": "", "japan": "", "uk": "p1", "ussr": "p1"}


def plain(vp=None, year=1941, options=None, controller=None, units=(), spaces=None, links=()):
    """A board with no scoring spaces: every VP comes from ``bonus_vp`` (a side's total is what counts)."""
    return stage(spaces=spaces or [land("nowhere", stars=0)], links=links, units=units, year=year,
                 options=options, controller=controller, bonus_vp=dict(vp or {}))


def check(st):
    ctx = run_admin(st, "victory_check")
    return st.outcome, ctx


# ---------------------------------------------------------------- A. victory check (§10.1)
def test_t17_axis_is_checked_first_and_wins_when_both_sides_reach_their_thresholds():
    st = plain({"germany": 20, "japan": 9, "uk": 20, "ussr": 15}, controller={"usa": "uk"})
    assert derived.allied_threshold(st) == 35
    outcome, ctx = check(st)
    assert outcome["side"] == "axis" and outcome["summary_msg"]["id"] == "outcome_axis_threshold"
    assert st.phase == "over" and "victory_totals" in logged(ctx)
    assert outcome["scores"] == {"germany": 29, "japan": 29, "uk": 35, "ussr": 35}  # seat -> its side's total


def test_t18_in_1945_without_a_winner_the_axis_wins():
    st = plain({"germany": 15, "japan": 10, "uk": 20, "ussr": 14}, year=1945, controller={"usa": "uk"})
    outcome, _ = check(st)
    assert outcome["side"] == "axis" and outcome["summary_msg"]["id"] == "outcome_axis_last_year"


def test_axis_wins_at_29_not_at_28():
    assert check(plain({"germany": 20, "japan": 8}))[0] is None
    assert check(plain({"germany": 20, "japan": 9}))[0]["side"] == "axis"


def test_allies_win_at_33_with_neither_country_joined():
    assert check(plain({"uk": 20, "ussr": 12}))[0] is None
    outcome, _ = check(plain({"uk": 20, "ussr": 13}))
    assert outcome["side"] == "allies" and outcome["summary_msg"]["params"] == {"allies": 33, "threshold": 33}


@pytest.mark.parametrize("joined, threshold", [({}, 33), ({"usa": "uk"}, 35), ({"china": "ussr"}, 35),
                                               ({"usa": "uk", "china": "ussr"}, 37)])
def test_allied_threshold_rises_by_2_per_joined_country_up_to_37(joined, threshold):
    below = plain({"uk": threshold - 1}, controller=joined)
    at = plain({"uk": threshold}, controller=joined)
    assert check(below)[0] is None and check(at)[0]["side"] == "allies"


def test_before_the_last_year_play_goes_on():
    st = plain({"germany": 10, "uk": 10}, year=1944)
    assert check(st)[0] is None and st.phase != "over"


def test_the_outcome_reaches_the_protocol_with_winners_and_scores():
    st = plain({"germany": 20, "japan": 9})
    check(st)
    out = GAME.outcome(st)
    assert out is not None and out.winners == ("germany", "japan") and out.scores["uk"] == 0
    assert "29" in out.summary


# ---------------------------------------------------------------- Rise of the Axis (§14.1, G18)
RISE = {"scenario": "rise_of_the_axis", "last_year": 1942}


def test_rise_of_the_axis_has_no_thresholds_before_1942():
    st = plain({"germany": 30, "uk": 1}, year=1941, options=RISE)
    assert check(st)[0] is None


@pytest.mark.parametrize("vp, side, msg", [({"germany": 14, "uk": 13}, "axis", "outcome_rise_axis"),
                                           ({"germany": 14, "ussr": 15}, "allies", "outcome_rise_allies")])
def test_rise_of_the_axis_the_side_with_more_vp_wins_at_the_end_of_1942(vp, side, msg):
    outcome, _ = check(plain(vp, year=1942, options=RISE))
    assert outcome["side"] == side and outcome["summary_msg"]["id"] == msg


def test_rise_of_the_axis_a_tie_at_the_end_of_1942_is_a_draw():
    st = plain({"germany": 10, "japan": 7, "uk": 9, "ussr": 8}, year=1942, options=RISE)
    outcome, ctx = check(st)
    assert outcome["side"] is None and outcome["summary_msg"]["id"] == "outcome_rise_draw"
    assert "victory_totals_plain" in logged(ctx)  # no threshold to show
    assert GAME.outcome(st).winners == ()  # a draw: nobody wins
    assert outcome["scores"] == {"germany": 17, "japan": 17, "uk": 17, "ussr": 17}


def test_rise_of_the_axis_ignores_the_29_threshold_in_1942():
    outcome, _ = check(plain({"germany": 30, "uk": 31}, year=1942, options=RISE))
    assert outcome["side"] == "allies"


# ---------------------------------------------------------------- solo (§15.1, G17)
def solo(units=(), vp=None, year=1941, controller=None):
    """Germany's four home spaces (its capital holds 4) and Japan's capital, in a solo game."""
    st = stage(spaces=[home("germany", "germany", shape="land", capital=True, factory=True),
                       home("austria", "germany", shape="land"), home("czechoslovakia", "germany", shape="land"),
                       home("italy", "italy"), home("japan", "japan", capital=True)],
               links=[("germany", "austria", "land"), ("germany", "czechoslovakia", "land"),
                      ("austria", "italy", "land")],
               units=units, year=year, options={"players": 1}, controller=controller, bonus_vp=dict(vp or {}))
    st.seats = dict(SOLO_SEATS)
    return st


CONQUEST = [("uk", "army", "germany"), ("uk", "army", "germany"), ("ussr", "army", "austria"),
            ("uk", "army", "czechoslovakia"), ("uk", "fleet", "italy")]


def test_solo_player_wins_controlling_every_home_space_of_one_axis_country():
    st = solo(CONQUEST)
    outcome, _ = check(st)
    assert outcome["side"] == "allies" and outcome["summary_msg"] == {"id": "outcome_solo_conquest",
                                                                      "params": {"country": "germany"}}
    assert GAME.outcome(st).winners == ("p1",) and outcome["scores"] == {"p1": derived.side_totals(st)["allies"]}


def test_solo_a_capital_needs_two_units():
    st = solo(CONQUEST[1:])  # one British army in Germany: the capital is nobody's
    assert check(st)[0] is None


def test_solo_every_home_space_is_needed_italy_included_while_it_is_axis():
    assert check(solo(CONQUEST[:-1]))[0] is None
    # once Italy is the Allies' own coalition country, it no longer stands between the player and Germany
    assert check(solo(CONQUEST[:-1], controller={"italy": "uk"}))[0]["side"] == "allies"


def test_solo_the_player_loses_when_the_axis_reaches_29_even_while_conquering():
    st = solo(CONQUEST, vp={"japan": 29})
    outcome, _ = check(st)
    assert outcome["side"] == "axis" and outcome["summary_msg"]["id"] == "outcome_axis_threshold"
    assert GAME.outcome(st).winners == ()


def test_solo_has_no_allied_threshold_and_the_player_loses_at_the_end_of_1945():
    st = solo(vp={"uk": 40})
    assert check(st)[0] is None
    st = solo(vp={"uk": 40}, year=1945)
    outcome, _ = check(st)
    assert outcome["side"] == "axis" and outcome["summary_msg"]["id"] == "outcome_solo_last_year"


# ---------------------------------------------------------------- the order of the steps
def test_administrative_steps_run_in_letter_order():
    letters = [letter for letter, _ in flow.ADMIN]
    assert letters == sorted(letters)
    mine = {kind: letter for letter, kind in flow.ADMIN}
    assert mine["victory_check"] == "A" and mine["coalition_switch"] == "B" and mine["remove_destruction"] == "C"
    assert mine["strategic_bombing"] == "D" and mine["ready_units"] == "E"


@task("test_reveal_a_tech")
def _reveal(ctx, t):
    ctx.pop(t)
    ctx.state.techs["germany"].append("B1")  # a second colour: +1 tech VP
    return False


def test_a_before_f_tech_vp_of_this_year_count_at_next_years_check(monkeypatch):
    years_from_germany(monkeypatch)
    monkeypatch.setattr(flow, "ADMIN", sorted([*flow.ADMIN, ("F", "test_reveal_a_tech")]))
    monkeypatch.setitem(engine.RUN, "next_year", lambda ctx, t: ctx.pop(t) or False)
    st = plain({"germany": 20, "japan": 8})
    st.techs["germany"] = ["A1"]  # one colour: 0 tech VP
    run(st, {"k": "admin_phase"})
    assert st.outcome is None and derived.side_totals(st)["axis"] == 29  # too late for this year's check
    assert check(st)[0]["side"] == "axis"  # next year's A sees it


# ---------------------------------------------------------------- C. Destruction markers (§4.13)
def markers(units=()):
    return stage(spaces=[home("berlin", "germany", shape="land", capital=True, factory=True),
                         home("ruhr", "germany", shape="land", stars=2, factory=True),
                         home("hamburg", "germany", shipyard=True), home("london", "uk", capital=True,
                                                                          factory=True)],
                 links=[("berlin", "ruhr", "land"), ("berlin", "hamburg", "land"), ("hamburg", "london", "sea")],
                 units=units, destroyed=["berlin", "ruhr", "hamburg", "london"])


def test_c_removes_markers_from_home_spaces_their_owner_controls_again():
    st = markers(units=[("uk", "army", "ruhr"), ("uk", "army", "berlin")])
    ctx = run_admin(st, "remove_destruction")
    # Ruhr is British-held; Berlin has one enemy unit, so nobody controls it: both keep their markers
    assert st.destroyed == ["berlin", "ruhr"]
    assert logged(ctx).count("destruction_removed") == 2


def test_c_keeps_the_marker_of_an_enemy_held_capital():
    st = markers(units=[("uk", "army", "berlin"), ("uk", "army", "berlin")])
    run_admin(st, "remove_destruction")
    assert "berlin" in st.destroyed and "london" not in st.destroyed


# ---------------------------------------------------------------- E. ready again
def test_e_readies_spent_bombers_rockets_and_radar():
    st = markers(units=[("uk", "bomber", "london", True), ("germany", "bomber", "berlin", True),
                        ("germany", "bomber", "ruhr")])
    st.rockets_used, st.radar_used = ["germany"], ["uk"]
    ctx = run_admin(st, "ready_units")
    assert not any(u.spent for u in st.units) and st.rockets_used == [] and st.radar_used == []
    assert "ready_again" in logged(ctx)


def test_verdict_is_pure():
    st = plain({"germany": 29})
    assert admin.verdict(st)[0] == "axis" and st.outcome is None


def test_the_view_says_how_the_match_is_won():
    assert GAME.view(plain(), "germany")["victory_rule"] == {"mode": "thresholds", "last_year": 1945}
    assert GAME.view(plain(options=RISE), None)["victory_rule"] == {"mode": "compare", "last_year": 1942}
    assert GAME.view(solo(), "p1")["victory_rule"]["mode"] == "solo"
