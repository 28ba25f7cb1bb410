"""MOVES hands its attacking force to BATTLE's real land battle (the interface, spec §25; A-7.2)."""

from __future__ import annotations

from app.games.attack import GAME
from tests.games.attack.dice_kit import ScriptedDice, faces
from tests.games.attack.moves_kit import answer, move_group, pending, table


def test_the_attacking_force_is_the_battles_reserve_and_the_survivors_take_the_region() -> None:
    state = table({"A": {"INF": 5}, "B": {"INF": 3}})
    answer(state, "MOVE")
    move_group(state, "A>B", "INF:2")
    move_group(state, "B>C", "INF:3")  # one of B's own and the two that moved in
    move_group(state, "A>E", "INF:1")
    answer(state, "done")
    # green's one infantry rolls first (never fewer than two dice): two blanks; then the three attackers
    dice = ScriptedDice(*faces("BLANK", "BLANK", "INF", "BLANK", "BLANK"))
    events = answer(state, "battle:C", rng=dice)
    texts = [e.text for e in events]
    assert "Light brown attacks Green in C: infantry ×3 against infantry ×1." in texts
    assert "Light brown wins the battle and takes C with infantry ×3." in texts
    assert state.owner["C"] == "p1" and state.units["C"] == {"INF": 3} and state.units["B"] == {"INF": 2}
    # the last battle needs no choice: it follows (an empty deck leaves neutral E undefended)
    assert "Light brown wins the battle and takes E with infantry ×1." in texts
    assert pending(state).kind == "action" and GAME.view(state, "p1")["movement"]["action"] is None
