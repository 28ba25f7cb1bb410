"""Control of the seas and naval battles (spec §12, §13) and the worked example NAVAL-EX-1 (§14).

p1 is light brown, p2 green (the pack's colours in seat order). Each duel rolls the attacker's two
blue dice, then the defender's: ``pair(total)`` scripts one side's 2d6."""

from __future__ import annotations

import json
import random
from dataclasses import asdict

import pytest

from app.games.attack import GAME, engine, naval
from app.games.attack.engine import Ctx
from app.games.attack.flow import check_end, may_take
from app.games.attack.state import GameState
from app.games.protocol import Action, Event, Illegal
from app.games.secrets import Secret, leaks
from tests.games.attack.dice_kit import ScriptedDice, pair
from tests.games.attack.naval_kit import answer, decision, msgs, pending, table, take_naval

LB, G = "p1", "p2"
EX1 = {LB: {"BB": 1, "DD": 1, "SS": 1}, G: {"BB": 1, "DD": 2, "SS": 1, "CV": 1}}


def no_naval_decision(state: GameState) -> bool:
    """The action is over: nothing naval is asked (the turn goes on, or ends when nothing else is left)."""
    return not any(d.kind.startswith("naval") for d in GAME.pending(state))


def ex1_fight() -> GameState:
    """NAVAL-EX-1's situation: LB controls the seas, G (active) takes NAVAL, LB fights."""
    state = table(EX1, controller=LB, active=G)
    take_naval(state, G)
    answer(state, LB, "naval_challenge", "fight")
    return state


def ex1_round1(duel3: tuple[int, int]) -> tuple[GameState, list[Event]]:
    """Round 1 of NAVAL-EX-1 with the book's dice for duels 1–2 and ``duel3`` (G, LB) for the third."""
    state = ex1_fight()
    answer(state, G, "naval_line", "BB", "CV", "DD")
    dice = ScriptedDice(*pair(11), *pair(8), *pair(7), *pair(7), *pair(duel3[0]), *pair(duel3[1]))
    events = answer(state, LB, "naval_line", "SS", "BB", "DD", rng=dice)
    assert not dice.rolls, "every scripted die is rolled"
    return state, events


# ------------------------------------------------------------------ NAVAL-EX-1
def test_naval_ex_1_both_lay_three_cards_face_down():
    """NAVAL-EX-1 / A-13.3.1: N = min(8, 5, 3) = 3 for both; G chooses 3 of its 5 (the rest are reserves)."""
    state = ex1_fight()
    g, lb = decision(state, G, "naval_line"), decision(state, LB, "naval_line")
    assert (g.min, g.max, lb.min, lb.max) == (3, 3, 3, 3)
    assert g.group == lb.group and g.group is not None
    assert g.choice_ids() == ["DD", "DD#2", "SS", "BB", "CV"]
    assert lb.choice_ids() == ["DD", "SS", "BB"]


def test_naval_ex_1_duels_one_and_two_as_the_book_rolls_them():
    """NAVAL-EX-1: the lines (G: BB, CV, DD; LB: SS, BB, DD), duel 1 (G 11+1 M5 = 12 against LB 8+2 M2 = 10:
    LB's SS sunk), duel 2 (G 7+1 M4 = 8 against LB 7: LB's BB damaged)."""
    state, events = ex1_round1((7, 7))
    lines = msgs(events, "naval_line")
    assert lines == [{"seat": "green", "ships": ["unit_BB", "unit_CV", "unit_DD"]},
                     {"seat": "light_brown", "ships": ["unit_SS", "unit_BB", "unit_DD"]}]
    d1, d2, _ = msgs(events, "naval_duel")
    assert (d1["a"], d1["a_ship"], d1["a_1"] + d1["a_2"], d1["a_total"]) == ("green", "unit_BB", 11, 12)
    assert d1["a_why"] == [{"id": "naval_mod_M5", "params": {"n": 1}}]
    assert (d1["d"], d1["d_ship"], d1["d_1"] + d1["d_2"], d1["d_total"]) == ("light_brown", "unit_SS", 8, 10)
    assert d1["d_why"] == [{"id": "naval_mod_M2", "params": {"n": 2}}]
    assert (d2["a_ship"], d2["a_1"] + d2["a_2"], d2["a_total"]) == ("unit_CV", 7, 8)
    assert d2["a_why"] == [{"id": "naval_mod_M4", "params": {"n": 1}}]
    assert (d2["d_ship"], d2["d_1"] + d2["d_2"], d2["d_total"]) == ("unit_BB", 7, 7)
    assert d2["d_why"] == [{"id": "naval_mod_none", "params": {}}]
    sunk, damaged = msgs(events, "naval_hit_sunk"), msgs(events, "naval_hit_damaged")
    assert sunk[0] == {"seat": "green", "loser": "light_brown", "ship": "unit_SS", "pos": 1}
    assert damaged[0] == {"seat": "green", "loser": "light_brown", "ship": "unit_BB", "pos": 2}
    rnd = GAME.view(state, None)["naval"]["rounds"][0]
    duel1, duel2 = rnd["pairs"][0]["duel"], rnd["pairs"][1]["duel"]
    assert duel1["totals"] == {G: 12, LB: 10} and duel1["hit"] == {"seat": LB, "pos": 1, "ship": "SS", "effect": "sunk"}
    assert duel2["totals"] == {G: 8, LB: 7} and duel2["hit"] == {"seat": LB, "pos": 2, "ship": "BB",
                                                                  "effect": "damaged"}
    assert duel1["mods"] == {G: [{"mod": "M5", "bonus": 1}], LB: [{"mod": "M2", "bonus": 2}]}


def test_naval_ex_1_state_after_duel_two():
    """NAVAL-EX-1 "state after duel 2": LB's fleet is BB (damaged) and DD; G's is unchanged
    (BB, CV, DD in the line, DD and SS in reserve)."""
    state = ex1_fight()
    b = naval.battle(state)
    b["round"], b["n"] = 1, 3
    ctx = Ctx(state, ScriptedDice(*pair(11), *pair(8), *pair(7), *pair(7)))
    rnd = naval.reveal(ctx, b, {G: ["BB", "CV", "DD"], LB: ["SS", "BB", "DD"]})
    naval.duel(ctx, b, rnd, 0)
    naval.duel(ctx, b, rnd, 1)
    assert state.navy[LB] == {"BB": 1, "DD": 1}
    assert [p["status"][LB] for p in rnd["pairs"]] == ["sunk", "damaged", "afloat"]
    assert state.navy[G] == {"BB": 1, "DD": 2, "SS": 1, "CV": 1}
    assert [p["status"][G] for p in rnd["pairs"]] == ["afloat", "afloat", "afloat"]
    assert naval.playable(b["sides"][G]) == {"DD": 2, "SS": 1, "BB": 1, "CV": 1}


def test_naval_ex_1_variant_a_green_wins_duel_three_sinks_the_damaged_battleship():
    """NAVAL-EX-1 (a), A-13.3.4 item 4: the hit goes to LB's first ship still in line, the damaged BB
    (sunk by its second hit, A-13.3.5), not the DD facing the winner."""
    state, events = ex1_round1((9, 5))
    d3 = msgs(events, "naval_duel")[2]
    assert (d3["a_ship"], d3["a_why"], d3["a_total"]) == ("unit_DD", [{"id": "naval_mod_M5", "params": {"n": 1}}], 10)
    assert msgs(events, "naval_hit_sunk")[1] == {"seat": "green", "loser": "light_brown", "ship": "unit_BB", "pos": 2}
    assert state.navy[LB] == {"DD": 1}
    assert state.navy[G] == EX1[G]


def test_naval_ex_1_variant_b_light_brown_wins_duel_three_damages_greens_battleship():
    """NAVAL-EX-1 (b): G's frontmost ship, the BB, is damaged; at the end of the round both damaged
    battleships leave the line (A-13.3.6); in round 2 LB can lay only its DD."""
    state, events = ex1_round1((5, 9))
    assert msgs(events, "naval_hit_damaged")[1] == {"seat": "light_brown", "loser": "green", "ship": "unit_BB",
                                                   "pos": 1}
    assert len(msgs(events, "naval_damaged_out")) == 2
    assert state.navy[G] == EX1[G] and state.navy[LB] == {"BB": 1, "DD": 1}  # damaged, kept
    answer(state, G, "naval_retreat", "fight_on")
    answer(state, LB, "naval_retreat", "fight_on")
    assert pending(state, LB) == []  # a fleet of one ship type has one line only: laid for it
    g = decision(state, G, "naval_line")
    assert (g.min, g.max) == (1, 1)
    assert "BB" not in g.choice_ids() and g.choice_ids() == ["DD", "DD#2", "SS", "CV"]


def test_naval_ex_1_variant_c_a_tie_is_no_hit():
    """NAVAL-EX-1 (c), A-13.3.4 item 3: a tie hits nobody; LB's damaged BB leaves the line, so in
    round 2 LB lays only its DD (N = 1)."""
    state, events = ex1_round1((8, 9))  # G's DD: 8 + 1 (M5) = 9 against LB's 9
    assert msgs(events, "naval_tie") == [{"pos": 3}]
    assert state.navy[LB] == {"BB": 1, "DD": 1} and state.navy[G] == EX1[G]
    answer(state, G, "naval_retreat", "fight_on")
    events = answer(state, LB, "naval_retreat", "fight_on")
    assert msgs(events, "naval_round") == [{"round": 2, "n": 1}]
    view = GAME.view(state, G)["naval"]
    assert view["sides"][LB]["playable"] == {"DD": 1} and view["sides"][LB]["damaged_out"] == 1
    assert pending(state, LB) == []
    dice = ScriptedDice(*pair(6), *pair(6))
    events = answer(state, G, "naval_line", "SS", rng=dice)
    assert msgs(events, "naval_line")[1] == {"seat": "light_brown", "ships": ["unit_DD"]}


# ------------------------------------------------------------------ modifiers
@pytest.mark.parametrize(("line", "pos", "enemy", "mods"), [
    (["BB"], 0, "DD", [("M1", 2)]),
    (["BB"], 0, "SS", []),
    (["SS"], 0, "BB", [("M2", 2)]),
    (["SS"], 0, "DD", []),
    (["DD"], 0, "SS", [("M3", 2)]),
    (["DD"], 0, "BB", []),
    (["CV"], 0, "BB", [("M4", 1)]),
    (["CV"], 0, "CV", []),
    (["DD", "CV"], 0, "DD", [("M5", 1)]),
    (["CV", "BB", "CV"], 1, "DD", [("M1", 2), ("M5", 2)]),
    (["CV", "CV", "SS"], 1, "DD", [("M4", 1), ("M5", 1)]),
    (["CV", "DD", "SS"], 2, "BB", [("M2", 2)]),
])
def test_a_13_6_modifiers(line, pos, enemy, mods):
    """A-13.6 M1–M5, cumulative: M5 counts each own carrier at i−1 and i+1 (max +2), carriers included."""
    assert naval.modifiers(line, pos, enemy) == mods


@pytest.mark.parametrize(("att", "dfn", "mod", "bonus"), [
    ("BB", "DD", "M1", 2), ("SS", "BB", "M2", 2), ("DD", "SS", "M3", 2), ("CV", "SS", "M4", 1)])
def test_a_13_6_each_pair_modifier_counts_in_the_duel(att, dfn, mod, bonus):
    """A-13.6 M1–M4 in a real duel: the same roll wins by the modifier (A-13.3.4 item 2)."""
    state = table({G: {att: 1}, LB: {dfn: 1}}, controller=LB, active=G)
    take_naval(state, G)
    events = answer(state, LB, "naval_challenge", "fight", rng=ScriptedDice(*pair(7), *pair(7)))
    duel = msgs(events, "naval_duel")[0]
    assert duel["a_why"] == [{"id": f"naval_mod_{mod}", "params": {"n": bonus}}]
    assert (duel["a_total"], duel["d_total"]) == (7 + bonus, 7)
    assert len(msgs(events, "naval_hit_sunk") + msgs(events, "naval_hit_damaged")) == 1


def test_a_13_6_m5_adjacency_is_fixed_by_the_revealed_line():
    """A-13.6 M5 (gap, spec §24): a carrier sunk in duel 1 still counts for its neighbour in duel 2."""
    state = table({G: {"CV": 1, "BB": 1}, LB: {"DD": 1, "SS": 1}}, controller=LB, active=G)
    take_naval(state, G)
    answer(state, LB, "naval_challenge", "fight")
    answer(state, G, "naval_line", "CV", "BB")
    # duel 1: G's CV 2+1 against LB's DD 12: G's frontmost ship, the CV, is sunk; duel 2: G's BB 2+1 (M5)
    dice = ScriptedDice(*pair(2), *pair(12), *pair(2), *pair(12))
    events = answer(state, LB, "naval_line", "DD", "SS", rng=dice)
    d1, d2 = msgs(events, "naval_duel")
    assert msgs(events, "naval_hit_sunk")[0]["ship"] == "unit_CV"
    assert d2["a_why"] == [{"id": "naval_mod_M5", "params": {"n": 1}}] and d2["a_total"] == 3


# ------------------------------------------------------------------ hits
def test_a_13_3_4_carrier_against_carrier_hits_the_carrier_of_the_pair():
    """A-13.3.4 item 5: CV against CV, the loser's carrier in that pair is hit, not its frontmost ship."""
    state = table({G: {"DD": 1, "CV": 1}, LB: {"DD": 1, "CV": 1}}, controller=LB, active=G)
    take_naval(state, G)
    answer(state, LB, "naval_challenge", "fight")
    answer(state, G, "naval_line", "DD", "CV")
    dice = ScriptedDice(*pair(7), *pair(7), *pair(4), *pair(10))  # duel 1 tie; duel 2 LB wins
    events = answer(state, LB, "naval_line", "DD", "CV", rng=dice)
    assert msgs(events, "naval_hit_sunk") == [{"seat": "light_brown", "loser": "green", "ship": "unit_CV", "pos": 2}]
    assert state.navy[G] == {"DD": 1}


def test_a_13_3_4_a_hit_goes_to_the_losers_frontmost_ship():
    """A-13.3.4 item 4: losing duel 2 costs the ship at the head of the line, not the one in the pair."""
    state = table({G: {"DD": 1, "SS": 1}, LB: {"DD": 1, "SS": 1}}, controller=LB, active=G)
    take_naval(state, G)
    answer(state, LB, "naval_challenge", "fight")
    answer(state, G, "naval_line", "DD", "SS")
    dice = ScriptedDice(*pair(7), *pair(7), *pair(4), *pair(10))
    events = answer(state, LB, "naval_line", "DD", "SS", rng=dice)
    assert msgs(events, "naval_hit_sunk") == [{"seat": "light_brown", "loser": "green", "ship": "unit_DD", "pos": 1}]
    assert state.navy[G] == {"SS": 1}


def test_a_13_3_5_battleship_takes_two_hits_in_a_round():
    """A-13.3.5 / A-13.5.2: the first hit damages the battleship, the second in the same round sinks it,
    while it is still the frontmost ship (the DD behind it is untouched)."""
    state = table({G: {"DD": 2}, LB: {"BB": 1, "DD": 1}}, controller=LB, active=G)
    take_naval(state, G)
    answer(state, LB, "naval_challenge", "fight")
    dice = ScriptedDice(*pair(10), *pair(4), *pair(10), *pair(4))
    events = answer(state, LB, "naval_line", "BB", "DD", rng=dice)  # G's line is forced: two destroyers
    assert [m["ship"] for m in msgs(events, "naval_hit_damaged")] == ["unit_BB"]
    assert msgs(events, "naval_hit_sunk") == [{"seat": "green", "loser": "light_brown", "ship": "unit_BB", "pos": 1}]
    assert state.navy[LB] == {"DD": 1}


def test_a_13_3_6_damaged_battleship_sits_out_then_is_repaired_for_the_next_battle():
    """A-13.3.6: a battleship hit once leaves the line for the rest of the battle but stays in the
    fleet; A-13.5.3: it is whole again in the next battle."""
    state = table({G: {"DD": 1, "SS": 1}, LB: {"BB": 1, "DD": 1}}, controller=LB, active=G)
    take_naval(state, G)
    answer(state, LB, "naval_challenge", "fight")
    answer(state, G, "naval_line", "DD", "SS")
    dice = ScriptedDice(*pair(10), *pair(4), *pair(8), *pair(6))  # LB's BB damaged; 8 against 6 + 2 (M3): a tie
    answer(state, LB, "naval_line", "BB", "DD", rng=dice)
    answer(state, G, "naval_retreat", "fight_on")
    answer(state, LB, "naval_retreat", "fight_on")
    assert pending(state, LB) == []  # only its DD is playable: laid for it
    assert decision(state, G, "naval_line").min == 1
    answer(state, G, "naval_line", "SS", rng=ScriptedDice(*pair(8), *pair(6)))
    answer(state, G, "naval_retreat", "fight_on")
    answer(state, LB, "naval_retreat", "retreat")
    assert state.sea_controller == G
    assert state.navy[LB] == {"BB": 1, "DD": 1}  # the damaged battleship is kept
    # LB's next turn: it challenges G, and its battleship is playable again
    state.turn, state.active = {"seat": LB, "actions": []}, LB
    state.stack = [{"k": "turn", "seat": LB}]
    engine.run(Ctx(state, random.Random(0)))
    take_naval(state, LB)
    answer(state, G, "naval_challenge", "fight")
    assert "BB" in decision(state, LB, "naval_line").choice_ids()


# ------------------------------------------------------------------ control of the seas
def test_a_12_2_first_naval_action_takes_control_without_a_fight():
    """A-12.2: nobody controls the seas: the first NAVAL gains control, no battle, no dice."""
    state = table({G: {"SS": 1}, LB: {"BB": 1}}, controller=None, active=G)
    events = take_naval(state, G, rng=ScriptedDice())
    assert state.sea_controller == G
    assert msgs(events, "naval_unopposed") == [{"seat": "green"}]
    assert no_naval_decision(state)
    assert state.navy == {G: {"SS": 1}, LB: {"BB": 1}}


def test_a_12_2_gap_no_navy_cards_no_naval_action():
    """Gap §23.5 (A-12.2), our choice: a seat with no Navy card may not take NAVAL."""
    state = table({G: {}, LB: {"BB": 1}}, controller=None, active=G)
    assert not may_take(state, G, "NAVAL") and may_take(state, LB, "NAVAL")


def test_a_12_3_the_controller_may_not_challenge_itself():
    state = table({G: {"SS": 1}, LB: {"BB": 1}}, controller=G, active=G)
    assert not may_take(state, G, "NAVAL") and may_take(state, LB, "NAVAL")


def test_a_12_3_the_controller_chooses_fight_or_withdraw():
    """A-12.3: the controller (not the active seat) decides; the answer reveals nothing, rolls nothing."""
    state = table(EX1, controller=LB, active=G)
    take_naval(state, G)
    d = decision(state, LB, "naval_challenge")
    assert d.choice_ids() == ["fight", "withdraw"] and d.undoable
    assert pending(state, G) == []


def test_a_12_3_withdraw_hands_over_control_without_loss():
    """A-12.3 withdraw: no ship is lost, the challenger controls the seas."""
    state = table(EX1, controller=LB, active=G)
    take_naval(state, G)
    events = answer(state, LB, "naval_challenge", "withdraw", rng=ScriptedDice())
    assert state.sea_controller == G
    assert msgs(events, "naval_withdraws") == [{"seat": "light_brown", "attacker": "green"}]
    assert state.navy == {LB: EX1[LB], G: EX1[G]}
    assert no_naval_decision(state)
    assert not may_take(state, G, "NAVAL")


def test_a_12_3_a_controller_without_ships_cannot_oppose():
    state = table({G: {"SS": 1}, LB: {}}, controller=LB, active=G)
    take_naval(state, G, rng=ScriptedDice())
    assert state.sea_controller == G


def test_gap_a_21_4_an_eliminated_controller_frees_the_seas():
    """Gap A-21.4 (last player standing, our choice): an eliminated seat's fleet leaves the sea."""
    state = table({G: {"SS": 1}, LB: {"BB": 1}}, controller=LB, active=G, players=3)
    state.eliminated.append(LB)
    check_end(Ctx(state, random.Random(0)))
    assert state.sea_controller is None


# ------------------------------------------------------------------ retreat and the end of a battle
def two_ship_battle(retreats: dict[str, str]) -> GameState:
    """One round of ties, then the retreat choices."""
    state = table({G: {"DD": 1, "SS": 1}, LB: {"DD": 1, "SS": 1}}, controller=LB, active=G)
    take_naval(state, G)
    answer(state, LB, "naval_challenge", "fight")
    answer(state, G, "naval_line", "DD", "SS")
    answer(state, LB, "naval_line", "DD", "SS", rng=ScriptedDice(*pair(7), *pair(7), *pair(7), *pair(7)))
    assert decision(state, G, "naval_retreat").group == decision(state, LB, "naval_retreat").group
    for seat in (G, LB):
        answer(state, seat, "naval_retreat", retreats[seat])
    return state


def test_a_13_3_7_the_defender_retreats_and_loses():
    """A-13.3.7: a retreating side loses the battle but keeps its surviving ships."""
    state = two_ship_battle({G: "fight_on", LB: "retreat"})
    assert state.sea_controller == G and state.navy[LB] == {"DD": 1, "SS": 1}
    assert naval.battle(state)["winner"] == G and naval.battle(state)["reason"] == "retreat"


def test_a_13_3_7_the_attacker_retreats_and_the_defender_keeps_the_seas():
    state = two_ship_battle({G: "retreat", LB: "fight_on"})
    assert state.sea_controller == LB and state.navy[G] == {"DD": 1, "SS": 1}


def test_a_13_3_7_gap_both_retreat_the_attacker_loses():
    """Gap §24: retreat decided by both at once; both retreat: the attacker is the loser."""
    state = two_ship_battle({G: "retreat", LB: "retreat"})
    assert state.sea_controller == LB


def test_a_13_3_7_both_fight_on_a_new_round_begins():
    state = two_ship_battle({G: "fight_on", LB: "fight_on"})
    assert {d.seat for d in pending(state, kind="naval_line")} == {G, LB}
    assert naval.battle(state)["round"] == 2


def test_a_13_4_3_no_playable_ship_left_loses_without_a_retreat_choice():
    """A-13.4.3: the defender's only ship is sunk: it loses at once; the winner controls the seas."""
    state = table({G: {"DD": 1, "SS": 1}, LB: {"SS": 1}}, controller=LB, active=G)
    take_naval(state, G)
    answer(state, LB, "naval_challenge", "fight")
    events = answer(state, G, "naval_line", "DD", rng=ScriptedDice(*pair(9), *pair(4)))
    assert msgs(events, "naval_no_ships") == [{"seat": "light_brown"}]
    assert state.sea_controller == G and state.navy[LB] == {}
    assert no_naval_decision(state)


def test_a_13_4_3_a_damaged_battleship_is_no_playable_ship():
    """A-13.4.3: the attacker's only ship, a battleship, damaged: it has nothing left to lay and loses."""
    state = table({G: {"BB": 1}, LB: {"DD": 1}}, controller=LB, active=G)
    take_naval(state, G)
    events = answer(state, LB, "naval_challenge", "fight", rng=ScriptedDice(*pair(2), *pair(12)))
    assert msgs(events, "naval_no_ships") == [{"seat": "green"}]
    assert state.sea_controller == LB and state.navy[G] == {"BB": 1}


def test_a_13_4_3_gap_both_without_playable_ships_the_defender_keeps_control():
    """Gap §24 (unreachable in play: N duels deal at most N hits, and each side lays N of at least N
    playable ships; coded all the same): the defender keeps the seas."""
    state = ex1_fight()
    b = naval.battle(state)
    b["sides"][G]["fleet"], b["sides"][LB]["fleet"] = {}, {}
    naval.end_round(Ctx(state, random.Random(0)), b, {"pairs": []})
    assert b["winner"] == LB and state.sea_controller == LB


# ------------------------------------------------------------------ the line-up decision
def test_a_13_3_2_the_order_of_the_answer_is_the_line_head_first():
    """A-13.3.2: the first card picked is the head of the line: the same ships in another order pair
    differently."""
    state = table({G: {"DD": 1, "SS": 1, "BB": 1}, LB: {"DD": 1, "SS": 1, "BB": 1}}, controller=LB, active=G)
    take_naval(state, G)
    answer(state, LB, "naval_challenge", "fight")
    answer(state, G, "naval_line", "SS", "BB", "DD")
    answer(state, LB, "naval_line", "BB", "DD", "SS", rng=ScriptedDice(*[d for _ in range(3) for d in pair(7) * 2]))
    pairs = GAME.view(state, G)["naval"]["rounds"][0]["pairs"]
    assert [(p["ships"][G], p["ships"][LB]) for p in pairs] == [("SS", "BB"), ("BB", "DD"), ("DD", "SS")]


def test_bad_line_answers_are_refused():
    state = ex1_fight()
    d = decision(state, G, "naval_line")
    for bad in [("BB", "CV"), ("BB", "CV", "DD", "SS"), ("BB", "CV", "BB#2"), ("BB", "BB", "CV")]:
        with pytest.raises(Illegal):
            GAME.apply(state, G, Action(d.id, bad), random.Random(0))
    with pytest.raises(Illegal):
        GAME.apply(state, LB, Action(d.id, ("SS", "BB", "DD")), random.Random(0))


def test_a_13_3_1_a_laid_line_is_secret_until_both_are_laid():
    """A-13.3.1 / spec §25.2: G's line, laid first, is in no payload the other seats or the spectators
    get (views, pending decisions, log lines), only in G's own view; revealed once LB lays."""
    state = table(EX1, controller=LB, active=G, players=3)
    take_naval(state, G)
    answer(state, LB, "naval_challenge", "fight")
    events = answer(state, G, "naval_line", "BB", "CV", "DD")
    line = Secret(place="p2's naval line", value=("BB", "CV", "DD"))
    assert GAME.secrets(state, LB) >= {line} and GAME.secrets(state, "p3") >= {line}
    assert line not in GAME.secrets(state, G)
    everyone = GAME.secrets(state, LB) | GAME.secrets(state, "p3")
    for seat in (LB, "p3", None):
        hidden = everyone if seat is None else GAME.secrets(state, seat)
        assert leaks(json.dumps(GAME.view(state, seat)), hidden) == []
        assert leaks(json.dumps([asdict(e) for e in events]), hidden) == []
    assert leaks(json.dumps([asdict(d) for d in pending(state, LB)]), GAME.secrets(state, LB)) == []
    # the check has teeth: G's own view shows the line, and would give it away to LB
    assert GAME.view(state, G)["naval"]["my_line"] == ["BB", "CV", "DD"]
    assert leaks(json.dumps(GAME.view(state, G)), GAME.secrets(state, LB)) == [line]
    assert GAME.view(state, LB)["naval"]["my_line"] is None and GAME.view(state, LB)["naval"]["laid"] == [G]
    answer(state, LB, "naval_line", "SS", "BB", "DD", rng=ScriptedDice(*pair(11), *pair(8), *pair(7), *pair(7),
                                                                         *pair(7), *pair(7)))
    assert not any(isinstance(s, Secret) for s in GAME.secrets(state, LB))


def test_a_later_round_line_is_not_mistaken_for_a_revealed_one():
    """A round-2 line the same as round 1's: the public pairs of round 1 must not read as the secret."""
    state = two_ship_battle({G: "fight_on", LB: "fight_on"})
    answer(state, LB, "naval_line", "DD", "SS")
    hidden = GAME.secrets(state, G)
    assert Secret(place="p1's naval line", value=("DD", "SS")) in hidden
    assert leaks(json.dumps(GAME.view(state, G)), hidden) == []


def test_a_battle_survives_dump_and_load():
    state = ex1_fight()
    answer(state, G, "naval_line", "BB", "CV", "DD")
    copy = GAME.load(json.loads(json.dumps(GAME.dump(state))))
    assert [d.id for d in GAME.pending(copy)] == [d.id for d in GAME.pending(state)]
    assert GAME.secrets(copy, LB) == GAME.secrets(state, LB)
