"""The GameRules object for Total Domination: seats, setup, and the protocol's calls."""

from __future__ import annotations

import os
import random
from typing import Any

import app.games.total_domination.events  # noqa: F401  (the rule modules register their plays at import)
import app.games.total_domination.lendlease  # noqa: F401
import app.games.total_domination.rockets  # noqa: F401
import app.games.total_domination.techs  # noqa: F401
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
from app.games.total_domination import (  # noqa: F401  (the rule modules register at import)
    admin,
    airstrike,
    automa,
    bot,
    engine,
    flow,
    logistics,
    operations,
    page,
    reference,
    scenarios,
    strategic,
    summary,
    text,
    views,
)
from app.games.total_domination.engine import Ctx
from app.games.total_domination.pack import AXIS, POWERS, board_key, pack, side_of
from app.games.total_domination.state import GameState, dump, load

HERE = os.path.dirname(os.path.abspath(__file__))
POWER_TITLE = {"germany": "Germany", "uk": "United Kingdom", "japan": "Japan", "ussr": "USSR"}


def seatings(players: int, options: dict[str, Any]) -> list[tuple[str, ...]]:
    """Which powers each seat plays (spec §1, §12): the solo player is the Allies; in the 3-player
    game one seat plays both powers of a side (the table's choice, gap §12.3)."""
    if players == 1:
        return [("uk", "ussr")]
    if players == 2:
        return [("germany", "japan"), ("uk", "ussr")]
    if players == 3:
        if options.get("pair") == "axis":
            return [("germany", "japan"), ("uk",), ("ussr",)]
        return [("germany",), ("uk", "ussr"), ("japan",)]
    if players == 4:
        return [("germany",), ("uk",), ("japan",), ("ussr",)]
    raise Illegal(f"Total Domination is for 1 to 4 players, not {players}")


def hands_for(players: int, options: dict[str, Any]) -> dict[str, str]:
    """power -> hand id: one shared hand per side in the standard 2-player game and solo (spec §12.1,
    §15.1), else a hand per power."""
    shared = players == 1 or (players == 2 and options.get("two_player") != "separate")
    powers = ("uk", "ussr") if players == 1 else POWERS
    return {p: (side_of(p) if shared else p) for p in powers}


class TotalDomination(TaskGame):
    parts = GameParts(engine=engine.ENGINE, context=Ctx, view=views.view, secrets=views.secrets, bot=bot.choose,
                      dump=dump, load=load)
    id = "total_domination"
    title = "Total Domination"
    min_players = 1
    max_players = 4
    version = "0.1.0"
    options: tuple[OptionSpec, ...] = (
        OptionSpec(id="scenario", label="Scenario", default="full",
                   choices=("full", "rise_of_the_axis", "fall_of_the_axis")),
        OptionSpec(id="board", label="Board side", default="basic", choices=("basic", "alternative")),
        OptionSpec(id="setup", label="Starting positions", default="standard", choices=("standard", "alternative")),
        OptionSpec(id="bombers", label="Bomber squadrons (advanced)", default=False, kind="bool"),
        OptionSpec(id="uboats", label="U-boat flotillas (advanced)", default=False, kind="bool"),
        OptionSpec(id="arctic", label="Arctic expansion", default=False, kind="bool"),
        OptionSpec(id="two_player", label="Two players: hands", default="shared", choices=("shared", "separate")),
        OptionSpec(id="pair", label="Three players: the side one player plays with both powers",
                   default="allies", choices=("allies", "axis")),
    )

    package = GamePackage(
        catalogue=text.catalogue(),
        board=Board(directory=os.path.join(HERE, "templates"), assets=("board.css", "board.js"),
                    context=page.board_context),
        sections=ViewSections(hand=None, internal=("game", "options", "decisions")),
        data_dir=os.path.join(HERE, "data"),
        rules=RulesReference(directory=os.path.join(HERE, "rules"), cards=reference.cards),
        summary=summary.summary,
    )

    def roles(self, players: int, options: dict[str, Any]) -> list[Seat]:
        return [Seat(id=f"p{i + 1}", label=" + ".join(POWER_TITLE[p] for p in ps), roles=ps)
                for i, ps in enumerate(seatings(players, options))]

    def setup(self, options: dict[str, Any], seats: list[Seat], rng: random.Random) -> GameState:
        opts = {o.id: options.get(o.id, o.default) for o in self.options}
        opts["players"] = len(seats)
        if opts["players"] == 1:
            opts["bombers"] = opts["uboats"] = False  # solo rule 8: no bombers, U-boats or Resistance (spec §15.3)
        data = pack()
        scenario = data.scenarios[opts["scenario"]]
        if opts["scenario"] == "fall_of_the_axis":
            opts["arctic"] = False  # the scenario is meant to be played without the Arctic (spec §14.2)
            opts["setup"] = "standard"  # it has its own placements
        opts["first_year"], opts["last_year"] = scenario.first_year, scenario.last_year
        owner = {p: s.id for s in seats for p in s.roles}
        if opts["players"] == 1:
            owner.update({p: "" for p in AXIS})
        if set(owner) != set(POWERS):
            raise Illegal("every one of the four powers needs a seat (or the solo automa)")
        state = GameState(options=opts, board=board_key(opts["board"], bool(opts["arctic"])), seats=owner,
                          seat_labels={s.id: s.label for s in seats},
                          hand_of=hands_for(opts["players"], opts), year=scenario.first_year)
        state.hands = {h: [] for h in sorted(set(state.hand_of.values()))}
        state.controller = {"france": "uk", "italy": "germany", "usa": "nonaligned", "china": "nonaligned",
                            **scenario.coalition}
        state.tracks = {"usa": 0, "china": 0, **scenario.tracks}
        state.techs = {p: list(scenario.techs.get(p, ())) for p in POWERS}
        main = sorted(c.id for c in data.cards.values() if c.deck == "main")
        rng.shuffle(main)
        state.deck = main
        for nation in ("usa", "china"):
            deck = sorted(c.id for c in data.cards.values() if c.deck == nation)
            rng.shuffle(deck)
            state.decks[nation] = deck
        scenarios.begin(state, scenario, data, rng)
        ctx = Ctx(state, rng)
        flow.start(ctx)
        return state

    def max_actions(self, players: int, options: dict[str, Any]) -> int:
        # a year takes the draft (at most ~6 picks per hand), the swaps and espionage, then turns
        # until every power passes: a power holds at most ~8 cards, each card's operations take at
        # most ~40 small answers (OP 7 + saved 1 at 1 OP each, with their follow-ups)
        return 7 * (4 * 6 + 4 * 4 + 4 * 8 * 45)

    def outcome(self, state: GameState) -> Outcome | None:
        o = state.outcome
        if o is None:
            return None
        side = o.get("side")
        winners = tuple(sorted({s for p, s in state.seats.items() if s and side and side_of(p) == side}))
        return self.ended(state, winners, fallback=str(side))


GAME = TotalDomination()
