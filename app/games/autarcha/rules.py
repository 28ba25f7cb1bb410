"""The GameRules object for Autarcha: seats, options, setup, and the protocol's calls."""

from __future__ import annotations

import os
import random
from typing import Any

from app.games.autarcha import (  # noqa: F401  (the rule modules register at import)
    anytime,
    areas,
    attacks,
    bot,
    buying,
    deployment,
    engine,
    flow,
    formation,
    gold,
    mines,
    movement,
    page,
    recruitment,
    reference,
    sappers,
    setup,
    summary,
    text,
    victory,
    views,
)
from app.games.autarcha.engine import Ctx
from app.games.autarcha.pack import SCENARIOS, pack
from app.games.autarcha.state import SEATS, GameState, dump, load
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
from app.games.taskgame import GameParts, TaskGame

HERE = os.path.dirname(os.path.abspath(__file__))


class Autarcha(TaskGame):
    parts = GameParts(engine=engine.ENGINE, context=Ctx, view=views.view, secrets=views.secrets, bot=bot.choose,
                      dump=dump, load=load)
    id = "autarcha"
    title = "Autarcha"
    min_players = 2
    max_players = 2
    version = "0.1.0"
    options: tuple[OptionSpec, ...] = (
        OptionSpec(id="scenario", label="Scenario", default="skirmish", choices=SCENARIOS),
        OptionSpec(id="collect_costs_move", label="Collecting gold costs one of the five moves", default=False,
                   kind="bool"),
    )

    package = GamePackage(
        catalogue=text.catalogue(),
        board=Board(directory=os.path.join(HERE, "templates"), assets=("board.css", "board.js"),
                    context=page.board_context),
        sections=ViewSections(internal=("game", "options", "decisions", "waiting")),
        data_dir=os.path.join(HERE, "data"),
        rules=RulesReference(directory=os.path.join(HERE, "rules"), cards=reference.cards),
        summary=summary.summary,
    )

    def roles(self, players: int, options: dict[str, Any]) -> list[Seat]:
        if players != 2:
            raise Illegal(f"Autarcha is for 2 players, not {players}")
        return [Seat(id="white", label="White"), Seat(id="red", label="Red")]

    def setup(self, options: dict[str, Any], seats: list[Seat], rng: random.Random) -> GameState:
        pack()  # a broken data pack is refused before any table starts
        opts = {o.id: options.get(o.id, o.default) for o in self.options}
        if opts["scenario"] not in SCENARIOS:
            raise Illegal(f"scenario: {opts['scenario']!r} is not one of {', '.join(SCENARIOS)}")
        state = GameState(options=opts, seats=list(SEATS), scenario=opts["scenario"],
                          seat_labels={s.id: s.label for s in seats})
        setup.issue(state, rng)
        ctx = Ctx(state, rng)
        flow.start(ctx)
        engine.run(ctx)
        return state

    def pending(self, state: GameState) -> list[Decision]:
        return engine.decisions(state) + anytime.offers(state)  # any-time ones come last

    def apply(self, state: GameState, seat: str, action: Action, rng: random.Random) -> list[Event]:
        if anytime.owner(action.decision):
            ctx = Ctx(state, rng)
            anytime.take(ctx, seat, action.decision, tuple(action.choices))
            return ctx.events
        return super().apply(state, seat, action, rng)

    def max_actions(self, players: int, options: dict[str, Any]) -> int:
        # the turn limit's turns, each of five moves of a few answers, and a setup of every piece placed
        return flow.TURN_LIMIT * (2 + 5 * 8) + 400

    def outcome(self, state: GameState) -> Outcome | None:
        o = state.outcome
        if o is None:
            return None
        return self.ended(state, tuple(o["winners"]))


GAME = Autarcha()
