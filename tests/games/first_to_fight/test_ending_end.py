"""The end (spec §10.3, OQ-15), scoring and tie-breaks (§10.4, T-END-1), the summary, and whole seeded games
with the Ending Phase's invariants (every catalogue message they use exists in English and Polish)."""

from __future__ import annotations

import random
from dataclasses import asdict
from typing import Any

import pytest

from app.games.first_to_fight import GAME, summary, victory
from app.games.first_to_fight.pack import LAST_MONTH, NURSE_CAP, STAGE_II_CAP, pack, use_pack
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import catalogue, english
from app.games.protocol import Seat
from tests.games.first_to_fight.ending_kit import Dice, ending, event, mission, own_pack, staged, table

__all__ = ["own_pack"]


def scored(missions: list, **per_seat: dict[str, Any]) -> GameState:
    use_pack(staged(missions=missions, events=[event("e1", "IX 1939", advance=1)]))
    state = table(len(per_seat))
    for seat, got in per_seat.items():
        state.succeeded[seat], state.failed[seat], state.vp[seat] = got["won"], got.get("lost", []), got["vp"]
    return state


def test_t_end_1_scores(own_pack: None) -> None:
    """T-END-1: A: 5 + 7 + 6 tokens - 5 = 13; B: 4 + 4 + 2 + 8 tokens - 10 = 8; A wins."""
    cards = [mission(m, "X 1939", vp=vp) for m, vp in (("a5", 5), ("a7", 7), ("b4", 4), ("c4", 4), ("b2", 2),
                                                         ("f1", 3), ("f2", 3), ("f3", 3))]
    state = scored(cards, p1={"won": ["a5", "a7"], "lost": ["f1"], "vp": 6},
                   p2={"won": ["b4", "c4", "b2"], "lost": ["f2", "f3"], "vp": 8})
    assert victory.scores(state) == {"p1": 13, "p2": 8}
    assert victory.winners(state) == ["p1"]


def test_ties_go_to_more_successes_then_are_shared(own_pack: None) -> None:
    cards = [mission(m, "X 1939", vp=vp) for m, vp in (("a", 6), ("b", 3), ("c", 3), ("d", 6))]
    state = scored(cards, p1={"won": ["a"], "vp": 0}, p2={"won": ["b", "c"], "vp": 0}, p3={"won": [], "vp": 6})
    assert victory.scores(state) == {"p1": 6, "p2": 6, "p3": 6} and victory.winners(state) == ["p2"]
    state.succeeded["p1"], state.vp["p1"] = ["a", "d"], -6
    assert victory.winners(state) == ["p1", "p2"]


def test_the_game_ends_after_the_ending_phase_that_empties_every_hand(own_pack: None) -> None:
    """§10.3 / OQ-15: checked at the end of each Ending Phase; a player out of missions early plays on."""
    use_pack(staged(missions=[mission("m1", "X 1939", "WAR", vp=4, difficulty=0), mission("m2", "V 1944", "WAR")],
                    events=[event("e1", "IX 1939", advance=1), event("e2", "IX 1939", advance=1)]))
    state = table(2)
    state.hands["p1"], state.hands["p2"] = ["m1"], []
    state.domination["WAR"] = 0  # level 0: difficulty 0 met by nobody
    state.event_deck = ["e1", "e2"]
    state.vp["p2"] = 3
    log = ending(state, "p2", Dice(1))
    assert state.outcome is not None and state.phase == "over"
    assert state.outcome["winners"] == ["p1"] and state.outcome["scores"] == {"p1": 4, "p2": 3}
    out = GAME.outcome(state)
    assert out is not None and out.winners == ("p1",) and "4 VP" in out.summary
    lines = [{"id": e.msg.id, "params": e.msg.params} for e in log]
    assert summary.summary(lines) == {"rounds": [[0, {"p1": 4, "p2": 3}]],
                                      "by_role": {"p1": {"vp": 4, "cards": 1}, "p2": {"vp": 3, "cards": 0}}}


def test_a_hand_still_holding_a_mission_plays_on(own_pack: None) -> None:
    use_pack(staged(missions=[mission("m1", "X 1939", "WAR"), mission("m2", "V 1944", "WAR")],
                    events=[event("e1", "IX 1939", advance=1)]))
    state = table(2)
    state.hands["p1"], state.hands["p2"] = ["m1"], ["m2"]
    state.event_deck = ["e1"]
    log = ending(state, "p1", Dice(1))
    assert state.outcome is None and "standings" in [e.msg.id for e in log]


def play(seed: int, players: int, **options: bool) -> tuple[GameState, list[Any]]:
    """A whole seeded game, every seat a random bot; the orders not installed yet resolve to nothing."""
    rng = random.Random(seed)
    seats = [Seat(id=f"p{i + 1}", label=f"Commander {i + 1}") for i in range(players)]
    state = GAME.setup(options, seats, random.Random(seed))
    msgs: list[Any] = []
    lines: list[Any] = []
    for _ in range(GAME.max_actions(players, options)):
        pending = GAME.pending(state)
        if not pending:
            break
        d = pending[0]
        msgs += [d.prompt_msg, *[c.msg for c in d.choices]]
        events = GAME.apply(state, d.seat, GAME.bot(state, d, rng), random.Random(rng.random()))
        for e in events:
            msgs += [e.msg, *e.private_msg.values()]
            lines.append(e)
        _invariants(state)
    # a line renders at the end as it did when written: no parameter is a list the rules change later
    assert [english(e.msg) for e in lines] == [e.text for e in lines]
    return state, msgs


def _invariants(state: GameState) -> None:
    assert state.time <= LAST_MONTH
    assert all(0 <= n <= NURSE_CAP for n in state.nurses.values())
    assert all(n <= STAGE_II_CAP for n in state.stage2_received.values())
    if state.phase == "orders":  # after an Ending Phase: every wounded soldier has a training token, 1 wound
        assert all(d["wounds"] == 0 or (d["wounds"] == 1 and d["trained"]) for d in state.soldiers.values())
    everywhere: list[str] = [*state.stage1_deck, *state.stage2_deck, *state.removed_missions]
    for seat in state.seats:
        everywhere += state.hands[seat] + state.succeeded[seat] + state.failed[seat] + state.discarded[seat]
    for ms in state.ending.get("revealed", {}).values():
        everywhere += ms
    for t in state.stack:
        for packet in t.get("packets", {}).values():
            everywhere += packet
    assert sorted(everywhere) == sorted(pack().missions)


@pytest.mark.parametrize(("seed", "players", "draft", "events"),
                         [(1, 2, False, False), (2, 3, True, True), (3, 4, False, True), (4, 4, True, False)])
def test_whole_games_end_scored_with_their_messages_in_both_languages(seed: int, players: int, draft: bool,
                                                                     events: bool) -> None:
    state, msgs = play(seed, players, draft=draft, events=events)
    assert state.outcome is not None and all(not state.hands[s] for s in state.seats)
    assert state.outcome["scores"] == victory.scores(state)
    assert all(len(state.succeeded[s]) + len(state.failed[s]) >= 3 for s in state.seats)
    cat = catalogue()
    used = {m.id for m in msgs if m is not None}
    for lang in ("en", "pl"):
        assert not [m for m in used if m not in cat.messages[lang]], lang
    assert cat.problems() == []
    assert asdict(GAME.outcome(state))["winners"]
