"""The Ending Phase's steps (spec §6.4): their order, Treatment, Actions of the Axis (T-AXIS-1, OQ-3),
time (OQ-4, OQ-5), and the advanced neutral events (§11.2: T-EVT-1, T-EVT-2, OQ-14, the effects)."""

from __future__ import annotations

import pytest

from app.games.first_to_fight import flow
from app.games.first_to_fight.engine import Ctx
from app.games.first_to_fight.events import apply_effect, due_events
from app.games.first_to_fight.pack import LAST_MONTH, NURSE_CAP, Effect, month_index, pack, use_pack
from tests.games.first_to_fight.ending_kit import (
    Dice,
    answer,
    ending,
    event,
    ids,
    mission,
    own_pack,
    pending,
    place,
    soldier,
    staged,
    table,
)

__all__ = ["own_pack"]

LATER = mission("later", "V 1944", "POL")


def test_the_steps_in_their_exact_order() -> None:
    """§6.4: Treatment, Axis, [placing], time, missions, losses, [resolving events]."""
    assert [(s.number, s.kind, s.option) for s in flow.ENDING] == [
        (1, "treatment", None), (2, "axis", None), (3, "event_place", "events"), (4, "time", None),
        (5, "missions", None), (6, "losses", None), (7, "events_resolve", "events")]


def simple(players: int = 4, cards: list | None = None, time: str = "IX 1939", advanced: bool = False) -> object:
    use_pack(staged(soldiers=[soldier("a"), soldier("b"), soldier("c")], missions=[LATER],
                    events=cards or [event("e1", "IX 1939", "WEU", 3)]))
    state = table(players, time, events=advanced)
    for seat in state.seats:
        state.hands[seat] = ["later"] if seat == "p1" else []
    state.event_deck = [e.id for e in pack().events.values()]
    return state


def test_treatment_clockwise_from_the_leader_one_wound_per_nurse(own_pack: None) -> None:
    """§6.4 step 1: each player in turn may discard nurses, one wound off any soldier per nurse; a player
    without a nurse is not asked; done ends the player's turn."""
    state = simple(3)
    place(state, "a", "WAR", wounds=1, trained=True)
    place(state, "b", "POL", wounds=1, trained=True)
    state.nurses.update({"p1": 2, "p2": 0, "p3": 3})
    ending(state, "p3")
    assert [d.seat for d in pending(state)] == ["p3"]
    answer(state, "p3", "a")
    assert state.nurses["p3"] == 2 and state.soldiers["a"]["wounds"] == 0
    assert {c.id for c in pending(state)[0].choices} == {"b", "done"}
    answer(state, "p3", "done")
    assert [d.seat for d in pending(state)] == ["p1"]  # p2 holds no nurse
    answer(state, "p1", "b")
    assert state.nurses["p1"] == 1 and state.soldiers["b"]["wounds"] == 0
    assert not pending(state)  # nobody left wounded: nothing more to ask
    assert state.event_drawn == "e1"


@pytest.mark.parametrize(("players", "squares"), [(2, 1), (3, 1), (4, 2)])
def test_t_axis_1_the_push_by_player_count(own_pack: None, players: int, squares: int) -> None:
    """T-AXIS-1: the same card moves its region's marker 1 square with 2-3 players, 2 with 4."""
    state = simple(players)
    before = state.domination["WEU"]
    log = ending(state, "p1")
    assert state.domination["WEU"] == before + squares
    assert state.event_drawn == "e1" and "e1" in state.seen["*"] and "axis_push" in ids(log)


def test_oq3_the_push_stops_at_the_end_of_the_track(own_pack: None) -> None:
    state = simple(4)
    last = len(pack().regions["WEU"].track) - 1
    state.domination["WEU"] = last - 1
    ending(state, "p1")
    assert state.domination["WEU"] == last


def test_time_moves_by_the_card_and_stops_at_v_1945(own_pack: None) -> None:
    """§10.2, OQ-4."""
    state = simple(2, [event("e1", "IX 1939", advance=7)], time="I 1945")
    ending(state, "p1")
    assert state.time == LAST_MONTH and state.events_gone == ["e1"]  # basic game: the card is discarded


def test_oq5_an_empty_event_deck_skips_the_push_and_ends_the_time(own_pack: None) -> None:
    state = simple(2)
    state.event_deck = []
    before = dict(state.domination)
    log = ending(state, "p1")
    assert state.domination == before and state.time == LAST_MONTH and "event_deck_empty" in ids(log)


def test_t_evt_1_an_event_dated_now_is_discarded_but_pushes_and_advances(own_pack: None) -> None:
    """T-EVT-1: time XI 1941, the drawn event dated XI 1941: discarded; its push and advance apply."""
    state = simple(2, [event("e1", "XI 1941", "NEA", 2, (Effect("nurses", n=1),))], time="XI 1941", advanced=True)
    before = state.domination["NEA"]
    log = ending(state, "p1")
    assert state.events_gone == ["e1"] and state.event_track == []
    assert state.domination["NEA"] == before + 1 and state.time == month_index("I 1942")
    assert "event_discarded" in ids(log) and state.nurses["p1"] == 0


def test_t_evt_2_placed_and_resolved_in_the_same_ending(own_pack: None) -> None:
    """T-EVT-2: time V 1940, event dated VII 1940 with advance 3: placed at VII 1940; the time reaches
    VIII 1940, so it resolves in step 7 of the same Ending Phase (and leaves the game)."""
    state = simple(2, [event("e1", "VII 1940", "NEA", 3, (Effect("nurses", n=2),))], time="V 1940", advanced=True)
    log = ending(state, "p1")
    assert ids(log).index("event_placed") < ids(log).index("time_moves") < ids(log).index("event_resolves")
    assert state.time == month_index("VIII 1940")
    assert state.event_track == [] and state.events_gone == ["e1"]
    assert state.nurses == {"p1": 2, "p2": 2}


def test_oq14_events_due_resolve_by_date_then_in_the_order_drawn(own_pack: None) -> None:
    state = simple(2, [event("x", "V 1941"), event("y", "III 1941"), event("z", "V 1941")])
    state.time = month_index("VI 1941")
    state.event_track = ["z", "x", "y"]
    assert due_events(state) == ["y", "z", "x"]
    state.time = month_index("IV 1941")
    assert due_events(state) == ["y"]


def test_event_effects(own_pack: None) -> None:
    """The advanced effects: domination (one region / every region, clamped, no VP), recruit (the top of
    the soldier deck, nobody's: no VP), nurses (up to the cap), heal (every wound in the region)."""
    state = simple(2)
    ctx = Ctx(state, Dice())
    place(state, "a", "NEA", wounds=1, trained=True)
    before = dict(state.domination)
    apply_effect(ctx, Effect("domination", "NEA", -1))
    assert state.domination["NEA"] == before["NEA"] - 1
    apply_effect(ctx, Effect("domination", "", 1))
    assert all(state.domination[r] == before[r] + (0 if r == "NEA" else 1) for r in before)
    apply_effect(ctx, Effect("domination", "WAR", -99))
    assert state.domination["WAR"] == 0
    state.soldier_deck = ["b", "c"]
    vp = dict(state.vp)
    apply_effect(ctx, Effect("recruit", "NAI", 3))
    assert state.in_region("NAI") == ["b", "c"] and state.soldier_deck == [] and state.vp == vp
    assert "event_recruit_none" in ids(ctx.events)
    state.nurses["p1"] = NURSE_CAP
    apply_effect(ctx, Effect("nurses", n=1))
    assert state.nurses == {"p1": NURSE_CAP, "p2": 1}
    apply_effect(ctx, Effect("heal", "NEA"))
    assert state.soldiers["a"]["wounds"] == 0


def test_without_the_events_option_nothing_is_placed(own_pack: None) -> None:
    state = simple(2, [event("e1", "VII 1940", "NEA", 3, (Effect("nurses", n=2),))], time="V 1940")
    ending(state, "p1")
    assert state.event_track == [] and state.events_gone == ["e1"] and state.nurses == {"p1": 0, "p2": 0}


def test_an_event_recruit_goes_through_orders_arrive_with_nobody(own_pack: None,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Every placement goes through ORDERS' concentration.arrive; an event's with seat None (no VP)."""
    from app.games.first_to_fight import events

    state = simple(2)
    state.soldier_deck = ["a", "b"]
    calls: list[tuple] = []

    def arrive(ctx: Ctx, seat: str | None, soldier: str, region: str) -> None:
        calls.append((seat, soldier, region))
        state.soldier_deck.remove(soldier)
        place(state, soldier, region)

    monkeypatch.setattr(events, "_arrive", lambda: arrive)
    apply_effect(Ctx(state, Dice()), Effect("recruit", "POL", 2))
    assert calls == [(None, "a", "POL"), (None, "b", "POL")] and state.in_region("POL") == ["a", "b"]
