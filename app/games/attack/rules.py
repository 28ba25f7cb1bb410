"""The GameRules object for Attack!: seats, setup, and the protocol's calls."""

from __future__ import annotations

import os
import random
from typing import Any

from app.games.attack import (  # noqa: F401  (the rule modules register at import)
    battle,
    bot,
    build,
    diplo,
    engine,
    flow,
    move,
    naval,
    page,
    reference,
    setup,
    summary,
    text,
    trade,
    victory,
    views,
)
from app.games.attack.engine import Ctx
from app.games.attack.pack import pack
from app.games.attack.state import GameState, dump, load
from app.games.protocol import (
    Action,
    Board,
    Decision,
    Event,
    GamePackage,
    Illegal,
    OptionSpec,
    Outcome,
    RulesReference,
    Seat,
    ViewSections,
)

HERE = os.path.dirname(os.path.abspath(__file__))


class Attack:
    id = "attack"
    title = "Attack!"
    min_players = 2
    max_players = 6
    version = "0.1.0"
    options: tuple[OptionSpec, ...] = (
        OptionSpec(id="end", label="How the game ends", default="timed",
                   choices=("timed", "elimination", "last_standing")),
        OptionSpec(id="turn_limit", label="Timed game: turns in all", default="36",
                   choices=("12", "24", "36", "48", "60", "90")),
        OptionSpec(id="finish_round", label="Timed game: finish the round", default=False, kind="bool"),
        OptionSpec(id="one_per_continent", label="Starting regions: one per continent", default=False, kind="bool"),
    )

    package = GamePackage(
        catalogue=text.catalogue(),
        board=Board(directory=os.path.join(HERE, "templates"), assets=("board.css", "board.js"),
                    context=page.board_context),
        sections=ViewSections(hand="hand", internal=("game", "options", "decisions", "waiting", "production")),
        data_dir=os.path.join(HERE, "data"),
        rules=RulesReference(directory=os.path.join(HERE, "rules"), cards=reference.cards),
        summary=summary.summary,
    )

    def roles(self, players: int, options: dict[str, Any]) -> list[Seat]:
        if not self.min_players <= players <= self.max_players:
            raise Illegal(f"Attack! is for 2 to 6 players, not {players}")
        colours = pack().colours
        return [Seat(id=f"p{i + 1}", label=colours[i].name, roles=(colours[i].id,)) for i in range(players)]

    def setup(self, options: dict[str, Any], seats: list[Seat], rng: random.Random) -> GameState:
        opts = {o.id: options.get(o.id, o.default) for o in self.options}
        opts["players"] = len(seats)
        state = GameState(options=opts, map="west", seats=[s.id for s in seats],
                          colours={s.id: s.roles[0] for s in seats}, seat_labels={s.id: s.label for s in seats})
        setup.deal(state, rng)
        ctx = Ctx(state, rng)
        flow.start(ctx)
        engine.run(ctx)
        return state

    def max_actions(self, players: int, options: dict[str, Any]) -> int:
        # setup: 4 claims, 20 units and a capital each; then each turn at most three actions of at most
        # ~150 small answers (moves group by group, battles round by round, builds unit by unit)
        turns = int(options.get("turn_limit", "36")) + players if options.get("end", "timed") == "timed" \
            else 200 * players
        return players * 26 + turns * 3 * 150

    def pending(self, state: GameState) -> list[Decision]:
        return engine.decisions(state)

    def apply(self, state: GameState, seat: str, action: Action, rng: random.Random) -> list[Event]:
        ctx = Ctx(state, rng)
        engine.apply_answer(ctx, seat, action.decision, tuple(action.choices))
        return ctx.events

    def outcome(self, state: GameState) -> Outcome | None:
        o = state.outcome
        if o is None:
            return None
        msg = text.as_msg(o.get("summary_msg"))
        return Outcome(winners=tuple(o["winners"]), summary=text.english(o["summary_msg"]) if msg else "",
                       summary_msg=msg, scores=dict(o.get("scores", {})))

    def view(self, state: GameState, seat: str | None) -> dict[str, Any]:
        return views.view(state, seat)

    def secrets(self, state: GameState, seat: str) -> set[Any]:
        return views.secrets(state, seat)

    def bot(self, state: GameState, decision: Decision, rng: random.Random) -> Action:
        return bot.choose(state, decision, rng)

    def dump(self, state: GameState) -> dict[str, Any]:
        return dump(state)

    def load(self, data: dict[str, Any]) -> GameState:
        return load(data)


GAME = Attack()
