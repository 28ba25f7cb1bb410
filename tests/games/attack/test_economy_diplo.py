"""Diplomatic Attack (spec §15, A-15.1–A-15.6), with the dice scripted."""

from __future__ import annotations

from app.games.attack.state import GameState
from app.games.attack.views import card_secrets
from tests.games.attack.dice_kit import ScriptedDice, pair
from tests.games.attack.economy_kit import Cards, answer, begin, choice_ids, seen_by, stage, zone


def table(players: int = 3, **kw) -> tuple[GameState, list[str]]:
    """p1 holds "home"; "next" borders it by land, "lane_end" by a sea lane, "port_b" across an anchored
    zone from "port_a" (p1's), "far" touches nothing of p1's; p2..p4 sit in their own corners."""
    cards = Cards()
    deck = [cards("POP", 1), cards("MIN", 1), cards("FAC", 1)]
    corners = {f"corner{i}": f"p{i}" for i in range(2, players + 1)}
    st = stage(["home", "next", "lane_end", "port_a", "port_b", "far", *corners],
               land=[("home", "next")], lanes=[("home", "lane_end")],
               zones=[zone("bay", ["port_a", "port_b"])],
               owner={"home": "p1", "port_a": "p1", **corners}, deck=deck, players=players, **kw)
    begin(st)
    return st, deck


def diplo(st: GameState, target: str, *dice: int) -> list:
    rng = ScriptedDice(*dice)
    answer(st, "p1", "DIPLO")
    events = answer(st, "p1", target, rng=rng)
    assert rng.rolls == [], "the rules rolled fewer dice than scripted"
    return events


def test_a15_1_only_neutral_regions_may_be_targeted():
    st, _ = table()
    answer(st, "p1", "DIPLO")
    assert choice_ids(st, "p1") == ["far", "lane_end", "next", "port_b"]


def test_a15_2_adjacent_by_land_succeeds_on_8():
    st, deck = table()
    diplo(st, "next", *pair(8))
    assert st.owner["next"] == "p1" and st.units["next"] == {"INF": 1}


def test_a15_2_adjacent_by_land_fails_on_7():
    st, _ = table()
    diplo(st, "next", *pair(7), *pair(2), *pair(2))  # the two others roll too
    assert "next" not in st.owner


def test_a15_2_not_adjacent_fails_on_8_and_succeeds_on_9():
    st, _ = table()
    diplo(st, "far", *pair(8), *pair(3), *pair(3))
    assert "far" not in st.owner
    diplo(st, "far", *pair(9))
    assert st.owner["far"] == "p1"


def test_a15_2_a_sea_lane_counts_as_adjacent():
    st, _ = table()
    diplo(st, "lane_end", *pair(8))
    assert st.owner["lane_end"] == "p1"


def test_a15_2_an_anchored_zone_counts_as_adjacent():
    st, _ = table()
    diplo(st, "port_b", *pair(8))
    assert st.owner["port_b"] == "p1"


def test_a15_2_every_roll_is_logged_with_both_dice():
    st, _ = table()
    events = diplo(st, "far", *pair(5), *pair(9), *pair(4))
    rolls = [e.msg.params for e in events if e.msg and e.msg.id in ("diplo_roll", "diplo_other_roll")]
    assert [(r["a"], r["b"], r["total"]) for r in rolls] == [(4, 1, 5), (6, 3, 9), (3, 1, 4)]
    assert rolls[0]["need"] == 9


def test_a15_3_success_gives_a_free_infantry_and_the_top_card():
    st, deck = table()
    before = len(st.hands["p1"])
    events = diplo(st, "next", *pair(11))
    assert st.units["next"] == {"INF": 1}
    assert st.hands["p1"] == [deck[0]] and len(st.hands["p1"]) == before + 1
    assert st.deck == deck[1:]
    # the card drawn is named to the drawer only
    drawn = [e for e in events if e.msg and e.msg.id == "card_drawn"]
    assert drawn and "p1" in drawn[0].private and "p2" not in drawn[0].private


def test_a15_4_on_failure_the_highest_9_plus_of_the_others_gains_the_region():
    st, deck = table(players=4)
    # p1 fails; p2 rolls 9, p3 rolls 10, p4 rolls 3
    diplo(st, "next", *pair(7), *pair(9), *pair(10), *pair(3))
    assert st.owner["next"] == "p3" and st.units["next"] == {"INF": 1}
    assert st.hands["p3"] == [deck[0]]  # whoever gains it draws


def test_a15_4_the_others_roll_in_turn_order_from_the_actors_left():
    st, _ = table(players=4)
    events = diplo(st, "next", *pair(7), *pair(2), *pair(3), *pair(4))
    order = [e.msg.params["seat"] for e in events if e.msg and e.msg.id == "diplo_other_roll"]
    assert order == [st.colours["p2"], st.colours["p3"], st.colours["p4"]]


def test_a15_4_nobody_at_9_leaves_the_region_neutral():
    st, deck = table()
    events = diplo(st, "next", *pair(7), *pair(8), *pair(8))
    assert "next" not in st.owner and st.deck == deck
    assert any(e.msg and e.msg.id == "diplo_stays_neutral" for e in events)


def test_a15_4_tied_highest_roll_again_and_the_re_roll_needs_no_9():
    st, _ = table(players=4)
    # p2 and p3 tie at 10 (p4's 9 is lower and drops out); re-roll 4 against 3: p2 wins on a 4
    diplo(st, "next", *pair(6), *pair(10), *pair(10), *pair(9), *pair(4), *pair(3))
    assert st.owner["next"] == "p2"


def test_a15_4_a_tied_re_roll_rolls_again():
    st, _ = table()
    diplo(st, "next", *pair(6), *pair(11), *pair(11), *pair(5), *pair(5), *pair(2), *pair(7))
    assert st.owner["next"] == "p3"


def test_a15_6_diplomatic_attack_repeats_up_to_the_three_actions():
    st, _ = table()
    diplo(st, "far", *pair(12))
    assert "DIPLO" in choice_ids(st, "p1")
    diplo(st, "next", *pair(12))
    diplo(st, "lane_end", *pair(12))
    assert st.active == "p2"  # three actions: the turn is over
    assert [st.owner[r] for r in ("far", "next", "lane_end")] == ["p1", "p1", "p1"]


def test_a15_the_others_only_read_that_a_card_was_drawn():
    st, deck = table()
    events = diplo(st, "next", *pair(12))
    names = card_secrets(deck[0])
    assert any(n in line for n in names for line in seen_by(events, "p1"))
    for seat in ("p2", "p3", None):
        assert not any(n in line for n in names for line in seen_by(events, seat))
