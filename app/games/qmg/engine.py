"""The task machine that drives the game.

The state holds a stack of small tasks (plain dicts, so they survive dump/load).
The task on top runs; it may push children (which run first), pop itself, or stop
and wait for an answer: then it stores the seat, prompt and legal choices in itself
and ``pending()`` turns that into a :class:`Decision`. Nested reactions are just
more tasks on the stack, which gives the rulebook's "newest situation first" order.
"""

from __future__ import annotations

from typing import Any

from app.games import tasks
from app.games.protocol import Choice, Decision, Illegal, Msg
from app.games.qmg.state import GameState
from app.games.qmg.text import as_json, as_msg, english, say

Task = tasks.Task
MACHINE = tasks.Machine()
RUN, ANSWER, CONT = MACHINE.run_fns, MACHINE.answer_fns, MACHINE.cont_fns
task, answer, cont = MACHINE.task, MACHINE.answer, MACHINE.cont


class Ctx(tasks.Ctx):
    """An answer's work on a QMG state; log lines render through QMG's catalogue."""

    state: GameState
    english = staticmethod(english)


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
    return MACHINE.ask_runs(ctx, t, lambda t, lo: wait(t, t["seat"], t["kind"], t["prompt"],
                                                       [tuple(o) for o in t["options"]], lo, t["hi"]))


answer("ask")(MACHINE.ask_answered)


def run(ctx: Ctx) -> None:
    """Advance until a task waits for an answer, or the game is over."""
    MACHINE.run(ctx)


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
