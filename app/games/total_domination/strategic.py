"""The Strategic Phase (spec §5.2): the draft, the swap (Enigma), Espionage.

A first cut: every hand draws the year's cards. The yearly draft replaces it."""

from __future__ import annotations

from app.games.total_domination.engine import Ctx, Task, task
from app.games.total_domination.flow import strategic_step
from app.games.total_domination.state import GameState


def draw(state: GameState, n: int) -> list[str]:
    """The top ``n`` cards of the draw pile (an empty pile takes the discards in, shuffled: gap G1)."""
    out = state.deck[:n]
    del state.deck[:n]
    return out


@task("draft")
def _run_draft(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    ctx.pop(t)
    state.phase = "draft"
    for hid in sorted(set(state.hand_of.values())):
        state.hands[hid] = state.hands.get(hid, []) + draw(state, 4) + state.set_aside.pop(hid, [])
    return False


strategic_step(10, "draft")
