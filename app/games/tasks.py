"""The task machine games drive their rules with (Quartermaster General, Total Domination, Attack!).

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

import orjson

from app.games.protocol import Choice, Decision, Event, Illegal, Msg

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


# ------------------------------------------------------------------ questions and answers
Label = Msg | dict[str, Any] | str  # a message of a catalogue (a plain string: already a term)
GroupFn = Callable[[Any, Task, dict[str, tuple[str, ...]]], None]


def as_json(msg: Label) -> dict[str, Any] | str:
    """A message as a state stores it (plain JSON: tasks survive dump/load)."""
    if isinstance(msg, Msg):
        return {"id": msg.id, "params": msg.params}
    return msg


def as_msg(stored: Any) -> Msg | None:
    return Msg(str(stored["id"]), dict(stored.get("params") or {})) if isinstance(stored, dict) else None


def question(seat: str, kind: str, prompt: Label, choices: list[tuple[str, Label]], lo: int = 1, hi: int = 1,
             undoable: bool = False) -> dict[str, Any]:
    return {"seat": seat, "kind": kind, "prompt": as_json(prompt), "choices": [[c, as_json(lab)] for c, lab in choices],
            "min": lo, "max": hi, "undoable": undoable}


def wait(t: Task, seat: str, kind: str, prompt: Label, choices: list[tuple[str, Label]], lo: int = 1, hi: int = 1,
         undoable: bool = False) -> bool:
    """Make task ``t`` wait for one seat's answer."""
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


def _still_waiting(t: Task) -> bool:
    """A simultaneous step with answers still to come waits as asked, without running again."""
    if "qs" in t and len(t.get("got", {})) < len(t["qs"]):
        return True
    t.pop("qs", None)
    return False


class Engine:
    """A game's task machine with its questions: one seat's (``wait``, ``ask``) or several seats' at
    once (``wait_all``: a simultaneous step, resolved by ``@answers(kind)`` when the last answer is in).
    The state needs ``stack``, ``step`` (answers applied so far: names the open decision) and
    ``outcome``. ``english`` renders the game's catalogue messages; the refusals use its message ids
    ``illegal_game_over``, ``illegal_not_open``, ``illegal_not_yours`` and ``illegal_answer``."""

    LABELS_MAX = 50_000
    DECIDED_MAX = 512

    def __init__(self, english: Callable[[Any], str], max_steps: int = 200_000) -> None:
        self.machine = Machine(max_steps=max_steps)
        self.group_fns: dict[str, GroupFn] = {}
        self.english = english
        # English labels by their stored message: the same choice is listed turn after turn, and in
        # every copy of the state a replay or a reload makes
        self._labels: dict[bytes, str] = {}
        # pending() is asked again and again about the same question: the Decisions last built, by
        # the question's identity and the step
        self._decided: dict[tuple[int, int], tuple[Any, list[Any]]] = {}
        self.machine.task("ask")(self._run_ask)
        self.machine.answer("ask")(self.machine.ask_answered)

    def answers(self, kind: str) -> Callable[[GroupFn], GroupFn]:
        """The resolution of a simultaneous step: every hand's answer at once, keyed as asked."""

        def deco(fn: GroupFn) -> GroupFn:
            self.group_fns[kind] = fn
            return fn

        return deco

    def _run_ask(self, ctx: Ctx, t: Task) -> bool:
        return self.machine.ask_runs(ctx, t, lambda t, lo: wait(t, t["seat"], t["kind"], t["prompt"],
                                                                [(o[0], o[1]) for o in t["options"]], lo, t["hi"],
                                                                t.get("undoable", False)))

    def run(self, ctx: Ctx) -> None:
        """Advance until a task waits for an answer, or the game is over."""
        self.machine.run(ctx, _still_waiting)

    @staticmethod
    def current(state: Any) -> Task | None:
        if state.outcome is not None or not state.stack:
            return None
        t = state.stack[-1]
        return t if ("q" in t or "qs" in t) else None

    def _english_label(self, label: Any) -> str:
        if isinstance(label, str):
            return label
        key = orjson.dumps(label, option=orjson.OPT_SORT_KEYS)
        text = self._labels.get(key)
        if text is None:
            if len(self._labels) >= self.LABELS_MAX:
                self._labels.clear()
            text = self._labels[key] = self.english(label)
        return text

    def _decision(self, did: str, q: dict[str, Any], group: str | None = None,
                  undoable: bool | None = None) -> Decision:
        return Decision(
            id=did, seat=q["seat"], kind=q["kind"], prompt=self.english(q["prompt"]),
            choices=tuple(Choice(id=c[0], label=self._english_label(c[1]), msg=as_msg(c[1])) for c in q["choices"]),
            min=q["min"], max=q["max"], undoable=q["undoable"] if undoable is None else undoable,
            group=group, prompt_msg=as_msg(q["prompt"]),
        )

    def decisions(self, state: Any) -> list[Decision]:
        t = self.current(state)
        if t is None:
            return []
        q = t.get("q") or t["qs"]
        key = (id(q), state.step)
        cached = self._decided.get(key)
        if cached is not None and cached[0] is q and "qs" not in t:
            return cached[1]
        if "qs" in t:
            got = t.get("got", {})
            missing = [h for h in sorted(t["qs"]) if h not in got]  # sorted: a reload (JSONB) reorders keys
            # the answer that completes the step reveals every answer: only the others may be taken back
            return [self._decision(f"q{state.step}-{h}", t["qs"][h], group=f"{t['group']}", undoable=len(missing) > 1)
                    for h in missing]
        out = [self._decision(f"q{state.step}", t["q"])]
        if len(self._decided) >= self.DECIDED_MAX:
            self._decided.pop(next(iter(self._decided)))
        self._decided[key] = (q, out)
        return out

    def apply_answer(self, ctx: Ctx, seat: str, decision_id: str, choices: tuple[str, ...]) -> None:
        state, english = ctx.state, self.english
        t = self.current(state)
        if t is None:
            raise Illegal("nothing is waiting for an answer: the game is over", msg=Msg("illegal_game_over"))
        if "q" in t:
            if decision_id != f"q{state.step}":
                raise Illegal(f"decision {decision_id} is no longer open (now q{state.step})",
                              msg=Msg("illegal_not_open", {"decision": decision_id}))
            q, key = t["q"], None
        else:
            prefix = f"q{state.step}-"
            key = decision_id[len(prefix):] if decision_id.startswith(prefix) else None
            if key not in t["qs"] or key in t.get("got", {}):
                raise Illegal(f"decision {decision_id} is no longer open",
                              msg=Msg("illegal_not_open", {"decision": decision_id}))
            q = t["qs"][key]
        if seat != q["seat"]:
            raise Illegal(f"it is not your decision: {english(q['prompt'])} is for another seat",
                          msg=Msg("illegal_not_yours", {"prompt": q["prompt"]}))
        legal = {c[0] for c in q["choices"]}
        if any(c not in legal for c in choices) or not q["min"] <= len(choices) <= q["max"] \
                or len(set(choices)) != len(choices):
            raise Illegal(f"{q['kind']}: {', '.join(choices) or 'nothing'} is not a legal answer to: "
                          f"{english(q['prompt'])}",
                          msg=Msg("illegal_answer", {"answer": ", ".join(choices), "prompt": q["prompt"]}))
        if key is not None:
            # sorted, so the state after a group's answers is the same whatever order they came in
            t["got"] = dict(sorted({**t.get("got", {}), key: list(choices)}.items()))
            if len(t["got"]) < len(t["qs"]):
                return
            got = {h: tuple(v) for h, v in t.pop("got").items()}
            del t["qs"]
            state.step += 1
            self.group_fns[t["k"]](ctx, t, got)
        else:
            del t["q"]
            t["by_seat"] = seat
            state.step += 1
            self.machine.answer_fns[t["k"]](ctx, t, choices)
        self.run(ctx)
