"""The task machine that drives Autarcha (the shared ``app.games.tasks.Engine``).

The state holds a stack of small tasks (plain dicts, so they survive dump/load). The task on top
runs: it may push children (they run first), pop itself, or stop and wait for answers: ONE seat's
(``wait``, or ``ask`` + ``@cont``) or SEVERAL seats' at once (``wait_all``: a simultaneous step such
as Skirmish's deployment behind the lid, resolved all together by ``@answers(kind)``). Rule modules register what
a task does with ``@task(kind)`` (run; True: it waits) and ``@answer(kind)`` (take an answer).
"""

from __future__ import annotations

from app.games import tasks
from app.games.autarcha.state import GameState
from app.games.autarcha.text import english
from app.games.protocol import Decision, Event, Illegal
from app.games.tasks import GroupFn, ask, question, wait, wait_all

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
    """An answer's work on an Autarcha state; log lines render through its catalogue."""

    state: GameState
    english = staticmethod(english)
