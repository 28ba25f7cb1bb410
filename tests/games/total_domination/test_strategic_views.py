"""What each seat sees of the Strategic Phase (spec §19.1): its own packet and picks, the pick number,
who the step still waits on, packet sizes; never another hand's packet, picks, Enigma draw — checked
with views.secrets and app.games.secrets.leaks on the JSON of the view and of the seat's decisions."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from app.games.secrets import leaks
from app.games.total_domination import views
from app.games.total_domination.state import GameState
from tests.games.total_domination.test_strategic import (
    answer,
    cards,
    pending,
    pick_all,
    round_track,
    start,
    table,
)

_ = round_track  # the stub Round Track, autouse


def seat_ids(state: GameState) -> list[str]:
    return sorted({s for s in state.seats.values() if s})


def assert_no_leak(state: GameState) -> None:
    """No seat's view or pending decisions hold what views.secrets hides from it; nor the spectators'."""
    everyone: set[object] = set()
    for seat in seat_ids(state):
        hidden = views.secrets(state, seat)
        everyone |= hidden
        view = json.dumps(views.view(state, seat))
        mine = json.dumps([asdict(d) for d in pending(state) if d.seat == seat], default=str)
        assert leaks(view, hidden) == [], seat
        assert leaks(mine, hidden) == [], seat
    assert leaks(json.dumps(views.view(state, None)), everyone) == []


@pytest.mark.parametrize("players", [4, 3, 2, 1])
def test_no_seat_sees_another_hands_packet_or_picks(players: int) -> None:
    state = table(players=players)
    start(state, "draft")
    steps = 0
    while state.draft.get("packets") is not None and pending(state):
        assert_no_leak(state)
        # half the step answered: the answered picks must stay hidden too
        first = pending(state)[0]
        answer(state, first, first.choice_ids()[:first.min])
        assert_no_leak(state)
        pick_all(state)
        steps += 1
    assert_no_leak(state)
    assert steps >= 1


def test_secrets_name_other_hands_packets_and_picks() -> None:
    state = table()
    start(state, "draft")
    pick_all(state)
    g = state.seats["germany"]
    hidden = views.secrets(state, g)
    # the UK's first picks came from the cards it drew, which Germany never saw
    assert set(state.draft["picks"]["uk"]) <= hidden
    assert not set(state.draft["picks"]["germany"]) & hidden
    assert not set(state.draft["packets"]["germany"]) & hidden
    # the UK's packet now is what Germany passed it: Germany held those cards (spec §19.1), so its
    # own log lines naming them give nothing away
    assert state.draft["packets"]["uk"] and not set(state.draft["packets"]["uk"]) & hidden
    # the USSR's packet came from Japan: Germany never saw it
    assert set(state.draft["packets"]["ussr"]) <= hidden


def test_the_draft_view() -> None:
    state = table()
    start(state, "draft")
    g = state.seats["germany"]
    d = next(d for d in pending(state) if d.seat == g)
    answer(state, d, d.choice_ids()[:2])
    v = views.view(state, g)["draft"]
    assert v["pick"] == 1 and v["direction"] == "left" and v["year"] == 1939
    assert sorted(v["waiting_on"]) == ["japan", "uk", "ussr"]
    assert v["packet_sizes"] == {"germany": 5, "japan": 4, "uk": 4, "ussr": 4}
    assert list(v["packets"]) == ["germany"] and v["packets"]["germany"] == d.choice_ids()
    assert v["chosen"] == {"germany": d.choice_ids()[:2]}
    spectator = views.view(state, None)["draft"]
    assert spectator["packets"] == {} and spectator["picks"] == {} and spectator["chosen"] == {}
    pick_all(state)
    v = views.view(state, g)["draft"]
    assert v["pick"] == 2 and v["picked"] == {"germany": 2, "japan": 1, "uk": 1, "ussr": 1}
    assert v["picks"] == {"germany": d.choice_ids()[:2]}


def test_the_shared_hand_is_seen_by_its_player_only() -> None:
    state = table(players=2)
    start(state, "draft")
    axis_seat = state.seats["germany"]
    v = views.view(state, axis_seat)["draft"]
    assert list(v["packets"]) == ["axis"] and len(v["packets"]["axis"]) == 8


def test_enigma_cards_are_the_owners_only() -> None:
    state = table(hands={"germany": cards(4), "uk": cards(4, 5)}, techs={"germany": ["D2"]})
    start(state, "swap")
    answer(state, pending(state)[0], ["td-01"])
    drawn = state.draft["enigma"]["cards"]
    assert views.view(state, state.seats["germany"])["enigma"] == drawn
    assert set(drawn) <= views.secrets(state, state.seats["uk"])
    assert "enigma" not in views.view(state, state.seats["uk"])
    assert_no_leak(state)


def test_espionage_cards_are_known_to_the_spy_only() -> None:
    """The spy sees the viewed cards (its decision and its view show them) while they stay in the target's
    hand; to every other seat but the target they remain secret."""
    state = table(hands={"germany": cards(4), "uk": cards(4, 5), "japan": cards(4, 9), "ussr": cards(4, 13)},
                  techs={"uk": ["D1"]})
    start(state, "espionage")
    answer(state, pending(state)[0], ["germany"])
    seen = state.draft["spy"]["cards"]
    uk, japan, germany = state.seats["uk"], state.seats["japan"], state.seats["germany"]
    assert not set(seen) & views.secrets(state, uk)
    assert set(seen) <= views.secrets(state, japan)
    assert views.view(state, uk)["seen"] == {"germany": seen}
    assert views.view(state, germany)["shown"] == {"power": "uk", "cards": seen}
    assert_no_leak(state)
    answer(state, pending(state)[0], [seen[0]])
    assert views.view(state, uk)["seen"] == {"germany": seen[1:]}  # the discarded one is public now
    assert_no_leak(state)


def test_arctic_partner_knows_the_card_it_gave() -> None:
    from tests.games.total_domination.boards import coastal, stage

    staged = stage(spaces=[coastal("arctic", stars=0, arctic=True)], units=[("germany", "fleet", "arctic")])
    state = table(arctic=True, hands={"germany": cards(4), "uk": cards(4, 5), "japan": cards(4, 9),
                                      "ussr": cards(4, 13)})
    state.board, state.units = staged.board, staged.units
    start(state, "arctic_exchange")
    ds = {d.id.split("-", 1)[1]: d for d in pending(state)}
    answer(state, ds["germany"], ["td-02"])
    assert_no_leak(state)
    answer(state, ds["japan"], ["td-10"])
    assert views.view(state, state.seats["germany"])["seen"] == {"japan": ["td-02"]}
    assert "td-02" in views.secrets(state, state.seats["uk"])
    assert_no_leak(state)


def test_the_leak_check_catches_a_shown_packet() -> None:
    """The check above is not vacuous: the whole draft state shown to a seat leaks the others' cards."""
    state = table()
    start(state, "draft")
    pick_all(state)
    assert leaks(json.dumps(state.draft), views.secrets(state, state.seats["germany"]))
