"""A First to Fight table staged for the board's tests and screenshots: three commanders a few
rounds in, soldiers in every region (trained, wounded, one held by the concentration token),
missions revealed face up and face down, an event drawn and one placed on the time track; and a
helper that puts a one-answer question to a seat (its choices: tiles, regions, soldiers, cards).

No server: ``render`` draws the game's board template (found through ``GAME.package.board``) with
the context the table page gives it, in the asked language."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from app.api.templating import board_extras, board_template, templates
from app.games import registry
from app.games.first_to_fight import GAME, engine
from app.games.first_to_fight.engine import Ctx
from app.games.first_to_fight.pack import pack
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import say
from app.games.protocol import Action
from app.i18n import use_lang
from app.sessions.views import decision_payload

G = "first_to_fight"
CSRF = "csrf-token-123"


@pytest.fixture
def installed() -> Iterator[None]:
    """The game among the server's games (before registry.BUILTIN lists it), as the page finds it."""
    games = registry.installed()
    had = games.get(G)
    games[G] = GAME
    yield
    if had is None:
        games.pop(G, None)


@engine.cont("page_kit_answered")
def _answered(ctx: Ctx, t: engine.Task, choices: tuple[str, ...]) -> None:
    """The staged question's continuation: nothing follows it."""


def dealt(players: int = 3, seed: int = 5, keep: bool = True, **options: Any) -> GameState:
    """A table just set up; ``keep``: every commander keeps all four red missions, and the first
    chooser is asked for an order."""
    state = GAME.setup(dict(options), GAME.roles(players, options), random.Random(seed))
    rng = random.Random(seed)
    while keep and state.phase == "setup" and GAME.pending(state):
        d = GAME.pending(state)[0]
        GAME.apply(state, d.seat, Action(d.id, tuple(c.id for c in d.choices[:d.max])), rng)
    return state


def place(state: GameState, soldier: str, region: str, **values: Any) -> None:
    """``soldier`` from the deck onto the board in ``region`` (its printed values unless given)."""
    card = pack().soldiers[soldier]
    if soldier in state.soldier_deck:
        state.soldier_deck.remove(soldier)
    state.soldiers[soldier] = {"region": region, "s": card.strength, "u": card.underground, "trained": False,
                               "wounds": 0, **values}


def reveal(state: GameState, seat: str, mission: str, how: str) -> None:
    """A red mission that was set aside, now revealed in front of ``seat`` (``how``: succeeded,
    failed or discarded): public to all."""
    for pile in (state.stage1_deck, state.stage2_deck, state.removed_missions):
        if mission in pile:
            pile.remove(mission)
    getattr(state, how).setdefault(seat, []).append(mission)
    state.see("*", mission)


def midgame(players: int = 3, seed: int = 5, events: bool = True) -> GameState:
    """Round 4, the Orders Phase: Warsaw occupied, soldiers everywhere (one trained, one wounded,
    one held by the concentration token), VP and nurses, missions revealed, an event drawn and one
    placed on the time track (the Neutral Events rule on)."""
    st = dealt(players, seed, events=events)
    st.round, st.time = 4, 14
    st.domination["WAR"] = pack().regions["WAR"].occupied_from + 1
    deck = list(st.soldier_deck)
    by_region = {"WAR": 1, "POL": 3, "NEA": 4, "WEU": 2, "NAI": 2}
    for region, n in by_region.items():
        for _ in range(n):
            place(st, deck.pop(0), region)
    in_nea = st.in_region("NEA")
    first = pack().soldiers[in_nea[0]]
    st.soldiers[in_nea[0]].update(s=min(5, first.strength + 1), trained=True, wounds=1)
    st.soldiers[in_nea[1]]["wounds"] = 1
    locked = st.in_region("POL")[0]
    st.concentration = {"region": "POL", "formation": pack().soldiers[locked].formation}
    st.fallen = [deck.pop(0)]
    st.soldier_deck = [s for s in st.soldier_deck if s not in st.soldiers and s not in st.fallen]
    st.vp = {"p1": 4, "p2": 1, "p3": 0}
    st.nurses = {"p1": 1, "p2": 3, "p3": 0}
    st.tiles["SABOTAGE"]["vp"] = 2
    st.tiles["MOVEMENT"]["active"] = False
    st.chosen = ["MOVEMENT"]
    spare = [m for m in st.stage1_deck]
    reveal(st, "p1", spare[0], "succeeded")
    reveal(st, "p2", spare[1], "failed")
    reveal(st, "p3", spare[2], "discarded")
    drawn = st.event_deck.pop(0)
    st.event_drawn = drawn
    st.see("*", drawn)
    later = next(e for e in st.event_deck if pack().events[e].date > st.time)
    st.event_deck.remove(later)
    st.event_track = [later]
    st.see("*", later)
    return st


def ask(state: GameState, seat: str, choices: list[str], kind: str = "test", hi: int = 1) -> GameState:
    """Put a question to ``seat`` whose choices are ``choices`` (ids of tiles, regions, cards)."""
    options = [(c, say("choice_order", order=c)) for c in choices]
    state.stack.append(engine.ask(seat, say("prompt_order", seat=seat), options, "page_kit_answered", kind=kind,
                                  lo=1, hi=hi))
    engine.run(Ctx(state, random.Random(1)))
    return state


def render(state: GameState, seat: str | None, lang: str = "en", live: bool = True) -> str:
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
        return templates.env.get_template(board_template(G) or "").render(**ctx)
    finally:
        use_lang("en")


def hidden_from(state: GameState, seat: str | None) -> set[str]:
    """Every plain-text secret ``seat`` must not see (a spectator: every seat's)."""
    if seat is not None:
        return {s for s in GAME.secrets(state, seat) if isinstance(s, str)}
    return {s for other in state.seats for s in GAME.secrets(state, other) if isinstance(s, str)}
