"""The heuristic bot (app/games/first_to_fight/bot.py): legal answers for every decision kind, read
from the seat's view alone (re-dealing every hidden card never changes an answer), better than the
random bot, seeded bot games that end, and the play of a good commander in staged questions."""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path

import pytest

from app.games.first_to_fight import bot
from app.games.first_to_fight.pack import pack
from app.games.first_to_fight.rules import GAME
from app.games.first_to_fight.state import GameState
from app.games.protocol import Action, Decision
from tests.games.first_to_fight.bot_kit import (
    answer,
    ask,
    heuristic,
    new_game,
    play,
    put,
    randomly,
    redeal,
    soldiers_of,
    staged,
)


# ---------------------------------------------------------------- every kind, legal, heuristic
def _kinds_met(seed: int, players: int, random_seats: int, **options: bool) -> Counter[str]:
    st = new_game(seed, players, **options)
    seats = st.seats
    bots = {s: (randomly if i < random_seats else heuristic) for i, s in enumerate(seats)}
    met: Counter[str] = Counter()

    def each(state: GameState, d: Decision, action: Action) -> None:
        ids = d.choice_ids()
        if len(ids) == 1 and d.min == 1:
            return
        met[d.kind] += 1
        picks = bot.heuristic_picks(state, d)
        assert picks is not None, f"{d.kind}: no heuristic answer to {d.prompt} ({ids})"
        assert d.min <= len(picks) <= d.max and set(picks) <= set(ids)

    play(st, bots, seed, each=each)
    assert st.outcome is not None
    return met


@pytest.mark.parametrize(("seed", "players", "randoms", "draft", "events"),
                         [(1, 4, 0, False, False), (2, 3, 0, True, True), (3, 2, 0, False, True),
                          (4, 4, 2, True, False), (5, 4, 3, False, True)])
def test_every_answer_is_legal_and_heuristic(seed: int, players: int, randoms: int, draft: bool,
                                             events: bool) -> None:
    """No decision falls back to a random answer: each has its own reading, and it is legal."""
    _kinds_met(seed, players, randoms, draft=draft, events=events)


def test_every_kind_the_rules_ask_has_a_handler() -> None:
    """Bot games beside random players (who wander into every corner of the rules) meet the rule modules'
    decision kinds; each of them is one the bot handles by name."""
    met: Counter[str] = Counter()
    for seed in range(10, 16):
        met += _kinds_met(seed, 4, 3, draft=seed % 2 == 0, events=True)
    assert set(met) <= set(bot.KINDS), set(met) - set(bot.KINDS)
    assert len(met) >= 20, sorted(met)


# ---------------------------------------------------------------- hidden information
def test_answers_do_not_change_when_hidden_cards_are_dealt_anew() -> None:
    """At every few answers of seeded games, the other hands, the stage decks, the removed red cards, the
    soldier deck and the event deck are dealt anew (twice): the bot's answer stays the same."""
    checked = 0
    for seed, options in ((21, {"draft": True, "events": True}), (22, {})):
        st = new_game(seed, 4, **options)

        def each(state: GameState, d: Decision, action: Action, seed: int = seed) -> None:
            nonlocal checked
            if state.step % 3:
                return
            want = GAME.bot(state, d, random.Random(5)).choices
            for n in range(2):
                other = redeal(state, d.seat, seed * 100 + state.step * 2 + n)
                assert GAME.bot(other, d, random.Random(5)).choices == want, (d.kind, d.prompt)
            checked += 1

        play(st, {s: heuristic for s in st.seats}, seed, each=each)
    assert checked > 200


def test_redeal_changes_what_the_seat_cannot_see() -> None:
    """The re-deal above really moves hidden cards (else the test above would prove nothing)."""
    st = new_game(23, 4)
    other = redeal(st, "p1", 1)
    assert other.hands["p1"] == st.hands["p1"]
    assert [other.hands[s] for s in ("p2", "p3", "p4")] != [st.hands[s] for s in ("p2", "p3", "p4")]
    assert other.soldier_deck != st.soldier_deck and sorted(other.soldier_deck) == sorted(st.soldier_deck)
    assert other.event_deck != st.event_deck


def test_the_bot_reads_the_state_only_through_the_view() -> None:
    """bot.py touches the game state in one place: ``views.view(state, seat)``."""
    tree = ast.parse(Path(bot.__file__).read_text())
    uses = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "state"]
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and any(a is u for a in n.args for u in uses)]
    assert {ast.unparse(c.func) for c in calls} <= {"views.view", "know", "heuristic_picks"}
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                and n.value.id == "state"]


# ---------------------------------------------------------------- strength and games
def test_beats_the_random_bot() -> None:
    """Two heuristic seats against two random ones, seats alternating, positions rotating by seed: the
    heuristic side wins most seeded games (and the 2-player duel too)."""
    won = 0
    games = 10
    for seed in range(31, 31 + games):
        st = new_game(seed, 4)
        smart = {st.seats[(seed + i) % 4] for i in (0, 2)}
        play(st, {s: heuristic if s in smart else randomly for s in st.seats}, seed)
        assert st.outcome is not None
        won += bool(set(st.outcome["winners"]) & smart)
    assert won >= 8, won
    duel = 0
    for seed in range(41, 41 + games):
        st = new_game(seed, 2)
        play(st, {st.seats[seed % 2]: heuristic, st.seats[1 - seed % 2]: randomly}, seed)
        duel += st.seats[seed % 2] in (st.outcome or {}).get("winners", [])
    assert duel >= 8, duel


@pytest.mark.parametrize(("seed", "players", "draft", "events"),
                         [(51, 4, False, False), (52, 4, True, True), (53, 3, False, True), (54, 2, True, False)])
def test_bot_games_end(seed: int, players: int, draft: bool, events: bool) -> None:
    st = new_game(seed, players, draft=draft, events=events)
    play(st, {s: heuristic for s in st.seats}, seed)
    assert st.outcome is not None and st.outcome["winners"]
    assert not any(st.hands.values())


def test_deterministic() -> None:
    a, b = new_game(61, 4), new_game(61, 4)
    play(a, {s: heuristic for s in a.seats}, 61)
    play(b, {s: heuristic for s in b.seats}, 61)
    assert a.outcome == b.outcome and a.vp == b.vp and a.succeeded == b.succeeded


# ---------------------------------------------------------------- a good commander, staged
SEAT = "p1"
BATTLE_OF_BRITAIN = "m04"  # NEA, Pilot, difficulty 8 (the book's one card with its values)


def _pilots_and_infantry() -> tuple[list[str], list[str]]:
    return soldiers_of("PILOT"), soldiers_of("INFANTRY")


def test_order_tile_with_vp_on_it() -> None:
    """§6.1: a tile carrying VP is worth them at once; with nothing else to gain the bot takes it."""
    st = staged()
    st.hands[SEAT] = []
    st.tiles["TRAINING"]["vp"] = 3
    d = ask(SEAT, "order", ["MOVEMENT", "SABOTAGE", "TRAINING", "RECRUITMENT", "CONCENTRATION", "MANEUVERS"])
    assert answer(st, d) == ("TRAINING",)


def test_moves_a_soldier_of_the_right_formation_into_its_mission_region() -> None:
    """§6.3.1: the Pilot goes to NEA for Battle of Britain; the Infantry soldier beside him stays."""
    st = staged()
    st.hands[SEAT] = [BATTLE_OF_BRITAIN]
    pilots, infantry = _pilots_and_infantry()
    put(st, pilots[0], "WEU", s=5)
    put(st, infantry[0], "WEU")
    d = ask(SEAT, "move_soldier", [infantry[0], pilots[0], "pass"], prompt="prompt_move_soldier")
    assert answer(st, d) == (pilots[0],)
    to = ask(SEAT, "move_to", ["POL", "NEA", "NAI"], prompt="prompt_move_to", soldier=pilots[0], region="WEU")
    assert answer(st, to) == ("NEA",)


def test_does_not_move_a_soldier_out_of_its_mission_region() -> None:
    st = staged()
    st.hands[SEAT] = [BATTLE_OF_BRITAIN]
    pilots, _ = _pilots_and_infantry()
    put(st, pilots[0], "NEA", s=5)
    d = ask(SEAT, "move_soldier", [pilots[0], "pass"], prompt="prompt_move_soldier")
    assert answer(st, d) == ("pass",)


def test_recruits_the_formation_its_mission_needs() -> None:
    """§6.3.4: of the drawn cards, the one of the mission's formation is kept in its region."""
    st = staged()
    st.hands[SEAT] = [BATTLE_OF_BRITAIN]
    pilots, infantry = _pilots_and_infantry()
    p = max(pilots, key=lambda s: pack().soldiers[s].strength)
    i = next(s for s in infantry if pack().soldiers[s].ability == pack().soldiers[p].ability) if any(
        pack().soldiers[s].ability == pack().soldiers[p].ability for s in infantry) else infantry[0]
    d = ask(SEAT, "recruit_keep", [i, p], prompt="prompt_recruit_keep", region="NEA")
    assert answer(st, d) == (p,)
    region = ask(SEAT, "recruit_region", ["WAR", "POL", "NEA", "WEU", "pass"], prompt="prompt_recruit_region", n=2)
    assert answer(st, region) == ("NEA",)


def test_trains_the_strength_of_the_soldier_its_mission_counts() -> None:
    """§5.3: the Pilot in NEA gains Strength; the Infantry soldier there would add nothing."""
    st = staged()
    st.hands[SEAT] = [BATTLE_OF_BRITAIN]
    pilots, infantry = _pilots_and_infantry()
    put(st, pilots[0], "NEA", s=3)
    put(st, infantry[0], "NEA", s=3)
    d = ask(SEAT, "train_soldier", [infantry[0], pilots[0], "pass"])
    assert answer(st, d) == (pilots[0],)
    attr = ask(SEAT, "train_attribute", ["S", "U"], prompt="prompt_train_attribute", soldier=pilots[0])
    assert answer(st, attr) == ("S",)


def test_sabotages_where_its_missions_are_and_takes_three_vp_in_occupied_regions() -> None:
    """§6.3.2: lower the marker in its mission's region; with no mission to help, the +3 VP of an occupied
    region."""
    st = staged()
    st.hands[SEAT] = [BATTLE_OF_BRITAIN]
    pilots, _ = _pilots_and_infantry()
    put(st, pilots[0], "NEA", s=5)
    put(st, pilots[1], "NEA", s=4)
    st.domination["NEA"] = 3
    d = ask(SEAT, "sabotage", ["NEA", "NAI", "pass"])
    assert answer(st, d) == ("NEA",)
    st.hands[SEAT] = []
    st.domination["WAR"] = pack().regions["WAR"].occupied_from
    d = ask(SEAT, "sabotage", ["NEA", "WAR", "pass"])
    assert answer(st, d) == ("WAR",)


def test_keeps_four_red_missions_only_when_they_look_winnable() -> None:
    """§3 step 6: four easy cards are all kept; beside three easy ones, Battle of Britain on a bare board
    (difficulty 8 + NEA's level) goes: its −5 outweighs its chance."""
    st = staged()
    easy = ["m06", "m07", "m09", "m13"]
    d = ask(SEAT, "keep_missions", easy, lo=3, hi=4)
    assert sorted(answer(st, d)) == sorted(easy)
    d = ask(SEAT, "keep_missions", ["m06", "m07", "m09", BATTLE_OF_BRITAIN], lo=3, hi=4)
    assert sorted(answer(st, d)) == ["m06", "m07", "m09"]


def test_picks_the_stage_ii_card_it_can_win() -> None:
    """§7.4: of the two drawn, the one whose region already holds the soldiers for it."""
    st = staged()
    st.time = 36
    st.hands[SEAT] = []
    sailors = soldiers_of("SAILOR")
    for s in sailors[:3]:
        put(st, s, "NEA", s=4)
    d = ask(SEAT, "keep_stage2", ["m22", "m17"])  # Monte Cassino (NAI, empty) / convoy ON-166 (NEA, Sailors)
    assert answer(st, d) == ("m17",)


def test_heals_the_soldier_its_coming_mission_needs() -> None:
    """§6.4 step 1: the nurse goes to the wounded Pilot in NEA, not to the wounded sailor in NAI."""
    st = staged()
    st.hands[SEAT] = [BATTLE_OF_BRITAIN]
    st.nurses[SEAT] = 1
    pilots, _ = _pilots_and_infantry()
    sailor = soldiers_of("SAILOR")[0]
    put(st, sailor, "NAI", wounds=1, trained=True)
    put(st, pilots[0], "NEA", s=5, wounds=1, trained=True)
    d = ask(SEAT, "treatment", [sailor, pilots[0], "done"])
    assert answer(st, d) == (pilots[0],)


def test_wound_tie_spares_the_soldier_it_needs() -> None:
    """§8: the leader breaks an Underground tie by wounding the soldier its missions can do without."""
    st = staged()
    st.hands[SEAT] = [BATTLE_OF_BRITAIN]
    pilots, infantry = _pilots_and_infantry()
    put(st, pilots[0], "NEA", s=5, u=2)
    put(st, infantry[0], "NEA", u=2)
    d = ask(SEAT, "wound_tie", [pilots[0], infantry[0]], lo=1, hi=1)
    assert answer(st, d) == (infantry[0],)


def test_concentration_token_locks_its_mission_formation_in_its_region() -> None:
    """§9: the token shows the mission's formation and lies in its region, where that formation stands."""
    st = staged()
    st.hands[SEAT] = [BATTLE_OF_BRITAIN]
    pilots, _ = _pilots_and_infantry()
    put(st, pilots[0], "NEA", s=5)
    put(st, pilots[1], "NEA", s=4)
    f = ask(SEAT, "token_formation", ["INFANTRY", "SAILOR", "ARMORED", "PILOT", "PARATROOPER", "SABOTEUR"])
    assert answer(st, f) == ("PILOT",)
    r = ask(SEAT, "token_region", ["WAR", "POL", "NEA", "WEU", "NAI"], prompt="prompt_token_region",
            formation="formation_PILOT")
    assert answer(st, r) == ("NEA",)


def test_main_front_discards_a_hopeless_red_mission() -> None:
    """§4.4 Main front: a red card due next round with nothing to win it goes, a stage II card in its place."""
    st = staged()
    st.time = 10
    st.hands[SEAT] = [BATTLE_OF_BRITAIN, "m13"]
    d = ask(SEAT, "main_front_discard", [BATTLE_OF_BRITAIN, "m13", "none"])
    assert answer(st, d) == (BATTLE_OF_BRITAIN,)


def test_maneuvers_when_the_missions_due_are_safe_not_while_one_can_still_be_saved() -> None:
    """§6.3.6: with the mission due next already won, Maneuvers ends the phase (Training would only give a
    nurse); when one more Strength saves it, Training comes first."""
    st = staged()
    st.time = 28
    st.hands[SEAT] = ["m13"]  # Establishment of the Home Army: POL, Infantry, difficulty 4, II 1942
    infantry = soldiers_of("INFANTRY")
    st.domination["POL"] = 2  # level 1: the target is 5
    for s in infantry[:3]:
        put(st, s, "POL", s=4)
    d = ask(SEAT, "order", ["TRAINING", "MANEUVERS"])
    assert answer(st, d) == ("MANEUVERS",)
    st.soldiers = {}
    put(st, infantry[0], "POL", s=3)
    put(st, infantry[1], "POL", s=1)  # 1 + 1 + 2 = 4 < 5: one training makes it 5
    assert answer(st, d) == ("TRAINING",)
