"""Rulebook: any player may take any number of their own units off the board at any moment,
even during another player's turn. Offered as an any-time decision at every action-phase
prompt; nobody waits for it."""

from __future__ import annotations

import pytest

from app.games.protocol import Action, Illegal, action_rng
from app.games.qmg import GAME
from app.games.qmg.engine import decision_of


def at_germanys_action_prompt(seed: int = 3):
    seats = GAME.roles(2, {})
    state = GAME.setup({}, seats, action_rng(seed.to_bytes(4, "big"), 0))
    for step in range(200):
        d = decision_of(state)
        assert d is not None
        if d.kind == "action" and state.active == "germany":
            return state
        GAME.apply(state, d.seat, GAME.bot(state, d, action_rng(b"bot", step)), action_rng(b"game", step))
    raise AssertionError("never reached Germany's action phase")


def test_not_offered_while_the_opening_discards_are_made():
    state = GAME.setup({}, GAME.roles(2, {}), action_rng(b"s", 0))
    assert [d.kind for d in GAME.pending(state)] == ["setup_discard"]


def test_the_other_side_may_take_a_unit_off_in_germanys_action_phase():
    state = at_germanys_action_prompt()
    required = decision_of(state)
    pending = GAME.pending(state)
    assert pending[0] == required, "the required decision comes first"
    anytime = {d.seat: d for d in pending if d.optional}
    assert sorted(anytime) == ["p1", "p2"]
    assert {c.split(":")[0] for c in anytime["p1"].choice_ids()} == {"japan", "italy"}, \
        "Germany's own prompt already offers Germany's removals; its partners' come here"
    offer = anytime["p2"]
    assert "uk:united_kingdom" in offer.choice_ids()
    events = GAME.apply(state, "p2", Action(offer.id, ("uk:united_kingdom",)), action_rng(b"x", 1))
    assert not state.has_unit("united_kingdom", "uk")
    assert any("takes its army in United Kingdom off the board" in e.text for e in events)
    again = decision_of(state)
    assert again is not None and again.kind == "action" and again.seat == "p1", "still Germany's prompt"
    assert again.id != required.id, "asked again: an answer sent before the removal is stale"
    with pytest.raises(Illegal):
        GAME.apply(state, "p1", Action(required.id, (required.choice_ids()[0],)), action_rng(b"y", 2))


def test_only_ones_own_units_and_only_at_a_safe_point():
    state = at_germanys_action_prompt()
    offer = next(d for d in GAME.pending(state) if d.optional and d.seat == "p2")
    assert all(c.split(":")[0] in ("uk", "ussr", "usa") for c in offer.choice_ids())
    with pytest.raises(Illegal):
        GAME.apply(state, "p2", Action(offer.id, ("germany:germany",)), action_rng(b"x", 1))
    with pytest.raises(Illegal):
        GAME.apply(state, "p1", Action("anytime-remove:p1", ("germany:germany",)), action_rng(b"x", 1))
