"""The task machine that drives Total Domination.

The state holds a stack of small tasks (plain dicts, so they survive dump/load). The task on
top runs: it may push children (they run first), pop itself, or stop and wait for answers.
A task waits for ONE seat (``wait``: its question is stored as ``t["q"]``) or for SEVERAL at
once (``wait_all``: a simultaneous step such as a draft pick, stored as ``t["qs"]`` keyed by
hand, answers gathered in ``t["got"]`` until the last one arrives and the task resolves them
all together). Rule modules register what a task does with ``@task(kind)`` (run) and
``@answer(kind)`` (take an answer); ``ask`` and ``@cont`` cover the common "one question,
then continue" case.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from app.games import tasks
from app.games.protocol import Choice, Decision, Illegal
from app.games.total_domination.state import GameState
from app.games.total_domination.text import Label, as_json, as_msg, english, say

Task = tasks.Task
GroupFn = Callable[["Ctx", Task, dict[str, tuple[str, ...]]], None]

MACHINE = tasks.Machine(max_steps=200_000)
RUN, ANSWER, CONT = MACHINE.run_fns, MACHINE.answer_fns, MACHINE.cont_fns
task, answer, cont = MACHINE.task, MACHINE.answer, MACHINE.cont
GROUP: dict[str, GroupFn] = {}


def answers(kind: str) -> Callable[[GroupFn], GroupFn]:
    """The resolution of a simultaneous step: every hand's answer at once, keyed as asked."""

    def deco(fn: GroupFn) -> GroupFn:
        GROUP[kind] = fn
        return fn

    return deco


class Ctx(tasks.Ctx):
    """An answer's work on a Total Domination state; log lines render through its catalogue."""

    state: GameState
    english = staticmethod(english)


def question(seat: str, kind: str, prompt: Label, choices: list[tuple[str, Label]], lo: int = 1, hi: int = 1,
             undoable: bool = False) -> dict[str, Any]:
    return {"seat": seat, "kind": kind, "prompt": as_json(prompt), "choices": [[c, as_json(lab)] for c, lab in choices],
            "min": lo, "max": hi, "undoable": undoable}


def wait(t: Task, seat: str, kind: str, prompt: Label, choices: list[tuple[str, Label]], lo: int = 1, hi: int = 1,
         undoable: bool = False) -> bool:
    t["q"] = question(seat, kind, prompt, choices, lo, hi, undoable)
    return True


def wait_all(t: Task, group: str, questions: dict[str, dict[str, Any]]) -> bool:
    """Wait for every question of a simultaneous step (keyed by hand id; built with ``question``)."""
    t["qs"] = questions
    t["group"] = group
    t.setdefault("got", {})
    return True


def ask(seat: str, prompt: Label, options: list[tuple[str, Label]], then: str, kind: str = "choose",
        lo: int = 1, hi: int = 1, undoable: bool = False, **data: Any) -> Task:
    """One question to ``seat``; its answer goes to continuation ``then`` (``@cont``)."""
    return {"k": "ask", "seat": seat, "prompt": as_json(prompt), "options": [[o, as_json(lab)] for o, lab in options],
            "then": then, "kind": kind, "lo": lo, "hi": hi, "undoable": undoable, **data}


@task("ask")
def _run_ask(ctx: Ctx, t: Task) -> bool:
    return MACHINE.ask_runs(ctx, t, lambda t, lo: wait(t, t["seat"], t["kind"], t["prompt"],
                                                       [(o[0], o[1]) for o in t["options"]], lo, t["hi"],
                                                       t.get("undoable", False)))


answer("ask")(MACHINE.ask_answered)


def _still_waiting(t: Task) -> bool:
    """A simultaneous step with answers still to come waits as asked, without running again."""
    if "qs" in t and len(t.get("got", {})) < len(t["qs"]):
        return True
    t.pop("qs", None)
    return False


def run(ctx: Ctx) -> None:
    """Advance until a task waits for an answer, or the game is over."""
    MACHINE.run(ctx, _still_waiting)


def current(state: GameState) -> Task | None:
    if state.outcome is not None or not state.stack:
        return None
    t = state.stack[-1]
    return t if ("q" in t or "qs" in t) else None


# English labels by their stored message: the same choice ("move u7 to Poland, 2 OP") is listed
# turn after turn, and in every copy of the state a replay or a reload makes
_LABELS: dict[bytes, str] = {}
_LABELS_MAX = 50_000


def _english_label(label: Any) -> str:
    if isinstance(label, str):
        return label
    key = orjson.dumps(label, option=orjson.OPT_SORT_KEYS)
    text = _LABELS.get(key)
    if text is None:
        if len(_LABELS) >= _LABELS_MAX:
            _LABELS.clear()
        text = _LABELS[key] = english(label)
    return text


def _decision(did: str, q: dict[str, Any], group: str | None = None, undoable: bool | None = None) -> Decision:
    return Decision(
        id=did, seat=q["seat"], kind=q["kind"], prompt=english(q["prompt"]),
        choices=tuple(Choice(id=c[0], label=_english_label(c[1]), msg=as_msg(c[1])) for c in q["choices"]),
        min=q["min"], max=q["max"], undoable=q["undoable"] if undoable is None else undoable,
        group=group, prompt_msg=as_msg(q["prompt"]),
    )


# pending() is asked again and again about the same question, and rendering its English labels is
# the costly part: keep the Decisions last built, by the question's identity and the step.
_DECIDED: dict[tuple[int, int], tuple[Any, list[Decision]]] = {}
_DECIDED_MAX = 512


def decisions(state: GameState) -> list[Decision]:
    t = current(state)
    if t is None:
        return []
    q = t.get("q") or t["qs"]
    key = (id(q), state.step)
    cached = _DECIDED.get(key)
    got = t.get("got", {})
    if cached is not None and cached[0] is q and "qs" not in t:
        return cached[1]
    if "q" in t:
        out = [_decision(f"q{state.step}", t["q"])]
    else:
        missing = [h for h in sorted(t["qs"]) if h not in got]  # sorted: a reload (JSONB) reorders keys
        # the answer that completes the step reveals every pick: only the others may be taken back
        out = [_decision(f"q{state.step}-{h}", t["qs"][h], group=f"{t['group']}", undoable=len(missing) > 1)
               for h in missing]
        return out
    if len(_DECIDED) >= _DECIDED_MAX:
        _DECIDED.pop(next(iter(_DECIDED)))
    _DECIDED[key] = (q, out)
    return out


def apply_answer(ctx: Ctx, seat: str, decision_id: str, choices: tuple[str, ...]) -> None:
    state = ctx.state
    t = current(state)
    if t is None:
        raise Illegal("nothing is waiting for an answer: the game is over", msg=say("illegal_game_over"))
    if "q" in t:
        if decision_id != f"q{state.step}":
            raise Illegal(f"decision {decision_id} is no longer open (now q{state.step})",
                          msg=say("illegal_not_open", decision=decision_id))
        q, key = t["q"], None
    else:
        prefix = f"q{state.step}-"
        key = decision_id[len(prefix):] if decision_id.startswith(prefix) else None
        if key not in t["qs"] or key in t.get("got", {}):
            raise Illegal(f"decision {decision_id} is no longer open",
                          msg=say("illegal_not_open", decision=decision_id))
        q = t["qs"][key]
    if seat != q["seat"]:
        raise Illegal(f"it is not your decision: {english(q['prompt'])} is for another seat",
                      msg=say("illegal_not_yours", prompt=q["prompt"]))
    legal = {c[0] for c in q["choices"]}
    if any(c not in legal for c in choices) or not q["min"] <= len(choices) <= q["max"] \
            or len(set(choices)) != len(choices):
        raise Illegal(f"{q['kind']}: {', '.join(choices) or 'nothing'} is not a legal answer to: "
                      f"{english(q['prompt'])}", msg=say("illegal_answer", answer=", ".join(choices),
                                                          prompt=q["prompt"]))
    if key is not None:
        # sorted, so the state after a group's answers is the same whatever order they came in
        t["got"] = dict(sorted({**t.get("got", {}), key: list(choices)}.items()))
        if len(t["got"]) < len(t["qs"]):
            return
        got = {h: tuple(v) for h, v in t.pop("got").items()}
        del t["qs"]
        state.step += 1
        GROUP[t["k"]](ctx, t, got)
    else:
        del t["q"]
        t["by_seat"] = seat
        state.step += 1
        ANSWER[t["k"]](ctx, t, choices)
    run(ctx)
