"""Technologies (spec §8, rulebook §8.0–§8.2): a card played face down for the tech its icon shows,
revealed at Administrative step F, in force for the rest of the game.

What is checked when the card is played (gap G20: the server knows the hidden card, so an illegal
play is refused then rather than at the reveal): one tech per power per round (per country in the
2- and 3-player games), no tech the power already has, prerequisites developed in an EARLIER
round — ``state.techs`` only ever holds techs revealed at a past step F, so it is exactly that.
Research (events.py) plays a card of the discard pile through the same rules (``play_face_down``).
The tech VP are derived (``derived.tech_vp``); the revealed cards stay by the sheet, out of play.
"""

from __future__ import annotations

from typing import Any

from app.games.total_domination import derived, engine
from app.games.total_domination import pack as td_pack
from app.games.total_domination.changes import consequences, snapshot
from app.games.total_domination.engine import Ctx, Task, task
from app.games.total_domination.flow import Play, admin_step, register_play, turn_order
from app.games.total_domination.pack import POWERS, card
from app.games.total_domination.state import GameState
from app.games.total_domination.text import Label, say
from app.games.total_domination.views import view_part


def has_tech_this_round(state: GameState, power: str) -> bool:
    return power in state.tech_played


def tech_allowed(state: GameState, power: str, tech: str) -> bool:
    """Whether ``power`` may play a card for ``tech`` now (§8.1, G20)."""
    if state.automa(power) or has_tech_this_round(state, power):
        return False
    have = state.techs.get(power, [])
    if tech in have:
        return False
    requires, requires_any = prerequisites(tech)
    if any(req not in have for req in requires):
        return False
    return not requires_any or any(req in have for req in requires_any)


def prerequisites(tech: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(all of these, at least one of these) from the pack's Tech Sheet."""
    # rule tests of other modules stand in a pack stub with no Tech Sheet: nothing is required then
    spec = (getattr(td_pack.pack(), "techs", None) or {}).get(tech)
    return (spec.requires, spec.requires_any) if spec is not None else ((), ())


def playable_cards(state: GameState, power: str, cards: list[str]) -> list[str]:
    """The cards of ``cards`` that ``power`` may play face down for their tech now."""
    return [c for c in cards if tech_allowed(state, power, card(c).tech)]


def _choices(state: GameState, power: str) -> list[tuple[str, Label]]:
    if state.automa(power):
        return []
    return [(f"tech:{c}", say("choice_tech", card=c, tech=card(c).tech))
            for c in playable_cards(state, power, state.hand(power))]


def play_face_down(ctx: Ctx, power: str, card_id: str, source: str) -> None:
    """Lay ``card_id`` face down by the power's sheet: the public log says only that a card was
    played ("from the hand" / "from the discard pile"); its seat is told which."""
    state = ctx.state
    state.tech_played[power] = card_id
    seat = state.seats.get(power, "")
    private = {seat: say("log_tech_played_private", power=power, card=card_id, tech=card(card_id).tech)} if seat \
        else None
    ctx.log("log_tech_played", private=private, power=power, source=source)


def _start(ctx: Ctx, power: str, choice: str) -> None:
    card_id = choice.split(":", 1)[1]
    ctx.state.hand(power).remove(card_id)
    play_face_down(ctx, power, card_id, "from_hand")


register_play(Play("tech", _choices, _start))


# ------------------------------------------------------------------ Administrative step F
@task("tech_reveal")
def _run_tech_reveal(ctx: Ctx, t: Task) -> bool:
    """Every face-down tech card is turned up in turn order (§19.2: the order changes nothing,
    it only makes the log deterministic); in a solo game the automa's techs come first (§15.3
    rule 5), through the solo module's task when it is there."""
    state = ctx.state
    if state.solo_game() and not t.get("automa_done") and "automa_techs" in engine.RUN:
        t["automa_done"] = True
        ctx.push({"k": "automa_techs"})
        return False
    ctx.pop(t)
    before = snapshot(state)
    for power in turn_order(state):
        card_id = state.tech_played.pop(power, None)
        if card_id is None:
            continue
        tech = card(card_id).tech
        state.techs.setdefault(power, []).append(tech)
        state.tech_cards.setdefault(power, []).append(card_id)  # by the sheet for good: out of circulation
        ctx.log("log_tech_developed", power=power, tech=tech, card=card_id)
    consequences(ctx, before)  # the tech VP (a new colour) are logged with the other VP swings
    return False


admin_step("F", "tech_reveal")


# ------------------------------------------------------------------ what everyone sees
@view_part
def _view(state: GameState, seat: str | None) -> dict[str, Any]:
    return {
        "tech_vp": {p: derived.tech_vp(state, p) for p in POWERS},
        "tech_cards": {p: list(state.tech_cards.get(p, [])) for p in POWERS},
    }
