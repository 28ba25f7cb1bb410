"""Lend-Lease (spec §9.1–§9.2, §13.2; gaps G6, G7; T8, T9, T17's VP parts)."""

from __future__ import annotations

import json

import pytest

from app.games.secrets import leaks
from app.games.total_domination import derived, views
from tests.games.total_domination.events_kit import (
    cd,
    choices,
    kit,
    log,
    pending,
    play,
    said,
    table,
    two_player,
)


def _hands(**cards: list[str]) -> dict[str, list[str]]:
    return {p: list(cards.get(p, [])) for p in ("germany", "uk", "japan", "ussr")}


def _cards() -> list:
    return [cd("td-71", op=3, colour="uk"), cd("td-72", op=4, colour="uk"), cd("td-73", op=5, colour="uk"),
            cd("td-74", op=6, colour="uk"), cd("td-75", op=4, colour="uk", value=5),
            cd("td-81", op=5, colour="usa", deck="usa"), cd("td-82", op=5, colour="usa", deck="usa"),
            cd("td-85", op=4, colour="china", deck="china")]


def _ll(ids: list[str]) -> list[str]:
    return [c for c in ids if c.startswith("lendlease:")]


def test_lend_lease_moves_the_usa_marker_and_sets_the_deck_card_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(uk=["td-71", "td-72"]), decks={"usa": ["td-81", "td-82"], "china": ["td-85"]},
               tracks={"usa": 0, "china": 0})
    ctx = play(st, "uk", "lendlease:td-71")
    assert st.tracks["usa"] == 1 and st.decks["usa"] == ["td-82"]
    assert st.discard == ["td-71"] and st.hands["uk"] == ["td-72"]
    assert st.set_aside == {"uk": ["td-81"]} and st.lend_lease == ["uk"]
    assert "td-81" not in said(ctx)  # the others learn only that a card was set aside
    assert "td-81" in said(ctx, "uk")
    for seat in ("germany", "japan", "ussr"):
        assert "td-81" in views.secrets(st, seat)
        assert not leaks(json.dumps(views.view(st, seat)), views.secrets(st, seat))


def test_the_ussr_does_the_same_with_china(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(ussr=["td-73"]), decks={"usa": ["td-81"], "china": ["td-85"]})
    play(st, "ussr", "lendlease:td-73")
    assert st.tracks["china"] == 1 and st.tracks.get("usa", 0) == 0 and st.set_aside == {"ussr": ["td-85"]}


def test_only_the_uk_and_the_ussr_do_lend_lease(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(germany=["td-74"], japan=["td-74"]), decks={"usa": ["td-81"], "china": ["td-85"]})
    assert not _ll(choices(st, "germany")) and not _ll(choices(st, "japan"))


def test_lend_lease_once_per_round(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(uk=["td-71", "td-72"]), decks={"usa": ["td-81", "td-82"], "china": []})
    play(st, "uk", "lendlease:td-71")
    assert not _ll(choices(st, "uk"))


def test_t8_no_reserve_after_lend_lease(monkeypatch: pytest.MonkeyPatch) -> None:
    """The UK did Lend-Lease this round; it passes: no reserve card, every card in hand discarded."""
    kit(monkeypatch, _cards())
    st = table(hands=_hands(uk=["td-71", "td-72", "td-73"]), decks={"usa": ["td-81"], "china": []})
    play(st, "uk", "lendlease:td-71")
    play(st, "uk", "pass")
    assert not pending(st)  # no "keep a reserve?" question
    assert st.hands["uk"] == [] and st.discard == ["td-71", "td-72", "td-73"]
    assert st.set_aside == {"uk": ["td-81"]}  # only the Lend-Lease card waits for the draft


def test_t9_u_boat_minimum_counts_tactics_but_never_a_saved_op(monkeypatch: pytest.MonkeyPatch) -> None:
    """2 U-boats on the board; the UK has a 4-OP card and a +1 Tactics card in front of it: legal
    (5 ≥ 5); without the +1 illegal; a saved OP never makes up the difference."""
    kit(monkeypatch, _cards())
    st = table(units=[("germany", "uboat", "atlantic"), ("germany", "uboat", "atlantic")],
               hands=_hands(uk=["td-72"]), decks={"usa": ["td-81"], "china": []}, saved={"uk": "td-73"})
    assert not _ll(choices(st, "uk"))
    st.tactics = [{"card": "p", "power": "uk", "value": 1}]
    assert _ll(choices(st, "uk")) == ["lendlease:td-72"]
    play(st, "uk", "lendlease:td-72")
    assert st.tracks["usa"] == 1 and st.saved == {"uk": "td-73"}


@pytest.mark.parametrize("uboats,least", [(0, 3), (1, 4), (2, 5), (3, 6), (4, 6)])
def test_u_boats_on_the_board_raise_the_card_minimum(monkeypatch: pytest.MonkeyPatch, uboats: int,
                                                     least: int) -> None:
    kit(monkeypatch, _cards())
    st = table(units=[("germany", "uboat", "atlantic")] * uboats,
               hands=_hands(uk=["td-71", "td-72", "td-73", "td-74"]), decks={"usa": [], "china": []})
    ops = {"td-71": 3, "td-72": 4, "td-73": 5, "td-74": 6}
    assert _ll(choices(st, "uk")) == [f"lendlease:{c}" for c, op in ops.items() if op >= least]
    assert views.view(st, None)["lend_lease_minimum"] == (0 if uboats == 0 else least)


def test_a_567_event_value_never_counts_for_lend_lease(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(units=[("germany", "uboat", "atlantic")] * 2, hands=_hands(uk=["td-75"]), decks={"usa": [], "china": []})
    assert not _ll(choices(st, "uk"))  # printed 4 OP against a minimum of 5


def test_no_lend_lease_once_the_country_joined(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(uk=["td-71"]), tracks={"usa": 4, "china": 0}, controller={"usa": "uk"})
    assert not _ll(choices(st, "uk"))


def test_no_lend_lease_in_rise_of_the_axis(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(uk=["td-71"]), options={"scenario": "rise_of_the_axis"})
    assert not _ll(choices(st, "uk"))


def test_g7_an_empty_deck_still_moves_the_marker(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(uk=["td-71"]), decks={"usa": [], "china": []})
    play(st, "uk", "lendlease:td-71")
    assert st.tracks["usa"] == 1 and not st.set_aside.get("uk")


def test_joining_by_lend_lease_credits_the_spaces_and_raises_the_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(uk=["td-71"]), decks={"usa": ["td-81"], "china": []}, tracks={"usa": 3, "china": 0})
    before = derived.vp(st)["uk"]
    assert derived.allied_threshold(st) == 33
    ctx = play(st, "uk", "lendlease:td-71")
    assert st.controller["usa"] == "uk" and derived.joined(st, "usa")
    assert derived.allied_threshold(st) == 35
    assert derived.vp(st)["uk"] == before + 3 + 1  # Washington (capital) and Hawaii
    assert any("+4 VP" in line for line in log(ctx))
    assert st.set_aside == {"uk": ["td-81"]}  # the last Lend-Lease still brings its card


def test_both_countries_joined_make_the_threshold_37(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = table(hands=_hands(ussr=["td-73"]), decks={"usa": [], "china": ["td-85"]}, tracks={"usa": 4, "china": 1},
               controller={"usa": "uk"})
    play(st, "ussr", "lendlease:td-73")
    assert derived.allied_threshold(st) == 37


def test_t17_side_totals_count_spaces_diplomacy_and_techs_against_the_joined_threshold(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """T17's VP parts: the totals a step A check compares — spaces, Diplomacy cards in play, tech VP —
    and the threshold 35 with the USA joined."""
    kit(monkeypatch, _cards() + [cd("dip", colour="uk", kind="diplomacy", flag="spain", vp=2)])
    st = table(hands=_hands(uk=["td-71"]), decks={"usa": [], "china": []}, tracks={"usa": 3, "china": 0},
               diplomacy=[{"card": "dip", "power": "uk"}], techs={"uk": ["A1", "B1"]})
    play(st, "uk", "lendlease:td-71")
    # UK: London 3 + Paris 2 + Washington 3 + Hawaii 1 + Diplomacy 2 + techs 1; USSR: Moscow 3
    assert derived.side_totals(st)["allies"] == 12 + 3
    assert derived.allied_threshold(st) == 35


def test_two_player_lend_lease_card_goes_to_the_shared_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    kit(monkeypatch, _cards())
    st = two_player(table(decks={"usa": [], "china": ["td-85"]}))
    st.hands["allies"] = ["td-73", "td-74"]
    play(st, "ussr", "lendlease:td-73")
    assert st.set_aside == {"allies": ["td-85"]}
    assert "lendlease:td-74" in choices(st, "uk")  # once per round per country
