"""The GameRules object for First to Fight: seats, options, setup, and the protocol's calls."""

from __future__ import annotations

import os
import random
from typing import Any

from app.games.first_to_fight import (  # noqa: F401  (the rule modules register at import)
    abilities,
    bot,
    concentration,
    ending,
    engine,
    events,
    flow,
    keep,
    losses,
    missions,
    movement,
    orders,
    page,
    recruitment,
    reference,
    regions,
    sabotage,
    setup,
    summary,
    text,
    training,
    victory,
    views,
)
from app.games.first_to_fight.engine import Ctx
from app.games.first_to_fight.pack import pack
from app.games.first_to_fight.state import GameState, dump, load
from app.games.protocol import (
    Board,
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


class FirstToFight(TaskGame):
    parts = GameParts(engine=engine.ENGINE, context=Ctx, view=views.view, secrets=views.secrets, bot=bot.choose,
                      dump=dump, load=load)
    id = "first_to_fight"
    title = "First to Fight"
    min_players = 2
    max_players = 4
    version = "0.1.0"
    options: tuple[OptionSpec, ...] = (
        OptionSpec(id="draft", label="Advanced rule: distribution of missions (draft)", default=False, kind="bool"),
        OptionSpec(id="events", label="Advanced rule: neutral events", default=False, kind="bool"),
    )

    package = GamePackage(
        catalogue=text.catalogue(),
        board=Board(directory=os.path.join(HERE, "templates"), assets=("board.css", "board.js"),
                    context=page.board_context),
        sections=ViewSections(hand="hand", internal=("game", "options", "decisions", "waiting")),
        data_dir=os.path.join(HERE, "data"),
        rules=RulesReference(directory=os.path.join(HERE, "rules"), cards=reference.cards),
        summary=summary.summary,
    )

    def roles(self, players: int, options: dict[str, Any]) -> list[Seat]:
        if not self.min_players <= players <= self.max_players:
            raise Illegal(f"First to Fight is for 2 to 4 players, not {players}")
        return [Seat(id=f"p{i + 1}", label=f"Commander {i + 1}") for i in range(players)]

    def setup(self, options: dict[str, Any], seats: list[Seat], rng: random.Random) -> GameState:
        pack()  # a broken data pack is refused before any table starts
        opts = {o.id: options.get(o.id, o.default) for o in self.options}
        opts["players"] = len(seats)
        state = GameState(options=opts, seats=[s.id for s in seats], seat_labels={s.id: s.label for s in seats})
        setup.deal(state, rng)
        ctx = Ctx(state, rng)
        flow.start(ctx)
        engine.run(ctx)
        return state

    def max_actions(self, players: int, options: dict[str, Any]) -> int:
        # at most ~25 rounds (the event deck's advances run out the time track), each of at most six
        # orders answered round the table with a few sub-answers, and an Ending Phase
        return 60 + 25 * (6 * players * 6 + players * 12)

    def outcome(self, state: GameState) -> Outcome | None:
        o = state.outcome
        if o is None:
            return None
        return self.ended(state, tuple(o["winners"]))


GAME = FirstToFight()
