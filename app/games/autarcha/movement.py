"""Movement (spec §7): the ``walk`` half of a unit's move, its steps, facings and allowances.

A step (U-7.1.2) is one of: advance one small square in the facing direction ("F"), turn 45° ("L45",
"R45") or turn 90° ("L90", "R90"); each costs one step whatever the environment. The allowance follows
U-7.2.1 exactly: the unit's *environment* is the road or rail mode while it stands on an intact track it
may use (its Troops Table value is not "–") and faces along it (U-7.5), else the landscape of its square
(a factory's square is a city's, U-3.5.8; a destroyed forest or city is ground, U-3.5.9). A step may be
made while ``max(environment) - steps taken > 0``, so entering a new environment resets the total to its
maximum and the steps already made count against it; a unit on 0-step terrain cannot move or turn
(spec §19). Entering a "–" environment is allowed and loses the unit (issue 14, U-7.1.6): those ends are
offered with a label that says so, and nothing can follow such a step.

Facing along a track (README "Rules: movement, formations and columns"): the track *leads on* from a
square in a direction when the square lists it, or the neighbour that way lists the way back (a bend
or a junction drawn on the neighbour); a unit faces along the track when it faces a way the track leads
on, or the opposite of one (it keeps its mode on arrival at a bend and after reversing). Reversing on a
road or rail (U-7.5.3) is two 90° turns that keep the mode: after a 90° turn out of a mode into no mode,
the next 90° turn is still judged by the mode's allowance; any other step from there is judged by the
landscape, so the first half of a reversal is no way off the track.

``destinations(state, unit)`` is a breadth-first search over (square, facing, last 90° turn) with the
steps taken: fewer steps always leave at least as many, so the first visit of a node is its best. Each
reachable end (square, facing) maps to its cheapest step sequence; ties go to the first found, steps
tried in the order of ``STEPS``. Occupied squares block (U-7.1.5; buildings and mines do not); squeezing
diagonally between two occupied squares is allowed (spec §19).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.games.autarcha import flow
from app.games.autarcha.engine import Ctx, Task, answer, current, task, wait
from app.games.autarcha.pack import DELTA, DIRECTIONS, OPPOSITE, TRACKS, Board, Square, Troop, pack
from app.games.autarcha.state import GameState, at, sid
from app.games.autarcha.text import Label, say
from app.games.autarcha.views import page_part

STEPS: tuple[str, ...] = ("F", "L45", "R45", "L90", "R90")  # the order ties are broken in
TURN: dict[str, int] = {"L45": -1, "R45": 1, "L90": -2, "R90": 2}  # in eighths of a full turn, clockwise +
FACING_INDEX: dict[str, int] = {d: i for i, d in enumerate(DIRECTIONS)}


@dataclass(frozen=True)
class Route:
    """How a unit reaches one end of its walk: the squares it enters in order (with its facing as it enters
    each), its facing at the end, the steps spent (the cost the board shows), the step sequence, the
    environment it ends in, and whether it is lost there ("–")."""

    squares: tuple[str, ...]
    facings: tuple[str, ...]
    facing: str
    steps: int
    sequence: tuple[str, ...]
    environment: str
    lost: bool

    @property
    def square(self) -> str:
        return self.squares[-1] if self.squares else ""


# ------------------------------------------------------------------ the map as movement sees it
def landscape(state: GameState, square: Square) -> str:
    """The landscape a unit on ``square`` moves in: a building's square is a city's (U-3.5.8); a destroyed
    forest or city is ground (U-3.5.9); destroyed roads and rails take only their mode away."""
    s = sid(square)
    if state.factory_at(s) is not None:
        return "city"
    terrain = pack().board.terrain[square[0]][square[1]]
    if terrain in ("forest", "city") and state.is_destroyed(s, terrain):
        return "ground"
    return terrain


def _intact(state: GameState, board: Board, mode: str, sq: Square) -> frozenset[str]:
    if not board.on_board(sq):
        return frozenset()
    dirs = board.track(mode, sq)
    if dirs and state.destroyed and state.is_destroyed(sid(sq), mode):
        return frozenset()
    return dirs


# the intact board's answers of ``leads``: (mode, square) -> ways, for the board in _LEADS_BOARD
_LEADS: dict[tuple[str, Square], frozenset[str]] = {}
_LEADS_BOARD: list[Board] = []


def leads(state: GameState, mode: str, sq: Square) -> frozenset[str]:
    """The directions the road or rail leads on from ``sq``: its own, and those of a neighbour's track that
    comes into ``sq`` (a bend or a branch drawn on the neighbour). Empty: no intact track here."""
    board = pack().board
    if any(m in TRACKS for hit in state.destroyed.values() for m in hit):
        return _leads(state, board, mode, sq)
    if not _LEADS_BOARD or _LEADS_BOARD[0] is not board:
        _LEADS.clear()
        _LEADS_BOARD[:] = [board]
    found = _LEADS.get((mode, sq))
    if found is None:
        found = _LEADS[(mode, sq)] = _leads(state, board, mode, sq)
    return found


def _leads(state: GameState, board: Board, mode: str, sq: Square) -> frozenset[str]:
    own = _intact(state, board, mode, sq)
    if not own:
        return frozenset()
    out = set(own)
    for d in DIRECTIONS:
        if d not in out and OPPOSITE[d] in _intact(state, board, mode, board.step(sq, d)):
            out.add(d)
    return frozenset(out)


def along(state: GameState, mode: str, sq: Square, facing: str) -> bool:
    """Whether a unit on ``sq`` facing ``facing`` faces along the track (U-7.5.2, U-7.5.4)."""
    ways = leads(state, mode, sq)
    return facing in ways or OPPOSITE[facing] in ways


def environment(state: GameState, troop: Troop, sq: Square, facing: str) -> tuple[str, int | None]:
    """The environment a unit of ``troop`` is in on ``sq`` facing ``facing`` and its maximum steps (None:
    "–"). Road or rail mode when it faces along a track it may use; both at once: the faster."""
    best: tuple[str, int | None] | None = None
    for mode in TRACKS:
        top = troop.max_steps(mode)
        if top is not None and along(state, mode, sq, facing) and (best is None or top > (best[1] or 0)):
            best = (mode, top)
    if best is not None:
        return best
    ground = landscape(state, sq)
    return ground, troop.max_steps(ground)


# the environments of the intact board without buildings, for the pack in _PRISTINE_PACK:
# (kind, row, column, facing index) -> environment()
_PRISTINE: dict[tuple[str, int, int, int], tuple[str, int | None]] = {}
_PRISTINE_PACK: list[Any] = []


def _touched(state: GameState) -> set[Square]:
    """The squares whose environment a building or a destroyed object may change: the building's and the
    destroyed object's own, and their neighbours (a neighbour's track leads into a square, ``leads``)."""
    out: set[Square] = set()
    for sq in [*(f["sq"] for f in state.factories.values() if f.get("sq")), *state.destroyed]:
        r, c = at(sq)
        out.update((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1))
    return out


# ------------------------------------------------------------------ the search
Node = tuple[int, int, int, int]  # row, column, facing index, sign of the last step if it was a 90° turn


class Explorer:
    """The reachable ends of one unit of ``troop`` from ``start`` facing ``facing``: ``blocked`` are the
    occupied squares, ``cap`` an upper bound on the steps (a formation's slowest member, U-8.1.7), ``bonus``
    steps added to every allowance (a column's follower making up lost steps, U-8.2.3)."""

    def __init__(self, state: GameState, troop: Troop, start: Square, facing: str, blocked: set[Square],
                 cap: int | None = None, bonus: int = 0) -> None:
        self.state, self.troop, self.blocked, self.cap, self.bonus = state, troop, blocked, cap, bonus
        the_pack = pack()
        self.board = the_pack.board
        self._env: dict[tuple[int, int, int], tuple[str, int | None]] = {}
        self.start: Node = (start[0], start[1], FACING_INDEX[facing], 0)
        if not _PRISTINE_PACK or _PRISTINE_PACK[0] is not the_pack:
            _PRISTINE.clear()
            _PRISTINE_PACK[:] = [the_pack]
        # where the board is as printed, a square's environment is the same in every game: computed once
        self.touched = _touched(state)

    def env(self, r: int, c: int, f: int) -> tuple[str, int | None]:
        key = (r, c, f)
        found = self._env.get(key)
        if found is None:
            if (r, c) in self.touched:
                found = environment(self.state, self.troop, (r, c), DIRECTIONS[f])
            else:
                pristine = (self.troop.id, r, c, f)
                found = _PRISTINE.get(pristine)
                if found is None:
                    found = _PRISTINE[pristine] = environment(self.state, self.troop, (r, c), DIRECTIONS[f])
            self._env[key] = found
        return found

    def reversing(self, node: Node) -> tuple[str, int | None] | None:
        """The mode a unit is half-way through reversing in (U-7.5.3), or None."""
        r, c, f, p = node
        if p == 0:
            return None
        before = self.env(r, c, (f - 2 * p) % 8)
        if before[0] in TRACKS and self.env(r, c, f)[0] not in TRACKS:
            return before
        return None

    def allowance(self, node: Node, taken: int, step: str) -> int:
        """Steps left for ``step`` from ``node`` after ``taken`` steps (0: it may not be made)."""
        r, c, f, _ = node
        top = self.env(r, c, f)[1]
        half = self.reversing(node)
        if half is not None and step in ("L90", "R90"):
            top = half[1]
        if top is None:
            return 0
        left = top + self.bonus - taken
        if self.cap is not None:
            left = min(left, self.cap - taken)
        return max(0, left)

    def lost_at(self, node: Node) -> bool:
        """A unit standing in a "–" environment is lost (not half-way through a reversal on a track)."""
        return self.env(node[0], node[1], node[2])[1] is None and self.reversing(node) is None

    def follow(self, node: Node, step: str) -> Node | None:
        """The node one step leads to, ignoring the allowance (None: off the board or into a unit)."""
        r, c, f, _ = node
        if step == "F":
            dr, dc = DELTA[DIRECTIONS[f]]
            sq = (r + dr, c + dc)
            if not self.board.on_board(sq) or sq in self.blocked:
                return None
            return sq[0], sq[1], f, 0
        turn = TURN[step]
        return r, c, (f + turn) % 8, (1 if turn > 0 else -1) if abs(turn) == 2 else 0

    def search(self) -> dict[tuple[int, int, int], tuple[Node, int]]:
        """Every end (row, column, facing index) reachable with at least one step: its best node, steps."""
        seen: dict[Node, tuple[int, Node | None, str]] = {self.start: (0, None, "")}
        self.parents = seen
        ends: dict[tuple[int, int, int], tuple[Node, int]] = {}
        queue: deque[Node] = deque([self.start])
        home = self.start[:3]
        board, blocked, cap, bonus = self.board, self.blocked, self.cap, self.bonus
        while queue:
            node = queue.popleft()
            taken = seen[node][0]
            r, c, f, _ = node
            top = self.env(r, c, f)[1]
            half = self.reversing(node)
            if top is None and half is None and node != self.start:
                continue  # nothing follows a step into "–"
            turn_top = half[1] if half is not None else top
            for step in STEPS:
                limit = turn_top if step == "L90" or step == "R90" else top
                if limit is None or limit + bonus - taken <= 0 or cap is not None and cap - taken <= 0:
                    continue
                if step == "F":
                    dr, dc = DELTA[DIRECTIONS[f]]
                    sq = (r + dr, c + dc)
                    if not board.on_board(sq) or sq in blocked:
                        continue
                    nxt: Node = (sq[0], sq[1], f, 0)
                else:
                    turn = TURN[step]
                    nxt = (r, c, (f + turn) % 8, ((1 if turn > 0 else -1) if abs(turn) == 2 else 0))
                if nxt in seen:
                    continue
                seen[nxt] = (taken + 1, node, step)
                queue.append(nxt)
                end = nxt[:3]
                if end != home and end not in ends:
                    ends[end] = (nxt, taken + 1)
        return ends

    def route(self, node: Node) -> Route:
        sequence: list[str] = []
        cur: Node | None = node
        while cur is not None:
            _, parent, step = self.parents[cur]
            if parent is not None:
                sequence.append(step)
            cur = parent
        sequence.reverse()
        squares, facings = replay(self.start, sequence)
        env, top = self.env(node[0], node[1], node[2])
        return Route(squares=tuple(squares), facings=tuple(facings), facing=DIRECTIONS[node[2]], steps=len(sequence),
                     sequence=tuple(sequence), environment=env, lost=top is None)


def replay(start: Node, sequence: Iterable[str]) -> tuple[list[str], list[str]]:
    """The squares a step sequence enters from ``start`` and the facing as it enters each."""
    r, c, f = start[0], start[1], start[2]
    squares: list[str] = []
    facings: list[str] = []
    for step in sequence:
        if step == "F":
            dr, dc = DELTA[DIRECTIONS[f]]
            r, c = r + dr, c + dc
            squares.append(sid((r, c)))
            facings.append(DIRECTIONS[f])
        else:
            f = (f + TURN[step]) % 8
    return squares, facings


def end_id(square: Square, facing: str) -> str:
    return f"{sid(square)}@{facing}"


def blockers(state: GameState, movers: Iterable[str]) -> set[Square]:
    """The squares other units stand on (U-7.1.5): every unit on the board but ``movers``."""
    moving = set(movers)
    return {at(d["sq"]) for u, d in state.units.items() if d["sq"] is not None and u not in moving}


def explorer(state: GameState, unit: str, cap: int | None = None, movers: Iterable[str] = ()) -> Explorer:
    d = state.units[unit]
    return Explorer(state, pack().troops[d["kind"]], at(d["sq"]), d["facing"], blockers(state, [unit, *movers]),
                    cap)


def destinations(state: GameState, unit: str, cap: int | None = None,
                 movers: Iterable[str] = ()) -> dict[str, Route]:
    """``"<square>@<facing>"`` -> the cheapest route there, for every end the unit can reach now with at
    least one step. ``cap`` bounds the steps, ``movers`` are units moving with it (they do not block)."""
    if state.units[unit]["sq"] is None:
        return {}
    ex = explorer(state, unit, cap, movers)
    ends = ex.search()
    out: dict[str, Route] = {}
    for (r, c, f), (node, _) in sorted(ends.items(), key=lambda kv: (kv[1][1], kv[0])):
        out[end_id((r, c), DIRECTIONS[f])] = ex.route(node)
    return out


def route_to(state: GameState, unit: str, end: str) -> Route | None:
    """The cheapest route to one end ``"<square>@<facing>"`` (None: not reachable now): ``destinations``
    for the one end a player chose, without building the routes to all the others."""
    square, _, facing = end.partition("@")
    if state.units[unit]["sq"] is None or facing not in FACING_INDEX:
        return None
    ex = explorer(state, unit)
    found = ex.search().get((*at(square), FACING_INDEX[facing]))
    return ex.route(found[0]) if found is not None else None


def ends_lost(state: GameState, unit: str, end: str) -> bool:
    """Whether ``unit`` would be lost standing at ``end`` (``Route.lost`` of the route there, read from the
    end alone)."""
    square, _, facing = end.partition("@")
    return environment(state, pack().troops[state.units[unit]["kind"]], at(square), facing)[1] is None


def reachable_ends(state: GameState, unit: str) -> list[tuple[str, str, bool]]:
    """(square, facing, lost) of every end ``destinations`` offers, without building the routes there: what a
    player weighing where a unit could stand needs, at a fraction of the cost."""
    if state.units[unit]["sq"] is None:
        return []
    ex = explorer(state, unit)
    return [(sid((r, c)), DIRECTIONS[f], ex.env(r, c, f)[1] is None) for (r, c, f) in ex.search()]


def allowance_now(state: GameState, unit: str) -> int:
    """The steps the unit may make from where it stands, as it faces (0 also for a unit in "–")."""
    d = state.units[unit]
    if d["sq"] is None:
        return 0
    top = environment(state, pack().troops[d["kind"]], at(d["sq"]), d["facing"])[1]
    return top or 0


@flow.half("walk")
def can_move(state: GameState, unit: str) -> bool:
    """A unit with a step left where it stands can always turn, so it has a destination."""
    return allowance_now(state, unit) > 0


@flow.half("walk_at_all")
def can_move_at_all(state: GameState, unit: str) -> bool:
    return can_move(state, unit)


def trial(state: GameState, unit: str, sequence: Iterable[str], blocked: set[Square], cap: int | None = None,
          bonus: int = 0, avoid_lost: bool = False) -> tuple[int, bool]:
    """Replay ``sequence`` for ``unit`` under its own allowance (formations and columns): how many steps it
    can make before one is refused (into a unit, off the board, no steps left; with ``avoid_lost`` also a
    step into "–"), and whether it ends lost there ("–")."""
    d = state.units[unit]
    ex = Explorer(state, pack().troops[d["kind"]], at(d["sq"]), d["facing"], blocked, cap, bonus)
    node, taken = ex.start, 0
    for step in sequence:
        if taken > 0 and ex.lost_at(node):
            break
        if ex.allowance(node, taken, step) <= 0:
            break
        nxt = ex.follow(node, step)
        if nxt is None or avoid_lost and ex.env(nxt[0], nxt[1], nxt[2])[1] is None:
            break
        node, taken = nxt, taken + 1
    return taken, taken > 0 and ex.env(node[0], node[1], node[2])[1] is None


def steps_left(state: GameState, unit: str, sequence: Iterable[str]) -> int | None:
    """The steps ``unit`` has left after making ``sequence`` from where it stands (U-7.2.1), or None when the
    sequence is not a legal walk (a step refused, or one after a step into "–")."""
    d = state.units[unit]
    ex = Explorer(state, pack().troops[d["kind"]], at(d["sq"]), d["facing"], blockers(state, [unit]))
    node, taken = ex.start, 0
    for step in sequence:
        if taken > 0 and ex.lost_at(node) or ex.allowance(node, taken, step) <= 0:
            return None
        nxt = ex.follow(node, step)
        if nxt is None:
            return None
        node, taken = nxt, taken + 1
    if ex.lost_at(node):
        return 0
    return max(ex.allowance(node, taken, s) for s in STEPS)


# ------------------------------------------------------------------ the walk half
def walk_label(state: GameState, unit: str, key: str, route: Route) -> Label:
    d = state.units[unit]
    if route.lost:
        return say("choice_walk_lost", square=route.square or d["sq"], facing=f"facing_{route.facing}",
                   steps=route.steps, kind=f"kind_{d['kind']}", environment=f"env_{route.environment}")
    return say("choice_walk", square=route.square or d["sq"], facing=f"facing_{route.facing}", steps=route.steps)


@task("walk")
def _run_walk(ctx: Ctx, t: Task) -> bool:
    """{unit, may_skip}: the unit's steps. A second half with nowhere to go passes."""
    state = ctx.state
    u = t["unit"]
    found = destinations(state, u) if u in state.units and state.outcome is None else {}
    if not found:
        ctx.pop(t)
        return False
    choices: list[tuple[str, Label]] = [(k, walk_label(state, u, k, r)) for k, r in found.items()]
    if t.get("may_skip"):
        choices.append(("stay", say("choice_walk_stay")))
    d = state.units[u]
    return wait(t, d["seat"], "walk", say("prompt_walk", kind=f"kind_{d['kind']}", unit=u, square=d["sq"],
                                          facing=f"facing_{d['facing']}", steps=allowance_now(state, u)), choices)


@answer("walk")
def _walked(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    u = t["unit"]
    if choices[0] == "stay":
        ctx.log("walk_stayed", unit=u, kind=f"kind_{ctx.state.units[u]['kind']}")
        return
    route = route_to(ctx.state, u, choices[0])
    assert route is not None, f"{choices[0]} was offered and is not reachable"
    go(ctx, u, route.sequence)


def go(ctx: Ctx, unit: str, sequence: Iterable[str]) -> int:
    """Walk ``unit`` through ``sequence`` step by step; every square entered goes through ``flow.entered`` (a
    mine may stop or destroy it). Returns the steps made; a walk that ends in "–" loses the unit."""
    state = ctx.state
    d = state.units[unit]
    start = d["sq"]
    (r, c), f = at(start), FACING_INDEX[d["facing"]]
    made = 0
    for step in sequence:
        made += 1
        if step == "F":
            dr, dc = DELTA[DIRECTIONS[f]]
            r, c = r + dr, c + dc
            d["sq"] = sid((r, c))
            if flow.entered(ctx, unit, d["sq"]):
                if unit in state.units:
                    ctx.log("walk_stopped", unit=unit, kind=f"kind_{d['kind']}", square=d["sq"])
                return made
        else:
            f = (f + TURN[step]) % 8
            d["facing"] = DIRECTIONS[f]
    if made:
        ctx.log("walk_done", unit=unit, kind=f"kind_{d['kind']}", seat=d["seat"], start=start, square=d["sq"],
                facing=f"facing_{d['facing']}", steps=made)
    lose_if_forbidden(ctx, unit)
    return made


def lose_if_forbidden(ctx: Ctx, unit: str) -> bool:
    """A unit that ends its steps in a "–" environment is lost (U-7.1.6, U-7.6.2)."""
    d = ctx.state.units[unit]
    env, top = environment(ctx.state, pack().troops[d["kind"]], at(d["sq"]), d["facing"])
    if top is None:
        flow.lose_unit(ctx, unit, "unit_lost_terrain", environment=f"env_{env}")
        return True
    return False


# ------------------------------------------------------------------ what the board shows
@page_part
def _walk_costs(state: GameState, seat: str | None) -> dict[str, Any]:
    """The step cost of each end the seat's own pending walk offers (the board writes it on the square):
    the seat's own choices only, nothing the other seat does not already see."""
    t = current(state)
    if seat is None or t is None or t.get("k") != "walk" or "q" not in t or t["q"]["seat"] != seat:
        return {}
    return {"routes": {k: r.steps for k, r in destinations(state, t["unit"]).items()}}
