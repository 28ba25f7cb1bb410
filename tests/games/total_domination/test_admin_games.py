"""Whole seeded games through the Administrative Phase on the real data pack: every year ends with its
victory check, the last year's check always ends the match, and each scenario ends when it should."""

from __future__ import annotations

import random

import pytest

from app.games.total_domination import admin
from app.games.total_domination.movement import fits
from app.games.total_domination.rules import GAME


def play(players, seed, **options):
    rng = random.Random(seed)
    st = GAME.setup(options, GAME.roles(players, options), rng)
    checks = []
    for _ in range(GAME.max_actions(players, options)):
        if GAME.outcome(st) is not None:
            break
        d = GAME.pending(st)[0]
        events = GAME.apply(st, d.seat, GAME.bot(st, d, rng), rng)
        checks += [e.msg.params["year"] for e in events if e.msg is not None and e.msg.id.startswith("victory_totals")]
    return st, checks


@pytest.mark.parametrize("players, seed, options, years", [
    (4, 1, {"bombers": True, "uboats": True}, range(1939, 1946)),
    (2, 2, {"setup": "alternative", "bombers": True}, range(1939, 1946)),
    (3, 3, {"scenario": "rise_of_the_axis", "arctic": True}, range(1939, 1943)),
    (4, 4, {"scenario": "fall_of_the_axis"}, range(1943, 1946)),
    (1, 5, {"setup": "alternative"}, range(1939, 1946)),
])
def test_a_seeded_game_checks_victory_every_year_and_ends_by_its_last_year(players, seed, options, years):
    st, checks = play(players, seed, **options)
    out = GAME.outcome(st)
    assert out is not None and st.phase == "over"
    assert checks == list(years)[:len(checks)] and checks[-1] == st.year <= max(years)
    assert set(st.outcome) == {"side", "summary_msg", "scores"}
    if checks[-1] < max(years):
        assert st.outcome["summary_msg"]["id"] != "outcome_axis_last_year"


@pytest.mark.parametrize("country", ["germany", "japan"])
def test_solo_conquest_on_the_real_board(country):
    st = GAME.setup({}, GAME.roles(1, {}), random.Random(9))
    st.units = [u for u in st.units if u.nation not in ("germany", "japan", "italy")]
    spaces = st.geo.home_spaces(country) + (st.geo.home_spaces("italy") if country == "germany" else [])
    for i, space in enumerate(spaces):
        assert admin.verdict(st) is None  # a home space is still the Axis's
        sp = st.geo.spaces[space]
        for _ in range(2 if sp.capital else 1):
            st.new_unit("uk" if i % 2 else "ussr", "army" if fits(sp, "army") else "fleet", space)
    assert admin.solo_conquest(st) == country and admin.verdict(st)[0] == "allies"
