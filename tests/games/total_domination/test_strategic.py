"""The Strategic Phase's draft (spec §5.2 A, §12.1, §12.3, §15.3 rule 4; rulebook §4.1, §10.1, §13.0):
draw counts, first picks, pass directions, the last pick, set-aside cards, the G1 reshuffle.

The tables here need no data pack: ``table()`` seats the players as rules.py does and stubs the pack's
Round Track and scenarios (4 cards a year, the book's pass directions), with a deck of numbered cards.
The helpers are shared with the other test_strategic_* files."""

from __future__ import annotations

import random
from collections.abc import Iterable
from types import SimpleNamespace
from typing import Any

import pytest

from app.games.protocol import Decision, Illegal
from app.games.total_domination import engine, flow
from app.games.total_domination import pack as td_pack
from app.games.total_domination import strategic as st
from app.games.total_domination.engine import Ctx
from app.games.total_domination.pack import AXIS, POWERS, YEARS, Board, Scenario, Year, register_board
from app.games.total_domination.rules import hands_for, seatings
from app.games.total_domination.state import GameState

# the book's pass directions (rulebook §4.1); the starting powers are the stub's own
PASSES = {y: ("left" if y % 2 else "right") for y in YEARS}
STARTS = {1939: "germany", 1940: "uk", 1941: "japan", 1942: "ussr", 1943: "germany", 1944: "uk", 1945: "germany"}


@pytest.fixture(autouse=True)
def round_track(monkeypatch: pytest.MonkeyPatch) -> SimpleNamespace:
    """The pack's Round Track (4 cards every year, §18.5) and two scenarios, without the YAML."""
    data = SimpleNamespace(
        years={y: Year(year=y, draw=4, starts=STARTS[y], passes=PASSES[y]) for y in YEARS},  # type: ignore[arg-type]
        scenarios={"full": Scenario(id="full", first_year=1939, last_year=1945, placements=()),
                   "fall_of_the_axis": Scenario(id="fall_of_the_axis", first_year=1943, last_year=1945,
                                                placements=(), deal=5)},
        cards={}, boards={},
    )
    monkeypatch.setattr(td_pack, "pack", lambda: data)
    monkeypatch.setattr(flow, "pack", lambda: data)
    return data


def cards(n: int, first: int = 1) -> list[str]:
    return [f"td-{i:02d}" for i in range(first, first + n)]


def table(players: int = 4, year: int = 1939, deck: int = 60, two_player: str = "shared", pair: str = "allies",
          techs: dict[str, list[str]] | None = None, set_aside: dict[str, list[str]] | None = None,
          hands: dict[str, list[str]] | None = None, scenario: str = "full", **options: Any) -> GameState:
    """A table seated as rules.py seats it, with a deck of ``deck`` numbered cards (td-01 on top)."""
    opts: dict[str, Any] = {"players": players, "two_player": two_player, "pair": pair, "scenario": scenario,
                            "arctic": False, **options}
    owner = {p: f"p{i + 1}" for i, ps in enumerate(seatings(players, opts)) for p in ps}
    if players == 1:
        owner.update({p: "" for p in AXIS})
    hand_of = hands_for(players, opts)
    register_board(Board.build("none", [], []))  # no space: the draft needs none, the views draw an empty map
    state = GameState(options=opts, board="none", seats=owner,
                      seat_labels={s: s for s in set(owner.values()) if s}, hand_of=hand_of,
                      hands={h: [] for h in sorted(set(hand_of.values()))}, deck=cards(deck), year=year,
                      techs={p: list((techs or {}).get(p, [])) for p in POWERS})
    for h, cs in (set_aside or {}).items():
        state.set_aside[h] = list(cs)
        state.deck = [c for c in state.deck if c not in cs]
    for h, cs in (hands or {}).items():
        state.hands[h] = list(cs)
        state.deck = [c for c in state.deck if c not in cs]
    return state


def start(state: GameState, *kinds: str, seed: int = 1) -> list[Any]:
    """Run these tasks (in this order) until one waits; the log's events."""
    ctx = Ctx(state, random.Random(seed))
    ctx.push(*[{"k": k} for k in kinds])
    engine.run(ctx)
    return ctx.events


def pending(state: GameState) -> list[Decision]:
    return engine.decisions(state)


def answer(state: GameState, d: Decision, choices: Iterable[str], seed: int = 2) -> list[Any]:
    ctx = Ctx(state, random.Random(seed))
    engine.apply_answer(ctx, d.seat, d.id, tuple(choices))
    return ctx.events


def hand_of_decision(d: Decision) -> str:
    return d.id.split("-", 1)[1]


def pick_all(state: GameState, choose: Any = None) -> dict[str, Decision]:
    """Answer every decision of the current draft step (``choose(decision)`` -> choices, default the
    first ``min`` cards); the decisions answered, by hand."""
    ds = {hand_of_decision(d): d for d in pending(state)}
    for d in ds.values():
        answer(state, d, choose(d) if choose else d.choice_ids()[:d.min])
    return ds


def draft_to_end(state: GameState) -> list[dict[str, Decision]]:
    steps = []
    while state.draft.get("packets") is not None and pending(state):
        steps.append(pick_all(state))
    return steps


def names(events: list[Any]) -> list[str]:
    return [e.msg.id for e in events]


# ------------------------------------------------------------------ draw and G1
def test_draw_takes_from_the_top() -> None:
    state = table(deck=10)
    assert st.draw(state, 3, random.Random(1)) == ["td-01", "td-02", "td-03"]
    assert state.deck[0] == "td-04"


def test_draw_reshuffles_the_discard_pile_when_the_pile_runs_out_G1() -> None:
    state = table(deck=2)
    state.discard = cards(5, first=11)
    state.tech_cards = {"germany": ["td-40"]}  # by the sheet: never reshuffled
    state.diplomacy = [{"card": "td-41", "power": "uk"}]
    got = st.draw(state, 4, random.Random(3))
    assert got[:2] == ["td-01", "td-02"]
    assert set(got[2:]) <= set(cards(5, first=11))
    assert state.discard == []
    assert sorted(got[2:] + state.deck) == cards(5, first=11)
    assert "td-40" not in got + state.deck and "td-41" not in got + state.deck


def test_draw_reshuffle_is_seeded_and_logged() -> None:
    a, b = table(deck=0), table(deck=0)
    a.discard = b.discard = cards(8)
    ctx = Ctx(a, random.Random(9))
    assert st.draw(a, 3, random.Random(9), ctx) == st.draw(b, 3, random.Random(9))
    assert names(ctx.events) == ["log_reshuffle"]


def test_draw_stops_when_both_piles_are_empty() -> None:
    state = table(deck=1)
    assert st.draw(state, 3, random.Random(1)) == ["td-01"]


# ------------------------------------------------------------------ the 4-player draft
def test_T6_four_players_1939() -> None:
    """T6: Germany draws 5 and keeps 2 in the first pick, the others draw 4 and keep 1; every hand passes
    3, to the left; final hands Germany 4, others 3; 4 cards discarded in the last pick."""
    state = table(players=4, year=1939)
    events = start(state, "draft")
    assert "log_draft_begins" in names(events)
    ds = {hand_of_decision(d): d for d in pending(state)}
    assert sorted(ds) == sorted(POWERS)
    assert {h: (len(d.choices), d.min, d.max) for h, d in ds.items()} == {
        "germany": (5, 2, 2), "uk": (4, 1, 1), "japan": (4, 1, 1), "ussr": (4, 1, 1)}
    assert all(d.group == "draft:1939:1" and d.kind == "draft_pick" for d in ds.values())
    leftover = {h: [c for c in d.choice_ids() if c not in d.choice_ids()[:d.min]] for h, d in ds.items()}
    pick_all(state)
    # left: Germany -> UK -> Japan -> USSR -> Germany
    assert state.draft["packets"] == {"uk": leftover["germany"], "japan": leftover["uk"],
                                      "ussr": leftover["japan"], "germany": leftover["ussr"]}
    second = pick_all(state)
    assert {h: (len(d.choices), d.min) for h, d in second.items()} == {h: (3, 1) for h in POWERS}
    assert all(d.group == "draft:1939:2" for d in second.values())
    discard_before = len(state.discard)
    last = pick_all(state)
    assert {h: (len(d.choices), d.min) for h, d in last.items()} == {h: (2, 1) for h in POWERS}
    assert len(state.discard) - discard_before == 4
    assert {h: len(c) for h, c in state.hands.items()} == {"germany": 4, "uk": 3, "japan": 3, "ussr": 3}
    assert pending(state) == []
    assert len(state.deck) == 60 - 17


@pytest.mark.parametrize("year,direction", [(1939, "left"), (1940, "right"), (1941, "left"), (1942, "right"),
                                            (1943, "left"), (1944, "right"), (1945, "left")])
def test_pass_direction_by_year(year: int, direction: str) -> None:
    state = table(year=year)
    start(state, "draft")
    ds = pick_all(state)
    nxt = {"germany": "uk", "uk": "japan", "japan": "ussr", "ussr": "germany"}
    to = nxt if direction == "left" else {v: k for k, v in nxt.items()}
    for h, d in ds.items():
        rest = [c for c in d.choice_ids() if c not in d.choice_ids()[:d.min]]
        assert state.draft["packets"][to[h]] == rest
    assert state.draft["direction"] == direction


def test_T7_japan_1941_with_a_reserve_keeps_three() -> None:
    """T7: 1941, Japan holds a reserve card from 1940: 5 + 1 = 6 cards, keeps 3, passes 3."""
    state = table(year=1941, set_aside={"japan": ["td-60"]})
    start(state, "draft")
    ds = {hand_of_decision(d): d for d in pending(state)}
    assert (len(ds["japan"].choices), ds["japan"].min, ds["japan"].max) == (6, 3, 3)
    assert "td-60" in ds["japan"].choice_ids()
    assert (len(ds["germany"].choices), ds["germany"].min) == (4, 1)  # no special for Germany after 1939
    pick_all(state)
    assert len(state.draft["packets"]["ussr"]) == 3  # Japan passes 3 to the left
    draft_to_end(state)
    assert len(state.hands["japan"]) == 5  # 3 + 1 + 1
    assert state.set_aside.get("japan") is None


def test_japan_1941_without_a_reserve_keeps_two() -> None:
    state = table(year=1941)
    start(state, "draft")
    d = next(d for d in pending(state) if hand_of_decision(d) == "japan")
    assert (len(d.choices), d.min) == (5, 2)


@pytest.mark.parametrize("what", ["reserve", "lend_lease"])
def test_a_set_aside_card_joins_the_first_pick(what: str) -> None:
    """A reserve card (rulebook §4.2) or a Lend-Lease card (§9.1) joins the drawn cards: pick 2, pass 3."""
    aside = "td-59" if what == "reserve" else "td-usa-1"
    state = table(year=1940, set_aside={"uk": [aside]})
    start(state, "draft")
    d = next(d for d in pending(state) if hand_of_decision(d) == "uk")
    assert (len(d.choices), d.min, d.max) == (5, 2, 2) and aside in d.choice_ids()
    draft_to_end(state)
    assert len(state.hands["uk"]) == 4 and aside not in state.set_aside.get("uk", [])


def test_the_set_aside_card_may_be_passed_on() -> None:
    state = table(year=1940, set_aside={"uk": ["td-59"]})
    start(state, "draft")
    pick_all(state, lambda d: [c for c in d.choice_ids() if c != "td-59"][:d.min])
    assert "td-59" in state.draft["packets"]["germany"]  # 1940 passes right: UK -> Germany


def test_picks_are_face_down_until_the_draft_ends() -> None:
    state = table()
    start(state, "draft")
    pick_all(state)
    assert all(state.hands[h] == [] for h in POWERS)
    assert state.draft["picks"]["germany"] and len(state.draft["picks"]["germany"]) == 2
    draft_to_end(state)
    assert state.draft.get("picks") is None


def test_picks_resolve_in_any_answer_order() -> None:
    """The answers of a step commute: the state is the same whatever order they come in."""
    a, b = table(), table()
    start(a, "draft")
    start(b, "draft")
    da, db = pending(a), pending(b)
    for d in da:
        answer(a, d, d.choice_ids()[-d.min:])
    for d in reversed(db):
        answer(b, d, d.choice_ids()[-d.min:])
    assert a.draft == b.draft and a.stack == b.stack


def test_a_wrong_number_of_cards_is_refused() -> None:
    state = table()
    start(state, "draft")
    d = next(d for d in pending(state) if hand_of_decision(d) == "germany")
    with pytest.raises(Illegal):
        answer(state, d, d.choice_ids()[:1])
    with pytest.raises(Illegal):
        answer(state, d, ["td-60", d.choice_ids()[0]])


def test_only_the_hands_seat_may_pick() -> None:
    state = table()
    start(state, "draft")
    d = next(d for d in pending(state) if hand_of_decision(d) == "germany")
    with pytest.raises(Illegal):
        engine.apply_answer(Ctx(state, random.Random(1)), "p2", d.id, tuple(d.choice_ids()[:2]))


# ------------------------------------------------------------------ 3 players and the 2-player variant
@pytest.mark.parametrize("players,two_player", [(3, "shared"), (2, "separate")])
def test_four_hands_circulate_with_three_players_and_the_variant(players: int, two_player: str) -> None:
    """§12.2, §12.3: every country has its own hand and the draft is the 4-player one."""
    state = table(players=players, two_player=two_player)
    start(state, "draft")
    ds = {hand_of_decision(d): d for d in pending(state)}
    assert sorted(ds) == sorted(POWERS)
    assert ds["germany"].min == 2 and all(ds[h].min == 1 for h in ("uk", "japan", "ussr"))
    draft_to_end(state)
    assert {h: len(c) for h, c in state.hands.items()} == {"germany": 4, "uk": 3, "japan": 3, "ussr": 3}


def test_the_paired_seat_answers_for_both_its_hands() -> None:
    state = table(players=3, pair="allies")
    start(state, "draft")
    seats = {hand_of_decision(d): d.seat for d in pending(state)}
    assert seats["uk"] == seats["ussr"] != seats["germany"]


# ------------------------------------------------------------------ the standard 2-player draft (§12.1)
def test_two_player_counts_1939() -> None:
    """§12.1: the Axis draws 8 and keeps 3 + 2 + 2 = 7, passing 5 then 3; the Allies draw 7 and keep
    2 + 2 + 2 = 6. A hand receiving 3 keeps 2 and discards 1."""
    state = table(players=2)
    start(state, "draft")
    ds = {hand_of_decision(d): d for d in pending(state)}
    assert {h: (len(d.choices), d.min, d.max) for h, d in ds.items()} == {"axis": (8, 3, 3), "allies": (7, 2, 2)}
    pick_all(state)
    assert {h: len(p) for h, p in state.draft["packets"].items()} == {"axis": 5, "allies": 5}
    ds = pick_all(state)
    assert {h: (len(d.choices), d.min) for h, d in ds.items()} == {"axis": (5, 2), "allies": (5, 2)}
    before = len(state.discard)
    ds = pick_all(state)
    assert {h: (len(d.choices), d.min) for h, d in ds.items()} == {"axis": (3, 2), "allies": (3, 2)}
    assert len(state.discard) - before == 2
    assert {h: len(c) for h, c in state.hands.items()} == {"axis": 7, "allies": 6}


def test_two_player_1941_japans_side_picks_three() -> None:
    state = table(players=2, year=1941)
    start(state, "draft")
    ds = {hand_of_decision(d): d for d in pending(state)}
    assert (len(ds["axis"].choices), ds["axis"].min) == (8, 3)
    assert (len(ds["allies"].choices), ds["allies"].min) == (7, 2)


def test_two_player_set_aside_cards_raise_the_first_pick() -> None:
    """Gap G16 (§12.1 recommended): each set-aside card raises the first pick by 1."""
    state = table(players=2, year=1940, set_aside={"allies": ["td-58", "td-59", "td-60"]})
    start(state, "draft")
    ds = {hand_of_decision(d): d for d in pending(state)}
    assert (len(ds["allies"].choices), ds["allies"].min) == (10, 5)
    assert (len(ds["axis"].choices), ds["axis"].min) == (7, 2)
    draft_to_end(state)
    assert {h: len(c) for h, c in state.hands.items()} == {"axis": 6, "allies": 9}


def test_the_scenario_deal_replaces_the_round_track_in_its_first_year() -> None:
    """Fall of the Axis deals 5 per player in 1943 (rulebook §12.2), cards passed left."""
    state = table(players=4, year=1943, scenario="fall_of_the_axis")
    start(state, "draft")
    assert {len(d.choices) for d in pending(state)} == {5}
    assert state.draft["direction"] == "left"
    two = table(players=2, year=1943, scenario="fall_of_the_axis")
    start(two, "draft")
    assert {len(d.choices) for d in pending(two)} == {9}


# ------------------------------------------------------------------ solo (§15.3 rule 4)
def test_solo_draws_the_two_player_count_and_discards_two() -> None:
    state = table(players=1)
    events = start(state, "draft")
    ds = pending(state)
    assert len(ds) == 1
    d = ds[0]
    assert (d.seat, d.kind, len(d.choices), d.min, d.max) == ("p1", "draft_discard", 7, 2, 2)
    assert "log_draft_begins" not in names(events)  # nothing is passed
    chosen = d.choice_ids()[:2]
    answer(state, d, chosen)
    assert state.discard == chosen
    assert sorted(state.hands["allies"]) == sorted(c for c in d.choice_ids() if c not in chosen)
    assert "axis" not in state.hands and pending(state) == []


def test_solo_reserve_cards_join_before_the_discard() -> None:
    state = table(players=1, year=1940, set_aside={"allies": ["td-59", "td-60"]})
    start(state, "draft")
    d = pending(state)[0]
    assert (len(d.choices), d.min) == (9, 2)
    answer(state, d, d.choice_ids()[:2])
    assert len(state.hands["allies"]) == 7


def test_the_draft_reshuffles_when_the_deck_runs_out() -> None:
    state = table(deck=10)
    state.discard = cards(20, first=41)
    start(state, "draft")
    assert sum(len(d.choices) for d in pending(state)) == 17
    assert len(state.deck) == 13 and state.discard == []


def test_reshuffled_discards_are_no_secret_only_within_the_answer_that_reshuffled_them() -> None:
    """A public line of the answer that ends the year may name a discard the next draft reshuffles and
    draws at once: within that answer the cards' passage into the pile is public, where they went is not
    shown; from the next answer on they are secret again."""
    from app.games.total_domination import views

    state = table(deck=3)
    state.discard = cards(20, first=41)
    start(state, "draft")
    reshuffled = set(state.flags["reshuffled"]["cards"])
    assert reshuffled == set(cards(20, first=41))
    uk_cards = set(state.draft["packets"]["uk"])
    assert uk_cards <= reshuffled  # Germany drew the 3 left, then the new pile served the rest
    assert not reshuffled & views.secrets(state, state.seats["germany"])
    pick_all(state)
    hidden = views.secrets(state, state.seats["germany"])
    assert (uk_cards - set(state.draft["packets"].get("germany", []))) & reshuffled <= hidden
