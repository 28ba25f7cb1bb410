"""Setup, spec §4 (A-4.1 … A-4.8), on a staged map of four continents, three regions each."""

from __future__ import annotations

import random
from collections import Counter

from app.games.attack.pack import LAND_TYPES, START_LAND, START_NAVY, pack
from app.games.attack.rules import GAME
from app.games.attack.state import GameState
from app.games.attack.text import catalogue
from app.games.protocol import Decision
from tests.games.attack import end_kit as k
from tests.games.attack.dice_kit import ScriptedDice, pair


def roll_all(state: GameState, rng: random.Random) -> list[str]:
    """Every seat presses "roll"; the last answer rolls with ``rng``. The log lines' message ids."""
    lines = []
    for i, d in enumerate(GAME.pending(state)):
        assert d.kind == "first_player" and list(d.choice_ids()) == ["roll"]
        last = i == len(state.seats) - 1
        lines += [e.msg for e in k.answer(state, ("roll",), rng if last else random.Random(0), d)]
    return [m.id for m in lines if m is not None]


def test_a_4_1_each_player_gets_four_cards_a_fleet_and_twenty_four_units() -> None:
    state = k.table(3, chooser=k.first, seed=3, turn_limit="12")
    hands = [c for s in state.seats for c in state.hands[s]]
    assert all(len(state.hands[s]) == 4 for s in state.seats)  # four random cards each
    assert sorted(hands + state.deck) == sorted(pack().econ)  # the rest stays face down as the deck
    for s in state.seats:
        assert state.navy[s] == START_NAVY == {"BB": 1, "DD": 2, "SS": 2}
        on_map = Counter()
        for r in state.regions_of(s):
            on_map.update(state.units[r])
        assert dict(on_map) == START_LAND == {"INF": 12, "TNK": 6, "ART": 4, "PLN": 2}


def test_a_4_2_the_highest_two_dice_go_first_and_play_passes_clockwise() -> None:
    state = k.begin(k.new_state(4))
    lines = roll_all(state, ScriptedDice(*pair(7), *pair(5), *pair(11), *pair(9)))
    assert state.order == ["p3", "p4", "p1", "p2"]  # p3's 11 is highest; then to the left, in seat order
    assert lines.count("first_player_roll") == 4 and "first_player_tie" not in lines


def test_a_4_2_tied_highest_rolls_roll_again_the_others_do_not() -> None:
    """§24 default for the gap: only the players tied on the highest roll again, until one is higher."""
    state = k.begin(k.new_state(3))
    dice = ScriptedDice(*pair(10), *pair(4), *pair(10),  # p1 and p3 tie on 10, p2 is out
                        *pair(8), *pair(8),  # they tie again
                        *pair(6), *pair(9))  # p3 wins
    lines = roll_all(state, dice)
    assert state.order == ["p3", "p1", "p2"]
    assert lines.count("first_player_roll") == 7 and lines.count("first_player_tie") == 2
    assert dice.rolls == []  # p2 never rolled again


def test_a_4_2_every_seat_rolls_and_every_die_is_logged() -> None:
    """The roll waits for every seat (a simultaneous step); each die's face is in a public line."""
    state = k.begin(k.new_state(2))
    pending = GAME.pending(state)
    assert [d.seat for d in pending] == ["p1", "p2"] and all(d.group for d in pending)
    assert pending[0].undoable  # not the answer that completes the step: it rolls
    events = k.answer(state, ("roll",), random.Random(0), pending[0])
    assert events == [] and state.order == []
    events = k.answer(state, ("roll",), ScriptedDice(*pair(6), *pair(12)), GAME.pending(state)[0])
    rolls = [e.msg.params for e in events if e.msg and e.msg.id == "first_player_roll"]
    assert [(r["a"], r["b"], r["total"]) for r in rolls] == [(5, 1, 6), (6, 6, 12)]
    assert "6 + 6 = 12" in events[1].text and not events[1].private


def claims(state: GameState) -> list[Decision]:
    out = []
    while GAME.pending(state) and GAME.pending(state)[0].kind == "claim":
        d = GAME.pending(state)[0]
        out.append(d)
        k.answer(state, (d.choices[-1].id,), decision=d)
    return out


def test_a_4_3_claims_one_infantry_at_a_time_in_turn_order_until_each_holds_four() -> None:
    state = k.begin(k.new_state(3))
    roll_all(state, ScriptedDice(*pair(3), *pair(12), *pair(5)))
    deck = list(state.deck)
    asked = claims(state)
    # the twelfth claim has one region left on this twelve-region map: it answers itself
    assert [d.seat for d in asked] == (["p2", "p3", "p1"] * 4)[:11]
    for s in state.seats:
        regions = state.regions_of(s)
        assert len(regions) == 4 and all(state.units[r] == {"INF": 1} for r in regions)
    assert state.deck == deck  # no Economics card for the starting regions
    # every claim offered exactly the regions still neutral at the time
    taken: set[str] = set()
    for d in asked:
        assert set(d.choice_ids()) == set(state.geo.regions) - taken
        taken.add(d.choices[-1].id)


def test_a_4_4_one_region_on_each_continent() -> None:
    state = k.begin(k.new_state(2, one_per_continent=True))
    roll_all(state, ScriptedDice(*pair(12), *pair(2)))
    asked = claims(state)
    geo = state.geo
    for s in state.seats:
        assert sorted(geo.regions[r].continent for r in state.regions_of(s)) == sorted(
            ["north_america", "south_america", "africa", "eurasia"])
    # the second claim of p1 offered no region of the continent of its first
    first_continent = geo.regions[asked[0].choices[-1].id].continent
    assert all(geo.regions[r].continent != first_continent for r in asked[2].choice_ids())
    assert "on a continent" in asked[2].prompt


def test_a_4_4_a_continent_run_out_leaves_any_neutral_region() -> None:
    """A continent with fewer regions than players: the option cannot be met there, so the claim
    falls back to any neutral region (README) rather than stalling the setup."""
    state = k.begin(k.new_state(2, "end-scarce", one_per_continent=True))
    roll_all(state, ScriptedDice(*pair(12), *pair(2)))
    while GAME.pending(state)[0].kind == "claim":
        d = GAME.pending(state)[0]
        k.answer(state, ("usa",) if "usa" in d.choice_ids() else (d.choices[0].id,), decision=d)
    assert all(len(state.regions_of(s)) == 4 for s in state.seats)


def test_a_4_5_the_other_twenty_units_one_at_a_time_in_turn_order_into_own_regions() -> None:
    state = k.begin(k.new_state(2))
    roll_all(state, ScriptedDice(*pair(2), *pair(12)))
    claims(state)
    placed = []
    while GAME.pending(state)[0].kind == "place":
        d = GAME.pending(state)[0]
        own = set(state.regions_of(d.seat))
        assert {c.split(":")[0] for c in d.choice_ids()} == own  # any of its own regions
        assert d.max == 1 and d.undoable  # one piece at a time; nothing hidden, no dice: may be taken back
        placed.append(d.seat)
        # always the last choice: the planes and artillery run out first, so the choices shrink
        k.answer(state, (d.choices[-1].id,), decision=d)
    assert placed == ["p2", "p1"] * 20  # 24 units less the 4 claiming infantry
    last = GAME.pending(state)[0]
    assert last.kind == "capital"


def test_a_4_5_the_prompt_says_what_is_left_and_only_those_types_are_offered() -> None:
    state = k.begin(k.new_state(2))
    roll_all(state, ScriptedDice(*pair(12), *pair(2)))
    claims(state)
    d = GAME.pending(state)[0]
    assert "20 to place" in d.prompt and "8 × infantry" in d.prompt and "2 × plane" in d.prompt
    pl = catalogue().text(d.prompt_msg, "pl")
    assert pl is not None and "do rozstawienia: 20" in pl and "8 × piechota" in pl
    assert {c.split(":")[1] for c in d.choice_ids()} == set(LAND_TYPES)
    # p1 places its two planes: planes are no longer offered to it
    for _ in range(2):
        d = GAME.pending(state)[0]
        k.answer(state, (next(c for c in d.choice_ids() if c.endswith(":PLN")),), decision=d)
        d = GAME.pending(state)[0]
        k.answer(state, (d.choices[0].id,), decision=d)
    d = GAME.pending(state)[0]
    assert d.seat == "p1" and not any(c.endswith(":PLN") for c in d.choice_ids())
    assert "18 to place" in d.prompt and "plane" not in d.prompt


def test_a_4_6_capitals_in_turn_order_each_in_one_of_its_regions_then_a_4_7_the_first_turn() -> None:
    state = k.begin(k.new_state(3))
    roll_all(state, ScriptedDice(*pair(4), *pair(3), *pair(12)))
    asked = k.run_setup(state, lambda s, d: (d.choices[-1].id,))
    capitals = [d for d in asked if d.kind == "capital"]
    assert [d.seat for d in capitals] == ["p3", "p1", "p2"]
    for d in capitals:  # nothing moves during setup: the regions it holds now are those it held then
        assert set(d.choice_ids()) == set(state.regions_of(d.seat))
    assert all(state.capitals[s] in state.regions_of(s) for s in state.seats)
    assert state.phase in ("play", "over") and state.round >= 1
    assert state.sea_controller is None


def test_a_4_7_the_first_player_takes_the_first_turn() -> None:
    with k.only_action(lambda ctx, seat: None):
        state = k.begin(k.new_state(3))
        roll_all(state, ScriptedDice(*pair(4), *pair(12), *pair(3)))
        k.run_setup(state)
        d = GAME.pending(state)[0]
    assert state.phase == "play" and state.round == 1 and state.active == "p2" == d.seat
    assert d.kind == "action" and state.sea_controller is None  # nobody controls the seas


def test_setup_decisions_take_back_and_are_named_by_region() -> None:
    state = k.begin(k.new_state(2))
    roll_all(state, ScriptedDice(*pair(12), *pair(2)))
    d = GAME.pending(state)[0]
    assert d.kind == "claim" and d.undoable
    assert all(c.id in state.geo.regions for c in d.choices)  # region ids: the map can offer them


def test_setup_plays_the_real_pack_on_every_table_size() -> None:
    """Through GAME.setup on the pack's map, every table size, both claim rules."""
    for players in range(2, 7):
        for opc in (False, True):
            opts = {"one_per_continent": opc, "turn_limit": "12"}
            state = GAME.setup(opts, GAME.roles(players, opts), random.Random(players))
            rng = random.Random(players)
            while state.phase == "setup":
                d = GAME.pending(state)[0]
                k.answer(state, (rng.choice(d.choice_ids()),), random.Random(state.step), d)
            assert all(len(state.regions_of(s)) == 4 and state.land_units(s) == 24 for s in state.seats)
            assert set(state.capitals) == set(state.seats)
