"""How each unique card behaves: a small rule object per card definition id."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.games.qmg.engine import Ctx, Task, task
from app.games.qmg.state import GameState

Sit = dict[str, Any]


@dataclass
class Rule:
    key: str
    # Status / Response: when it may be used, and what it does.
    trigger: Callable[[GameState, Sit, str], bool] | None = None
    use: Callable[[Ctx, str, str, Sit], None] | None = None
    cost_hand: int = 0
    cost_deck: int = 0
    once_per_turn: bool = False
    # Event / Economic Warfare: resolve on play.
    play: Callable[[Ctx, str, str], None] | None = None
    playable: Callable[[GameState, str], bool] | None = None
    # Status "instead of playing a card".
    instead: Callable[[Ctx, str, str], None] | None = None
    instead_ok: Callable[[GameState, str], bool] | None = None
    # Status usable at the beginning of the action phase (offered in the action decision).
    play_start: bool = False
    # Status scoring in the dominance phase (its owner is asked whether to use it).
    victory: Callable[[GameState, str], int] | None = None
    # Economic Warfare: countries it may make discard (for Skilled Pilots / Jet Fighters).
    ew_targets: tuple[str, ...] = ()
    submarines: bool = False


RULES: dict[str, Rule] = {}


def rule(key: str, **kw: Any) -> Rule:
    r = Rule(key=key, **kw)
    RULES[key] = r
    return r


def effect(fn: str, key: str, c: str, iid: str, sit: Sit | None = None) -> Task:
    return {"k": "effect", "fn": fn, "key": key, "c": c, "iid": iid, "sit": sit or {}}


@task("effect")
def _run_effect(ctx: Ctx, t: Task) -> bool:
    ctx.pop(t)
    r = RULES[t["key"]]
    if t["fn"] == "use" and r.use:
        r.use(ctx, t["c"], t["iid"], t["sit"])
    elif t["fn"] == "play" and r.play:
        r.play(ctx, t["c"], t["iid"])
    elif t["fn"] == "instead" and r.instead:
        r.instead(ctx, t["c"], t["iid"])
    return False
