"""The GameRules object for Quartermaster General WW2 (2nd edition)."""

from __future__ import annotations

import os
import random
from typing import Any

from app.games.protocol import (
    Action,
    Board,
    Decision,
    Event,
    GamePackage,
    Illegal,
    Msg,
    OptionSpec,
    Outcome,
    Pass,
    RulesReference,
    Seat,
    ViewSections,
)
from app.games.qmg import anytime, board, bot, flow, page, reference, summary, text, views
from app.games.qmg import cards as _cards  # noqa: F401  (registers every card rule)
from app.games.qmg.data import COUNTRIES, COUNTRY_TITLE, deck_of, members
from app.games.qmg.engine import Ctx, apply_answer, decision_of, run
from app.games.qmg.state import GameState, dump, load, new_state
from app.games.qmg.turn import ROUNDS, turn

HERE = os.path.dirname(os.path.abspath(__file__))

# Rulebook §3.1: which countries each player controls, by player count (turn order inside a seat).
ROLE_TABLE: dict[int, list[tuple[str, ...]]] = {
    2: [("germany", "japan", "italy"), ("uk", "ussr", "usa")],
    3: [("germany",), ("uk", "ussr", "usa"), ("japan", "italy")],
    4: [("germany",), ("uk", "usa"), ("japan", "italy"), ("ussr",)],
    5: [("germany",), ("uk",), ("japan", "italy"), ("ussr",), ("usa",)],
    6: [("germany",), ("uk",), ("japan",), ("ussr",), ("italy",), ("usa",)],
}

# A country's turn asks for a card or a pass, then the card's builds, battles and choices,
# the reactions it triggers (Responses, Status cards, the dominance-phase Status question)
# and supply removals: 19 answers at most, 469 in a whole game, in 70 seeded bot and random
# games (engine 0.3). Three times that per turn still lets the fuzzer catch a runaway loop.
MAX_ANSWERS_PER_TURN = 60


class QuartermasterGeneral:
    id = "qmg"
    title = "Quartermaster General WW2"
    min_players = 2
    max_players = 6
    version = "0.3.0"  # 0.2: units in sorted order (JSONB-safe), any-time removal; 0.2.1: prompts as message
    # ids; 0.3: dominance Status VP are asked
    options: tuple[OptionSpec, ...] = (
        OptionSpec(id="reallocation", label="Reallocation of resources (optional rule)", default=False,
                   kind="bool"),
        OptionSpec(id="battle_needs_supply", label="Battles only from supplied units (English-language reading)",
                   default=False, kind="bool"),
    )

    package = GamePackage(
        catalogue=text.catalogue(),
        board=Board(directory=os.path.join(HERE, "templates"), assets=("board.css", "board.js"),
                    context=page.board_context),
        sections=ViewSections(hand="hand", private=("my_responses",), internal=("game",)),
        data_dir=os.path.join(HERE, "data"),
        rules=RulesReference(directory=os.path.join(HERE, "rules"), cards=reference.cards),
        summary=summary.summary,
    )

    # ------------------------------------------------------------------ seats & setup
    def roles(self, players: int, options: dict[str, Any]) -> list[Seat]:
        if players not in ROLE_TABLE:
            raise Illegal(f"Quartermaster General is for 2 to 6 players, not {players}")
        return [
            Seat(id=f"p{i + 1}", label=f"Player {i + 1}: " + ", ".join(COUNTRY_TITLE[c] for c in cs), roles=cs)
            for i, cs in enumerate(ROLE_TABLE[players])
        ]

    def setup(self, options: dict[str, Any], seats: list[Seat], rng: random.Random) -> GameState:
        owner = {c: s.id for s in seats for c in s.roles}
        if set(owner) != set(COUNTRIES):
            raise Illegal("every one of the six countries needs a seat")
        opts = {o.id: options.get(o.id, o.default) for o in self.options}
        state = new_state(opts, owner, {s.id: s.label for s in seats})
        ctx = Ctx(state, rng)
        for c in COUNTRIES:
            state.place(board.capital(c), c)
            deck = deck_of(c)
            rng.shuffle(deck)
            cs = state.countries[c]
            cs.hand, cs.deck = deck[:10], deck[10:]
        ctx.push(*[{"k": "setup_discard", "c": c} for c in COUNTRIES], turn(COUNTRIES[0]))
        run(ctx)
        return state

    def max_actions(self, players: int, options: dict[str, Any]) -> int:
        # the setup discards count in the first round; round ROUNDS ends the game at the latest
        return ROUNDS * len(COUNTRIES) * MAX_ANSWERS_PER_TURN

    # ------------------------------------------------------------------ play
    def pending(self, state: GameState) -> list[Decision]:
        d = decision_of(state)
        return ([d] if d else []) + anytime.removal_decisions(state)  # any-time ones come last

    def apply(self, state: GameState, seat: str, action: Action, rng: random.Random) -> list[Event]:
        ctx = Ctx(state, rng)
        if anytime.is_removal(action.decision):
            anytime.apply_removal(ctx, seat, action.decision, tuple(action.choices))
        else:
            apply_answer(ctx, seat, action.decision, tuple(action.choices))
        return ctx.events

    def outcome(self, state: GameState) -> Outcome | None:
        o = state.outcome
        if o is None:
            return None
        winners = tuple(sorted({state.seats[c] for c in members(o["team"])}))
        scores = {seat: 0 for seat in state.seats.values()}
        for c, seat in state.seats.items():
            scores[seat] = o["scores"]["axis" if c in members("axis") else "allies"]
        return Outcome(winners=winners, summary=o["summary"], scores=scores,
                       summary_msg=text.as_msg(o.get("summary_msg")))

    # ------------------------------------------------------------------ information
    def view(self, state: GameState, seat: str | None) -> dict[str, Any]:
        return views.view(state, seat)

    def secrets(self, state: GameState, seat: str) -> set[str]:
        return views.secrets(state, seat)

    def waiting_note(self, state: GameState, viewer: str | None) -> Msg | None:
        return flow.waiting_note(state)

    # ------------------------------------------------------------------ auto-pass (flow.py)
    def autopass(self, state: GameState, seat: str, decision: Decision) -> Pass | None:
        return flow.autopass(seat, decision)

    def round_mark(self, state: GameState) -> str:
        return flow.round_mark(state)

    def bot(self, state: GameState, decision: Decision, rng: random.Random) -> Action:
        return bot.choose(state, decision, rng)

    def dump(self, state: GameState) -> dict[str, Any]:
        return dump(state)

    def load(self, data: dict[str, Any]) -> GameState:
        return load(data)


GAME = QuartermasterGeneral()
