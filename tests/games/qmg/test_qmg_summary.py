"""The end-of-game figures of QMG come from the public log: the score at the end of each round,
each country's VP (every VP line names its country) and the cards it played."""

from __future__ import annotations

import random

from app.games.protocol import action_rng
from app.games.qmg import GAME
from app.games.qmg.summary import summary


def line(msg_id: str, **params: object) -> dict[str, object]:
    return {"id": msg_id, "params": params}


def dominance(country: str) -> dict[str, object]:
    return {"id": "reason_dominance", "params": {"country": country, "items": []}}


def test_rounds_close_at_the_next_rounds_first_turn_and_at_the_end() -> None:
    lines = [
        line("setup_discards", country="germany"),
        line("turn_starts", round=1, country="germany"),
        line("plays_card", country="germany", card="ger_build_army"),
        line("vp_gain", team="axis", n=2, reason=dominance("germany")),
        line("turn_starts", round=1, country="uk"),
        line("plays_response", country="uk"),
        line("vp_loss", team="allies", n=1, reason={"id": "reason_deck_empty", "params": {"country": "uk", "n": 1}}),
        line("turn_starts", round=2, country="germany"),
        line("plays_status", country="germany", card="ger_blitzkrieg", summary="..."),
        line("vp_gain", team="axis", n=5, reason={"id": "reason_card", "params": {"country": "italy", "what": "x"}}),
        line("win_by_lead", team="axis", lead=30, round=2),
    ]
    got = summary(lines)
    assert got["rounds"] == [[1, {"axis": 2, "allies": -1}], [2, {"axis": 7, "allies": -1}]]
    assert got["by_role"]["germany"] == {"vp": 2, "cards": 2}
    assert got["by_role"]["italy"] == {"vp": 5, "cards": 0}
    assert got["by_role"]["uk"] == {"vp": -1, "cards": 1}
    assert got["totals"] == {"axis": 7, "allies": -1}


def test_a_whole_bot_game_adds_up_to_its_final_score() -> None:
    seats = GAME.roles(2, {})
    seed = b"summary-test"
    state = GAME.setup({}, seats, action_rng(seed, 0))
    lines: list[dict[str, object]] = []
    rng = random.Random(7)
    seq = 0
    while GAME.outcome(state) is None:
        decision = next(d for d in GAME.pending(state) if not d.optional)
        seq += 1
        for event in GAME.apply(state, decision.seat, GAME.bot(state, decision, rng), action_rng(seed, seq)):
            if event.msg is not None:
                lines.append({"id": event.msg.id, "params": event.msg.params})
    got = summary(lines)
    assert got["totals"] == state.vp
    assert got["rounds"][-1][1] == state.vp and got["rounds"][-1][0] == state.round
    assert [r for r, _ in got["rounds"]] == list(range(1, state.round + 1))
    by_team = {"axis": 0, "allies": 0}
    for country, figures in got["by_role"].items():
        by_team[state.team_of(country)] += figures["vp"]
    assert by_team == state.vp
    assert all(f["cards"] > 0 for f in got["by_role"].values())
