"""The Strategic Phase after the draft: the swap with Enigma (spec §5.2 B, §12.1), Espionage (§5.2 C,
§12.1, §15.4), the Arctic exchange (§13.4, gap G24), and the 2-player shared hand's pass (§12.1, T24)."""

from __future__ import annotations

import random
from typing import Any

from app.games.total_domination import engine
from app.games.total_domination import strategic as st
from app.games.total_domination.engine import Ctx
from app.games.total_domination.pack import POWERS
from app.games.total_domination.state import GameState
from tests.games.total_domination.boards import coastal, stage
from tests.games.total_domination.test_strategic import (
    answer,
    cards,
    names,
    pending,
    round_track,
    start,
    table,
)

_ = round_track  # the stub Round Track, autouse

H4 = {"germany": cards(4, 1), "uk": cards(4, 5), "japan": cards(4, 9), "ussr": cards(4, 13)}


def four(**kw: Any) -> GameState:
    return table(hands=H4, **kw)


# ------------------------------------------------------------------ B. the swap
def test_swap_in_turn_order_from_the_years_starting_power() -> None:
    state = four(year=1940)  # the stub's 1940 starts with the UK
    start(state, "swap")
    order = []
    while pending(state):
        d = pending(state)[0]
        order.append(state.powers_of(d.seat)[0])
        answer(state, d, ["skip"])
    assert order == ["uk", "japan", "ussr", "germany"]


def test_swap_discards_one_and_draws_one_privately() -> None:
    state = four()
    start(state, "swap")
    d = pending(state)[0]
    assert d.seat == state.seats["germany"] and d.kind == "swap" and "skip" in d.choice_ids()
    top = state.deck[0]
    events = answer(state, d, ["td-01"])
    assert "td-01" in state.discard and "td-01" not in state.hands["germany"]
    assert top in state.hands["germany"] and len(state.hands["germany"]) == 4
    line = next(e for e in events if e.msg.id == "log_swap")
    assert top not in line.text and "td-01" in str(line.msg.params)  # the discard is public
    assert top in str(line.private_msg[state.seats["germany"]].params)  # the draw is not


def test_swap_skip_keeps_the_hand() -> None:
    state = four()
    start(state, "swap")
    answer(state, pending(state)[0], ["skip"])
    assert state.hands["germany"] == cards(4, 1) and state.discard == []


def test_enigma_draws_two_keeps_one_discards_the_other() -> None:
    state = four(techs={"germany": ["D2"]})
    start(state, "swap")
    d = pending(state)[0]
    two = state.deck[:2]
    answer(state, d, ["td-02"])
    keep = pending(state)[0]
    assert keep.kind == "enigma_keep" and keep.seat == state.seats["germany"]
    assert keep.choice_ids() == two and (keep.min, keep.max) == (1, 1)
    assert state.draft["enigma"] == {"hand": "germany", "cards": two}
    answer(state, keep, [two[1]])
    assert two[1] in state.hands["germany"] and two[0] in state.discard and "td-02" in state.discard
    assert len(state.hands["germany"]) == 4 and "enigma" not in state.draft


def test_two_player_without_enigma_each_country_swaps() -> None:
    state = table(players=2, hands={"axis": cards(7, 1), "allies": cards(6, 8)}, techs={"japan": ["D2"]})
    assert st.swap_queue(state) == [("germany", "plain"), ("uk", "plain"), ("japan", "enigma"), ("ussr", "plain")]


def test_two_player_doubled_enigma_is_one_combined_swap() -> None:
    """§12.1 recommended: Enigma in both countries: discard up to 2, draw 3, keep as many as discarded."""
    state = table(players=2, hands={"axis": cards(7, 1), "allies": cards(6, 8)},
                  techs={"germany": ["D2"], "japan": ["D2"]})
    assert st.swap_queue(state) == [("germany", "double"), ("uk", "plain"), ("ussr", "plain")]
    start(state, "swap")
    d = pending(state)[0]
    assert (d.seat, d.min, d.max) == (state.seats["germany"], 0, 2) and "skip" not in d.choice_ids()
    three = state.deck[:3]
    answer(state, d, ["td-01", "td-02"])
    keep = pending(state)[0]
    assert keep.choice_ids() == three and (keep.min, keep.max) == (2, 2)
    answer(state, keep, three[:2])
    assert len(state.hands["axis"]) == 7 and three[2] in state.discard


def test_doubled_enigma_discarding_nothing_skips() -> None:
    state = table(players=2, hands={"axis": cards(7, 1), "allies": cards(6, 8)},
                  techs={"germany": ["D2"], "japan": ["D2"]})
    start(state, "swap")
    answer(state, pending(state)[0], [])
    assert state.hands["axis"] == cards(7, 1) and pending(state)[0].seat == state.seats["uk"]


def test_solo_swaps_per_allied_country_and_not_for_the_automa() -> None:
    state = table(players=1, hands={"allies": cards(5)}, techs={"germany": ["D2"], "uk": ["D2"], "ussr": ["D2"]})
    assert st.swap_queue(state) == [("uk", "double")]


# ------------------------------------------------------------------ C. Espionage
def test_espionage_views_three_random_cards_and_discards_one() -> None:
    state = four(techs={"uk": ["D1"]})
    start(state, "espionage")
    d = pending(state)[0]
    assert d.seat == state.seats["uk"] and sorted(d.choice_ids()) == ["germany", "japan", "skip"]
    events = answer(state, d, ["japan"])
    seen = state.draft["spy"]["cards"]
    assert len(seen) == 3 and set(seen) <= set(cards(4, 9))
    line = next(e for e in events if e.msg.id == "log_espionage")
    assert not any(c in line.text for c in seen)  # the public line names no card
    assert line.private_msg[state.seats["uk"]].params["cards"] == seen  # the spy sees them
    assert line.private_msg[state.seats["japan"]].params["cards"] == seen  # the target knows what was shown
    pick = pending(state)[0]
    assert pick.kind == "espionage_discard" and sorted(pick.choice_ids()) == sorted(seen)
    assert (pick.min, pick.max) == (0, 1)
    top = state.deck[0]
    answer(state, pick, [seen[0]])
    assert seen[0] in state.discard and seen[0] not in state.hands["japan"]
    assert top in state.hands["japan"] and len(state.hands["japan"]) == 4


def test_espionage_may_discard_nothing() -> None:
    state = four(techs={"uk": ["D1"]})
    start(state, "espionage")
    answer(state, pending(state)[0], ["germany"])
    answer(state, pending(state)[0], [])
    assert state.hands["germany"] == cards(4, 1) and state.discard == []


def test_espionage_is_for_its_owners_only_in_turn_order() -> None:
    state = four(year=1940, techs={"germany": ["D1"], "ussr": ["D1"]})
    assert st.espionage_queue(state) == [("ussr", 1), ("germany", 1)]
    start(state, "espionage")
    d = pending(state)[0]
    assert d.seat == state.seats["ussr"] and sorted(d.choice_ids()) == ["germany", "japan", "skip"]


def test_two_player_espionage_in_both_countries_views_five_discards_two() -> None:
    """Rulebook §10.1 A: 5 random cards instead of 3, up to 2 discarded, as many replacements drawn."""
    state = table(players=2, hands={"axis": cards(7, 1), "allies": cards(6, 8)},
                  techs={"uk": ["D1"], "ussr": ["D1"]})
    assert st.espionage_queue(state) == [("uk", 2)]
    start(state, "espionage")
    answer(state, pending(state)[0], ["axis"])
    seen = state.draft["spy"]["cards"]
    assert len(seen) == 5
    pick = pending(state)[0]
    assert (pick.min, pick.max) == (0, 2)
    answer(state, pick, seen[:2])
    assert len(state.hands["axis"]) == 7 and set(seen[:2]) <= set(state.discard)


def test_two_player_espionage_in_one_country_is_the_single_one() -> None:
    state = table(players=2, hands={"axis": cards(7, 1), "allies": cards(6, 8)}, techs={"japan": ["D1"]})
    assert st.espionage_queue(state) == [("japan", 1)]


def test_solo_espionage_against_the_automa_has_no_effect() -> None:
    state = table(players=1, hands={"allies": cards(5)}, techs={"uk": ["D1"]})
    events = start(state, "espionage")
    assert pending(state) == [] and "log_espionage_automa" in names(events)


# ------------------------------------------------------------------ the Arctic exchange
def arctic_table(holder_units: list[tuple[str, str, str]], **kw: Any) -> GameState:
    staged = stage(spaces=[coastal("arctic", stars=0, arctic=True)], units=holder_units)
    state = four(arctic=True, **kw)
    state.board, state.units = staged.board, staged.units
    return state


def test_arctic_controller_exchanges_one_card_with_its_ally() -> None:
    state = arctic_table([("uk", "fleet", "arctic")])
    start(state, "arctic_exchange")
    ds = {d.id.split("-", 1)[1]: d for d in pending(state)}
    assert sorted(ds) == ["uk", "ussr"] and {d.group for d in ds.values()} == {"arctic:1939"}
    assert ds["uk"].choice_ids() == cards(4, 5) and ds["ussr"].choice_ids() == cards(4, 13)
    answer(state, ds["ussr"], ["td-13"])
    assert state.hands["uk"] == cards(4, 5)  # nothing moves until both have chosen
    answer(state, ds["uk"], ["td-05"])
    assert "td-13" in state.hands["uk"] and "td-05" not in state.hands["uk"]
    assert "td-05" in state.hands["ussr"] and "td-13" not in state.hands["ussr"]
    assert pending(state) == []


def test_arctic_uncontrolled_or_option_off_no_exchange() -> None:
    state = arctic_table([])
    start(state, "arctic_exchange")
    assert pending(state) == []
    state = arctic_table([("germany", "fleet", "arctic")])
    state.options["arctic"] = False
    start(state, "arctic_exchange")
    assert pending(state) == []


def test_arctic_no_exchange_when_the_ally_shares_the_hand() -> None:
    staged = stage(spaces=[coastal("arctic", stars=0, arctic=True)], units=[("germany", "fleet", "arctic")])
    state = table(players=2, arctic=True, hands={"axis": cards(7, 1), "allies": cards(6, 8)})
    state.board, state.units = staged.board, staged.units
    start(state, "arctic_exchange")
    assert pending(state) == []


# ------------------------------------------------------------------ the shared hand's pass (§12.1, T24)
def two_player_turn(hand: list[str], passed: list[str] | None = None, lend_lease: list[str] | None = None) -> GameState:
    state = table(players=2, hands={"axis": hand, "allies": cards(6, 20)})
    state.phase = "action"
    state.passed = list(passed or [])
    state.lend_lease = list(lend_lease or [])
    return state


def pass_now(state: GameState, power: str) -> list[Any]:
    ctx = Ctx(state, random.Random(1))
    ctx.push({"k": "pass", "power": power})
    engine.run(ctx)
    return ctx.events


def test_T24_the_first_country_passing_discards_half_rounded_down() -> None:
    """T24: Germany passes first: the player discards ⌊5/2⌋ = 2 chosen cards; Japan plays on from the rest."""
    state = two_player_turn(cards(5))
    pass_now(state, "germany")
    d = pending(state)[0]
    assert (d.kind, d.min, d.max, d.seat) == ("pass_discard", 2, 2, state.seats["germany"])
    answer(state, d, ["td-02", "td-04"])
    assert state.hands["axis"] == ["td-01", "td-03", "td-05"]
    assert state.passed == ["germany"] and state.set_aside.get("axis") is None
    assert state.hand("japan") == ["td-01", "td-03", "td-05"]


def test_the_second_country_passing_keeps_half_rounded_up_as_the_reserve() -> None:
    state = two_player_turn(cards(5), passed=["germany"])
    pass_now(state, "japan")
    d = pending(state)[0]
    assert (d.kind, d.min, d.max) == ("reserve", 0, 3)
    answer(state, d, ["td-01", "td-05"])
    assert state.set_aside["axis"] == ["td-01", "td-05"] and state.hands["axis"] == []
    assert sorted(state.discard) == ["td-02", "td-03", "td-04"] and "japan" in state.passed


def test_no_reserve_for_the_second_country_after_its_lend_lease() -> None:
    state = table(players=2, hands={"axis": cards(4), "allies": cards(4, 20)})
    state.passed, state.lend_lease = ["uk"], ["ussr"]
    pass_now(state, "ussr")
    assert pending(state) == [] and state.hands["allies"] == [] and state.set_aside.get("allies") is None
    assert sorted(state.discard) == cards(4, 20)


def test_one_card_left_the_first_pass_discards_nothing() -> None:
    state = two_player_turn(["td-09"])
    pass_now(state, "germany")
    assert pending(state) == [] and state.hands["axis"] == ["td-09"] and state.passed == ["germany"]


def test_separate_hands_keep_the_plain_pass() -> None:
    state = four()
    pass_now(state, "uk")
    d = pending(state)[0]
    assert d.kind == "reserve" and "none" in d.choice_ids() and (d.min, d.max) == (1, 1)
    assert st.pass_rule.__name__ == "pass_rule"
    assert all(p in POWERS for p in state.hand_of)


def test_arctic_no_exchange_when_a_hand_is_empty() -> None:
    state = arctic_table([("uk", "fleet", "arctic")])
    state.hands["ussr"] = []
    events = start(state, "arctic_exchange")
    assert pending(state) == [] and "log_arctic_empty" in names(events)
    assert state.hands["uk"] == cards(4, 5)


def test_espionage_on_a_short_hand_sees_all_of_it() -> None:
    state = four(techs={"germany": ["D1"]})
    state.hands["uk"] = ["td-05", "td-06"]
    start(state, "espionage")
    answer(state, pending(state)[0], ["uk"])
    assert state.draft["spy"]["cards"] == ["td-05", "td-06"]


def test_espionage_offers_only_opponents_holding_cards() -> None:
    state = four(techs={"germany": ["D1"]})
    state.hands["uk"] = []
    start(state, "espionage")
    assert pending(state)[0].choice_ids() == ["ussr", "skip"]


def test_swap_passes_over_an_empty_hand() -> None:
    state = four()
    state.hands["germany"] = []
    start(state, "swap")
    assert pending(state)[0].seat == state.seats["uk"]
