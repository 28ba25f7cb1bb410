"""The protocol's plumbing for a game driven by the shared task engine (``app.games.tasks.Engine``).

Total Domination and Attack! answer the platform the same way: pending decisions and answers go to
the engine, views and secrets to the game's ``views`` module, bots to its ``bot`` module, snapshots
to its ``state`` module. A game's rules class inherits ``TaskGame`` and names those parts once
(``parts``); it writes only what is its own (seats, setup, the bound on answers, the outcome's
winners). Pure: no web, no database.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from app.games.protocol import Action, Decision, Event, Outcome
from app.games.tasks import Ctx, Engine, as_json, as_msg


@dataclass(frozen=True)
class GameParts:
    engine: Engine
    context: type[Ctx]
    view: Callable[[Any, str | None], dict[str, Any]]
    secrets: Callable[[Any, str], set[Any]]
    bot: Callable[[Any, Decision, random.Random], Action]
    dump: Callable[[Any], dict[str, Any]]
    load: Callable[[dict[str, Any]], Any]


def decision_facts(d: Decision) -> dict[str, Any]:
    """A pending decision as a board template reads it (ids, English labels and their messages)."""
    return {"id": d.id, "kind": d.kind, "prompt": d.prompt,
            "prompt_msg": as_json(d.prompt_msg) if d.prompt_msg else None, "min": d.min, "max": d.max,
            "choices": [{"id": c.id, "label": c.label, "msg": as_json(c.msg) if c.msg else None}
                        for c in d.choices]}


def waiting_on(engine: Engine, state: Any) -> list[str]:
    """The seats the table waits on now (public: never what anyone chose in a simultaneous step)."""
    t = engine.current(state)
    if t is None:
        return []
    if "q" in t:
        return [t["q"]["seat"]]
    return sorted({q["seat"] for h, q in t.get("qs", {}).items() if h not in t.get("got", {})})


def table_facts(engine: Engine, state: Any, seat: str | None) -> dict[str, Any]:
    """A board's page part: who the table waits on, and the seat's OWN pending decisions (so the board
    can make what they name clickable); nothing once the game is over."""
    mine = [decision_facts(d) for d in engine.decisions(state) if seat is not None and d.seat == seat] \
        if state.outcome is None else []
    return {"waiting": waiting_on(engine, state), "decisions": mine}


class TaskGame:
    parts: ClassVar[GameParts]

    def pending(self, state: Any) -> list[Decision]:
        return self.parts.engine.decisions(state)

    def apply(self, state: Any, seat: str, action: Action, rng: random.Random) -> list[Event]:
        ctx = self.parts.context(state, rng)
        self.parts.engine.apply_answer(ctx, seat, action.decision, tuple(action.choices))
        return ctx.events

    def ended(self, state: Any, winners: tuple[str, ...], fallback: str = "") -> Outcome:
        """The Outcome of a finished state (``state.outcome`` holds its ``summary_msg`` and ``scores``)."""
        o = state.outcome
        msg = as_msg(o.get("summary_msg"))
        return Outcome(winners=winners, summary=self.parts.engine.english(o["summary_msg"]) if msg else fallback,
                       summary_msg=msg, scores=dict(o.get("scores", {})))

    def view(self, state: Any, seat: str | None) -> dict[str, Any]:
        return self.parts.view(state, seat)

    def secrets(self, state: Any, seat: str) -> set[Any]:
        return self.parts.secrets(state, seat)

    def bot(self, state: Any, decision: Decision, rng: random.Random) -> Action:
        return self.parts.bot(state, decision, rng)

    def dump(self, state: Any) -> dict[str, Any]:
        return self.parts.dump(state)

    def load(self, data: dict[str, Any]) -> Any:
        return self.parts.load(data)
