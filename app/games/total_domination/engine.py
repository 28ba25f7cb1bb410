"""The task machine that drives Total Domination (the shared ``app.games.tasks.Engine``).

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

from app.games import tasks
from app.games.protocol import Decision, Event, Illegal
from app.games.tasks import GroupFn, ask, question, wait, wait_all
from app.games.total_domination.state import GameState
from app.games.total_domination.text import english

Task = tasks.Task

ENGINE = tasks.Engine(english, max_steps=200_000)
MACHINE = ENGINE.machine
RUN, ANSWER, CONT = MACHINE.run_fns, MACHINE.answer_fns, MACHINE.cont_fns
GROUP = ENGINE.group_fns
task, answer, cont, answers = MACHINE.task, MACHINE.answer, MACHINE.cont, ENGINE.answers
run, current, decisions, apply_answer = ENGINE.run, ENGINE.current, ENGINE.decisions, ENGINE.apply_answer

__all__ = ["ENGINE", "GROUP", "Ctx", "Decision", "Event", "GroupFn", "Illegal", "Task", "answer", "answers",
           "apply_answer", "ask", "cont", "current", "decisions", "question", "run", "task", "wait", "wait_all"]


class Ctx(tasks.Ctx):
    """An answer's work on a Total Domination state; log lines render through its catalogue."""

    state: GameState
    english = staticmethod(english)
