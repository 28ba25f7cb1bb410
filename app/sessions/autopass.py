"""Auto-pass: the platform answers a reaction window with its pass, as the seat's own answer,
by the seat's setting (``MatchSeat.autopass``), for games that say how a seat passes
(``app.games.protocol.AutoPasses``).

The pass is a move like any other, applied by the bot driver (app/sessions/bots.py) right
after the decision appears: logged under the seat (payload ``"auto": true``), so it is as
durable as a bot's move and the log replays it like any answer. Settings:

- ``idle`` (the default): "never ask me unless I hold a usable card": a window the seat holds
  nothing for is passed;
- ``ask``: "always ask me";
- ``round``: "pass everything until the end of this round": every window, usable card or not,
  while the game's round (``round_mark``) is the one the seat chose this in; then as ``idle``.
"""

from __future__ import annotations

from typing import Literal

from app.games.protocol import AutoPasses, Decision, GameRules, State, autopass_of
from app.models import MatchSeat

Mode = Literal["idle", "ask", "round"]
MODES: tuple[Mode, ...] = ("idle", "ask", "round")
DEFAULT: Mode = "idle"


def offered(game: GameRules | None) -> bool:
    """Whether the game's seats have the setting at all."""
    return isinstance(game, AutoPasses)


def may_pass(seat: MatchSeat) -> bool:
    """A player's seat whose setting may pass for it (a bot answers for itself)."""
    return seat.user_id is not None and not seat.bot and seat.autopass != "ask"


def effective(game: GameRules, state: State, seat: MatchSeat) -> Mode:
    """The setting in force now: "this round" lapses into the default once the round changed."""
    if seat.autopass == "round" and (not isinstance(game, AutoPasses) or seat.autopass_round != game.round_mark(state)):
        return DEFAULT
    return seat.autopass if seat.autopass in MODES else DEFAULT  # type: ignore[return-value]


def due(game: GameRules, state: State, seat: MatchSeat, decision: Decision) -> str | None:
    """The choice id the platform answers ``decision`` with for ``seat`` now, or None: ask."""
    if not may_pass(seat) or decision.optional or decision.seat != seat.seat:
        return None
    offer = autopass_of(game, state, seat.seat, decision)
    if offer is None or offer.choice not in decision.choice_ids():
        return None
    mode = effective(game, state, seat)
    return offer.choice if mode == "round" or (mode == "idle" and offer.idle) else None


def shown(game: GameRules | None, state: State | None, seat: MatchSeat | None) -> Mode | None:
    """The setting as the seat's player reads it (None: no seat, or the game passes nothing);
    without a state at hand, as stored."""
    if seat is None or seat.bot or not isinstance(game, AutoPasses):
        return None
    if state is None:
        return seat.autopass if seat.autopass in MODES else DEFAULT  # type: ignore[return-value]
    return effective(game, state, seat)
