"""Every win condition (spec §4, U-13.1); surrender is the table's Resign; the end-of-game summary."""

from __future__ import annotations

import random

import pytest

from app.games.autarcha.flow import lose_unit
from app.games.autarcha.rules import GAME
from app.games.autarcha.summary import summary
from tests.games.autarcha.econ_kit import ctx, menu_ids, position, squares_in

SP, NP = "south_pass", "north_pass"


def armies(scenario: str):  # noqa: ANN201
    return position(scenario, [("white", "PSZ", squares_in(SP, "PSZ")[0]), ("red", "PSZ", squares_in(NP, "PSZ")[-1]),
                               ("white", "PIE", squares_in(SP)[5]), ("red", "PIE", squares_in(NP)[5])])


@pytest.mark.parametrize("scenario", ["skirmish", "autarchy", "civil_war", "total_war", "absolute_zero"])
def test_hq_destroyed_the_other_side_wins_every_scenario_U13_1(scenario: str) -> None:
    st = armies(scenario)
    c = ctx(st)
    lose_unit(c, "u2", "turn_ends")  # red's HQ; any catalogue line will do as the loss's
    assert st.phase == "over" and st.outcome["winners"] == ["white"]
    assert st.outcome["summary_msg"]["params"]["reason"] == "reason_hq_destroyed"
    out = GAME.outcome(st)
    assert out.winners == ("white",) and "wins" in out.summary and out.scores == {"white": 1, "red": 0}
    assert GAME.pending(st) == []
    assert [e.msg.id for e in c.events][-1] == "game_over"


def test_skirmish_all_units_destroyed_U4_1() -> None:
    """Issue 14: the Skirmish ends when every enemy unit is destroyed (here the HQ is the last to go)."""
    st = armies("skirmish")
    c = ctx(st)
    lose_unit(c, "u4", "turn_ends")
    assert st.outcome is None
    lose_unit(c, "u2", "turn_ends")
    assert st.outcome["winners"] == ["white"]


def test_all_units_condition_is_skirmish_only_and_needs_the_setup_over() -> None:
    """Every unit gone is a loss in Skirmish only (as a reason apart from the HQ, it shows when a test removes
    the units without the HQ check); units still to deploy are not gone."""
    from app.games.autarcha.victory import beaten

    for scenario, expected in (("skirmish", "all_units_destroyed"), ("autarchy", None)):
        st = armies(scenario)
        st.units = {u: d for u, d in st.units.items() if d["seat"] != "red"}
        st.units["u9"] = {"seat": "red", "kind": "PSZ", "sq": None, "facing": "S", "hits": 0, "acted": False,
                          "new": False, "lost_steps": 0}
        assert beaten(st, "red") is None  # the HQ is still in the box
        st.units["u9"]["kind"] = "PIE"  # no HQ at all: the HQ condition wins in every scenario
        assert beaten(st, "red") == "hq_destroyed"
        del st.units["u9"]
        assert beaten(st, "red") == "hq_destroyed"
        import app.games.autarcha.victory as victory

        win = victory.pack().scenarios[scenario].win
        assert ("all_units_destroyed" in win) == (expected is not None)


def test_surrender_is_the_tables_resign_not_a_move() -> None:
    """Skirmish's surrender is the platform's Resign (either side, any moment; two seats: the other wins):
    the game's own menu offers no surrender, so no move, random answer or bot can end a game by it."""
    st = armies("autarchy")
    assert "surrender" not in menu_ids(st)
    st.moves_left = 0
    assert "surrender" not in menu_ids(st)


def test_summary_reads_the_game_over_line() -> None:
    st = armies("autarchy")
    st.cards[SP] = "white"
    c = ctx(st)
    lose_unit(c, "u4", "turn_ends")
    lose_unit(c, "u2", "turn_ends")
    lines = [{"id": e.msg.id, "params": e.msg.params} for e in c.events]
    out = summary(lines)
    assert out["by_role"]["white"] == {"vp": 2, "cards": 1, "lost": 0, "gold": 100}
    assert out["by_role"]["red"] == {"vp": 0, "cards": 0, "lost": 2, "gold": 100}
    assert out["turns"] == 1 and out["reason"] == "reason_hq_destroyed"
    assert summary([{"id": "game_over", "params": {"figures": "junk"}}, {"id": "x"}]) == {"by_role": {}}


def test_a_whole_random_game_ends_with_a_winner_or_the_turn_limit() -> None:
    from tests.games.autarcha.econ_kit import Table

    t = Table("autarchy", rng=random.Random(21))
    rng = random.Random(22)
    for _ in range(20_000):
        if t.state.outcome is not None:
            break
        d = t.pending()[0]
        t.answer(d.seat, *GAME.bot(t.state, d, rng).choices, kind=d.kind)
    assert t.state.outcome is not None
