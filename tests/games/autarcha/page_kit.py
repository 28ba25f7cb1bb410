"""An Autarcha table staged for the board's tests and screenshots: a Skirmish after its (provisional)
deployment, and helpers that put units, mines, marks and a one-answer question on it.

No server: ``render`` draws the game's board template (found through ``GAME.package.board``) with the
context the table page gives it, in the asked language."""

from __future__ import annotations

import random
from typing import Any

from app.api.templating import board_extras, board_template, templates
from app.games.autarcha import GAME, engine
from app.games.autarcha.engine import Ctx
from app.games.autarcha.state import GameState
from app.games.autarcha.text import say
from app.games.protocol import Decision
from app.i18n import use_lang
from app.sessions.views import decision_payload

G = "autarcha"
CSRF = "csrf-token-123"


@engine.cont("au_page_kit_answered")
def _answered(ctx: Ctx, t: engine.Task, choices: tuple[str, ...]) -> None:
    """The staged question's continuation: nothing follows it."""


def dealt(seed: int = 3, **options: Any) -> GameState:
    """A Skirmish just deployed (every setup decision answered with its first choice), in white's first
    turn with five moves, nothing asked yet (``ask`` puts the question): the stack is emptied so that a
    test's own question is the only one."""
    from tests.games.autarcha.econ_kit import Table, play_setup

    table = Table(options.pop("scenario", "skirmish"), random.Random(seed), **options)
    play_setup(table)
    state = table.state
    state.stack.clear()
    state.outcome = None
    state.phase, state.turn, state.active, state.moves_left = "play", 1, state.first or "white", 5
    return state


def ask(state: GameState, seat: str, kind: str, choices: list[str]) -> Decision:
    """Put a one-answer question of ``kind`` to ``seat`` on top of the stack: its choices are ids as
    the rule modules give them ("<sq>", "<sq>@<facing>", "unit:<uid>", "end"...)."""
    labelled = [(c, say("choice_back")) for c in choices]
    state.stack.append(engine.ask(seat, say("prompt_move", seat=seat, moves=state.moves_left), labelled,
                                  then="au_page_kit_answered", kind=kind))
    engine.run(Ctx(state, random.Random(0)))
    return next(d for d in GAME.pending(state) if d.seat == seat and not d.optional)


def render(state: GameState, seat: str | None, lang: str = "en", live: bool = True, part: str | None = None) -> str:
    """The board as ``seat`` sees it (``live``: with the seat's pending decisions, as the page has them)."""
    use_lang(lang)
    try:
        view = GAME.view(state, seat)
        pending = [decision_payload(d) for d in GAME.pending(state) if d.seat == seat] if live else []
        ctx: dict[str, Any] = {
            "view": view, "board_ctx": board_extras(G, view, seat), "match_id": "m-1", "csrf": CSRF, "seq": 7,
            "pending": pending, "game_id": G,
            "seats": [{"seat": s, "label": s, "player": f"Name {s}", "bot": None} for s in state.seats],
        }
        if part is not None:
            ctx["board_part"] = part
        return templates.env.get_template(board_template(G) or "").render(**ctx)
    finally:
        use_lang("en")
