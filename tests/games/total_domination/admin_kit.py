"""Running Administrative Phase steps on a staged state, and answering their decisions."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from app.games.protocol import Decision
from app.games.total_domination import engine, flow
from app.games.total_domination.engine import Ctx
from app.games.total_domination.state import GameState


def years_from_germany(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn order without the data pack: every year starts with Germany (Germany, UK, Japan, USSR)."""
    monkeypatch.setattr(flow, "pack", lambda: SimpleNamespace(years={}))


def run(st: GameState, *tasks: dict[str, Any], seed: int = 7) -> Ctx:
    """Run these tasks (the first given first) until they are done or one waits."""
    ctx = Ctx(st, random.Random(seed))
    ctx.push(*tasks)
    engine.run(ctx)
    return ctx


def run_admin(st: GameState, *kinds: str, seed: int = 7) -> Ctx:
    return run(st, *[{"k": k} for k in kinds], seed=seed)


def pending(st: GameState) -> list[Decision]:
    return engine.decisions(st)


def answer(st: GameState, *choices: str, seed: int = 7) -> Ctx:
    d = pending(st)[0]
    ctx = Ctx(st, random.Random(seed))
    engine.apply_answer(ctx, d.seat, d.id, tuple(choices))
    return ctx


def logged(ctx: Ctx) -> list[str]:
    return [e.msg.id for e in ctx.events if e.msg is not None]
