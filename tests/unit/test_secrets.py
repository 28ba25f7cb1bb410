"""Secrets are facts, not only ids (issue 8, section 2): a hidden square and a hidden facing
planted in the fixture game are caught by value wherever a payload would give them away."""

from __future__ import annotations

import json
from typing import Any

from app.games.protocol import action_rng
from app.games.secrets import Secret, leaks
from tests.fixtures.cardgame import GAME, Skirmish


def started(players: int = 3) -> Any:
    return GAME.setup({}, GAME.roles(players, {}), action_rng(b"secrets", 0))


class LeaksTheSquare(Skirmish):
    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        out = super().view(state, seat)
        out["rumour"] = {"x": state.hq["p2"][0], "y": state.hq["p2"][1]}  # p2's square, as x/y
        return out


class LeaksTheFacing(Skirmish):
    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        out = super().view(state, seat)
        for entry in out["seats"]:
            entry["facing"] = state.facing[entry["id"]]  # everyone's facing beside their seat
        return out


def test_the_fixture_names_positions_and_facings_as_secrets():
    state = started()
    hidden = GAME.secrets(state, "p1")
    assert Secret("p2's headquarters", tuple(state.hq["p2"])) in hidden
    assert Secret("p2's facing", state.facing["p2"], near="p2") in hidden
    assert not leaks(json.dumps(GAME.view(state, "p1")), hidden)
    mine = GAME.view(state, "p2")["my_headquarters"]
    assert mine == {"seat": "p2", "square": state.hq["p2"], "facing": state.facing["p2"]}


def test_a_leaked_square_is_caught_in_any_shape():
    state = started()
    hidden = GAME.secrets(state, "p1")
    caught = leaks(json.dumps(LeaksTheSquare().view(state, "p1")), hidden)
    assert [s.place for s in caught] == ["p2's headquarters"]
    x, y = state.hq["p2"]
    assert leaks(f'<td data-square="{x},{y}">HQ</td>', hidden), "in HTML"
    assert leaks(json.dumps({"spotted": [x, y]}), hidden), "as a pair"


def test_a_leaked_facing_is_caught_beside_its_owner_only():
    state = started()
    hidden = GAME.secrets(state, "p1")
    caught = leaks(json.dumps(LeaksTheFacing().view(state, "p1")), hidden)
    assert {s.place for s in caught} == {"p2's facing", "p3's facing"}, "p1's own facing is p1's to see"
    facing = state.facing["p3"]
    assert leaks(f'<li id="seat-p3">Player 3 <span class="facing">{facing}</span></li>', hidden), "in HTML"
    assert not leaks(json.dumps({"compass": [facing]}), hidden), "the bare word alone is no leak"


def test_plain_tokens_still_work():
    assert leaks("you hold card-c01", ["card-c01"]) == [Secret("", "card-c01")]
    assert not leaks("you hold card-c02", ["card-c01"])
