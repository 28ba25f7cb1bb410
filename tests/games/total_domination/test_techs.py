"""Technologies (spec §8, rulebook §8.0–§8.2; gap G20; T14; solo rules 5–6)."""

from __future__ import annotations

import json

import pytest

from app.games.secrets import leaks
from app.games.total_domination import derived, engine, views
from app.games.total_domination.engine import Ctx, Task
from tests.games.total_domination.events_kit import (
    cd,
    choices,
    kit,
    log,
    play,
    run_task,
    said,
    solo,
    table,
    two_player,
)


def _hands(**cards: list[str]) -> dict[str, list[str]]:
    return {p: list(cards.get(p, [])) for p in ("germany", "uk", "japan", "ussr")}


# ------------------------------------------------------------------ playing a card face down
def test_a_tech_card_is_played_face_down_and_only_its_seat_knows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("td-91", tech="C3"), cd("td-92", tech="A1")])
    st = table(hands=_hands(germany=["td-91", "td-92"]))
    ctx = play(st, "germany", "tech:td-91")
    assert st.tech_played == {"germany": "td-91"} and st.hands["germany"] == ["td-92"]
    assert "td-91" not in said(ctx) and "C3" not in said(ctx)
    assert {"td-91", "C3"} <= set(said(ctx, "germany"))
    for seat in ("uk", "japan", "ussr"):
        assert "td-91" in views.secrets(st, seat)
        assert views.view(st, seat)["tech_played"] == {"germany": True}
        assert not leaks(json.dumps(views.view(st, seat)), views.secrets(st, seat))
    assert views.view(st, "germany")["tech_played"] == {"germany": "td-91"}


def test_one_tech_per_power_per_round(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("a", tech="C3"), cd("b", tech="A1")])
    st = table(hands=_hands(germany=["a", "b"]))
    assert {"tech:a", "tech:b"} <= set(choices(st, "germany"))
    play(st, "germany", "tech:a")
    assert not [c for c in choices(st, "germany") if c.startswith("tech:")]


def test_in_the_two_player_game_the_limit_is_per_country(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("a", tech="C3"), cd("b", tech="A1")])
    st = two_player(table())
    st.hands["axis"] = ["a", "b"]
    play(st, "germany", "tech:a", seed=2)
    assert "tech:b" in choices(st, "japan") and "tech:b" not in choices(st, "germany")


def test_g20_no_tech_the_power_already_has(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("a", tech="C3")])
    st = table(hands=_hands(uk=["a"]), techs={"uk": ["C3"]})
    assert "tech:a" not in choices(st, "uk")


def test_prerequisites_must_all_be_developed_in_an_earlier_round(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("a3", tech="A3")])
    st = table(hands=_hands(uk=["a3"]), techs={"uk": ["A1"]})
    assert "tech:a3" not in choices(st, "uk")  # A3 needs A1 and A2
    st.techs["uk"].append("A2")
    assert "tech:a3" in choices(st, "uk")


def test_either_prerequisite_of_an_or_suffices(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("v2", tech="E2")])
    st = table(hands=_hands(uk=["v2"]))
    assert "tech:v2" not in choices(st, "uk")
    st.techs["uk"] = ["D2"]
    assert "tech:v2" in choices(st, "uk")


def test_a_prerequisite_played_this_round_is_not_developed_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("e1", tech="E2"), cd("d1", tech="D1")])
    st = table(hands=_hands(uk=["e1"]), tech_played={"uk": "d1"})
    assert "tech:e1" not in choices(st, "uk")
    run_task(st, "tech_reveal")  # step F: D1 is developed, for the next round
    st.tech_played = {}
    assert st.techs["uk"] == ["D1"] and "tech:e1" in choices(st, "uk")


def test_the_solo_automa_plays_no_tech_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("a", tech="C3")])
    st = solo(table())
    from app.games.total_domination.techs import tech_allowed

    assert not tech_allowed(st, "germany", "C3") and tech_allowed(st, "uk", "C3")


# ------------------------------------------------------------------ step F: the reveal
def test_step_f_reveals_every_tech_card_in_turn_order(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("g", tech="B1"), cd("u", tech="C3"), cd("r", tech="D2")])
    st = table(tech_played={"ussr": "r", "germany": "g", "uk": "u"})
    ctx = run_task(st, "tech_reveal")
    assert st.tech_played == {}
    assert st.techs["germany"] == ["B1"] and st.techs["uk"] == ["C3"] and st.techs["ussr"] == ["D2"]
    assert st.tech_cards == {"germany": ["g"], "uk": ["u"], "ussr": ["r"]}
    assert "g" not in st.discard  # the card stays by the sheet, out of circulation
    developed = [e.msg.params["power"] for e in ctx.events if e.msg and e.msg.id == "log_tech_developed"]
    assert developed == ["germany", "uk", "ussr"]  # Germany starts the year
    assert any(e.msg and e.msg.id == "log_tech_developed" and e.msg.params == {"power": "germany", "tech": "B1",
                                                                               "card": "g"} for e in ctx.events)
    assert views.view(st, "japan")["tech_cards"]["uk"] == ["u"]


def test_tech_reveal_is_step_f_after_the_victory_check() -> None:
    from app.games.total_domination.flow import ADMIN

    letters = [letter for letter, kind in ADMIN]
    assert letters.index("A") < letters.index("F") < letters.index("G")


def test_t14_tech_vp_one_per_new_colour_after_the_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """First tech Landing Ships (Naval): 0; next Mechanization (Land): +1; a later second Naval: +0."""
    kit(monkeypatch, [cd("b1", tech="B1"), cd("a1", tech="A1"), cd("b2", tech="B2")])
    st = table()
    vp0 = derived.vp(st)["uk"]
    for card, expected in (("b1", 0), ("a1", 1), ("b2", 1)):
        st.tech_played = {"uk": card}
        ctx = run_task(st, "tech_reveal")
        assert derived.tech_vp(st, "uk") == expected
        assert derived.vp(st)["uk"] == vp0 + expected
        assert views.view(st, None)["tech_vp"]["uk"] == expected
    assert any("+1 VP" in line for line in log(ctx)) is False  # the third reveal gained nothing


def test_a_new_colour_is_logged_as_a_vp_gain(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("a1", tech="A1")])
    st = table(techs={"uk": ["B1"]}, tech_played={"uk": "a1"})
    ctx = run_task(st, "tech_reveal")
    assert any("+1 VP" in line for line in log(ctx))


def test_tech_vp_top_out_at_four(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [])
    st = table(techs={"uk": ["A1", "A2", "B1", "C1", "C2", "D1", "E1"]})
    assert derived.tech_vp(st, "uk") == 4


def test_the_solo_automa_gets_no_tech_vp(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [])
    st = solo(table(techs={"germany": ["A1", "B1", "C1"], "uk": ["A1", "B1", "C1"]}))
    assert derived.tech_vp(st, "germany") == 0 and derived.tech_vp(st, "uk") == 2


def test_solo_reveal_resolves_the_automas_techs_first(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("u", tech="C3")])
    seen: list[dict[str, str]] = []

    def automa_techs(ctx: Ctx, t: Task) -> bool:
        seen.append(dict(ctx.state.tech_played))  # the player's card not revealed yet
        ctx.state.techs["germany"].append("A1")
        ctx.pop(t)
        return False

    monkeypatch.setitem(engine.RUN, "automa_techs", automa_techs)
    st = solo(table(tech_played={"uk": "u"}))
    run_task(st, "tech_reveal")
    assert seen == [{"uk": "u"}] and st.techs["germany"] == ["A1"] and st.techs["uk"] == ["C3"]


def test_without_the_solo_module_the_reveal_still_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, [cd("u", tech="C3")])
    monkeypatch.delitem(engine.RUN, "automa_techs", raising=False)
    st = solo(table(tech_played={"uk": "u"}))
    run_task(st, "tech_reveal")
    assert st.techs["uk"] == ["C3"]
