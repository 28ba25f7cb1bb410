"""Supply (spec §4.11): a chain of spaces the player controls, by any connection, to a home space it controls."""

from __future__ import annotations

from app.games.total_domination.derived import supplied, supplied_spaces
from tests.games.total_domination.boards import coastal, home, land, stage


def line(units, **kw):
    """UK capital — a — b — c — d, all neutral land spaces in a row, linked by land routes."""
    return stage(spaces=[home("uk", "uk", capital=True), land("a"), land("b"), land("c"), land("d"),
                         home("germany", "germany", capital=True)],
                 links=[("uk", "a", "land"), ("a", "b", "land"), ("b", "c", "land"), ("c", "d", "land"),
                        ("d", "germany", "land")],
                 units=units, **kw)


def test_unit_joined_to_its_home_space_by_controlled_spaces_is_supplied():
    st = line([("uk", "army", "a"), ("uk", "army", "b")])
    assert supplied(st, st.unit("u2"))
    assert supplied_spaces(st, "uk") == {"uk", "a", "b"}


def test_a_gap_in_the_chain_leaves_the_unit_unsupplied():
    st = line([("uk", "army", "a"), ("uk", "army", "c")])
    assert supplied(st, st.unit("u1"))
    assert not supplied(st, st.unit("u2"))


def test_units_on_their_own_home_space_are_always_supplied():
    st = line([("germany", "army", "germany")])
    assert supplied(st, st.unit("u1"))


def test_an_allys_spaces_do_not_carry_supply():
    st = line([("ussr", "army", "a"), ("uk", "army", "b")])
    assert not supplied(st, st.unit("u2"))


def test_an_enemy_occupied_home_space_is_no_source():
    st = line([("germany", "army", "uk"), ("germany", "army", "uk"), ("uk", "army", "a")])
    assert not supplied(st, st.unit("u3"))


def test_coalition_home_spaces_are_sources():
    st = stage(spaces=[home("france", "france"), land("a"), home("uk", "uk", capital=True)],
               links=[("france", "a", "land")], units=[("uk", "army", "a")])
    assert supplied(st, st.unit("u1"))
    st.controller["france"] = "germany"
    assert not supplied(st, st.unit("u1"))


def test_joined_non_aligned_home_spaces_supply_the_joined_power():
    spaces = [home("usa", "usa", capital=True), land("a"), home("uk", "uk", capital=True)]
    st = stage(spaces=spaces, links=[("usa", "a", "land")], units=[("uk", "army", "a"), ("usa", "army", "usa")])
    assert not supplied(st, st.unit("u1"))  # not yet joined: US spaces are not the UK's
    assert not supplied(st, st.unit("u2"))  # a non-aligned unit never acts
    st.controller["usa"] = "uk"
    assert supplied(st, st.unit("u1")) and supplied(st, st.unit("u2"))


def test_supply_runs_along_any_connection_type():
    st = stage(spaces=[home("uk", "uk", capital=True), coastal("a"), land("b"), coastal("c")],
               links=[("uk", "a", "sea"), ("a", "b", "arrow"), ("b", "c", "land")],
               units=[("uk", "fleet", "a"), ("uk", "army", "b"), ("uk", "army", "c")])
    assert all(supplied(st, u) for u in st.units)


def test_uboats_and_resistance_are_never_unsupplied():
    st = line([("germany", "uboat", "b"), ("uk", "resistance", "d")])
    assert supplied(st, st.unit("u1")) and supplied(st, st.unit("u2"))


def test_t21_uboats_do_not_break_an_enemy_supply_line():
    st = stage(spaces=[home("uk", "uk", capital=True), coastal("atlantic", stars=2, uboat=True), coastal("b")],
               links=[("uk", "atlantic", "sea"), ("atlantic", "b", "sea")],
               units=[("uk", "fleet", "atlantic"), ("germany", "uboat", "atlantic"), ("uk", "fleet", "b")])
    assert supplied(st, st.unit("u3"))


def test_resistance_does_not_break_an_enemy_supply_line():
    st = line([("germany", "army", "d"), ("germany", "army", "c"), ("uk", "resistance", "d")])
    assert supplied(st, st.unit("u2"))


def test_unit_alone_in_an_enemy_capital_is_unsupplied():
    # one unit in an enemy capital controls nothing, so no supply line starts there (§19.5)
    st = line([("uk", "army", "a"), ("uk", "army", "b"), ("uk", "army", "c"), ("uk", "army", "d"),
               ("uk", "army", "germany")])
    assert not supplied(st, st.unit("u5"))
    st.new_unit("uk", "army", "germany")
    assert supplied(st, st.unit("u5"))


def test_after_joining_uk_home_spaces_supply_us_units():
    st = stage(spaces=[home("uk", "uk", capital=True), land("a"), home("usa", "usa", capital=True)],
               links=[("uk", "a", "land")], units=[("usa", "army", "a")], controller={"usa": "uk"})
    assert supplied(st, st.unit("u1"))
