"""Events (spec §7, rulebook §7.0–§7.5; gaps G8, G9, G15, G21; §16.4; T11–T13)."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.total_domination import derived, events, views
from app.games.total_domination.costs import card_value
from tests.games.total_domination.events_kit import (
    answer,
    cd,
    choices,
    kit,
    log,
    pending,
    play,
    run_task,
    said,
    solo,
    start_turn,
    table,
    two_player,
)


@pytest.fixture
def ops(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The operations module's entry points, recorded (their own tests are the operations module's)."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(events, "push_operations",
                        lambda ctx, power, budget, card, may_save=True: calls.append(("ops", power, budget, card,
                                                                                      may_save)))
    monkeypatch.setattr(events, "push_logistics",
                        lambda ctx, power, icons, card: calls.append(("logistics", power, dict(icons), card)))
    return calls


# ------------------------------------------------------------------ §7.0 who may play which event
def test_a_power_plays_events_of_its_own_colour_only(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("own", colour="uk", kind="diplomacy", flag="spain", vp=1),
                      cd("theirs", colour="germany", kind="diplomacy", flag="spain", vp=1),
                      cd("ussr", colour="ussr", kind="diplomacy", flag="spain", vp=1)])
    st = table(hands={"uk": ["own", "theirs", "ussr"], "germany": [], "japan": [], "ussr": []})
    assert [c for c in choices(st, "uk") if c.startswith("event:")] == ["event:own"]


def test_france_blue_belongs_to_whoever_controls_france_now(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("fr", colour="france", kind="diplomacy", flag="spain", vp=1)])
    st = table(hands={"uk": ["fr"], "germany": ["fr"], "japan": [], "ussr": []})
    assert "event:fr" in choices(st, "uk") and "event:fr" not in choices(st, "germany")
    st.controller["france"] = "germany"  # France switched to the Axis at step B
    assert "event:fr" not in choices(st, "uk") and "event:fr" in choices(st, "germany")


def test_italy_black_is_germanys_and_then_its_new_controllers(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("it", colour="italy", kind="diplomacy", flag="spain", vp=1)])
    st = table(hands={"uk": [], "germany": ["it"], "japan": [], "ussr": ["it"]})
    assert "event:it" in choices(st, "germany") and "event:it" not in choices(st, "ussr")
    st.controller["italy"] = "ussr"
    assert "event:it" not in choices(st, "germany") and "event:it" in choices(st, "ussr")


def test_usa_green_only_after_the_usa_joined_and_only_for_the_uk(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("us", colour="usa", kind="diplomacy", flag="brazil", vp=1, deck="usa")])
    st = table(hands={"uk": ["us"], "germany": [], "japan": [], "ussr": ["us"]})
    assert "event:us" not in choices(st, "uk")
    st.tracks["usa"], st.controller["usa"] = 4, "uk"  # joined
    assert "event:us" in choices(st, "uk") and "event:us" not in choices(st, "ussr")


def test_china_purple_only_after_china_joined_the_ussr(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("cn", colour="china", kind="diplomacy", flag="turkey", vp=1, deck="china")])
    st = table(hands={"uk": ["cn"], "germany": [], "japan": [], "ussr": ["cn"]})
    assert "event:cn" not in choices(st, "ussr")
    st.tracks["china"], st.controller["china"] = 2, "ussr"
    assert "event:cn" in choices(st, "ussr") and "event:cn" not in choices(st, "uk")


def test_no_events_in_rise_of_the_axis(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("g", colour="germany", kind="diplomacy", flag="spain", vp=1)])
    st = table(hands={"uk": [], "germany": ["g"], "japan": [], "ussr": []}, options={"scenario": "rise_of_the_axis"})
    assert not [c for c in choices(st, "germany") if c.startswith("event:")]


def test_in_the_two_player_game_an_event_is_played_on_its_countrys_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("jp", colour="japan", kind="diplomacy", flag="spain", vp=1)])
    st = two_player(table())
    st.hands["axis"] = ["jp"]
    assert "event:jp" in choices(st, "japan") and "event:jp" not in choices(st, "germany")


# ------------------------------------------------------------------ §7.1.A Tactics ±1
def test_tactics_plus_one_lies_before_the_player_or_an_ally_and_adds_to_every_ops_card(
        monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("t", colour="uk", value=1), cd("x", op=4, colour="ussr")])
    st = table(hands={"uk": ["t"], "germany": [], "japan": [], "ussr": ["x"]})
    ctx = start_turn(st, "uk")
    answer(ctx, "event:t")
    (d,) = pending(st)
    assert [c.id for c in d.choices] == ["uk", "ussr"] and d.undoable
    answer(ctx, "ussr")
    assert st.tactics == [{"card": "t", "power": "ussr", "value": 1}]
    assert card_value(st, "ussr", "x") == 5 and card_value(st, "uk", "x") == 4
    assert "t" not in st.hand("uk") and "t" not in st.discard


def test_tactics_minus_one_lies_before_an_opponent_only(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("t", colour="germany", value=-1), cd("x", op=5, colour="uk")])
    st = table(hands={"uk": ["x"], "germany": ["t"], "japan": [], "ussr": []})
    ctx = start_turn(st, "germany")
    answer(ctx, "event:t")
    (d,) = pending(st)
    assert [c.id for c in d.choices] == ["uk", "ussr"]
    answer(ctx, "uk")
    assert card_value(st, "uk", "x") == 4


def test_tactics_cards_accumulate_and_floor_at_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("x", op=3, colour="uk")])
    st = table(tactics=[{"card": f"m{i}", "power": "uk", "value": -1} for i in range(4)]
               + [{"card": "p", "power": "uk", "value": 1}])
    assert card_value(st, "uk", "x") == 0  # 3 - 4 + 1, floored (G5)


def test_tactics_cards_are_discarded_at_administrative_step_g(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("a", colour="uk", value=1), cd("b", colour="germany", value=-1)])
    st = table(tactics=[{"card": "a", "power": "uk", "value": 1}, {"card": "b", "power": "ussr", "value": -1}])
    run_task(st, "tactics_discard")
    assert st.tactics == [] and st.discard == ["a", "b"]


def test_tactics_discard_is_step_g_of_the_administrative_phase() -> None:
    from app.games.total_domination.flow import ADMIN

    assert ("G", "tactics_discard") in ADMIN and ("F", "tech_reveal") in ADMIN


def test_solo_player_plays_no_tactics_minus_one_on_the_automa(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("m", colour="uk", value=-1), cd("p", colour="uk", value=1)])
    st = solo(table())
    st.hands["allies"] = ["m", "p"]
    ids = choices(st, "uk")
    assert "event:p" in ids and "event:m" not in ids  # solo rule 9: the −1 event is ignored


# ------------------------------------------------------------------ §7.1.B Tactics 5/6/7
@pytest.mark.parametrize("op,value", [(4, 5), (5, 6), (6, 7)])
def test_tactics_567_replaces_the_printed_op(monkeypatch: pytest.MonkeyPatch, ops: list[Any], op: int,
                                            value: int) -> None:
    kit(monkeypatch, [cd("t", op=op, colour="japan", value=value)])
    st = table(hands={"uk": [], "germany": [], "japan": ["t"], "ussr": []})
    play(st, "japan", "event:t")
    assert ops == [("ops", "japan", value, "t", True)]
    assert "t" not in st.hand("japan")


def test_tactics_567_takes_the_modifiers_after_the_replacement(monkeypatch: pytest.MonkeyPatch,
                                                              ops: list[Any]) -> None:
    kit(monkeypatch, [cd("t", op=6, colour="japan", value=7)])
    st = table(hands={"uk": [], "germany": [], "japan": ["t"], "ussr": []},
               tactics=[{"card": "m", "power": "japan", "value": -1}, {"card": "n", "power": "japan", "value": -1}])
    play(st, "japan", "event:t")
    assert ops == [("ops", "japan", 5, "t", True)]


# ------------------------------------------------------------------ §7.2 Logistics
def test_logistics_hands_its_icons_to_the_operations_module(monkeypatch: pytest.MonkeyPatch, ops: list[Any]) -> None:
    kit(monkeypatch, [cd("l", colour="germany", kind="logistics", icons={"army": 2, "move": 1, "satellite": 1})])
    st = table(hands={"uk": [], "germany": ["l"], "japan": [], "ussr": []})
    play(st, "germany", "event:l")
    assert ops == [("logistics", "germany", {"army": 2, "move": 1, "satellite": 1}, "l")]


def test_logistics_satellites_are_the_axiss_and_resistance_the_allies(monkeypatch: pytest.MonkeyPatch,
                                                                       ops: list[Any]) -> None:
    # a coalition card played by the other side: its side-bound icons do nothing for it
    kit(monkeypatch, [cd("f", colour="france", kind="logistics", icons={"fleet": 1, "resistance": 1}),
                      cd("i", colour="italy", kind="logistics", icons={"army": 1, "satellite": 1})])
    st = table(hands={"uk": ["i"], "germany": ["f"], "japan": [], "ussr": []},
               controller={"france": "germany", "italy": "uk"})
    play(st, "germany", "event:f")
    play(st, "uk", "event:i")
    assert ops == [("logistics", "germany", {"fleet": 1}, "f"), ("logistics", "uk", {"army": 1}, "i")]


# ------------------------------------------------------------------ §7.3 Research
def test_research_needs_a_discard_pile(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("r", colour="uk", kind="research"), cd("d", tech="C3")])
    st = table(hands={"uk": ["r"], "germany": [], "japan": [], "ussr": []})
    assert "event:r" not in choices(st, "uk")
    st.discard = ["d"]
    assert "event:r" in choices(st, "uk")


def test_research_takes_a_card_of_the_discard_pile_face_down_and_then_discards_itself(
        monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("r", colour="uk", kind="research", tech="B1"), cd("d1", tech="C3"), cd("d2", tech="A2"),
                      cd("d3", tech="A3")])
    st = table(hands={"uk": ["r"], "germany": [], "japan": [], "ussr": []}, discard=["d1", "d2", "d3"])
    ctx = start_turn(st, "uk")
    answer(ctx, "event:r")
    (d,) = pending(st)
    # the Research card is not among the choices (G9); A3 lacks its prerequisites
    assert [c.id for c in d.choices] == ["d1", "d2"] and d.seat == "uk" and d.undoable
    answer(ctx, "d2")
    assert st.tech_played == {"uk": "d2"}
    assert st.discard == ["d1", "d3", "r"]
    assert "d2" not in said(ctx) and "A2" not in said(ctx)  # the chosen card is the player's secret
    assert "d2" in said(ctx, "uk")
    assert "d2" in views.secrets(st, "germany") and "d2" not in views.secrets(st, "uk")


def test_research_obeys_one_tech_per_round(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("r", colour="uk", kind="research"), cd("d", tech="C3")])
    st = table(hands={"uk": ["r"], "germany": [], "japan": [], "ussr": []}, discard=["d"], tech_played={"uk": "z"})
    assert "event:r" not in choices(st, "uk")


def test_research_cannot_take_a_tech_the_power_already_has(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("r", colour="uk", kind="research"), cd("d", tech="C3")])
    st = table(hands={"uk": ["r"], "germany": [], "japan": [], "ussr": []}, discard=["d"], techs={"uk": ["C3"]})
    assert "event:r" not in choices(st, "uk")


# ------------------------------------------------------------------ §7.4 Diplomacy
def _dip(monkeypatch: pytest.MonkeyPatch, old_vp: int, new_vp: int) -> Any:
    kit(monkeypatch, [cd("old", colour="uk", kind="diplomacy", flag="spain", vp=old_vp),
                      cd("new", colour="germany", kind="diplomacy", flag="spain", vp=new_vp)])
    st = table(hands={"uk": [], "germany": ["new"], "japan": [], "ussr": []},
               diplomacy=[{"card": "old", "power": "uk"}])
    return st


def test_diplomacy_gives_its_vp_at_once_and_stays_face_up(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("d", colour="uk", kind="diplomacy", flag="sweden", vp=2)])
    st = table(hands={"uk": ["d"], "germany": [], "japan": [], "ussr": []})
    before = derived.vp(st)["uk"]
    ctx = play(st, "uk", "event:d")
    assert st.diplomacy == [{"card": "d", "power": "uk"}]
    assert derived.vp(st)["uk"] == before + 2
    assert any("+2 VP" in line for line in log(ctx))
    assert views.view(st, "germany")["diplomacy"] == [{"card": "d", "power": "uk"}]


def test_t11_a_lower_card_of_the_same_flag_discards_both(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _dip(monkeypatch, old_vp=2, new_vp=1)
    before = derived.vp(st)
    play(st, "germany", "event:new")
    after = derived.vp(st)
    assert st.diplomacy == [] and set(st.discard) == {"old", "new"}
    assert after["uk"] == before["uk"] - 2 and after["germany"] == before["germany"]


def test_t12_an_equal_card_of_the_same_flag_stays_beside_the_other(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _dip(monkeypatch, old_vp=2, new_vp=2)
    before = derived.vp(st)
    play(st, "germany", "event:new")
    after = derived.vp(st)
    assert st.diplomacy == [{"card": "old", "power": "uk"}, {"card": "new", "power": "germany"}]
    assert after["germany"] == before["germany"] + 2 and after["uk"] == before["uk"]


def test_t13_a_higher_card_of_the_same_flag_discards_the_old_one(monkeypatch: pytest.MonkeyPatch) -> None:
    st = _dip(monkeypatch, old_vp=1, new_vp=2)
    before = derived.vp(st)
    play(st, "germany", "event:new")
    after = derived.vp(st)
    assert st.diplomacy == [{"card": "new", "power": "germany"}] and st.discard == ["old"]
    assert after["uk"] == before["uk"] - 1 and after["germany"] == before["germany"] + 2


def test_a_card_of_another_flag_is_not_compared(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("old", colour="uk", kind="diplomacy", flag="spain", vp=2),
                      cd("new", colour="germany", kind="diplomacy", flag="turkey", vp=1)])
    st = table(hands={"uk": [], "germany": ["new"], "japan": [], "ussr": []},
               diplomacy=[{"card": "old", "power": "uk"}])
    play(st, "germany", "event:new")
    assert [d["card"] for d in st.diplomacy] == ["old", "new"]


@pytest.mark.parametrize("third_vp,stays", [(2, {"a", "b", "c"}), (1, set())])
def test_g8_a_third_card_after_a_tie_is_compared_with_the_highest_and_applies_to_all(
        monkeypatch: pytest.MonkeyPatch, third_vp: int, stays: set[str]) -> None:
    kit(monkeypatch, [cd("a", colour="uk", kind="diplomacy", flag="brazil", vp=2),
                      cd("b", colour="germany", kind="diplomacy", flag="brazil", vp=2),
                      cd("c", colour="ussr", kind="diplomacy", flag="brazil", vp=third_vp)])
    st = table(hands={"uk": [], "germany": [], "japan": [], "ussr": ["c"]},
               diplomacy=[{"card": "a", "power": "uk"}, {"card": "b", "power": "germany"}])
    play(st, "ussr", "event:c")
    assert {d["card"] for d in st.diplomacy} == stays


def test_g8_a_higher_third_card_discards_every_card_of_the_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("a", colour="uk", kind="diplomacy", flag="brazil", vp=1),
                      cd("b", colour="germany", kind="diplomacy", flag="brazil", vp=1),
                      cd("c", colour="japan", kind="diplomacy", flag="brazil", vp=2)])
    st = table(hands={"uk": [], "germany": [], "japan": ["c"], "ussr": []},
               diplomacy=[{"card": "a", "power": "uk"}, {"card": "b", "power": "germany"}])
    before = derived.vp(st)
    play(st, "japan", "event:c")
    after = derived.vp(st)
    assert st.diplomacy == [{"card": "c", "power": "japan"}] and st.discard == ["a", "b"]
    assert (after["uk"], after["germany"], after["japan"]) == (before["uk"] - 1, before["germany"] - 1,
                                                               before["japan"] + 2)


def test_a_player_may_play_a_same_flag_card_against_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("a", colour="uk", kind="diplomacy", flag="spain", vp=1),
                      cd("b", colour="uk", kind="diplomacy", flag="spain", vp=2)])
    st = table(hands={"uk": ["b"], "germany": [], "japan": [], "ussr": []}, diplomacy=[{"card": "a", "power": "uk"}])
    play(st, "uk", "event:b")
    assert st.diplomacy == [{"card": "b", "power": "uk"}]


# ------------------------------------------------------------------ §7.5 Peace, §16.4
def test_16_4_peace_card(monkeypatch: pytest.MonkeyPatch, ops: list[Any]) -> None:
    """Given the USA joined, the UK holds an American Peace card contributing 1 OP, the top card
    shows 3 OP, no Tactics; when the UK plays the Peace card as an event: the top card is revealed
    and the UK has 1 + 3 = 4 OP to spend on operations."""
    kit(monkeypatch, [cd("peace", op=3, colour="usa", kind="peace", peace_op=1, deck="usa"), cd("top", op=3),
                      cd("next", op=6)])
    st = table(hands={"uk": ["peace"], "germany": [], "japan": [], "ussr": []}, deck=["top", "next"],
               tracks={"usa": 4, "china": 0}, controller={"usa": "uk"})
    ctx = play(st, "uk", "event:peace")
    assert ops == [("ops", "uk", 4, "peace", True)]
    assert st.deck == ["next"] and st.discard == ["top"]  # revealed face up; the Peace card is the operations'
    assert "top" in said(ctx)


def test_peace_needs_the_colour_like_any_event(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("peace", colour="usa", kind="peace", peace_op=1, deck="usa")])
    st = table(hands={"uk": ["peace"], "germany": [], "japan": [], "ussr": []})
    assert "event:peace" not in choices(st, "uk")


def test_g15_peace_takes_the_tactics_modifiers_once_on_the_total(monkeypatch: pytest.MonkeyPatch,
                                                                 ops: list[Any]) -> None:
    kit(monkeypatch, [cd("peace", colour="uk", kind="peace", peace_op=1), cd("top", op=5)])
    st = table(hands={"uk": ["peace"], "germany": [], "japan": [], "ussr": []}, deck=["top"],
               tactics=[{"card": "p", "power": "uk", "value": 1}])
    play(st, "uk", "event:peace")
    assert ops == [("ops", "uk", 7, "peace", True)]


def test_peace_with_no_card_left_to_turn_up_counts_alone(monkeypatch: pytest.MonkeyPatch,
                                                               ops: list[Any]) -> None:
    kit(monkeypatch, [cd("peace", colour="uk", kind="peace", peace_op=1)])
    st = table(hands={"uk": ["peace"], "germany": [], "japan": [], "ussr": []}, deck=[], discard=[])
    play(st, "uk", "event:peace")
    assert ops == [("ops", "uk", 1, "peace", True)]  # nothing to turn up: the Peace card alone


# ------------------------------------------------------------------ taking an answer back
def test_an_events_question_may_be_taken_back_while_a_players_turn_follows(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("t", colour="uk", value=1), cd("j", colour="japan")])
    st = table(hands={"uk": ["t"], "germany": [], "japan": ["j"], "ussr": []}, stack=[{"k": "action_phase", "next": 2}],
               passed=["germany"])
    ctx = start_turn(st, "uk")
    answer(ctx, "event:t")
    (d,) = pending(st)
    assert d.kind == "tactics_target" and d.undoable


def test_but_not_when_the_automas_card_is_revealed_next(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("t", colour="uk", value=1), cd("d", tech="C3"), cd("e", tech="A1"),
                      cd("r", colour="uk", kind="research")])
    st = solo(table(stack=[{"k": "action_phase", "next": 2}], discard=["d", "e"]))
    st.hands["allies"] = ["t", "r"]
    ctx = start_turn(st, "uk")
    answer(ctx, "event:t")
    (d,) = pending(st)
    assert d.kind == "tactics_target" and not d.undoable
    st.stack = [{"k": "action_phase", "next": 2}]
    ctx = start_turn(st, "uk")
    answer(ctx, "event:r")
    (d,) = pending(st)
    assert d.kind == "research" and not d.undoable


# ------------------------------------------------------------------ with the operations module itself
def _turn_over(st: Any) -> bool:
    return not pending(st)


def test_tactics_7_opens_operations_with_7_op_and_the_card_is_discarded_after(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("t", op=6, colour="germany", value=7)])
    st = table(hands={"uk": [], "germany": ["t"], "japan": [], "ussr": []})
    ctx = start_turn(st, "germany")
    answer(ctx, "event:t")
    assert st.turn["ops"]["op"] == 7 and st.turn["ops"]["card"] == "t"
    answer(ctx, "done")
    assert _turn_over(st) and st.discard == ["t"]


def test_peace_opens_operations_with_both_cards_op_and_both_end_discarded(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("peace", op=3, colour="japan", kind="peace", peace_op=1), cd("top", op=3)])
    st = table(hands={"uk": [], "germany": [], "japan": ["peace"], "ussr": []}, deck=["top"])
    ctx = start_turn(st, "japan")
    answer(ctx, "event:peace")
    assert st.turn["ops"]["op"] == 4
    answer(ctx, "save")  # G15: saving rotates the Peace card
    assert st.saved == {"japan": "peace"} and st.discard == ["top"]


def test_logistics_builds_free_of_op_with_the_logistics_module(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("l", colour="germany", kind="logistics", icons={"army": 1})])
    st = table(hands={"uk": [], "germany": ["l"], "japan": [], "ussr": []})
    ctx = start_turn(st, "germany")
    answer(ctx, "event:l")
    (d,) = pending(st)
    assert "build:germany:army:berlin" in [c.id for c in d.choices]
    answer(ctx, "build:germany:army:berlin")
    assert [u.space for u in st.units if u.nation == "germany" and u.kind == "army"] == ["berlin"]
    assert st.discard == ["l"]


def test_g15_peace_without_saving_discards_both_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("peace", op=3, colour="japan", kind="peace", peace_op=1), cd("top", op=5)])
    st = table(hands={"uk": [], "germany": [], "japan": ["peace"], "ussr": []}, deck=["top"])
    ctx = start_turn(st, "japan")
    answer(ctx, "event:peace")
    assert st.turn["ops"]["op"] == 6
    answer(ctx, "done")
    assert _turn_over(st) and st.discard == ["top", "peace"] and st.saved == {}
