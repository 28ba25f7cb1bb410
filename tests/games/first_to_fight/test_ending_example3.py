"""Spec §13 Example 3: a full Ending Phase with the advanced Neutral Events rule, staged verbatim.

Yolanda, Ann, Paul and Jacob sit clockwise (p1..p4); Paul chose Maneuvers. The book gives Pilch the
3rd wound and then kills Bałuk; by the rules (OQ-16) only a wounded soldier can die, so the test is
"the tied soldier who takes the 3rd wound is removed iff he has no training token; the other is
unaffected", for either choice of the leader and either training of the chosen one."""

from __future__ import annotations

import pytest

from app.games.first_to_fight.pack import month_index, pack, use_pack
from app.games.first_to_fight.views import secrets, view
from tests.games.first_to_fight.ending_kit import (
    REAL,
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

YOLANDA, ANN, PAUL, JACOB = "p1", "p2", "p3", "p4"
KRASNODEBSKI, NAHORSKI, BALUK, PILCH, WOUNDED_ELSEWHERE = "krasnodebski", "nahorski", "baluk", "pilch", "kedzior"
BATTLE_OF_BRITAIN, OVERLORD = "m04", "ev02"


def stage(pilch_trained: bool) -> tuple:
    overlord = REAL.events[OVERLORD]
    use_pack(staged(
        soldiers=[soldier(KRASNODEBSKI, "PILOT", 3, 2), soldier(NAHORSKI, "SAILOR", 2, 1),
                  soldier(BALUK, "SABOTEUR", 3, 3), soldier(PILCH, "PARATROOPER", 3, 3),
                  soldier(WOUNDED_ELSEWHERE, "INFANTRY", 3, 2)],
        missions=[REAL.missions[BATTLE_OF_BRITAIN], mission("y1", "VI 1943"), mission("y2", "IX 1944"),
                  mission("r9", "XII 1942", region="POL")],
        events=[overlord, event("e99", "I 1940")]))
    state = table(4, "V 1940", events=True)
    nea_level_1 = pack().regions["NEA"].track.index(1)
    state.domination["NEA"] = nea_level_1
    place(state, KRASNODEBSKI, "NEA", s=4, u=2, trained=True)  # the training token 4/2 (Example 1)
    place(state, NAHORSKI, "NEA", wounds=1, trained=True)
    place(state, BALUK, "NEA", trained=False)
    place(state, PILCH, "NEA", trained=pilch_trained)
    place(state, WOUNDED_ELSEWHERE, "WAR", wounds=1, trained=True)
    state.hands[YOLANDA] = [BATTLE_OF_BRITAIN]
    for seat in (ANN, PAUL, JACOB):
        state.hands[seat] = ["r9"] if seat == ANN else []
    state.nurses.update({YOLANDA: 1, ANN: 0, PAUL: 1, JACOB: 1})
    state.event_deck = [OVERLORD, "e99"]
    state.stage2_deck = ["y1", "y2"]
    return state, overlord


@pytest.mark.parametrize("chosen", [PILCH, BALUK])
@pytest.mark.parametrize("pilch_trained", [False, True])
def test_example3_full_ending_phase(own_pack: None, chosen: str, pilch_trained: bool) -> None:
    state, overlord = stage(pilch_trained)
    weu_before = state.domination["WEU"]
    dice = Dice(2)
    log = ending(state, PAUL, dice)

    # 1. Treatment: Paul, Jacob, Yolanda, Ann; Paul and Jacob decline, Ann has no nurse and is not asked
    assert [d.seat for d in pending(state)] == [PAUL]
    log += answer(state, PAUL, "done")
    assert [d.seat for d in pending(state)] == [JACOB]
    log += answer(state, JACOB, "done")
    assert [d.seat for d in pending(state)] == [YOLANDA]
    assert {c.id for c in pending(state)[0].choices} == {NAHORSKI, WOUNDED_ELSEWHERE, "done"}
    log += answer(state, YOLANDA, WOUNDED_ELSEWHERE, rng=dice)
    assert state.nurses[YOLANDA] == 0 and state.soldiers[WOUNDED_ELSEWHERE]["wounds"] == 0
    assert state.soldiers[NAHORSKI]["wounds"] == 1  # still wounded later

    # 2. Actions of the Axis: Overlord shown to all, WEU 2 squares right (4 players)
    assert state.event_drawn == OVERLORD and OVERLORD in state.seen["*"]
    assert state.domination["WEU"] == weu_before + 2
    # 3. New neutral event: VI 1944 is later than V 1940: placed, marker on VI 1944 (57)
    assert state.event_track == [OVERLORD] and overlord.date == month_index("VI 1944") == 57
    # 4. Time: V 1940 + 6 = XI 1940
    assert state.time == month_index("XI 1940") == 14
    # 5. Battle of Britain: 4 + 1 + 1 + 1 = 7 against 8 + 1 = 9: failure, face down (-5)
    assert state.failed[YOLANDA] == [BATTLE_OF_BRITAIN] and state.succeeded[YOLANDA] == []
    failed = next(e for e in log if e.msg.id == "mission_failed")
    assert (failed.msg.params["strength"], failed.msg.params["target"]) == (7, 9)
    # ... and a stage I card: Yolanda draws 2 stage II, keeps 1 (§7.4)
    keep = pending(state)
    assert [d.seat for d in keep] == [YOLANDA] and {c.id for c in keep[0].choices} == {"y1", "y2"}
    log += answer(state, YOLANDA, "y2", rng=dice)
    assert state.hands[YOLANDA] == ["y2"] and state.stage2_deck == ["y1"]

    # 6. Losses in NEA: Paul rolls 2, W = 2 + 1 = 3: Nahorski, Krasnodębski, then the tie: Paul's choice
    assert dice.rolled == [2]
    tie = pending(state)
    assert [d.seat for d in tie] == [PAUL] and {c.id for c in tie[0].choices} == {BALUK, PILCH}
    log += answer(state, PAUL, chosen, rng=dice)
    other = BALUK if chosen == PILCH else PILCH
    assert NAHORSKI in state.fallen  # his 2nd wound
    assert state.soldiers[KRASNODEBSKI]["wounds"] == 1  # wounded, survives: a training token
    chosen_trained = pilch_trained if chosen == PILCH else False
    if chosen_trained:
        assert state.soldiers[chosen]["wounds"] == 1 and chosen not in state.fallen
    else:
        assert chosen in state.fallen and chosen not in state.soldiers
    assert state.soldiers[other]["wounds"] == 0 and other not in state.fallen  # the other is unaffected

    # 7. Resolving events: Overlord's marker (VI 1944) is right of XI 1940: nothing, it stays on the track
    assert state.event_track == [OVERLORD]
    assert "event_resolves" not in ids(log)
    assert not pending(state) and state.outcome is None


def test_example3_the_kept_card_and_the_bottom_card_stay_secret(own_pack: None) -> None:
    """§16.2: the two stage II cards seen when drawing are secret to everyone but the drawer."""
    state, _ = stage(False)
    ending(state, PAUL, Dice(2))
    answer(state, PAUL, "done")
    answer(state, JACOB, "done")
    answer(state, YOLANDA, "done")
    answer(state, YOLANDA, "y1", rng=Dice(2))
    assert "y1" not in secrets(state, YOLANDA) and "y2" not in secrets(state, YOLANDA)
    for seat in (ANN, PAUL, JACOB):
        assert {"y1", "y2"} <= secrets(state, seat)
        assert "y1" not in str(view(state, seat)["hand_cards"])
    assert view(state, YOLANDA)["hand_cards"][0]["id"] == "y1"
