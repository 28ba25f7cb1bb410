"""Missions (spec §7) and the stage II draws: T-MIS-1, T-STAGE2-1, OQ-7, OQ-10 (both caps, the issue's
case of one time jump revealing the last red card and a yellow one), the Main front discard."""

from __future__ import annotations

import pytest

from app.games.first_to_fight.engine import Ctx
from app.games.first_to_fight.missions import discard_mission, draw_stage2, strength, target
from app.games.first_to_fight.pack import pack, use_pack
from app.games.first_to_fight.views import secrets, view
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

YELLOWS = [mission(f"y{i}", "III 1944", region="WAR") for i in range(1, 9)]


def two_level_track() -> dict[str, tuple[int, ...]]:
    return {"NEA": (0, 1, 2, 3, 4, 5, 6, 7)}


def test_t_mis_1_mixed_strength_fails(own_pack: None) -> None:
    """T-MIS-1: Infantry 4/1 (+4), Infantry 5/3 wounded (+1), Pilot 5/5 (+1) = 6 < 6 + 2: failure, -5."""
    use_pack(staged(soldiers=[soldier("a", "INFANTRY", 4, 1), soldier("b", "INFANTRY", 5, 3),
                              soldier("c", "PILOT", 5, 5)],
                    missions=[mission("m1", "X 1939", "NEA", "INFANTRY", difficulty=6), *YELLOWS],
                    events=[event("e1", "IX 1939", advance=1)], tracks=two_level_track()))
    state = table(3, "IX 1939")
    state.domination["NEA"] = 2
    place(state, "a", "NEA")
    place(state, "b", "NEA", wounds=1, trained=True)
    place(state, "c", "NEA")
    assert (strength(state, "m1"), target(state, "m1")) == (6, 8)
    state.hands["p1"] = ["m1"]
    state.event_deck = ["e1"]
    ending(state, "p1", Dice(1))
    assert state.failed["p1"] == ["m1"]


def test_success_at_equal_strength_goes_face_up(own_pack: None) -> None:
    """§7.3: success when Strength >= difficulty + domination level."""
    use_pack(staged(soldiers=[soldier("a", "PILOT", 5, 1), soldier("b", "SAILOR", 1, 2)],
                    missions=[mission("m1", "X 1939", "NEA", "PILOT", difficulty=4), mission("m2", "V 1940")],
                    events=[event("e1", "IX 1939", advance=1)], tracks=two_level_track()))
    state = table(2, "IX 1939")
    state.domination["NEA"] = 2
    place(state, "a", "NEA")
    place(state, "b", "NEA")
    state.hands["p1"], state.hands["p2"] = ["m1"], ["m2"]
    state.event_deck = ["e1"]
    log = ending(state, "p2", Dice(1))
    assert state.succeeded["p1"] == ["m1"] and "mission_won" in ids(log)
    assert state.hands["p2"] == ["m2"]  # not due: stays secret in hand
    assert "m2" in secrets(state, "p1") and "m1" not in secrets(state, "p2")
    assert "m1" in view(state, "p2")["mission_cards"]


def stage2_table(in_hand: int, received: int = 0, started_four: bool = False) -> tuple:
    use_pack(staged(missions=[mission("r1", "X 1939", "WAR"), mission("r2", "XII 1942", "WAR"), *YELLOWS],
                    events=[event("e1", "IX 1939", advance=1)]))
    state = table(2, "IX 1939")
    state.hands["p1"] = ["r1", *[f"y{i}" for i in range(1, in_hand + 1)]]
    state.hands["p2"] = ["r2"]
    state.stage2_deck = [f"y{i}" for i in range(in_hand + 1, 9)]
    state.stage2_received["p1"], state.started_four["p1"] = received, started_four
    state.event_deck = ["e1"]
    return state


def test_t_stage2_1_three_stage2_in_hand_draw_nothing(own_pack: None) -> None:
    """T-STAGE2-1: a player holding 3 stage II cards resolves a stage I mission: no draw."""
    state = stage2_table(3)
    deck = list(state.stage2_deck)
    log = ending(state, "p1", Dice(1))
    assert state.failed["p1"] == ["r1"] and not pending(state)
    assert state.stage2_deck == deck and "stage2_capped" in ids(log)


def test_t_stage2_1_one_stage2_in_hand_draws_2_keeps_1(own_pack: None) -> None:
    """T-STAGE2-1: holding 1 stage II card: draw 2, keep 1, the other to the bottom of the deck."""
    state = stage2_table(1)
    ending(state, "p1", Dice(1))
    [d] = pending(state)
    assert (d.seat, d.kind, [c.id for c in d.choices]) == ("p1", "keep_stage2", ["y2", "y3"])
    answer(state, "p1", "y2", rng=Dice(1))
    assert state.hands["p1"] == ["y1", "y2"]
    assert state.stage2_deck[0] == "y4" and state.stage2_deck[-1] == "y3"
    assert state.stage2_received["p1"] == 1
    assert "y3" not in secrets(state, "p1") and "y3" in secrets(state, "p2")


def test_stage2_mission_resolved_draws_nothing(own_pack: None) -> None:
    """§7.4: resolving a stage II mission never draws."""
    state = stage2_table(0)
    state.hands["p1"], state.hands["p2"] = ["y1"], ["y4"]
    state.stage2_deck = ["y2", "y3"]
    state.time = 53
    ending(state, "p1", Dice(1))
    assert state.failed["p1"] == ["y1"] and not pending(state) and state.stage2_deck == ["y2", "y3"]


def test_oq10_one_time_jump_reveals_the_last_red_and_a_yellow(own_pack: None) -> None:
    """The issue's case: a 4-red starter who has received 3 yellows holds her last red card and 3 yellows,
    and one time jump reveals the red and a yellow together. The hand then holds 2 yellows (the 3-card cap
    would let her draw) but she has received 3 (the 4-card rule): no draw."""
    use_pack(staged(missions=[mission("r4", "XII 1942", "WAR"), mission("y1", "I 1943", "WAR"),
                              mission("y2", "V 1944", "WAR"), mission("y3", "V 1944", "WAR"), *YELLOWS[3:]],
                    events=[event("e1", "IX 1939", advance=3)]))
    state = table(2, "XI 1942")
    state.hands["p1"] = ["r4", "y1", "y2", "y3"]
    state.hands["p2"] = ["y4"]
    state.stage2_deck = ["y5", "y6", "y7"]
    state.stage2_received["p1"], state.started_four["p1"] = 3, True
    state.event_deck = ["e1"]
    log = ending(state, "p1", Dice(1))
    assert state.failed["p1"] == ["r4", "y1"]
    assert state.hands["p1"] == ["y2", "y3"] and state.stage2_in_hand("p1") == 2
    assert not pending(state) and state.stage2_deck == ["y5", "y6", "y7"]
    assert "stage2_capped" in ids(log)


def test_oq10_a_three_red_starter_draws_after_the_same_jump(own_pack: None) -> None:
    """The contrast: a 3-red starter (2 yellows received) resolving her last red card draws."""
    state = stage2_table(0)
    state.hands["p1"] = ["r2", "y1", "y2"]
    state.hands["p2"] = ["y3"]
    state.stage2_deck = ["y4", "y5"]
    state.stage2_received["p1"] = 2
    state.time = 39
    state.event_deck = ["e1"]
    ending(state, "p1", Dice(1))
    [d] = pending(state)
    assert d.kind == "keep_stage2" and d.seat == "p1"


def test_oq7_a_stage2_card_drawn_while_resolving_waits_for_the_next_ending(own_pack: None) -> None:
    """OQ-7: the reveal happens at the start of the step; a due yellow card drawn in it is not resolved now."""
    use_pack(staged(missions=[mission("r1", "XII 1942", "WAR"), mission("y1", "I 1943", "WAR"),
                              mission("y2", "I 1943", "WAR")],
                    events=[event("e1", "IX 1939", advance=2), event("e2", "IX 1939", advance=2)]))
    state = table(2, "XII 1942")
    state.hands["p1"], state.hands["p2"] = ["r1"], []
    state.stage2_deck = ["y1", "y2"]
    state.event_deck = ["e1", "e2"]
    ending(state, "p1", Dice(1))
    answer(state, "p1", "y1", rng=Dice(1))
    assert state.time >= 40 and state.hands["p1"] == ["y1"] and state.failed["p1"] == ["r1"]
    assert state.outcome is None


def test_main_front_discard_shows_the_card_and_draws_under_the_caps(own_pack: None) -> None:
    """§4.4 Main front (ORDERS calls discard_mission): shown to all, 0 VP, a stage I card draws."""
    state = stage2_table(1)
    ctx = Ctx(state, Dice())
    discard_mission(ctx, "p1", "r1")
    from app.games.first_to_fight import engine

    engine.run(ctx)
    assert state.discarded["p1"] == ["r1"] and "r1" in state.seen["*"] and "r1" not in secrets(state, "p2")
    assert ids(ctx.events) == ["mission_shown_discarded"]
    [d] = pending(state)
    assert d.kind == "keep_stage2" and [c.id for c in d.choices] == ["y2", "y3"]


def test_main_front_discarding_a_yellow_draws_nothing_and_a_later_draw_obeys_received(own_pack: None) -> None:
    """§7.6 / OQ-10: a 4-red starter discards a yellow through Main front before her last red; received
    3 stops the draw even though the hand holds fewer than 3 yellows."""
    state = stage2_table(3, received=3, started_four=True)
    ctx = Ctx(state, Dice())
    discard_mission(ctx, "p1", "y1")
    from app.games.first_to_fight import engine

    engine.run(ctx)
    assert not pending(state)
    ending(state, "p1", Dice(1))
    assert state.failed["p1"] == ["r1"] and not pending(state) and state.stage2_in_hand("p1") == 2


@pytest.mark.parametrize("left", [1, 0])
def test_draw_stage2_from_a_short_deck(own_pack: None, left: int) -> None:
    """A deck of 1 gives its card without a question; an empty deck gives nothing."""
    state = stage2_table(0)
    state.stage2_deck = state.stage2_deck[:left]
    ctx = Ctx(state, Dice())
    draw_stage2(ctx, "p1")
    from app.games.first_to_fight import engine

    engine.run(ctx)
    assert not pending(state)
    assert state.stage2_in_hand("p1") == left and state.stage2_received["p1"] == left


def test_pack_missions_resolve_with_their_own_values() -> None:
    """The real Battle of Britain is NEA, Pilot, difficulty 8 (Example 3)."""
    m = pack().missions["m04"]
    assert (m.region, m.formation, m.difficulty, m.stage) == ("NEA", "PILOT", 8, 1)
