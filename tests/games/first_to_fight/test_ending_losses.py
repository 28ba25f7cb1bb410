"""Losses (spec §8): T-LOSS-1, T-LOSS-2, the regions checked, the leader's tie-break only when it matters."""

from __future__ import annotations

from app.games.first_to_fight.losses import passes
from app.games.first_to_fight.pack import use_pack
from tests.games.first_to_fight.ending_kit import (
    Dice,
    answer,
    ending,
    event,
    ids,
    mission,
    own_pack,
    pending,
    place,
    soldier,
    staged,
    table,
)

__all__ = ["own_pack"]

TRACK = {"NEA": (0, 1, 2, 3, 4, 5, 6, 7), "WAR": (0, 1, 2, 3, 4, 5, 6, 7)}


def losses_table(soldiers: list, missions: list, level: int = 2) -> object:
    use_pack(staged(soldiers=soldiers, missions=[*missions, mission("later", "V 1944", "POL")],
                    events=[event("e1", "IX 1939", advance=1)], tracks=TRACK))
    state = table(2, "IX 1939")
    state.domination["NEA"] = state.domination["WAR"] = level
    state.hands["p1"] = [m.id for m in missions]
    state.hands["p2"] = ["later"]
    state.event_deck = ["e1"]
    return state


def test_t_loss_1_wounds_go_round_in_passes(own_pack: None) -> None:
    """T-LOSS-1: A (U1, trained), B (U3, untrained); level 2, die 3: W = 5: A, B, A, B, A; both fall."""
    state = losses_table([soldier("A", u=1), soldier("B", u=3)], [mission("m1", "X 1939", "NEA")])
    place(state, "A", "NEA", trained=True)
    place(state, "B", "NEA", trained=False)
    assert passes(state, "NEA", 5) == (2, ["A"], [], 0)
    dice = Dice(3)
    log = ending(state, "p1", dice)
    assert dice.rolled == [3]
    roll = next(e for e in log if e.msg.id == "losses_roll")
    assert (roll.msg.params["die"], roll.msg.params["n"]) == (3, 5)
    rows = {r.params["soldier"]: r.params["n"] for r in next(e for e in log if e.msg.id == "losses_wounds")
            .msg.params["rows"]}
    assert rows == {"A": 3, "B": 2}
    assert state.fallen == ["A", "B"] and not state.soldiers


def test_t_loss_2_one_pass_part_way(own_pack: None) -> None:
    """T-LOSS-2: W = 2 in a region with X (U1, trained), Y (U2, untrained), Z (U3, untrained): X and Y take
    a wound; X survives wounded, Y falls, Z is untouched."""
    state = losses_table([soldier("X", u=1), soldier("Y", u=2), soldier("Z", u=3)],
                         [mission("m1", "X 1939", "NEA")], level=0)
    place(state, "X", "NEA", trained=True)
    place(state, "Y", "NEA", trained=False)
    place(state, "Z", "NEA", trained=False)
    ending(state, "p1", Dice(2))
    assert not pending(state)  # no tie: no question
    assert state.soldiers["X"]["wounds"] == 1 and "X" not in state.fallen
    assert state.fallen == ["Y"]
    assert state.soldiers["Z"]["wounds"] == 0


def test_already_wounded_soldiers_are_not_exempt_and_fall_at_2(own_pack: None) -> None:
    """§8: a wound already there neither changes the order nor exempts (Example 3's Nahorski)."""
    state = losses_table([soldier("W", u=1), soldier("V", u=4)], [mission("m1", "X 1939", "NEA")], level=0)
    place(state, "W", "NEA", wounds=1, trained=True)
    place(state, "V", "NEA", trained=True)
    ending(state, "p1", Dice(1))
    assert state.fallen == ["W"] and state.soldiers["V"]["wounds"] == 0


def test_each_region_with_a_mission_is_checked_once_and_only_those(own_pack: None) -> None:
    """§8.1: two missions in NEA: one roll there; WAR with a mission: one roll; POL without: none."""
    state = losses_table([soldier("A", u=5), soldier("B", u=5), soldier("C", u=5)],
                         [mission("m1", "X 1939", "NEA"), mission("m2", "X 1939", "NEA"),
                          mission("m3", "X 1939", "WAR")], level=0)
    place(state, "A", "NEA", trained=True)
    place(state, "B", "WAR", trained=True)
    place(state, "C", "POL")
    dice = Dice(1, 1)
    log = ending(state, "p1", dice)
    assert [e.msg.params["region"] for e in log if e.msg.id == "losses_roll"] == ["WAR", "NEA"]
    assert dice.rolled == [1, 1]
    assert state.soldiers["C"]["wounds"] == 0


def test_a_region_without_soldiers_takes_no_wound(own_pack: None) -> None:
    state = losses_table([], [mission("m1", "X 1939", "NEA")])
    log = ending(state, "p1", Dice(6))
    assert "losses_nobody" in ids(log) and not pending(state)


def test_the_leader_breaks_a_tie_only_when_it_matters(own_pack: None) -> None:
    """§8.2: tied soldiers all wounded in the pass: no question; a pass that splits them: the leader's."""
    state = losses_table([soldier("A", u=2), soldier("B", u=2), soldier("C", u=1)],
                         [mission("m1", "X 1939", "NEA")], level=0)
    for s in ("A", "B", "C"):
        place(state, s, "NEA", trained=True)
    assert passes(state, "NEA", 3) == (1, [], [], 0)
    assert passes(state, "NEA", 2) == (0, ["C"], ["A", "B"], 1)
    ending(state, "p2", Dice(2))
    [d] = pending(state)
    assert (d.seat, d.kind, d.min, d.max, {c.id for c in d.choices}) == ("p2", "wound_tie", 1, 1, {"A", "B"})
    answer(state, "p2", "B")
    assert (state.soldiers["A"]["wounds"], state.soldiers["B"]["wounds"], state.soldiers["C"]["wounds"]) == (0, 1, 1)
