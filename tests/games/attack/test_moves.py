"""The Move action (spec §6, §7; checklist §25.6) on the staged map of moves_kit."""

from __future__ import annotations

import random

import pytest

from app.games.attack import GAME, move
from app.games.protocol import Action, Illegal
from tests.games.attack.moves_kit import answer, choice_ids, move_group, pending, stub_battles, table  # noqa: F401

pytestmark = pytest.mark.usefixtures("stub_battles")


def start_move(units: dict[str, dict[str, int]], **kw: object) -> object:
    state = table(units, **kw)  # type: ignore[arg-type]
    answer(state, "MOVE")
    return state


def test_a_7_1_2_every_unit_moves_one_region_and_a_7_1_3_tanks_and_planes_two() -> None:
    state = start_move({"A": {"INF": 2}, "B": {"INF": 1}})
    targets = [c for c in choice_ids(state) if c.startswith("A")]
    # infantry: one region by land (B own, E neutral) or one sea hop; nothing two regions away
    assert targets == ["A>B", "A>E", "A~G", "A~H"]
    state = start_move({"A": {"INF": 1, "TNK": 1}, "B": {"INF": 1}})
    assert "A>C" in choice_ids(state) and "A>K" in choice_ids(state)


def test_a_7_1_4_a_tank_passes_only_own_regions_a_plane_anything() -> None:
    """A→E→F: E is neutral, so only a plane goes; B→C→D: C is green's, so only a plane goes; A→B→C:
    B is own, so a tank may attack two regions away."""
    state = start_move({"A": {"INF": 1, "TNK": 2}, "B": {"INF": 1, "TNK": 1, "PLN": 1}})
    ids = choice_ids(state)
    assert "A>F" not in ids  # A holds no plane
    assert "A>C" in ids and "B>D" in ids
    answer(state, "B>D")  # only the plane may go: one unit, so no count is asked
    groups = GAME.view(state, "p1")["movement"]["groups"]
    assert groups == [{"from": "B", "to": "D", "sea": False, "via": "C", "units": {"PLN": 1}, "status": "attacking"}]
    answer(state, "A>C")
    assert set(pending(state).choice_ids()) == {"TNK:1", "TNK:2"}  # the infantry may not go two regions


def test_a_7_1_4_a_plane_flies_over_a_neutral_region_into_an_own_one() -> None:
    state = start_move({"A": {"INF": 1, "TNK": 1, "PLN": 1}})
    answer(state, "A>F")
    assert GAME.view(state, "p1")["units"]["F"] == {"INF": 1, "PLN": 1}  # one type, one unit: no count asked
    assert "battles" not in state.flags


def test_a_6_3_the_last_unit_may_not_leave() -> None:
    state = start_move({"A": {"INF": 1}, "B": {"INF": 2}})
    ids = choice_ids(state)
    assert not any(c.startswith("A") for c in ids)  # A's only unit must stay
    answer(state, "B>C")  # B holds two: one may go, so the count answers itself
    assert state.units["B"] == {"INF": 1}
    assert not any(c.startswith("B") for c in choice_ids(state))


def test_a_6_3_exception_units_already_moved_in_let_the_last_one_go() -> None:
    """A's single infantry may leave once other units have moved in to hold A; order matters."""
    state = start_move({"A": {"INF": 1}, "B": {"INF": 3}})
    assert not any(c.startswith("A") for c in choice_ids(state))
    move_group(state, "B>A", "INF:2")
    assert "A>E" in choice_ids(state)
    answer(state, "A>E")  # only the infantry that was there before may go (A-7.1.6): no count asked
    assert state.units["A"] == {"INF": 2}
    assert not any(c.startswith("A") for c in choice_ids(state))  # the two that moved in may not move again


def test_a_6_3_the_counts_together_may_not_empty_the_region() -> None:
    state = start_move({"A": {"INF": 1, "TNK": 1}})
    answer(state, "A>B")
    assert set(pending(state).choice_ids()) == {"INF:1", "TNK:1"}
    answer(state, "INF:1", "TNK:1")
    d = pending(state)
    assert d.kind == "move_count" and "at least one unit must stay" in d.prompt
    answer(state, "TNK:1")
    assert state.units["A"] == {"INF": 1} and state.units["B"] == {"INF": 1, "TNK": 1}


def test_a_7_1_6_each_unit_moves_once_per_move() -> None:
    state = start_move({"A": {"INF": 1, "TNK": 2}, "B": {"INF": 1}})
    move_group(state, "A>B", "TNK:2")
    # B now holds 1 infantry of its own and 2 tanks that moved in: only the infantry is free, and it is B's last
    # own-starting unit, but the tanks hold B, so it may go; the tanks may not move on
    answer(state, "B>C")
    assert state.units["B"] == {"TNK": 2}
    assert not any(c.startswith("B") for c in choice_ids(state))


def test_a_7_1_5_several_groups_into_one_region_make_one_attacking_force() -> None:
    state = start_move({"A": {"INF": 3}, "F": {"INF": 2, "ART": 1}})
    move_group(state, "A>E", "INF:2")
    move_group(state, "F>E", "INF:1", "ART:1")
    assert GAME.view(state, "p1")["movement"]["attacks"] == [{"region": "E", "units": {"INF": 3, "ART": 1}}]
    assert "E" not in state.units  # the attacking force waits off the map
    # nothing else may move (one unit must stay in A and in F): the moving ends by itself
    answer(state, "battle:E")
    assert state.flags["battles"] == [["E", "p1", {"INF": 3, "ART": 1}]]


def test_entering_an_own_region_just_adds_the_units() -> None:
    state = start_move({"A": {"INF": 3}})
    move_group(state, "A>B", "INF:2")
    assert state.units["B"] == {"INF": 3} and state.units["A"] == {"INF": 1}
    answer(state, "done")
    assert "battles" not in state.flags
    assert pending(state).kind == "action"  # the Move is over: the next action


def test_a_7_2_battles_only_after_the_last_move_in_the_order_the_mover_chooses() -> None:
    state = start_move({"A": {"INF": 3}, "B": {"INF": 3}})
    move_group(state, "A>E", "INF:1")
    assert "battles" not in state.flags  # a battle waits for the end of all movement (A-7.2.1)
    move_group(state, "B>C", "INF:2")
    answer(state, "done")
    d = pending(state)
    assert d.kind == "battle_order" and not d.undoable
    assert list(d.choice_ids()) == ["battle:E", "battle:C", "back"]
    answer(state, "battle:C")
    # A-7.2.2: after a battle no unit may move; the last battle follows by itself
    assert state.flags["battles"] == [["C", "p1", {"INF": 2}], ["E", "p1", {"INF": 1}]]
    assert pending(state).kind == "action"


def test_a_7_2_the_mover_may_go_back_to_moving_before_the_first_battle() -> None:
    state = start_move({"A": {"INF": 3}, "B": {"INF": 3}})
    move_group(state, "A>E", "INF:1")
    answer(state, "done")
    answer(state, "back")
    assert pending(state).kind == "move"
    move_group(state, "B>C", "INF:1")
    answer(state, "done")
    answer(state, "battle:E")
    assert [b[0] for b in state.flags["battles"]] == ["E", "C"]


def test_moving_is_undoable_until_a_battle_starts() -> None:
    state = start_move({"A": {"INF": 3}})
    assert pending(state).undoable  # the group
    answer(state, "A>E")
    assert pending(state).undoable  # the counts
    answer(state, "INF:1")
    assert pending(state).undoable
    answer(state, "done")  # finishing never starts a battle by itself: it was undoable
    assert not pending(state).undoable  # starting the battle is not


def test_a_7_3_2_a_sea_move_is_exactly_one_hop_no_move_before_or_after() -> None:
    state = start_move({"A": {"INF": 1, "TNK": 2}, "B": {"INF": 2, "TNK": 1}})
    sea = [c for c in choice_ids(state) if "~" in c]
    assert sea == ["A~G", "A~H"]  # only lanes from where the units stand; nothing beyond G or H
    move_group(state, "B>A", "TNK:1")  # a tank that moved by land into A may not take the lane
    answer(state, "A~G")
    # A's own units only: the tank that moved in holds A, so even A's one infantry may sail
    assert set(pending(state).choice_ids()) == {"INF:1", "TNK:1", "TNK:2"}
    answer(state, "TNK:2")
    assert state.units["G"] == {"INF": 1, "TNK": 2}  # nobody controls the seas: no permission asked
    answer(state, "G~A")  # G's own infantry may still sail; the tanks that just landed may not (no count asked)
    assert state.units["G"] == {"TNK": 2}


def test_a_7_3_3_an_anchored_zone_joins_every_bordering_region() -> None:
    state = start_move({"F": {"INF": 3}, "J": {"INF": 2}})
    ids = choice_ids(state)
    assert {"F~I", "F~J", "J~F", "J~I"} <= set(ids)
    assert "J>I" not in ids and "F>I" not in ids  # no land border: only by sea


def test_a_7_3_4_the_sea_controller_permits_a_sea_move() -> None:
    state = start_move({"A": {"INF": 3}}, sea_controller="p2")
    move_group(state, "A~H", "INF:2")
    view = GAME.view(state, "p2")["movement"]
    assert view["groups"][0]["status"] == "on_lane"  # on the lane until the controller answers
    assert "H" in state.units and state.owner["H"] == "p2"
    # A's last unit must stay: the moving is over, and the sea controller is asked
    d = pending(state)
    assert (d.seat, d.kind, list(d.choice_ids()), d.undoable) == ("p2", "sea_permission", ["permit", "refuse"], False)
    answer(state, "permit", seat="p2")
    # the only battle starts at once: the controller's answer already closed the moving
    assert state.flags["battles"] == [["H", "p1", {"INF": 2}]]


def test_a_7_3_4_a_refused_group_goes_back_and_is_blocked_for_blitz_and_strategic() -> None:
    state = start_move({"A": {"INF": 2, "TNK": 2}, "B": {"INF": 1}}, sea_controller="p2")
    move_group(state, "A~G", "TNK:2")
    answer(state, "done")
    answer(state, "refuse", seat="p2")
    assert state.units["A"] == {"INF": 2, "TNK": 2} and state.units["G"] == {"INF": 1}
    assert GAME.view(state, "p1")["movement"]["blocked"] == {"A": {"TNK": 2}}
    answer(state, "BLITZ")  # the refused tanks may not move again this turn (A-8.7)
    assert pending(state).kind == "action"  # nothing may move in the Blitz: it ends by itself
    answer(state, "STRATEGIC")
    answer(state, "A>B")
    assert list(pending(state).choice_ids()) == ["INF:1", "INF:2"]  # only the infantry may move
    answer(state, "INF:1")
    assert state.units["A"] == {"INF": 1, "TNK": 2} and state.units["B"] == {"INF": 2}


def test_a_7_3_4_item_5_planes_of_a_refused_group_fly_on_when_the_mover_says() -> None:
    state = start_move({"A": {"INF": 3, "PLN": 1}}, sea_controller="p2")
    move_group(state, "A~H", "INF:2", "PLN:1")
    answer(state, "refuse", seat="p2")
    d = pending(state)
    assert (d.seat, d.kind, list(d.choice_ids())) == ("p1", "planes_refused", ["on", "back"])
    answer(state, "on", seat="p1")
    assert state.flags["battles"] == [["H", "p1", {"PLN": 1}]]  # the planes attack alone
    assert state.units["A"] == {"INF": 3}


def test_a_7_3_4_item_5_planes_turning_back_are_not_held() -> None:
    state = start_move({"A": {"INF": 3, "PLN": 1}}, sea_controller="p2")
    move_group(state, "A~G", "INF:1", "PLN:1")
    answer(state, "done")
    answer(state, "refuse", seat="p2")
    answer(state, "back", seat="p1")
    assert state.units["A"] == {"INF": 3, "PLN": 1}
    assert GAME.view(state, "p1")["movement"]["blocked"] == {"A": {"INF": 1}}
    answer(state, "BLITZ")
    assert "A>B" in choice_ids(state)  # the plane may still move in the Blitz


def test_a_7_3_4_planes_alone_are_never_asked_about() -> None:
    state = start_move({"A": {"INF": 1, "PLN": 1}}, sea_controller="p2")
    move_group(state, "A~G", "PLN:1")
    assert state.units["G"] == {"INF": 1, "PLN": 1}
    assert GAME.view(state, "p1")["movement"]["groups"][0]["status"] == "moved"


@pytest.mark.parametrize("ruler", [None, "p1"])
def test_a_7_3_5_nobody_or_the_mover_controls_the_seas_nobody_is_asked(ruler: str | None) -> None:
    state = start_move({"A": {"INF": 3}}, sea_controller=ruler)
    move_group(state, "A~H", "INF:2")
    assert GAME.view(state, "p1")["movement"]["groups"][0]["status"] == "attacking"
    answer(state, "battle:H")
    assert state.flags["battles"] == [["H", "p1", {"INF": 2}]]


def test_the_sea_controller_is_asked_per_group_in_the_order_declared() -> None:
    state = start_move({"A": {"INF": 4}, "F": {"INF": 3}}, sea_controller="p2")
    move_group(state, "A~G", "INF:1")
    move_group(state, "F~I", "INF:2")
    move_group(state, "A~H", "INF:1")
    answer(state, "done")
    prompts = []
    for verdict in ("permit", "refuse", "permit"):
        prompts.append(pending(state).prompt)
        answer(state, verdict, seat="p2")
    assert ["from A to G" in prompts[0], "from F to I" in prompts[1], "from A to H" in prompts[2]] == [True] * 3
    assert state.flags["battles"] == [["H", "p1", {"INF": 1}]]  # I was refused; H's battle needs no order
    assert state.units["F"] == {"INF": 3} and state.units["G"] == {"INF": 2}


def test_spec_24_one_permission_per_origin_and_destination() -> None:
    state = start_move({"A": {"INF": 3, "TNK": 2}}, sea_controller="p2")
    move_group(state, "A~G", "INF:1")
    move_group(state, "A~G", "TNK:2")
    groups = GAME.view(state, "p1")["movement"]["groups"]
    assert [(g["from"], g["to"], g["units"], g["status"]) for g in groups] == [
        ("A", "G", {"INF": 1, "TNK": 2}, "on_lane")]
    answer(state, "done")
    assert "infantry ×1, tank ×2" in pending(state).prompt
    answer(state, "permit", seat="p2")
    assert state.units["G"] == {"INF": 2, "TNK": 2}
    assert pending(state).kind == "action"  # one question answered everything


def test_a_long_list_of_destinations_asks_the_origin_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(move, "SPLIT", 3)
    state = start_move({"A": {"INF": 3}, "B": {"INF": 2}})
    ids = choice_ids(state)
    assert ids[:2] == ["from:A", "from:B"] and ids[-1] == "done"
    answer(state, "from:B")
    assert choice_ids(state) == ["B>A", "B>C", "B>K", "back"]
    answer(state, "back")
    answer(state, "from:A")
    move_group(state, "A>B", "INF:2")
    assert state.units["B"] == {"INF": 4}


def test_the_log_names_the_groups_and_the_permission() -> None:
    state = start_move({"A": {"INF": 3}}, sea_controller="p2")
    events = answer(state, "A~H") + answer(state, "INF:2")
    assert any("on the sea route from A to H" in e.text for e in events)
    events = answer(state, "refuse", seat="p2")
    assert any("Green refuses the sea move of Light brown from A to H" in e.text for e in events)


def test_the_view_shows_the_declared_groups_to_everyone_and_clears_after_the_action() -> None:
    state = start_move({"A": {"INF": 4}, "B": {"INF": 2}}, sea_controller="p2")
    move_group(state, "A>E", "INF:1")
    move_group(state, "A~G", "INF:2")
    for seat in ("p1", "p2", None):
        part = GAME.view(state, seat)["movement"]
        assert part["action"] == "MOVE"
        assert [(g["from"], g["to"], g["sea"], g["status"]) for g in part["groups"]] == [
            ("A", "E", False, "attacking"), ("A", "G", True, "on_lane")]
        assert part["attacks"] == [{"region": "E", "units": {"INF": 1}}]
    answer(state, "done")
    answer(state, "permit", seat="p2")
    assert GAME.view(state, None)["movement"] == {"action": None, "groups": [], "attacks": [], "blocked": {}}


def test_an_eliminated_sea_controller_is_not_asked() -> None:
    state = start_move({"A": {"INF": 3}}, sea_controller="p2")
    state.eliminated.append("p2")
    move_group(state, "A~G", "INF:2")
    assert state.units["G"] == {"INF": 3}


def test_bad_answers_are_refused_and_change_nothing() -> None:
    state = start_move({"A": {"INF": 3}})
    before = GAME.dump(state)
    d = pending(state)
    for bad in (("A>D",), ("A>Z",), ("A>B", "A>E"), ()):
        with pytest.raises(Illegal):
            GAME.apply(state, "p1", Action(decision=d.id, choices=bad), random.Random(1))
    with pytest.raises(Illegal):
        GAME.apply(state, "p2", Action(decision=d.id, choices=("A>B",)), random.Random(1))
    assert GAME.dump(state) == before
    answer(state, "A>B")
    with pytest.raises(Illegal):
        GAME.apply(state, "p1", Action(decision=pending(state).id, choices=("INF:3",)), random.Random(1))


def test_a_7_1_1_the_mover_may_move_nothing() -> None:
    state = start_move({"A": {"INF": 3}})
    answer(state, "done")
    assert pending(state).kind == "action" and state.units["A"] == {"INF": 3}
    assert "MOVE" not in pending(state).choice_ids()  # the Move was taken (A-5.3)
