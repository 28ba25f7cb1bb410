"""The task machine that drives the game.

The state holds a stack of small tasks (plain dicts, so they survive dump/load).
The task on top runs; it may push children (which run first), pop itself, or stop
and wait for an answer: then it stores the seat, prompt and legal choices in itself
and ``pending()`` turns that into a :class:`Decision`. Nested reactions are just
more tasks on the stack, which gives the rulebook's "newest situation first" order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.games.protocol import Choice, Decision, Event, Illegal, Msg
from app.games.qmg.state import GameState
from app.games.qmg.text import as_json, as_msg, english, say

Task = dict[str, Any]
RunFn = Callable[["Ctx", Task], bool]
AnswerFn = Callable[["Ctx", Task, tuple[str, ...]], None]

RUN: dict[str, RunFn] = {}
ANSWER: dict[str, AnswerFn] = {}
CONT: dict[str, Callable[[Ctx, Task, tuple[str, ...]], None]] = {}


def task(kind: str) -> Callable[[RunFn], RunFn]:
    def deco(fn: RunFn) -> RunFn:
        RUN[kind] = fn
        return fn

    return deco


def answer(kind: str) -> Callable[[AnswerFn], AnswerFn]:
    def deco(fn: AnswerFn) -> AnswerFn:
        ANSWER[kind] = fn
        return fn

    return deco


def cont(name: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    def deco(fn: Callable[..., None]) -> Callable[..., None]:
        CONT[name] = fn
        return fn

    return deco


@dataclass
class Ctx:
    state: GameState
    rng: random.Random
    events: list[Event] = field(default_factory=list)

    def log(self, msg_id: str, private: dict[str, Msg] | None = None, **params: Any) -> None:
        """A log line as a message id of the catalogue (catalogue.yaml); ``private`` the fuller
        lines for the seats that may read them."""
        msg, private = Msg(msg_id, params), dict(private or {})
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


Label = Msg | str  # a message of the catalogue (a plain string: already a term or a card's name)


def wait(
    t: Task, seat: str, kind: str, prompt: Label, choices: list[tuple[str, Label]],
    lo: int = 1, hi: int = 1, undoable: bool = False,
) -> bool:
    t["q"] = {
        "seat": seat, "kind": kind, "prompt": as_json(prompt), "choices": [[c[0], as_json(c[1])] for c in choices],
        "min": lo, "max": hi, "undoable": undoable,
    }
    return True


def ask(country: str, state: GameState, prompt: Label, options: list[tuple[str, Label]], then: str,
        kind: str = "choose", lo: int = 1, hi: int = 1, **data: Any) -> Task:
    """A generic question to ``country``'s seat; the answer goes to continuation ``then``."""
    return {"k": "ask", "c": country, "seat": state.seat_of(country), "prompt": as_json(prompt),
            "options": [[o[0], as_json(o[1])] for o in options], "then": then, "kind": kind, "lo": lo, "hi": hi,
            **data}


@task("ask")
def _run_ask(ctx: Ctx, t: Task) -> bool:
    if not t["options"]:
        ctx.pop(t)
        return False
    lo = min(t["lo"], len(t["options"]))
    if len(t["options"]) == 1 and lo == 1:  # a question with one possible answer answers itself
        ctx.pop(t)
        CONT[t["then"]](ctx, t, (t["options"][0][0],))
        return False
    return wait(t, t["seat"], t["kind"], t["prompt"], [tuple(o) for o in t["options"]], lo, t["hi"])


@answer("ask")
def _answer_ask(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    CONT[t["then"]](ctx, t, choices)


MAX_STEPS = 100_000


def run(ctx: Ctx) -> None:
    """Advance until a task waits for an answer, or the game is over."""
    stack = ctx.state.stack
    for _ in range(MAX_STEPS):
        if not stack or ctx.state.outcome is not None:
            return
        t = stack[-1]
        t.pop("q", None)
        if RUN[t["k"]](ctx, t):
            return
    raise RuntimeError("engine did not settle (runaway task loop)")


def current(state: GameState) -> Task | None:
    if state.outcome is not None or not state.stack:
        return None
    t = state.stack[-1]
    return t if "q" in t else None


# the Decision last built for a question: pending() is asked again and again about the same one,
# and rendering its English labels is the costly part. A question's dict is never changed in
# place (wait() makes a new one), and the cache holds it, so its identity cannot be reused.
_DECIDED: dict[tuple[int, int], tuple[dict[str, Any], Decision]] = {}
_DECIDED_MAX = 512


def decision_of(state: GameState) -> Decision | None:
    t = current(state)
    if t is None:
        return None
    q = t["q"]
    key = (id(q), state.step)
    cached = _DECIDED.get(key)
    if cached is not None and cached[0] is q:
        return cached[1]
    decision = Decision(
        id=f"q{state.step}", seat=q["seat"], kind=q["kind"], prompt=english(q["prompt"]),
        choices=tuple(Choice(id=c[0], label=english(c[1]), msg=as_msg(c[1])) for c in q["choices"]),
        min=q["min"], max=q["max"], undoable=q["undoable"], prompt_msg=as_msg(q["prompt"]),
    )
    if len(_DECIDED) >= _DECIDED_MAX:
        _DECIDED.pop(next(iter(_DECIDED)))
    _DECIDED[key] = (q, decision)
    return decision


def apply_answer(ctx: Ctx, seat: str, decision_id: str, choices: tuple[str, ...]) -> None:
    t = current(ctx.state)
    if t is None:
        raise Illegal("nothing is waiting for an answer: the game is over", msg=say("illegal_game_over"))
    if decision_id != f"q{ctx.state.step}":
        raise Illegal(f"decision {decision_id} is no longer open (now q{ctx.state.step})",
                      msg=say("illegal_not_open", decision=decision_id))
    q = t["q"]
    if seat != q["seat"]:
        raise Illegal(f"it is not your decision: {english(q['prompt'])} is for seat {q['seat']}",
                      msg=say("illegal_not_yours", prompt=q["prompt"]))
    legal = {c[0] for c in q["choices"]}
    bad = [c for c in choices if c not in legal]
    if bad or not q["min"] <= len(choices) <= q["max"] or len(set(choices)) != len(choices):
        raise Illegal(f"{q['kind']}: {', '.join(choices) or 'nothing'} is not a legal answer to: "
                      f"{english(q['prompt'])}", msg=say("illegal_answer", answer=", ".join(choices),
                                                          prompt=q["prompt"]))
    del t["q"]
    t["by_seat"] = seat
    ctx.state.step += 1
    ANSWER[t["k"]](ctx, t, choices)
    run(ctx)
