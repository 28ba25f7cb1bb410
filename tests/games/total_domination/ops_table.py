"""Drive a staged state through the real turn flow, answering as a player would (operations tests)."""

from __future__ import annotations

import random
from typing import Any

from app.games.protocol import Decision, Event
from app.games.total_domination import engine, text
from app.games.total_domination.engine import Ctx
from app.games.total_domination.state import GameState

# the catalogue reads the data pack's names once; read it before any test stubs the pack
text.catalogue()


class Table:
    def __init__(self, st: GameState) -> None:
        self.st = st
        self.seq = 0
        self.events: list[Event] = []

    def turn(self, power: str) -> Table:
        """Open ``power``'s Action Phase turn as flow.py does."""
        self.st.active, self.st.turn = power, {"power": power}
        self.push({"k": "turn", "power": power})
        return self

    def push(self, *tasks: dict[str, Any]) -> None:
        ctx = Ctx(self.st, random.Random(0))
        ctx.push(*tasks)
        engine.run(ctx)
        self.events += ctx.events

    def call(self, fn: Any, *args: Any) -> None:
        """Call a rule module's helper that pushes tasks (push_operations, push_logistics), then run."""
        ctx = Ctx(self.st, random.Random(0))
        fn(ctx, *args)
        engine.run(ctx)
        self.events += ctx.events

    @property
    def decision(self) -> Decision:
        pending = engine.decisions(self.st)
        assert pending, "nothing is waiting for an answer"
        return pending[0]

    @property
    def waiting(self) -> bool:
        return bool(engine.decisions(self.st))

    def choices(self) -> list[str]:
        return [c.id for c in self.decision.choices]

    def cost(self, choice: str) -> int:
        c = next(c for c in self.decision.choices if c.id == choice)
        assert c.msg is not None
        return int(c.msg.params["cost"])

    def answer(self, *choices: str) -> Table:
        d = self.decision
        self.seq += 1
        ctx = Ctx(self.st, random.Random(self.seq))
        engine.apply_answer(ctx, d.seat, d.id, tuple(choices))
        self.events += ctx.events
        return self

    @property
    def op(self) -> int:
        return int(self.st.turn["ops"]["op"])

    def logged(self, msg_id: str) -> list[dict[str, Any]]:
        return [dict(e.msg.params) for e in self.events if e.msg is not None and e.msg.id == msg_id]
