"""The task machine games drive their rules with (Quartermaster General, Total Domination).

A game's state holds a stack of small tasks (plain dicts, so they survive dump/load). The task
on top runs: it may push children (they run first), pop itself, or stop and wait for an answer
(the game stores its question in the task). Nested reactions are just more tasks on the stack,
which gives the rulebooks' "newest situation first" order. Each game has its own ``Machine``
(what its task kinds do) and its own ``Ctx`` (how it writes its log lines). Pure: no web, no
database.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from app.games.protocol import Event, Msg

Task = dict[str, Any]
RunFn = Callable[[Any, Task], bool]
AnswerFn = Callable[[Any, Task, tuple[str, ...]], None]


@dataclass
class Ctx:
    """One answer's work: the state it changes, the answer's RNG, the log lines it writes.
    A game subclasses it to name its catalogue's English renderer (``english``)."""

    state: Any  # the game's state: it has ``stack`` (a list of tasks) and ``outcome``
    rng: random.Random
    events: list[Event] = field(default_factory=list)
    english: ClassVar[Callable[[Any], str]]

    def log(self, msg_id: str, private: dict[str, Msg] | None = None, **params: Any) -> None:
        """A public log line as a message id of the game's catalogue; ``private``: the fuller lines
        for the seats that may read them."""
        msg, private = Msg(msg_id, params), dict(private or {})
        english = type(self).english
        self.events.append(Event(text=english(msg), private={s: english(m) for s, m in private.items()},
                                 msg=msg, private_msg=private))

    def push(self, *tasks: Task) -> None:
        """Push tasks so that the first one given runs first."""
        for t in reversed(tasks):
            self.state.stack.append(t)

    def pop(self, t: Task) -> None:
        stack = self.state.stack
        for i in range(len(stack) - 1, -1, -1):
            if stack[i] is t:
                del stack[i]
                return
        raise RuntimeError(f"task {t.get('k')} is not on the stack")


class Machine:
    """What each task kind of one game does: ``@machine.task(kind)`` runs it (True: it waits for an
    answer), ``@machine.answer(kind)`` takes an answer to its question, ``@machine.cont(name)`` is a
    continuation a generic question hands its answer to."""

    def __init__(self, max_steps: int = 100_000) -> None:
        self.run_fns: dict[str, RunFn] = {}
        self.answer_fns: dict[str, AnswerFn] = {}
        self.cont_fns: dict[str, AnswerFn] = {}
        self.max_steps = max_steps

    def task(self, kind: str) -> Callable[[RunFn], RunFn]:
        def deco(fn: RunFn) -> RunFn:
            self.run_fns[kind] = fn
            return fn

        return deco

    def answer(self, kind: str) -> Callable[[AnswerFn], AnswerFn]:
        def deco(fn: AnswerFn) -> AnswerFn:
            self.answer_fns[kind] = fn
            return fn

        return deco

    def cont(self, name: str) -> Callable[[AnswerFn], AnswerFn]:
        def deco(fn: AnswerFn) -> AnswerFn:
            self.cont_fns[name] = fn
            return fn

        return deco

    def run(self, ctx: Ctx, waiting: Callable[[Task], bool] | None = None) -> None:
        """Advance until a task waits for an answer, or the game is over. ``waiting(t)`` says a task
        still waits without being run again (a simultaneous step with answers still to come)."""
        stack = ctx.state.stack
        for _ in range(self.max_steps):
            if not stack or ctx.state.outcome is not None:
                return
            t = stack[-1]
            t.pop("q", None)
            if waiting is not None and waiting(t):
                return
            if self.run_fns[t["k"]](ctx, t):
                return
        raise RuntimeError("engine did not settle (runaway task loop)")

    def ask_runs(self, ctx: Ctx, t: Task, ask: Callable[[Task, int], bool]) -> bool:
        """A generic question's task (``t["options"]``, answered by continuation ``t["then"]``):
        none to offer, it goes; one possible answer answers itself; else ``ask(t, lo)`` waits."""
        if not t["options"]:
            ctx.pop(t)
            return False
        lo = min(t["lo"], len(t["options"]))
        if len(t["options"]) == 1 and lo == 1:
            ctx.pop(t)
            self.cont_fns[t["then"]](ctx, t, (t["options"][0][0],))
            return False
        return ask(t, lo)

    def ask_answered(self, ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
        ctx.pop(t)
        self.cont_fns[t["then"]](ctx, t, choices)
