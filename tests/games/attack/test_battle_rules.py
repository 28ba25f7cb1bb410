"""Land battles against another player, rule by rule (spec §10, A-18.2, A-21.1; settled reading of A-17.2)."""

from __future__ import annotations

import random

import pytest

from app.games.attack import GAME
from app.games.attack.battle import casualties, dice_count, hits_by_type, picked, real_choice, tokens
from app.games.attack.state import dump, load
from app.games.protocol import Illegal
from tests.games.attack.battle_kit import answer, fight, lines, one, pending, pick, table
from tests.games.attack.dice_kit import ScriptedDice, faces


def _duel(attack: dict[str, int], defence: dict[str, int], **kw: object):
    """p1 attacks p2's Ukraine; p2 also holds Poland unless told otherwise."""
    owner = {"ukraine": "p2", "poland": "p2", "belarus": "p1"}
    units = {"ukraine": defence, "poland": {"INF": 1}, "belarus": {"INF": 1}}
    if kw.pop("alone", False):
        del owner["poland"], units["poland"]
    return table(owner=owner, units=units, **kw)  # type: ignore[arg-type]


def test_a_10_3_4_two_dice_minimum() -> None:
    """A-10.3.4: one die a unit, two a tank, never fewer than two."""
    assert dice_count({"ART": 1}) == 2
    assert dice_count({"PLN": 1}) == 2
    assert dice_count({"TNK": 1}) == 2
    assert dice_count({"INF": 1, "TNK": 1}) == 3
    assert dice_count({"INF": 2, "TNK": 2, "PLN": 1}) == 7
    state = _duel({"INF": 4}, {"ART": 1})
    rng = ScriptedDice(*faces("BLANK", "BLANK"), *faces("INF", "BLANK", "BLANK", "BLANK"))
    fight(state, "ukraine", "p1", {"INF": 4}, rng)
    assert [len(h["dice"]) for h in state.battle["halves"]] == [2, 4]  # one artillery rolls two dice
    assert state.owner["ukraine"] == "p1"


def test_a_10_3_5_one_die_per_own_unit() -> None:
    """A-10.3.5: a face hits only when it shows one of the roller's OWN engaged types, one die per unit."""
    assert hits_by_type(["INF", "INF", "INF"], {"INF": 2}) == {"INF": 2}
    assert hits_by_type(["TNK", "TNK"], {"TNK": 1}) == {"TNK": 1}  # a tank rolls two, uses one
    assert hits_by_type(["PLN", "ART", "BLANK"], {"INF": 3}) == {}  # the opponent's types never hit
    assert hits_by_type(["BLANK"] * 6, {"INF": 1, "TNK": 1, "ART": 1, "PLN": 1}) == {}


def test_a_10_3_6_casualty_order() -> None:
    """A-10.3.6: infantry first, then tanks, artillery, planes; the victim does not choose."""
    engaged = {"INF": 1, "TNK": 1, "ART": 1, "PLN": 1}
    assert casualties(1, engaged) == {"INF": 1}
    assert casualties(2, engaged) == {"INF": 1, "TNK": 1}
    assert casualties(3, engaged) == {"INF": 1, "TNK": 1, "ART": 1}
    assert casualties(2, {"ART": 2, "PLN": 1, "TNK": 1}) == {"TNK": 1, "ART": 1}
    state = _duel({"INF": 4}, {"INF": 2, "TNK": 1, "ART": 2, "PLN": 1})
    rng = ScriptedDice(*faces("BLANK", "BLANK", "BLANK", "BLANK", "BLANK"), *faces("INF", "INF", "BLANK", "BLANK"))
    fight(state, "ukraine", "p1", {"INF": 4}, rng)
    answer(state, "p2", pick({"INF": 1, "TNK": 1, "ART": 1, "PLN": 1}), rng)
    assert state.battle["halves"][1]["casualties"] == {"INF": 1, "TNK": 1}
    assert state.units["ukraine"] == {"INF": 1, "ART": 2, "PLN": 1}  # the defender's map pieces follow its losses
    assert one(state).kind == "battle_reinforce"


def test_a_10_3_6_only_engaged_units_are_hit() -> None:
    """A-10.3.6: hits beyond the opponent's engaged units are wasted; reserves are never hit; a side
    left with nothing engaged must send at least one unit in (A-10.3.3)."""
    assert casualties(5, {"INF": 2}) == {"INF": 2}
    state = _duel({"INF": 4}, {"INF": 2, "ART": 5})
    rng = ScriptedDice(*faces("BLANK", "BLANK", "BLANK", "BLANK"), *faces("INF", "INF", "INF", "INF"))
    fight(state, "ukraine", "p1", {"INF": 4}, rng)
    answer(state, "p2", pick({"INF": 2, "ART": 2}), rng)
    half = state.battle["halves"][1]
    assert half["casualties"] == {"INF": 2, "ART": 2} and half["wasted"] == 0
    assert state.battle["sides"]["D"] == {"engaged": {}, "reserve": {"ART": 3}, "lost": {"INF": 2, "ART": 2}}
    # Green has nothing engaged: it must send one to three artillery (all its reserve, under the cap of 5)
    d = one(state)
    assert (d.seat, d.kind, d.min, d.max) == ("p2", "battle_reinforce", 1, 3)


def test_a_10_3_6_wasted_hits() -> None:
    state = _duel({"INF": 4, "ART": 1}, {"INF": 1})
    rng = ScriptedDice(*faces("INF", "BLANK"))
    fight(state, "ukraine", "p1", {"INF": 4, "ART": 1}, rng)
    answer(state, "p1", pick({"INF": 4}), rng)  # Green's infantry hits one of four: the rest stay, ART in reserve
    rng.rolls += faces("INF", "INF", "INF", "BLANK")
    answer(state, "p1", (), rng)
    half = state.battle["halves"][1]
    assert half["hits"] == {"INF": 3} and half["casualties"] == {"INF": 1} and half["wasted"] == 2
    assert state.units["ukraine"] == {"INF": 3, "ART": 1}  # the reserve artillery survives with the rest


def test_a_10_2_opening_choices() -> None:
    """A-10.2.2–A-10.2.4: a choice only with mixed types beyond four; fewer than four: all commit."""
    assert not real_choice({"INF": 6}, 4, 4)
    assert not real_choice({"INF": 2, "TNK": 1}, 3, 3)
    assert real_choice({"INF": 4, "TNK": 1}, 4, 4)
    assert [c for c, _ in tokens({"INF": 6, "PLN": 1}, 4)] == ["INF:1", "INF:2", "INF:3", "INF:4", "PLN:1"]
    assert picked(("INF:1", "INF:3", "PLN:1")) == {"INF": 2, "PLN": 1}
    state = _duel({"INF": 3}, {"INF": 2, "TNK": 1})
    rng = ScriptedDice(*faces(*["BLANK"] * 4), *faces(*["BLANK"] * 3), *faces(*["INF"] * 4), *faces("INF", "INF"),
                       *faces("INF", "BLANK", "BLANK"))
    fight(state, "ukraine", "p1", {"INF": 3}, rng)  # nobody chooses: both commit everything
    assert state.battle["halves"][0]["engaged"] == {"INF": 2, "TNK": 1}
    assert state.battle["halves"][1]["engaged"] == {"INF": 3}
    assert state.battle["winner"] == "D" and state.units["ukraine"] == {"INF": 1, "TNK": 1}


def test_a_10_3_3_cap_counts_engaged_units() -> None:
    """A-10.3.3: after reinforcing a side has at most 3 + r engaged; a side that lost units may refill
    in round 1 (settled reading, LAND-EX-1 row 2); it need not fill up."""
    state = _duel({"INF": 5, "TNK": 2}, {"INF": 4, "ART": 4})
    rng = ScriptedDice(*faces("INF", "INF", "BLANK", "BLANK"))
    fight(state, "ukraine", "p1", {"INF": 5, "TNK": 2}, rng)
    answer(state, "p1", pick({"INF": 4}), rng)
    answer(state, "p2", pick({"INF": 4}), rng)
    d = one(state)  # Light brown lost two: round 1, room for two again
    assert (d.seat, d.kind, d.min, d.max) == ("p1", "battle_reinforce", 0, 2)
    rng.rolls += faces("BLANK", "BLANK")
    answer(state, "p1", (), rng)  # nothing added: two infantry roll the minimum two dice
    assert state.battle["halves"][1]["added"] == {} and state.battle["halves"][1]["engaged"] == {"INF": 2}
    d = one(state)  # round 2: Green has 4 engaged, cap 5
    assert (d.seat, d.kind, d.min, d.max) == ("p2", "battle_reinforce", 0, 1)


def test_defender_who_holds_gains_no_card() -> None:
    """Settled reading of A-17.2: a defender who holds takes nothing; the attacker's units are all lost
    (A-10.3.10, no retreat) and the defender's survivors stay in the region."""
    state = _duel({"INF": 1}, {"INF": 3}, hands={"p1": ["ec-001", "ec-002"], "p2": ["ec-003"]})
    rng = ScriptedDice(*faces("INF", "BLANK", "BLANK"))
    log = lines(fight(state, "ukraine", "p1", {"INF": 1}, rng))
    assert state.battle["winner"] == "D"
    assert state.hands == {"p1": ["ec-001", "ec-002"], "p2": ["ec-003"]}
    assert state.owner["ukraine"] == "p2" and state.units["ukraine"] == {"INF": 3}
    assert "Green holds Ukraine with infantry ×3." in log
    assert not any("Economics card" in line for line in log)


def test_winner_takes_a_random_card_from_the_loser() -> None:
    """A-10.3.9 / A-17.2 item 2: one card blind from the loser's hand; none if the hand is empty (A-17.3)."""
    for hand, gained in ((["ec-003", "ec-004"], 1), ([], 0)):
        state = _duel({"INF": 4}, {"INF": 1}, hands={"p1": [], "p2": list(hand)})
        rng = ScriptedDice(*faces("BLANK", "BLANK"), *faces("INF", "BLANK", "BLANK", "BLANK"))
        log = lines(fight(state, "ukraine", "p1", {"INF": 4}, rng))
        assert len(state.hands["p1"]) == gained and len(state.hands["p2"]) == len(hand) - gained
        if not hand:
            assert "Green has no Economics card for Light brown to take." in log


def test_a_18_2_capital_captured() -> None:
    """A-18.2: the capital piece stays where it was placed; its region's new controller controls it."""
    state = _duel({"INF": 4}, {"INF": 1}, capitals={"p2": "ukraine", "p1": "belarus"})
    rng = ScriptedDice(*faces("BLANK", "BLANK"), *faces("INF", "BLANK", "BLANK", "BLANK"))
    log = lines(fight(state, "ukraine", "p1", {"INF": 4}, rng))
    assert state.capitals == {"p2": "ukraine", "p1": "belarus"}
    assert state.owner[state.capitals["p2"]] == "p1"
    assert "Light brown captures the capital of Green in Ukraine." in log


def test_a_21_1_elimination_ends_the_game_at_once() -> None:
    """A-21.1: the defender's last land units fall: eliminated, and the game ends right after the battle."""
    state = _duel({"INF": 4}, {"INF": 1}, alone=True, hands={"p2": ["ec-003"]})
    rng = ScriptedDice(*faces("BLANK", "BLANK"), *faces("INF", "BLANK", "BLANK", "BLANK"))
    log = lines(fight(state, "ukraine", "p1", {"INF": 4}, rng))
    assert state.eliminated == ["p2"] and state.phase == "over"
    assert state.outcome is not None and state.outcome["winners"] == ["p1"]
    assert "Green has no land units left on the map and is eliminated." in log
    assert pending(state) == []


def test_battle_survives_dump_and_load() -> None:
    """A battle waiting for a reinforcement reloads and goes on exactly as it would have."""
    def play(reload: bool) -> dict:
        state = _duel({"INF": 5, "TNK": 2}, {"INF": 4, "ART": 4})
        rng = ScriptedDice(*faces("INF", "INF", "BLANK", "BLANK"), *faces("TNK", "INF", "BLANK", "BLANK"),
                           *faces("ART", "ART", "INF", "INF", "BLANK"))
        fight(state, "ukraine", "p1", {"INF": 5, "TNK": 2}, rng)
        answer(state, "p1", pick({"INF": 4}), rng)
        answer(state, "p2", pick({"INF": 4}), rng)
        if reload:
            state = load(dump(state))
        answer(state, "p1", pick({"TNK": 1}), rng)
        return dump(state)

    assert play(True) == play(False)


def test_bad_answers_are_refused_untouched() -> None:
    """Too few units, an unknown token, another seat's answer: refused, the state unchanged."""
    state = _duel({"INF": 5, "TNK": 2}, {"INF": 4})
    rng = random.Random(5)
    fight(state, "ukraine", "p1", {"INF": 5, "TNK": 2}, rng)
    before = dump(state)
    d = one(state)
    for seat, choices in (("p1", pick({"INF": 3})), ("p1", ("INF:9", "INF:1", "INF:2", "INF:3")),
                          ("p1", ("INF:1", "INF:1", "INF:2", "INF:3")), ("p2", pick({"INF": 4}))):
        with pytest.raises(Illegal):
            answer(state, seat, choices, rng, decision=d)
    assert dump(state) == before


def test_views_show_the_battle_and_hide_hands() -> None:
    """The battle is public, half-round by half-round; the loser's hand stays hidden from the others."""
    state = _duel({"INF": 5, "TNK": 2}, {"INF": 4}, hands={"p2": ["ec-003"]})
    rng = ScriptedDice(*faces("INF", "INF", "BLANK", "BLANK"))
    fight(state, "ukraine", "p1", {"INF": 5, "TNK": 2}, rng)
    answer(state, "p1", pick({"INF": 2, "TNK": 2}), rng)
    view = GAME.view(state, "p1")["land_battle"]
    assert view["waiting"] == {"seat": "p1", "side": "A", "kind": "battle_reinforce"}
    assert view["halves"][0]["dice"] == ["INF", "INF", "BLANK", "BLANK"]
    assert view["sides"]["A"] == {"engaged": {"TNK": 2}, "reserve": {"INF": 3}, "lost": {"INF": 2}}
    assert GAME.view(state, None)["land_battle"] == view
    assert "ec-003" in GAME.secrets(state, "p1")


def test_finished_battle_shown_until_the_turn_ends() -> None:
    state = _duel({"INF": 4}, {"INF": 1})
    rng = ScriptedDice(*faces("BLANK", "BLANK"), *faces("INF", "BLANK", "BLANK", "BLANK"))
    fight(state, "ukraine", "p1", {"INF": 4}, rng)
    assert GAME.view(state, "p2")["land_battle"]["winner"] == "A"
    state.turns_taken += 1
    assert GAME.view(state, "p2")["land_battle"] is None
