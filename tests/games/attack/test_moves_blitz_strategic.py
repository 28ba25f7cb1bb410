"""The Blitzkrieg move (spec §8) and the Strategic move (spec §9) on the staged map of moves_kit."""

from __future__ import annotations

import pytest

from app.games.attack import GAME
from app.games.attack.flow import turn_choices
from app.games.attack.state import GameState
from tests.games.attack.moves_kit import answer, choice_ids, move_group, pending, stub_battles, table  # noqa: F401

pytestmark = pytest.mark.usefixtures("stub_battles")


def actions(state: GameState) -> list[str]:
    return [c for c, _ in turn_choices(state, "p1")]


# ------------------------------------------------------------------ Blitzkrieg
def test_a_8_1_blitz_only_after_this_turns_move() -> None:
    state = table({"A": {"INF": 2, "TNK": 1}})
    assert "BLITZ" not in actions(state)
    answer(state, "MOVE")
    answer(state, "done")
    assert "BLITZ" in actions(state)


def test_a_8_2_a_8_4_only_tanks_and_planes_and_no_sea() -> None:
    state = table({"A": {"INF": 3, "ART": 1, "TNK": 1, "PLN": 1}, "B": {"INF": 2}})
    answer(state, "MOVE")
    answer(state, "done")
    answer(state, "BLITZ")
    ids = choice_ids(state)
    assert not any("~" in c for c in ids)  # neither the lanes nor the anchored bay
    assert not any(c.startswith("B") for c in ids)  # B holds only infantry
    answer(state, "A>B")
    assert set(pending(state).choice_ids()) == {"TNK:1", "PLN:1"}


def test_a_8_3_units_that_moved_in_the_move_may_blitz_and_a_8_5_conquests_count_as_own() -> None:
    """C is green's: in the Move a tank may not pass it, so B→C→D is for planes only. The Move takes C;
    in the Blitz the tank that moved in the Move passes C to attack D."""
    state = table({"A": {"INF": 1, "TNK": 2}, "B": {"INF": 3}})
    answer(state, "MOVE")
    move_group(state, "A>B", "TNK:2")
    assert "B>D" not in choice_ids(state)
    move_group(state, "B>C", "INF:2")
    answer(state, "done")
    answer(state, "battle:C")
    assert state.owner["C"] == "p1"  # the stub battle: the attacker wins
    answer(state, "BLITZ")
    answer(state, "B>D")
    assert list(pending(state).choice_ids()) == ["TNK:1", "TNK:2"]
    answer(state, "TNK:1")
    assert "battles" in state.flags and len(state.flags["battles"]) == 1  # the Blitz battle waits for the end
    answer(state, "done")
    answer(state, "battle:D")
    assert state.flags["battles"][-1] == ["D", "p1", {"TNK": 1}]  # fought at the end of the Blitz


def test_a_8_blitz_units_move_once_and_the_last_unit_stays() -> None:
    state = table({"A": {"TNK": 2}, "B": {"INF": 1}})
    answer(state, "MOVE")
    answer(state, "done")
    answer(state, "BLITZ")
    answer(state, "A>B")  # one tank must stay in A: no count asked
    assert state.units["B"] == {"INF": 1, "TNK": 1}
    # B's infantry cannot blitz, the tank that moved in may not move again, A's last tank must stay
    assert pending(state).kind == "action"


# ------------------------------------------------------------------ Strategic
def test_a_9_2_any_units_any_distance_through_own_regions_only() -> None:
    state = table({"A": {"INF": 2, "ART": 1, "PLN": 1}})
    answer(state, "STRATEGIC")
    ids = choice_ids(state)
    assert {"A>B", "A>K", "A>L"} <= set(ids)
    assert "A>C" not in ids and "A>D" not in ids and "A>E" not in ids  # no battle ever
    assert "A>F" not in ids  # only through neutral E: planes get no exception
    assert next(c.label for c in pending(state).choices if c.id == "A>L") == "A → L (3 regions through your own)"
    answer(state, "A>L")
    answer(state, "INF:2", "ART:1", "PLN:1")
    assert pending(state).kind == "move_count"  # A would be left empty: asked again
    answer(state, "INF:1", "ART:1", "PLN:1")
    assert state.units["L"] == {"INF": 2, "ART": 1, "PLN": 1} and state.units["A"] == {"INF": 1}


def test_a_9_units_that_moved_in_the_move_may_move_strategically() -> None:
    state = table({"A": {"INF": 3}})
    answer(state, "MOVE")
    move_group(state, "A>B", "INF:2")
    answer(state, "done")
    answer(state, "STRATEGIC")
    answer(state, "B>L")
    assert list(pending(state).choice_ids()) == ["INF:1", "INF:2"]


def test_a_9_3_a_sea_link_in_the_route_needs_the_controllers_permission() -> None:
    state = table({"G": {"INF": 3}}, sea_controller="p2")
    answer(state, "STRATEGIC")
    ids = choice_ids(state)
    assert {"G~A", "G~B", "G~L"} <= set(ids)  # a lane may be one link of a longer route (spec §24)
    label = next(c.label for c in pending(state).choices if c.id == "G~L")
    assert "the sea controller may refuse" in label
    move_group(state, "G~L", "INF:2")
    d = pending(state)
    assert (d.seat, d.kind) == ("p2", "sea_permission")
    answer(state, "permit", seat="p2")
    assert state.units["L"] == {"INF": 3}
    assert "battles" not in state.flags


def test_a_9_3_a_refused_strategic_group_goes_back_whole_and_is_held() -> None:
    state = table({"G": {"INF": 3, "TNK": 1, "PLN": 1}}, sea_controller="p2")
    answer(state, "STRATEGIC")
    move_group(state, "G~B", "INF:2", "TNK:1", "PLN:1")  # G's last unit stays: the moving is over
    answer(state, "refuse", seat="p2")
    answer(state, "on", seat="p1")  # the planes cannot be refused: the mover sends them on (A-7.3.4 item 5)
    assert state.units["G"] == {"INF": 3, "TNK": 1} and state.units["B"] == {"INF": 1, "PLN": 1}
    assert GAME.view(state, "p1")["movement"]["blocked"] == {"G": {"INF": 2, "TNK": 1}}
    answer(state, "MOVE")
    ids = choice_ids(state)
    assert [c for c in ids if c.startswith("G")] == ["G~A"]  # for the one infantry that is free
    answer(state, "G~A")  # that infantry alone: the two held back and the tank may not (no count asked)
    group = GAME.view(state, "p1")["movement"]["groups"][0]
    assert (group["from"], group["units"], group["status"]) == ("G", {"INF": 1}, "on_lane")


def test_a_9_strategic_route_over_a_lane_is_not_asked_when_a_land_route_exists() -> None:
    state = table({"A": {"INF": 3}}, sea_controller="p2")
    answer(state, "STRATEGIC")
    ids = choice_ids(state)
    assert "A>B" in ids and "A~B" not in ids
    assert "A~G" in ids  # G only over the lane
