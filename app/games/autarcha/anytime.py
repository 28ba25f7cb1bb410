"""Any-time decisions (the passive player's reactions, U-10): decisions a seat may answer whenever they
are on offer, in either seat's turn, which nobody waits for (``Decision.optional``). A rule module
registers ``offers(state) -> list[Decision]`` (ids starting with its prefix, stable while on offer) and
``take(ctx, seat, decision_id, choices)``; rules.py lists the offers after the pending decision and
routes an answer by its prefix."""

from __future__ import annotations

from collections.abc import Callable

from app.games.autarcha.engine import Ctx
from app.games.autarcha.state import GameState
from app.games.protocol import Decision, Illegal, Msg

Offers = Callable[[GameState], list[Decision]]
Take = Callable[[Ctx, str, str, tuple[str, ...]], None]

REACTIONS: dict[str, tuple[Offers, Take]] = {}


def reaction(prefix: str, offers: Offers, take: Take) -> None:
    REACTIONS[prefix] = (offers, take)


def offers(state: GameState) -> list[Decision]:
    if state.outcome is not None:
        return []
    return [d for fns in REACTIONS.values() for d in fns[0](state)]


def owner(decision_id: str) -> str | None:
    return next((p for p in REACTIONS if decision_id.startswith(p)), None)


def take(ctx: Ctx, seat: str, decision_id: str, choices: tuple[str, ...]) -> None:
    prefix = owner(decision_id)
    assert prefix is not None
    offered = next((d for d in REACTIONS[prefix][0](ctx.state) if d.id == decision_id), None)
    if offered is None or offered.seat != seat:
        raise Illegal(f"decision {decision_id} is not on offer to you now",
                      msg=Msg("illegal_not_open", {"decision": decision_id}))
    if not offered.min <= len(choices) <= offered.max or any(c not in offered.choice_ids() for c in choices):
        raise Illegal(f"{', '.join(choices) or 'nothing'} is not a legal answer to: {offered.prompt}",
                      msg=Msg("illegal_answer", {"answer": ", ".join(choices), "prompt": offered.prompt_msg}))
    REACTIONS[prefix][1](ctx, seat, decision_id, choices)
