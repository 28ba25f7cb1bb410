"""Building blocks for card rules: trigger predicates and common effects."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from app.games.qmg import board
from app.games.qmg.actions import add_vp, remove, unit_in
from app.games.qmg.cards.play import target_discards
from app.games.qmg.cards.registry import Sit
from app.games.qmg.data import card, team_of
from app.games.qmg.engine import Ctx, Task, task
from app.games.qmg.state import GameState
from app.games.qmg.text import say

Trigger = Callable[[GameState, Sit, str], bool]


def in_or_adj(space: str) -> list[str]:
    return [space, *sorted(board.base_adjacent(space))]


def adj(space: str, state: GameState, team: str) -> list[str]:
    return sorted(board.adjacent(space, team, state.units))


def same_or_adj(space: str, state: GameState, team: str) -> list[str]:
    return [space, *adj(space, state, team)]


# ---------------------------------------------------------------- triggers
def on_own_battle(kind: str, where: Iterable[str] | None = None,
                  cond: Trigger | None = None) -> Trigger:
    spaces = set(where) if where is not None else None

    def trig(state: GameState, sit: Sit, owner: str) -> bool:
        return (sit["s"] == "battle" and sit["c"] == owner and sit["kind"] == kind
                and (spaces is None or sit["area"] in spaces) and (cond is None or cond(state, sit, owner)))

    return trig


def on_would_remove(owners: Iterable[str] | None = None, team: str | None = None, kind: str | None = None,
                    where: Iterable[str] | None = None, supplied: bool = False,
                    cause: str | None = None) -> Trigger:
    os = set(owners) if owners is not None else None
    spaces = set(where) if where is not None else None

    def trig(state: GameState, sit: Sit, owner: str) -> bool:
        return (sit["s"] == "remove"
                and (os is None or sit["c"] in os)
                and (team is None or team_of(sit["c"]) == team)
                and (kind is None or board.kind_at(sit["area"]) == kind)
                and (spaces is None or sit["area"] in spaces)
                and (not supplied or sit.get("supplied", False))
                and (cause is None or sit.get("cause") == cause))

    return trig


def on_removed(owner_country: str, kind: str, supplied: bool = True) -> Trigger:
    def trig(state: GameState, sit: Sit, owner: str) -> bool:
        return (sit["s"] == "removed" and sit["c"] == owner_country and board.kind_at(sit["area"]) == kind
                and (not supplied or sit.get("supplied", False)))

    return trig


def on_own_build(kind: str) -> Trigger:
    def trig(state: GameState, sit: Sit, owner: str) -> bool:
        return sit["s"] == "built" and sit["c"] == owner and sit["kind"] == kind

    return trig


def on_enemy_build(kind: str, where: Callable[[GameState, Sit, str], bool]) -> Trigger:
    def trig(state: GameState, sit: Sit, owner: str) -> bool:
        return (sit["s"] == "built" and team_of(sit["c"]) != team_of(owner) and sit["kind"] == kind
                and state.has_unit(sit["area"], sit["c"]) and where(state, sit, owner))

    return trig


def on_own(s: str) -> Trigger:
    def trig(state: GameState, sit: Sit, owner: str) -> bool:
        return sit["s"] == s and sit["c"] == owner

    return trig


# ---------------------------------------------------------------- effects
def protect(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    ctx.state.protected.append([sit["area"], sit["c"]])
    ctx.log("cannot_be_removed", what=unit_in(sit["c"], sit["area"]))


def eliminate_built(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    ctx.push(remove(sit["area"], sit["c"], "eliminate", owner))


def tasks_of(*factories: Callable[[Ctx, str, Sit], Task | None]) -> Callable[[Ctx, str, str, Sit], None]:
    def use(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
        ts = [f(ctx, owner, sit) for f in factories]
        ctx.push(*[t for t in ts if t])

    return use


def on_play(*factories: Callable[[Ctx, str], Task | None]) -> Callable[[Ctx, str, str], None]:
    def play(ctx: Ctx, owner: str, iid: str) -> None:
        ts = [f(ctx, owner) for f in factories]
        ctx.push(*[t for t in ts if t])

    return play


# ---------------------------------------------------------------- counting
def armies_in(state: GameState, c: str, spaces: Iterable[str]) -> int:
    return sum(1 for s in spaces if state.has_unit(s, c) and board.is_land(s))


def navies(state: GameState, c: str) -> int:
    return state.on_board(c, "navy")


def units_near(state: GameState, c: str, space: str, include_self: bool, kind: str | None = None) -> int:
    zone = set(board.adjacent(space, team_of(c), state.units))
    if include_self:
        zone.add(space)
    return sum(1 for s in state.units_of(c) if s in zone and (kind is None or board.kind_at(s) == kind))


def allied_navy_in(state: GameState, space: str) -> bool:
    return any(team_of(c) == "allies" for c in state.units.get(space, []))


# ---------------------------------------------------------------- economic warfare
def ew(ctx: Ctx, by: str, target: str, n: int) -> None:
    target_discards(ctx, by, target, n)


def vp(ctx: Ctx, c: str, n: int, why: str) -> None:
    add_vp(ctx, team_of(c), n, say("reason_card", country=c, what=why))


@task("draw_n")
def _run_draw_n(ctx: Ctx, t: Task) -> bool:
    from app.games.qmg.turn import draw

    ctx.pop(t)
    draw(ctx, t["c"], t["n"])
    return False


@task("fn")
def _run_fn(ctx: Ctx, t: Task) -> bool:
    """Run a named card effect later (after tasks pushed before it)."""
    ctx.pop(t)
    LATER[t["fn"]](ctx, t)
    return False


LATER: dict[str, Callable[[Ctx, Task], None]] = {}


def later(name: str) -> Callable[[Callable[[Ctx, Task], None]], Callable[[Ctx, Task], None]]:
    def deco(fn: Callable[[Ctx, Task], None]) -> Callable[[Ctx, Task], None]:
        LATER[name] = fn
        return fn

    return deco


def card_name(iid: str) -> str:
    return card(iid).name_en
