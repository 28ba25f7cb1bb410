"""The heuristic bot (bot.py): each point of its plan on a staged table, its answers always legal,
deterministic, and blind to what its seat may not see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games.protocol import Choice, Decision
from app.games.total_domination import bot, engine
from app.games.total_domination.state import GameState
from tests.games.total_domination.boards import coastal, home, land, stage
from tests.games.total_domination.events_kit import answer, cd, kit, start_turn, table

# every card's tech icon is E3 (out of reach: it needs E2) unless a test is about techs
CARDS = [
    cd("g3", op=3, colour="uk", tech="E3"), cd("g4", op=4, colour="uk", tech="E3"),
    cd("g5", op=5, colour="uk", tech="E3"), cd("g6", op=6, colour="uk", tech="E3"),
    cd("h6", op=6, colour="uk", tech="E3"),
    cd("tac1", op=3, colour="germany", kind="tactics", value=1, tech="E3"),
    cd("tac7", op=4, colour="germany", kind="tactics", value=7, tech="E3"),
    cd("dip2", op=3, colour="germany", kind="diplomacy", flag="spain", vp=2, tech="E3"),
    cd("dip1", op=3, colour="germany", kind="diplomacy", flag="spain", vp=1, tech="E3"),
    cd("ukdip1", op=3, colour="uk", kind="diplomacy", flag="spain", vp=1, tech="E3"),
    cd("ukdip2", op=3, colour="uk", kind="diplomacy", flag="spain", vp=2, tech="E3"),
    cd("log", op=3, colour="germany", kind="logistics", icons={"army": 2}, tech="E3"),
    cd("mech", op=3, colour="uk", tech="A1"), cd("radar", op=3, colour="uk", tech="C3"),
    cd("carrier", op=3, colour="uk", tech="B3"),
]


@pytest.fixture(autouse=True)
def deck(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, CARDS)


def decide(st: GameState, rng_seed: int = 1) -> tuple[Decision, tuple[str, ...]]:
    (d,) = engine.decisions(st)
    return d, bot.choose(st, d, random.Random(rng_seed)).choices


def ops_turn(st: GameState, power: str, card: str) -> Any:
    st.hands[st.hand_of[power]] = [card] + [c for c in st.hands[st.hand_of[power]] if c != card]
    ctx = start_turn(st, power)
    return answer(ctx, f"ops:{card}")


def turn_answer(st: GameState, power: str) -> str:
    """The bot's answer to ``power``'s "your turn" question, carried out."""
    ctx = start_turn(st, power)
    d, picked = decide(st)
    assert d.kind == "turn"
    answer(ctx, *picked)
    return picked[0]


# ---------------------------------------------------------------- operations
def front() -> GameState:
    """Germany beside an empty neutral 2-star space and an empty 0-star one; an empty home space."""
    return stage(spaces=[home("berlin", "germany", capital=True, factory=True), land("poland", stars=2),
                         land("waste", stars=0), land("far", stars=0)],
                 links=[("berlin", "poland", "land"), ("berlin", "waste", "land"), ("waste", "far", "land")],
                 units=[("germany", "army", "berlin"), ("germany", "army", "berlin")])


def test_operations_take_an_uncontrolled_star() -> None:
    st = front()
    ops_turn(st, "germany", "g4")
    d, picked = decide(st)
    assert d.kind == "operation"
    assert picked[0].startswith("move:") and picked[0].endswith(":poland")


def test_operations_retake_a_home_space_an_enemy_holds() -> None:
    st = stage(spaces=[home("berlin", "germany", capital=True, factory=True), home("prussia", "germany", stars=1),
                       land("waste", stars=0)],
               links=[("berlin", "prussia", "land"), ("berlin", "waste", "land")],
               units=[("germany", "army", "berlin"), ("germany", "army", "berlin"), ("ussr", "army", "prussia"),
                      ("ussr", "army", "waste")])
    ops_turn(st, "germany", "g6")
    d, picked = decide(st)
    assert picked == ("attack:u1:u3",) or picked[0].endswith(":u3")  # the unit on its home space, not the other


def test_operations_attack_where_a_capital_falls() -> None:
    """An enemy capital held by one army beside two of ours: destroying that army leaves the
    capital open to capture, which no other target offers."""
    st = stage(spaces=[home("moscow", "ussr", capital=True, factory=True), land("front", stars=0),
                       land("steppe", stars=0), home("berlin", "germany", capital=True)],
               links=[("moscow", "front", "land"), ("front", "steppe", "land"), ("front", "berlin", "land")],
               units=[("germany", "army", "front"), ("germany", "army", "front"), ("ussr", "army", "moscow"),
                      ("ussr", "army", "steppe")])
    ops_turn(st, "germany", "g6")
    d, picked = decide(st)
    assert picked[0].startswith("attack:") and picked[0].endswith(":u3")


def test_operations_garrison_the_capital_against_an_adjacent_enemy() -> None:
    st = stage(spaces=[home("london", "uk", capital=True, factory=True, shipyard=True),
                       home("york", "uk", stars=0, factory=True), coastal("channel", stars=0)],
               links=[("london", "channel", "sea"), ("london", "york", "land")],
               units=[("germany", "army", "channel")])
    ops_turn(st, "uk", "g3")
    d, picked = decide(st)
    assert picked[0].startswith("build:uk:") and picked[0].endswith(":london")


def test_operations_save_one_op_when_nothing_pays() -> None:
    st = stage(spaces=[home("berlin", "germany", capital=True)], units=[("germany", "army", "berlin")])
    ops_turn(st, "germany", "g3")
    d, picked = decide(st)
    assert d.kind == "operation" and "save" in d.choice_ids()
    assert picked == ("save",)


def test_operations_do_not_walk_off_a_threatened_capital_for_nothing() -> None:
    st = stage(spaces=[home("london", "uk", capital=True), coastal("channel", stars=0), land("moor", stars=0)],
               links=[("london", "channel", "sea"), ("london", "moor", "land")],
               units=[("uk", "army", "london"), ("germany", "army", "channel")])
    ops_turn(st, "uk", "g3")
    d, picked = decide(st)
    assert "move:u1:moor" in d.choice_ids() and picked != ("move:u1:moor",)


# ---------------------------------------------------------------- the turn: events, techs, Lend-Lease, pass
def test_diplomacy_when_it_wins_the_comparison() -> None:
    st = table(hands={"germany": ["dip2", "g5", "g4"]}, diplomacy=[{"card": "ukdip1", "power": "uk"}])
    assert turn_answer(st, "germany") == "event:dip2"


def test_no_diplomacy_that_loses_the_comparison() -> None:
    st = table(hands={"germany": ["dip1", "g5", "g4"]}, diplomacy=[{"card": "ukdip2", "power": "uk"}])
    assert turn_answer(st, "germany") != "event:dip1"


def test_tactics_plus_one_on_itself_before_a_big_operations_turn() -> None:
    st = table(hands={"germany": ["tac1", "g6", "h6", "g5", "g4"]})
    assert turn_answer(st, "germany") == "event:tac1"
    d, picked = decide(st)
    assert d.kind == "tactics_target" and picked == ("germany",)


def test_a_tactics_seven_beats_its_printed_four() -> None:
    st = table(hands={"germany": ["tac7", "g3", "g4"]})
    assert turn_answer(st, "germany") == "event:tac7"


def test_a_logistics_event_is_played_for_its_free_units() -> None:
    st = table(hands={"germany": ["log", "g3", "g4"]})
    assert turn_answer(st, "germany") == "event:log"


def test_a_tech_that_fits_early() -> None:
    st = table(hands={"uk": ["mech", "g4", "g5"]})
    assert turn_answer(st, "uk") == "tech:mech"


def test_no_tech_with_its_prerequisites_missing_nor_a_far_payback_late() -> None:
    st = table(hands={"uk": ["carrier", "g4", "g5"]}, year=1939)
    assert turn_answer(st, "uk") != "tech:carrier"
    st = table(hands={"uk": ["radar", "g6", "h6"]}, year=1944)
    assert not turn_answer(st, "uk").startswith("tech:")


def test_lend_lease_when_the_track_can_join() -> None:
    st = table(hands={"uk": ["g3", "g6", "h6"]}, year=1941)
    st.tracks = {"usa": 3, "china": 0}
    assert turn_answer(st, "uk") == "lendlease:g3"  # its cheapest card


def test_no_lend_lease_when_the_track_cannot_join_before_the_end() -> None:
    st = table(hands={"uk": ["g3", "g6", "h6"]}, year=1945)
    st.tracks = {"usa": 0, "china": 0}
    assert not turn_answer(st, "uk").startswith("lendlease:")


def test_pass_with_one_card_left_keeping_it_as_the_reserve() -> None:
    st = table(hands={"uk": ["g6"]}, year=1941)
    assert turn_answer(st, "uk") == "pass"
    d, picked = decide(st)
    assert d.kind == "reserve" and picked == ("g6",)


def test_the_reserve_is_the_best_card_and_it_is_played_last() -> None:
    st = table(hands={"uk": ["g3", "h6", "g4"]}, year=1941)
    assert turn_answer(st, "uk") != "ops:h6"


def test_the_last_year_plays_every_card() -> None:
    st = table(hands={"uk": ["g6"]}, year=1945)
    assert turn_answer(st, "uk") != "pass"


# ---------------------------------------------------------------- the small questions
def card_decision(kind: str, cards: list[str], n: int = 1, lo: int | None = None) -> Decision:
    return Decision(id="q0", seat="uk", kind=kind, prompt="", min=n if lo is None else lo, max=n,
                    choices=tuple(Choice(id=c, label=c) for c in cards))


def test_the_draft_picks_for_the_plan() -> None:
    st = table(year=1940)
    st.active = "uk"
    picked = bot.choose(st, card_decision("draft_pick", ["g3", "ukdip2", "g4", "h6"], n=2), random.Random(1)).choices
    assert set(picked) == {"ukdip2", "h6"}  # its own colour's Diplomacy and the highest OP


def test_the_draft_discards_the_worst_and_gives_away_the_worst() -> None:
    st = table(year=1940)
    st.active = "uk"
    for kind in ("draft_discard", "pass_discard", "arctic_exchange"):
        d = card_decision(kind, ["g3", "ukdip2", "g4", "h6"], n=1)
        assert bot.choose(st, d, random.Random(1)).choices == ("g3",), kind


def test_an_unknown_question_still_gets_a_legal_answer() -> None:
    st = table()
    st.active = "uk"
    d = Decision(id="q0", seat="uk", kind="something_new", prompt="", min=2, max=2,
                 choices=tuple(Choice(id=c, label=c) for c in ("none", "a", "b", "c")))
    picked = bot.choose(st, d, random.Random(1)).choices
    assert len(picked) == 2 and set(picked) <= {"none", "a", "b", "c"}
