"""Rocket launch and Radar (spec §6.6, §8.2 E1–E3 and C3, §12.1 Radar; T10, T19)."""

from __future__ import annotations

import pytest

from app.games.total_domination import engine
from tests.games.total_domination.events_kit import (
    answer,
    cd,
    choices,
    kit,
    pending,
    play,
    said,
    solo,
    start_turn,
    table,
    two_player,
)


def _hands(**cards: list[str]) -> dict[str, list[str]]:
    return {p: list(cards.get(p, [])) for p in ("germany", "uk", "japan", "ussr")}


def _cards() -> list:
    return [cd("five", op=5), cd("six", op=6), cd("four", op=4), cd("tac5", op=4, colour="germany", value=5)] + \
        [cd(f"h{i}", op=3, colour="ussr") for i in range(6)]


def test_t10_v1_at_a_power_with_radar_takes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Germany owns V1 only; the USSR has Radar: Germany discards a 5-OP card for V1 at the USSR and the
    USSR discards 0 cards; the rocket card is rotated: no other rocket from Germany this round."""
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["five", "six"], ussr=["h0", "h1", "h2"]),
               techs={"germany": ["E1"], "ussr": ["C3"]})
    ctx = play(st, "germany", "rocket:five", "ussr")
    assert st.hands["ussr"] == ["h0", "h1", "h2"]
    assert st.discard == ["five"] and st.rockets_used == ["germany"]
    assert not [c for c in choices(st, "germany") if c.startswith("rocket:")]
    assert any(e.msg and e.msg.id == "log_radar" and e.msg.params["power"] == "ussr" for e in ctx.events)


@pytest.mark.parametrize("tech,card,lost", [("E1", "five", 1), ("E2", "five", 2), ("E3", "six", 3)])
def test_each_rocket_makes_the_target_discard_at_random(monkeypatch: pytest.MonkeyPatch, tech: str, card: str,
                                                        lost: int) -> None:
    kit(monkeypatch, _cards())
    hand = [f"h{i}" for i in range(5)]
    st = table(hands=_hands(germany=[card], ussr=list(hand)), techs={"germany": [tech]})
    ctx = play(st, "germany", f"rocket:{card}", "ussr")
    gone = [c for c in hand if c not in st.hands["ussr"]]
    assert len(gone) == lost and st.discard == [card] + [c for c in st.discard[1:]]
    assert sorted(st.discard[1:]) == sorted(gone)  # face up in the discard pile
    assert set(gone) <= set(said(ctx))  # and named in the public log


def test_the_random_discards_follow_the_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    results = []
    for _ in range(2):
        st = table(hands=_hands(germany=["six"], ussr=[f"h{i}" for i in range(6)]), techs={"germany": ["E3"]})
        play(st, "germany", "rocket:six", "ussr", seed=7)
        results.append(list(st.hands["ussr"]))
    assert results[0] == results[1]


def test_the_atomic_bomb_needs_a_six(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["five", "six"], ussr=["h0"]), techs={"germany": ["E3"]})
    ids = choices(st, "germany")
    assert "rocket:six" in ids and "rocket:five" not in ids


def test_a_power_with_several_rockets_chooses_one_then_a_target(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["six"], ussr=[f"h{i}" for i in range(5)]), techs={"germany": ["E1", "E2", "E3"]})
    ctx = start_turn(st, "germany")
    answer(ctx, "rocket:six")
    (d,) = pending(st)
    assert [c.id for c in d.choices] == ["E1", "E2", "E3"] and d.undoable  # a target question follows
    answer(ctx, "E2")
    (d,) = pending(st)
    assert not d.undoable  # the answer draws the random discards
    answer(ctx, "ussr")
    assert len(st.hands["ussr"]) == 3


def test_rockets_need_a_rocketry_tech_developed_in_an_earlier_round(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["six"], ussr=["h0"]), tech_played={"germany": "x"})
    assert not [c for c in choices(st, "germany") if c.startswith("rocket:")]


def test_tactics_count_toward_the_rocket_card(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["four", "five"], ussr=["h0"]), techs={"germany": ["E1"]})
    assert "rocket:four" not in choices(st, "germany")
    st.tactics = [{"card": "p", "power": "germany", "value": 1}]
    assert "rocket:four" in choices(st, "germany")
    st.tactics = [{"card": "m", "power": "germany", "value": -1}]
    assert "rocket:five" not in choices(st, "germany")


def test_a_567_event_value_never_counts_for_a_rocket(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["tac5"], ussr=["h0"]), techs={"germany": ["E1"]})
    assert "rocket:tac5" not in choices(st, "germany")  # printed 4 OP: the event's 5 is not its value here


def test_t19_a_saved_op_neither_helps_nor_is_saved_from_a_rocket(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player with a saved-OP card plays a 6-OP card for a V1: the saved OP cannot be added and no
    OP can be saved from the rocket card; the saved card stays rotated."""
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["four", "six"], ussr=["h0", "h1"]), techs={"germany": ["E1"]},
               saved={"germany": "old"})
    assert "rocket:four" not in choices(st, "germany")  # 4 + the saved 1 would make 5: not allowed
    ctx = start_turn(st, "germany")
    answer(ctx, "rocket:six")
    answer(ctx, "ussr")
    assert not pending(st)  # no question about saving an OP: the turn is over
    assert st.saved == {"germany": "old"} and st.discard[0] == "six" and "old" not in st.discard


def test_a_passed_player_loses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["five"]), techs={"germany": ["E2"]}, passed=["ussr"],
               set_aside={"ussr": ["h0"]})
    play(st, "germany", "rocket:five", "ussr")
    assert st.set_aside == {"ussr": ["h0"]} and st.discard == ["five"]


def test_targets_are_the_opponents_only(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["five"]), techs={"germany": ["E1"]})
    ctx = start_turn(st, "germany")
    answer(ctx, "rocket:five")
    (d,) = pending(st)
    assert [c.id for c in d.choices] == ["uk", "ussr"]


def test_four_player_radar_works_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["six"], japan=["five"], ussr=[f"h{i}" for i in range(6)]),
               techs={"germany": ["E3"], "japan": ["E2"], "ussr": ["C3"]})
    play(st, "germany", "rocket:six", "ussr")
    play(st, "japan", "rocket:five", "ussr")
    assert len(st.hands["ussr"]) == 6 - 2 - 1 and st.radar_used == []


def test_three_player_radar_is_automatic(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["six"], ussr=[f"h{i}" for i in range(6)]),
               techs={"germany": ["E3"], "ussr": ["C3"]})
    st.options["players"] = 3
    st.seats = {"germany": "p1", "uk": "p2", "ussr": "p2", "japan": "p3"}
    play(st, "germany", "rocket:six", "ussr")
    assert len(st.hands["ussr"]) == 4


# ------------------------------------------------------------------ §12.1: the shared hands' Radar
def _two(monkeypatch: pytest.MonkeyPatch, radar: dict[str, list[str]]) -> object:
    kit(monkeypatch, _cards())
    st = two_player(table(techs={"germany": ["E2"], "japan": ["E2"], **radar}))
    st.hands["axis"] = ["five", "six"]
    st.hands["allies"] = [f"h{i}" for i in range(6)]
    return st


def test_two_player_the_target_is_the_shared_hand_and_chooses_to_use_radar(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _two(monkeypatch, {"uk": ["C3"]})
    ctx = start_turn(st, "germany")
    answer(ctx, "rocket:five")  # the only target is the Allied player's hand, never a country: no question
    assert [e.msg.params["target"] for e in ctx.events if e.msg and e.msg.id == "log_rocket"] == ["allies"]
    (d,) = pending(st)
    assert d.seat == "p2" and d.kind == "radar" and [c.id for c in d.choices] == ["radar:uk", "no_radar"]
    assert not d.undoable
    answer(ctx, "radar:uk")
    assert len(st.hands["allies"]) == 5 and st.radar_used == ["uk"]


def test_two_player_radar_is_used_once_per_round_per_country(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _two(monkeypatch, {"uk": ["C3"]})
    play(st, "germany", "rocket:five", "radar:uk")
    ctx = start_turn(st, "japan")
    answer(ctx, "rocket:six")
    assert not pending(st)  # the UK's Radar is rotated: no question, the full 2 cards
    assert len(st.hands["allies"]) == 6 - 1 - 2


def test_two_player_radar_in_both_countries_turns_a_second_rocket(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _two(monkeypatch, {"uk": ["C3"], "ussr": ["C3"]})
    play(st, "germany", "rocket:five", "radar:uk")
    ctx = start_turn(st, "japan")
    answer(ctx, "rocket:six")
    (d,) = pending(st)
    assert [c.id for c in d.choices] == ["radar:ussr", "no_radar"]
    answer(ctx, "radar:ussr")
    assert len(st.hands["allies"]) == 6 - 1 - 1 and st.radar_used == ["uk", "ussr"]


def test_two_player_radar_may_be_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _two(monkeypatch, {"ussr": ["C3"]})
    play(st, "germany", "rocket:five", "no_radar")
    assert len(st.hands["allies"]) == 4 and st.radar_used == []


def test_two_player_one_rocket_per_country_per_round(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _two(monkeypatch, {})
    play(st, "germany", "rocket:five")
    assert not [c for c in choices(st, "germany") if c.startswith("rocket:")]
    assert "rocket:six" in choices(st, "japan")


def test_solo_no_rocket_has_a_target(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = solo(table(techs={"uk": ["E1"]}))
    st.hands["allies"] = ["six"]
    assert not [c for c in choices(st, "uk") if c.startswith("rocket:")]


def test_the_rocket_decisions_are_only_the_launchers(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["six"], ussr=["h0"]), techs={"germany": ["E1", "E3"]})
    ctx = start_turn(st, "germany")
    answer(ctx, "rocket:six")
    (d,) = engine.decisions(st)
    with pytest.raises(engine.Illegal):
        engine.apply_answer(ctx, "ussr", d.id, ("E1",))
