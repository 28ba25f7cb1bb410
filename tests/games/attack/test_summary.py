"""The end-of-game figures (summary.py) from a public log: regions by round, the final standings,
Economics cards gained, who was eliminated; any odd line is passed over, never a crash."""

from __future__ import annotations

from typing import Any

from app.games.attack.rules import GAME
from app.games.attack.summary import summary


def row(seat: str, regions: int, units: int) -> dict[str, Any]:
    return {"id": "standing_row", "params": {"seat": seat, "regions": regions, "units": units, "n": regions}}


def test_the_package_carries_the_summary() -> None:
    assert GAME.package.summary is summary


def test_regions_by_round_the_final_standings_cards_and_eliminations() -> None:
    lines = [
        {"id": "region_claimed", "params": {"seat": "green", "region": "ukraine"}},
        {"id": "card_drawn", "params": {"seat": "green"}},
        {"id": "round_ends", "params": {"round": 1, "standing": [row("green", 5, 24), row("red", 4, 24)]}},
        {"id": "card_taken", "params": {"seat": "red", "loser": "green"}},
        {"id": "card_drawn", "params": {"seat": "red"}},
        # a neutral holds against red: the card drawn for the battle goes back, no gain
        {"id": "card_drawn", "params": {"seat": "red"}},
        {"id": "neutral_card", "params": {"seat": "red", "card": "ec-001", "region": "egypt"}},
        {"id": "neutral_held", "params": {"region": "egypt"}},
        {"id": "card_shuffled_back", "params": {"card": "ec-001"}},
        {"id": "eliminated", "params": {"seat": "green"}},
        {"id": "game_over", "params": {"round": 2, "standing": [row("red", 9, 30)], "winners": ["red"]}},
    ]
    fig = summary(lines)
    assert fig["rounds"] == [[1, {"green": 5, "red": 4}], [2, {"green": 0, "red": 9}]]
    assert fig["by_role"] == {"green": {"vp": 0, "cards": 1}, "red": {"vp": 9, "cards": 2}}
    assert fig["eliminated"] == ["green"]


def test_a_game_ending_with_its_round_keeps_one_row_for_that_round() -> None:
    lines = [
        {"id": "round_ends", "params": {"round": 3, "standing": [row("blue", 6, 20)]}},
        {"id": "game_over", "params": {"round": 3, "standing": [row("blue", 6, 20)]}},
    ]
    assert summary(lines)["rounds"] == [[3, {"blue": 6}]]


def test_odd_lines_are_passed_over() -> None:
    lines: list[Any] = [
        {}, {"id": "round_ends"}, {"id": "round_ends", "params": "x"},
        {"id": "round_ends", "params": {"round": 1, "standing": "nobody"}},
        {"id": "round_ends", "params": {"round": 1, "standing": [None, {"params": {"seat": 3}},
                                                                  {"params": {"seat": "red", "regions": "many"}},
                                                                  row("red", 2, 3)]}},
        {"id": "card_drawn", "params": {"seat": None}},
    ]
    fig = summary(lines)
    assert fig["rounds"] == [[1, {"red": 2}]] and fig["by_role"] == {"red": {"vp": 2, "cards": 0}}
    assert summary([]) == {"rounds": [], "by_role": {}, "eliminated": []}


def test_the_figures_of_a_played_game_match_its_outcome() -> None:
    """A seeded timed game with the game's bot: the last row and the final figures are the outcome's
    regions, by colour; a row for every round."""
    import random

    from app.games.protocol import action_rng

    opts = {"end": "timed", "turn_limit": "12", "finish_round": True}
    state = GAME.setup(opts, GAME.roles(3, opts), random.Random(4))
    lines: list[dict[str, Any]] = []
    rng = random.Random(4)
    while GAME.outcome(state) is None:
        d = GAME.pending(state)[0]
        events = GAME.apply(state, d.seat, GAME.bot(state, d, rng), action_rng(b"summary", state.step))
        lines += [{"id": e.msg.id, "params": e.msg.params} for e in events if e.msg is not None]
    fig = GAME.package.summary(lines)
    o = GAME.outcome(state)
    by_colour = {state.colours[s]: n for s, n in o.scores.items()}
    assert [r for r, _ in fig["rounds"]] == [1, 2, 3, 4] and fig["rounds"][-1][1] == by_colour
    assert {c: f["vp"] for c, f in fig["by_role"].items()} == by_colour
    assert all(f["cards"] >= 0 for f in fig["by_role"].values())
