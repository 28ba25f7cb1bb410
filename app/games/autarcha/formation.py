"""Formations and columns (spec §8): several units in one move.

Formation (U-8.1). The active player announces it and names at least three units that have not acted
this turn (nor been recruited in it); the first named leads. Named units that do not share the leader's
facing, or are not linked to it through a chain of units each within the [BO] of the next (U-8.1.5, spec
§19), stay where they are. Then the formation's steps: an end of the leader's walk, with the allowance of
the slowest member where it stands (U-8.1.7) as a cap; every member makes the identical step sequence in
lockstep (U-8.1.6), each under its own allowance in its own environment (U-7.2.1). A member that cannot
(a unit or the board's edge in its way, no steps left) stays where it started (U-8.1.2). Fewer than
three left at either check: nobody moves and the move is lost (U-8.1.4, spec §19). Then an optional
identical attack: every member fires at the same place relative to itself, at a square all of them can
hit in the identical way (U-8.1.9-10; attacks.relative_targets and attacks.targets). Every named unit
has taken part in the move and makes no other this turn (U-8.1.2-3, U-5.6).

Column (U-8.2). Single file: each named unit stands directly behind the next and faces it; the longest
such chain among the named units is the column, its front unit the head (the others stay, as above).
The head walks (capped by the slowest member); then each follower in turn goes into the square the unit
in front started from, turns to that unit's starting facing and repeats its steps, making as many as its
allowance lets it and stopping before it would run into a unit (U-8.2.3) or into "–". The steps a
follower fell short are its ``lost_steps``: only in its side's next turn, and only in a column of the same
units in the same order, may it make them up, as extra steps (U-8.2.3).

Mines (FIGHT's ENTER hook) may stop or destroy a member on the way: a member blocked by one a mine
stopped stops where it is.
"""

from __future__ import annotations

from app.games.autarcha import attacks, flow, mines, movement
from app.games.autarcha.engine import Ctx, Task, answer, task, wait
from app.games.autarcha.pack import DELTA, DIRECTIONS, FORMATION_MIN, Square, pack
from app.games.autarcha.state import GameState, at, sid
from app.games.autarcha.text import Label, say

FACING_INDEX = movement.FACING_INDEX


# ------------------------------------------------------------------ who may take part
def eligible(state: GameState, seat: str) -> list[str]:
    """Units that may still take part in a move this turn (U-5.6, U-12.1)."""
    return [u for u in state.units_of(seat) if not state.units[u]["acted"] and not state.units[u]["new"]]


def _within(sq: Square, of: Square) -> bool:
    """``sq`` lies in the [BO] of an object on ``of``: the 4 x 4 block around its crossing (pack's
    ``close_surroundings``, without building the list)."""
    lat, lon = of[0] // 2 + 1, of[1] // 2 + 1
    return 2 * lat - 3 <= sq[0] <= 2 * lat and 2 * lon - 3 <= sq[1] <= 2 * lon


def linked(state: GameState, a: str, b: str) -> bool:
    """One of the two stands within the other's [BO] (U-8.1.5)."""
    sa, sb = at(state.units[a]["sq"]), at(state.units[b]["sq"])
    return _within(sb, sa) or _within(sa, sb)


def formation_members(state: GameState, named: list[str]) -> list[str]:
    """The named units that can form up with the first (the leader): its facing, linked to it by [BO]."""
    if not named:
        return []
    facing = state.units[named[0]]["facing"]
    pool = [u for u in named if state.units[u]["facing"] == facing]
    group, frontier = [named[0]], [named[0]]
    while frontier:
        cur = frontier.pop()
        for u in pool:
            if u not in group and linked(state, cur, u):
                group.append(u)
                frontier.append(u)
    return [u for u in named if u in group]


COLUMN_GAP = 3  # a follower may trail the unit in front by this many squares at most (within its [BO])


def ahead_of(state: GameState, unit: str, among: list[str],
             occupied: dict[str, str] | None = None) -> tuple[str, int] | None:
    """The unit of ``among`` that ``unit`` follows in a column: the first unit on the line it faces, no more
    than ``COLUMN_GAP`` squares on (a follower that lost steps trails) and within [BO], and how far it is.
    ``occupied``: ``state.occupied()``, when the caller asks for many units."""
    if occupied is None:
        occupied = state.occupied()
    d = state.units[unit]
    dr, dc = DELTA[d["facing"]]
    r, c = at(d["sq"])
    board = pack().board
    for dist in range(1, COLUMN_GAP + 1):
        sq = (r + dr * dist, c + dc * dist)
        if not board.on_board(sq):
            return None
        there = occupied.get(sid(sq))
        if there is not None:
            return (there, dist) if there in among and linked(state, unit, there) else None  # spacing (U-8.2.4)
    return None


def column_members(state: GameState, named: list[str]) -> list[str]:
    """The longest single file among the named units, head first (ties: the head named first)."""
    occupied = state.occupied()
    ahead = {u: (a[0] if (a := ahead_of(state, u, named, occupied)) else None) for u in named}
    best: list[str] = []
    for head in named:
        if ahead[head] is not None:
            continue
        chain = [head]
        while True:
            nxt = next((u for u in named if ahead[u] == chain[-1] and u not in chain), None)
            if nxt is None:
                break
            chain.append(nxt)
        if len(chain) > len(best):
            best = chain
    return best


def _can_form(state: GameState, seat: str) -> bool:
    """Some three eligible units share a facing and are linked by [BO]."""
    by_facing: dict[str, list[str]] = {}
    for u in eligible(state, seat):
        by_facing.setdefault(state.units[u]["facing"], []).append(u)
    for group in by_facing.values():
        placed: set[str] = set()
        for u in group:
            if len(group) < FORMATION_MIN or u in placed:
                continue
            found = formation_members(state, [u, *[v for v in group if v != u]])
            if len(found) >= FORMATION_MIN:
                return True
            placed.update(found)
    return False


def _can_column(state: GameState, seat: str) -> bool:
    units = eligible(state, seat)
    return len(units) >= FORMATION_MIN and len(column_members(state, units)) >= FORMATION_MIN


def _offers_formation(state: GameState, seat: str) -> list[tuple[str, Label]]:
    return [("formation", say("menu_formation"))] if _can_form(state, seat) else []


def _offers_column(state: GameState, seat: str) -> list[tuple[str, Label]]:
    return [("column", say("menu_column"))] if _can_column(state, seat) else []


def _start(column: bool) -> flow.Start:
    def start(ctx: Ctx, seat: str, arg: str) -> None:
        ctx.push({"k": "formation", "seat": seat, "column": column, "stage": "pick"})
    return start


flow.menu_entry(flow.MenuEntry("formation", _offers_formation, _start(False)))
flow.menu_entry(flow.MenuEntry("column", _offers_column, _start(True)))


def slowest(state: GameState, members: list[str]) -> int:
    """The formation's pace: the fewest steps any member has where it stands (U-8.1.7)."""
    return min(movement.allowance_now(state, u) for u in members)


def _member_label(state: GameState, u: str) -> Label:
    d = state.units[u]
    return say("choice_member", kind=f"kind_{d['kind']}", unit=u, square=d["sq"], facing=f"facing_{d['facing']}")


# ------------------------------------------------------------------ the formation's steps
def complying(state: GameState, members: list[str], sequence: tuple[str, ...], cap: int) -> tuple[list[str], int]:
    """Which members can make ``sequence`` together, in lockstep (U-8.1.2): those refused stay, and may block
    others in turn. Returns them and how many of them end it in "–"."""
    movers = list(members)
    while True:
        blocked = movement.blockers(state, movers)
        results = {u: movement.trial(state, u, sequence, blocked, cap) for u in movers}
        keep = [u for u in movers if results[u][0] == len(sequence)]
        if len(keep) == len(movers):
            return keep, sum(1 for u in keep if results[u][1])
        movers = keep


def lockstep(ctx: Ctx, members: list[str], sequence: tuple[str, ...]) -> None:
    """Every member makes the same steps at once, front units first on each advance; a member a mine stops
    (or that a stopped one blocks) goes no further."""
    state = ctx.state
    moving = list(members)
    starts = {u: state.units[u]["sq"] for u in members}
    made = dict.fromkeys(members, 0)
    for step in sequence:
        if state.outcome is not None:
            return
        moving = [u for u in moving if u in state.units]
        if step == "F":
            f = state.units[moving[0]]["facing"] if moving else "N"
            dr, dc = DELTA[f]
            moving.sort(key=lambda u: -(at(state.units[u]["sq"])[0] * dr + at(state.units[u]["sq"])[1] * dc))
            for u in list(moving):
                if u not in state.units or state.outcome is not None:
                    continue
                d = state.units[u]
                r, c = at(d["sq"])
                target = sid((r + dr, c + dc))
                if state.unit_at(target) is not None:
                    moving.remove(u)  # a member ahead was stopped: this one stops behind it
                    continue
                d["sq"] = target
                made[u] += 1
                if flow.entered(ctx, u, target):
                    if u in state.units:
                        ctx.log("walk_stopped", unit=u, kind=f"kind_{d['kind']}", square=target)
                    moving.remove(u)
        else:
            for u in moving:
                d = state.units[u]
                d["facing"] = DIRECTIONS[(FACING_INDEX[d["facing"]] + movement.TURN[step]) % 8]
                made[u] += 1
    for u in members:
        if u in state.units and made[u] and state.outcome is None:
            d = state.units[u]
            ctx.log("walk_done", unit=u, kind=f"kind_{d['kind']}", seat=d["seat"], start=starts[u], square=d["sq"],
                    facing=f"facing_{d['facing']}", steps=made[u])
            movement.lose_if_forbidden(ctx, u)


def _walk_choices(state: GameState, members: list[str], cap: int) -> dict[str, tuple[movement.Route, Label]]:
    leader = members[0]
    out: dict[str, tuple[movement.Route, Label]] = {}
    for key, route in movement.destinations(state, leader, cap, movers=members).items():
        keep, lost = complying(state, members, route.sequence, cap)
        facing = f"facing_{route.facing}"
        square = route.square or state.units[leader]["sq"]
        if len(keep) < FORMATION_MIN:
            label = say("choice_formation_walk_fails", square=square, facing=facing, steps=route.steps, left=len(keep))
        elif len(keep) < len(members) or lost:
            label = say("choice_formation_walk_some", square=square, facing=facing, steps=route.steps,
                        behind=len(members) - len(keep), lost=lost)
        else:
            label = say("choice_formation_walk", square=square, facing=facing, steps=route.steps)
        out[key] = (route, label)
    return out


# ------------------------------------------------------------------ the formation's attack
def fire_offsets(state: GameState, members: list[str]) -> list[Square]:
    """Offsets every member may fire at now (U-8.1.9-10): in every member's range at its facing, and the
    square at that offset from each member is one of its targets."""
    if not members:
        return []
    board = pack().board
    shared = set.intersection(*(set(attacks.relative_targets(state, u)) for u in members))
    out = []
    for dr, dc in sorted(shared):
        ok = True
        for u in members:
            r, c = at(state.units[u]["sq"])
            if not board.on_board((r + dr, c + dc)) or sid((r + dr, c + dc)) not in attacks.targets(state, u):
                ok = False
                break
        if ok:
            out.append((dr, dc))
    return out


# ------------------------------------------------------------------ the move
@task("formation")
def _run_formation(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    seat = t["seat"]
    kind = "column" if t["column"] else "formation"
    if state.outcome is not None:
        ctx.pop(t)
        return False
    if t["stage"] == "pick":
        units = eligible(state, seat)
        return wait(t, seat, f"{kind}_units", say(f"prompt_{kind}_units", seat=seat),
                    [(u, _member_label(state, u)) for u in units], lo=min(FORMATION_MIN, len(units)), hi=len(units),
                    undoable=True)
    members = [u for u in t["members"] if u in state.units]
    if not members:  # mines took them all
        ctx.pop(t)
        return False
    if t["stage"] in ("walk", "walk_after"):
        cap = slowest(state, members)
        leader = state.units[members[0]]
        if t["column"]:
            found = {k: (r, movement.walk_label(state, members[0], k, r))
                     for k, r in movement.destinations(state, members[0], cap).items()}
        else:
            found = _walk_choices(state, members, cap)
        # mining is the formation's whole move (a special operation: no steps, no attack, U-11.1.5), so it is
        # offered only before either
        mining = t["stage"] == "walk" and not t["column"] and bool(mines.formation_mine_offsets(state, members))
        if not found and not mining:
            if t["stage"] == "walk_after":
                ctx.pop(t)
                return False
            t["stage"] = "fire"
            return _run_formation(ctx, t)
        choices: list[tuple[str, Label]] = [(k, lab) for k, (_, lab) in found.items()]
        if not t["column"]:
            choices.append(("stay", say("choice_formation_stay")))
        if mining:
            choices.append(("mine", say("choice_formation_mine")))
        return wait(t, seat, f"{kind}_walk", say(f"prompt_{kind}_walk", seat=seat, kind=f"kind_{leader['kind']}",
                                                  square=leader["sq"], steps=cap), choices)
    if t["stage"] == "mine":
        return _ask_mine(ctx, t, members)
    # the attack (formations only)
    alive = [u for u in members if state.units[u]["sq"] is not None]
    offsets = fire_offsets(state, alive) if not t["column"] and len(alive) > 0 else []
    if not offsets:
        ctx.pop(t)
        return False
    lead = state.units[alive[0]]
    r, c = at(lead["sq"])
    choices = [(sid((r + dr, c + dc)), say("choice_formation_fire", square=sid((r + dr, c + dc)),
                                           kind=f"kind_{lead['kind']}", leader=lead["sq"])) for dr, dc in offsets]
    choices.append(("skip", say("choice_formation_fire_skip")))
    t["members"] = alive
    return wait(t, seat, "formation_fire", say("prompt_formation_fire", seat=seat, square=lead["sq"]), choices)


@answer("formation")
def _formation_answered(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state = ctx.state
    seat = t["seat"]
    stage = t["stage"]
    if stage == "pick":
        named = list(choices)
        for u in named:
            state.units[u]["acted"] = True  # named: taking part in this move (U-8.1.2-3)
        ctx.log("column_announced" if t["column"] else "formation_announced", seat=seat, units=", ".join(named))
        members = column_members(state, named) if t["column"] else formation_members(state, named)
        _drop(ctx, [u for u in named if u not in members])
        if len(members) < FORMATION_MIN:
            _fail(ctx, t)
            return
        t["members"], t["stage"] = members, "walk"
        return
    if stage == "walk" and choices[0] == "mine":
        t["stage"] = "mine"
        ctx.log("formation_mining", seat=seat)  # "I'M MINING" (U-11.1.2, U-11.2.1): the squares stay secret
        return
    if stage == "mine":
        _mine(ctx, t, choices[0])
        return
    if stage in ("walk", "walk_after"):
        members = [u for u in t["members"] if u in state.units]
        if stage == "walk_after":
            ctx.pop(t)
        t["stage"] = "fire"
        if choices[0] == "stay":
            return
        t["walked"] = True
        cap = slowest(state, members)
        if t["column"]:
            ctx.pop(t)
            _column(ctx, members, cap, movement.destinations(state, members[0], cap)[choices[0]].sequence)
            return
        route = movement.destinations(state, members[0], cap, movers=members)[choices[0]]
        keep, _ = complying(state, members, route.sequence, cap)
        _drop(ctx, [u for u in members if u not in keep])
        if len(keep) < FORMATION_MIN:
            _fail(ctx, t)
            return
        t["members"] = keep
        lockstep(ctx, keep, route.sequence)
        return
    if choices[0] == "skip":
        ctx.pop(t)
        return
    if t.get("walked"):
        ctx.pop(t)
    else:
        t["stage"] = "walk_after"  # it attacked first: its steps may follow (attack, then movement)
    members = t["members"]
    tr, tc = at(choices[0])
    lr, lc = at(state.units[members[0]]["sq"])
    dr, dc = tr - lr, tc - lc
    for u in members:
        if state.outcome is not None or u not in state.units:
            continue
        r, c = at(state.units[u]["sq"])
        target = sid((r + dr, c + dc))
        if target in attacks.targets(state, u):
            attacks.fire_at(ctx, u, target)


# ------------------------------------------------------------------ the formation's mining (U-8.1.11)
def _mine_square(state: GameState, anchor: str, offset: Square) -> str:
    r, c = at(state.units[anchor]["sq"])
    return sid((r + offset[0], c + offset[1]))


def _ask_mine(ctx: Ctx, t: Task, members: list[str]) -> bool:
    """Where the formation mines: a place relative to each sapper, named by the square of the first sapper
    member's mine (the leader's, when the leader is a sapper: a non-sapper leader lays nothing, and its
    relative square may be off the board or under a unit)."""
    state = ctx.state
    seat = t["seat"]
    sappers = mines.mine_layers(state, members)
    offsets = mines.formation_mine_offsets(state, members)
    if not offsets:  # cannot happen: offered on this very position; no move without a question
        ctx.pop(t)
        return False
    anchor = state.units[sappers[0]]["sq"]
    choices = [(_mine_square(state, sappers[0], o),
                say("choice_formation_mine_square", square=_mine_square(state, sappers[0], o), sapper=anchor,
                    squares=", ".join(_mine_square(state, u, o) for u in sappers))) for o in offsets]
    return wait(t, seat, "formation_mine", say("prompt_formation_mine", seat=seat, square=anchor), choices)


def _mine(ctx: Ctx, t: Task, square: str) -> None:
    """Every sapper member lays one mine at the chosen place relative to itself (U-8.1.9, U-11.2.2), through
    mines.py's own laying; the other members lay nothing."""
    state = ctx.state
    ctx.pop(t)
    sappers = mines.mine_layers(state, [u for u in t["members"] if u in state.units])
    ar, ac = at(state.units[sappers[0]]["sq"])
    tr, tc = at(square)
    for u in sappers:
        mines.lay_mine(ctx, u, _mine_square(state, u, (tr - ar, tc - ac)))


def _drop(ctx: Ctx, units: list[str]) -> None:
    for u in units:
        d = ctx.state.units[u]
        ctx.log("formation_dropped", unit=u, kind=f"kind_{d['kind']}", square=d["sq"])


def _fail(ctx: Ctx, t: Task) -> None:
    if any(x is t for x in ctx.state.stack):
        ctx.pop(t)
    ctx.log("formation_failed", seat=t["seat"])


# ------------------------------------------------------------------ the column
def _catch_up_turns(facing: str, to: str) -> list[str]:
    """The cheapest turns from ``facing`` to ``to`` (eighths clockwise: 45° and 90° steps)."""
    diff = (FACING_INDEX[to] - FACING_INDEX[facing]) % 8
    return {0: [], 1: ["R45"], 2: ["R90"], 3: ["R90", "R45"], 4: ["R90", "R90"], 5: ["L90", "L45"], 6: ["L90"],
            7: ["L45"]}[diff]


def _column(ctx: Ctx, members: list[str], cap: int, head_steps: tuple[str, ...]) -> None:
    state = ctx.state
    seat = state.units[members[0]]["seat"]
    columns = state.flags.setdefault("columns", {})
    before = columns.get(seat)
    again = before is not None and before["turn"] < state.turn and before["members"] == members
    starts = {u: (state.units[u]["sq"], state.units[u]["facing"]) for u in members}
    program: list[str] = list(head_steps)
    made = movement.go(ctx, members[0], program)
    done = program[:made]
    lost_steps: dict[str, int] = {}
    for ahead, u in zip(members, members[1:], strict=False):
        if state.outcome is not None or u not in state.units:
            break
        d = state.units[u]
        bonus = d["lost_steps"] if again else 0
        a_sq, a_facing = starts[ahead]
        gap = max(abs(x - y) for x, y in zip(at(a_sq), at(d["sq"]), strict=True))
        program = ["F"] * gap + _catch_up_turns(d["facing"], a_facing) + done
        # it keeps up when it ends right behind the unit in front: its due is the program short of the last
        # advance (into the square the unit in front stands on now) and the turns made there
        last = max(i for i, step in enumerate(program) if step == "F")
        due = program[:last]
        budget = cap + bonus
        n, _ = movement.trial(state, u, due, movement.blockers(state, [u]), budget, bonus, avoid_lost=True)
        if bonus and n > cap:
            ctx.log("column_made_up", unit=u, kind=f"kind_{d['kind']}", steps=min(bonus, n - cap))
        made = movement.go(ctx, u, due[:n]) if n else 0
        done = due[:made]
        if u in state.units and made == n:
            lost_steps[u] = len(due) - n
            if lost_steps[u] > 0:
                ctx.log("column_follower_stops", unit=u, kind=f"kind_{d['kind']}", square=d["sq"],
                        lost=lost_steps[u])
    for u in members:
        if u in state.units:
            state.units[u]["lost_steps"] = lost_steps.get(u, 0)
    columns[seat] = {"members": list(members), "turn": state.turn}


@flow.turn_end
def _forget_old_columns(ctx: Ctx) -> None:
    """Lost steps may be made up only in the side's next turn (U-8.2.3)."""
    state = ctx.state
    record = state.flags.get("columns", {}).get(state.active)
    if record is not None and record["turn"] < state.turn:
        for u in record["members"]:
            if u in state.units:
                state.units[u]["lost_steps"] = 0
        del state.flags["columns"][state.active]
