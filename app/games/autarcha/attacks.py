"""Attacks (spec §9): the ``fire`` half of a unit's move, the defence roll against the [TSO], hits on units and
on the map's objects, destruction.

A unit fires at the squares of its range (``data/troops.yaml``: a figure for a unit facing north and one
for a unit facing north-east, turned by quarter turns for the other facings; the book's figures are lost,
README). Targets are enemy units in range, and the objects fire can destroy on squares no unit stands on:
forest, road, rail, city squares, factories (U-9.5). Against a unit the passive player's die (the server
rolls it) must show more than the [TSO] value of the target square's landscape (U-9.3); against an object
the hit is automatic (spec §19). One hit is one point of durability: a unit whose hits reach its hp is
destroyed (damage persists, §19), a factory has 4, a city square takes 4, forest, road and rail 1 each.

Formations (MOVE's formation.py) fire through this module too. ``relative_targets(state, unit)`` is the
set of offsets (rows north, columns east) of the unit's range at its facing. A formation may fire at an
offset only if every member has it (U-8.1.10: the intersection of their figures) and the square at that
offset from every member is one of that member's ``targets`` now (U-8.1.9: each fires at the same place
relative to itself); ``formation_offsets(state, units)`` lists those, and each member then ``fire_at``\\ s
its own square.
"""

from __future__ import annotations

import functools

from app.games.autarcha import flow
from app.games.autarcha.engine import Ctx, Task, answer, task, wait
from app.games.autarcha.pack import CITY_SQUARE_HITS, TRACK_OR_FOREST_HITS, Square, close_surroundings, pack
from app.games.autarcha.state import GameState, at, sid
from app.games.autarcha.text import Label, say

# hits that destroy each map object (U-3.5.3, U-3.5.7); a factory's 4 are its durability in the table
OBJECT_HITS: dict[str, int] = {"city": CITY_SQUARE_HITS, "forest": TRACK_OR_FOREST_HITS,
                               "road": TRACK_OR_FOREST_HITS, "rail": TRACK_OR_FOREST_HITS}


# ------------------------------------------------------------------ the map under fire
def landscape(state: GameState, square: str) -> str:
    """The square's landscape as the rules see it now: a destroyed forest or city is ground (U-3.5.9)."""
    r, c = at(square)
    terrain = pack().board.terrain[r][c]
    if terrain in ("forest", "city") and state.is_destroyed(square, terrain):
        return "ground"
    return terrain


def cover(state: GameState, square: str) -> str:
    """The [TSO] column of a unit standing on ``square``: a building gives a city's cover (U-3.5.8)."""
    return "city" if state.factory_at(square) is not None else landscape(state, square)


def objects_on(state: GameState, square: str) -> list[str]:
    """The map objects standing (not destroyed) on ``square`` that a hit can reach."""
    printed = _printed_objects(id(pack()), square)
    gone = state.destroyed.get(square)
    return [o for o in printed if o not in gone] if gone else list(printed)


@functools.lru_cache(maxsize=4096)
def _printed_objects(_pack: int, square: str) -> tuple[str, ...]:
    r, c = at(square)
    board = pack().board
    out = []
    if board.terrain[r][c] in ("city", "forest"):
        out.append(board.terrain[r][c])
    if board.roads[r][c]:
        out.append("road")
    if board.rails[r][c]:
        out.append("rail")
    return tuple(out)


def close_to(square: str) -> frozenset[str]:
    """[BO] of whatever stands on ``square`` (U-3.3.1), as square ids."""
    return _close_to(id(pack()), square)


# the geometry's answers are kept per pack (a test may install another one: pack.use_pack)
@functools.lru_cache(maxsize=4096)
def _close_to(_pack: int, square: str) -> frozenset[str]:
    return frozenset(sid(sq) for sq in close_surroundings(pack().board, at(square)))


def enemy_zone(state: GameState, seat: str) -> set[str]:
    """The squares in the [BO] of any unit of ``seat``'s enemy (the special operations' ban, U-11.1.4)."""
    foe = state.other(seat)
    out: set[str] = set()
    for d in state.units.values():
        if d["seat"] == foe and d["sq"]:
            out |= close_to(d["sq"])
    return out


def near_enemy(state: GameState, seat: str, square: str) -> bool:
    return square in enemy_zone(state, seat)


# ------------------------------------------------------------------ ranges and targets
def relative_targets(state: GameState, unit: str) -> set[Square]:
    """The offsets (rows north, columns east) of the unit's range at its facing (empty: it cannot fire)."""
    d = state.units[unit]
    r = pack().troops[d["kind"]].ranges
    return set(r.reach(d["facing"])) if r is not None else set()


def in_range(state: GameState, unit: str) -> list[str]:
    """The squares on the board the unit's range covers now, whatever stands there."""
    d = state.units[unit]
    return list(_range_squares(id(pack()), d["kind"], d["facing"], d["sq"]))


def reach(kind: str, facing: str, square: str) -> tuple[str, ...]:
    """The squares on the board a unit of ``kind`` standing on ``square`` facing ``facing`` would cover."""
    return _range_squares(id(pack()), kind, facing, square)


@functools.lru_cache(maxsize=8192)
def _range_squares(_pack: int, kind: str, facing: str, square: str) -> tuple[str, ...]:
    r = pack().troops[kind].ranges
    if r is None:
        return ()
    board = pack().board
    row, col = at(square)
    return tuple(sid((row + dr, col + dc)) for dr, dc in sorted(r.reach(facing))
                 if board.on_board((row + dr, col + dc)))


def is_target(state: GameState, unit: str, square: str) -> bool:
    """An enemy unit, or (no unit there at all) an object fire can destroy (U-9.2, U-9.5)."""
    return square in targets(state, unit)


def targets(state: GameState, unit: str, first: bool = False) -> list[str]:
    """The squares ``unit`` may fire at now (``first``: stop at the first one found)."""
    d = state.units[unit]
    if d["sq"] is None:
        return []
    occupied = state.occupied()
    buildings = {f["sq"] for f in state.factories.values()}
    out = []
    for s in _range_squares(id(pack()), d["kind"], d["facing"], d["sq"]):
        there = occupied.get(s)
        if (state.units[there]["seat"] != d["seat"] if there is not None
                else s in buildings or bool(objects_on(state, s))):
            out.append(s)
            if first:
                break
    return out


def formation_offsets(state: GameState, units: list[str]) -> list[Square]:
    """The offsets at which every member of a formation may fire at once (U-8.1.9-10)."""
    shared = set.intersection(*(relative_targets(state, u) for u in units)) if units else set()
    out = []
    for dr, dc in sorted(shared):
        if all(_square_off(state, u, dr, dc) in targets(state, u) for u in units):
            out.append((dr, dc))
    return out


def _square_off(state: GameState, unit: str, dr: int, dc: int) -> str | None:
    r, c = at(state.units[unit]["sq"])
    return sid((r + dr, c + dc)) if pack().board.on_board((r + dr, c + dc)) else None


# ------------------------------------------------------------------ the halves
@flow.half("fire")
def may_fire(state: GameState, unit: str) -> bool:
    return bool(targets(state, unit, first=True))


@flow.half("fire_at_all")
def fires_at_all(state: GameState, unit: str) -> bool:
    troop = pack().troops[state.units[unit]["kind"]]
    return troop.attacks.value and troop.ranges is not None


def _target_label(state: GameState, square: str) -> Label:
    there = state.unit_at(square)
    if there is not None:
        d = state.units[there]
        return say("choice_fire_unit", kind=f"kind_{d['kind']}", unit=there, square=square)
    f = state.factory_at(square)
    if f is not None:
        return say("choice_fire_factory", factory=f, square=square)
    return say("choice_fire_object", what=[f"object_{o}" for o in objects_on(state, square)], square=square)


@task("fire")
def _run_fire(ctx: Ctx, t: Task) -> bool:
    """One attack (U-9.7): {unit, may_skip}. The unit may be gone (a mine ended its walk) or find nothing
    in range after its walk: a second half then passes."""
    state = ctx.state
    u = t["unit"]
    found = targets(state, u) if u in state.units and state.outcome is None else []
    if not found:
        ctx.pop(t)
        if u in state.units and state.outcome is None:
            ctx.log("fire_nothing_in_range", unit=u, kind=f"kind_{state.units[u]['kind']}")
        return False
    choices: list[tuple[str, Label]] = [(s, _target_label(state, s)) for s in found]
    if t.get("may_skip"):
        choices.append(("skip", say("choice_fire_skip")))
    d = state.units[u]
    return wait(t, d["seat"], "fire", say("prompt_fire", kind=f"kind_{d['kind']}", unit=u, square=d["sq"]),
                choices)


@answer("fire")
def _fired(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    if choices[0] == "skip":
        ctx.log("fire_skipped", unit=t["unit"], kind=f"kind_{ctx.state.units[t['unit']]['kind']}")
        return
    fire_at(ctx, t["unit"], choices[0])


# ------------------------------------------------------------------ one attack
def fire_at(ctx: Ctx, unit: str, square: str) -> None:
    """``unit`` fires at ``square`` (one of its ``targets``): at a unit the passive player's die decides,
    at an object the hit is automatic."""
    state = ctx.state
    d = state.units[unit]
    there = state.unit_at(square)
    if there is None:
        ctx.log("fire_at_object", unit=unit, kind=f"kind_{d['kind']}", seat=d["seat"], square=square)
        hit(ctx, square, 1, unit, reach="objects")
        return
    target = state.units[there]
    terrain = cover(state, square)
    value = pack().defence[terrain].value
    roll = ctx.rng.randint(1, pack().die.value)
    landed = roll > value  # U-9.3: higher than the defence value
    ctx.log("fire_roll", unit=unit, kind=f"kind_{d['kind']}", seat=d["seat"], target=there,
            target_kind=f"kind_{target['kind']}", square=square, terrain=f"terrain_{terrain}", value=value,
            roll=roll, result="fire_hit" if landed else "fire_miss")
    if landed:
        hit(ctx, square, 1, unit, reach="unit")


def hit(ctx: Ctx, square: str, strength: int, by: str, reach: str = "all") -> None:
    """``strength`` hits on what stands on ``square``: the unit there (``reach`` "unit" or "all") and the
    object there (``reach`` "objects" or "all": a factory, else the city, forest, road and rail squares, each
    taking the hit). ``by`` names the source for the log (a unit id or "mine")."""
    state = ctx.state
    there = state.unit_at(square)
    if there is not None and reach in ("unit", "all"):
        _hit_unit(ctx, there, strength, by)
    if reach in ("objects", "all"):
        _hit_objects(ctx, square, strength)


def _hit_unit(ctx: Ctx, unit: str, strength: int, by: str) -> None:
    state = ctx.state
    d = state.units[unit]
    d["hits"] += strength
    hp = pack().troops[d["kind"]].hp.value
    if d["hits"] >= hp:
        flow.lose_unit(ctx, unit, "unit_destroyed", by=by)
    else:
        ctx.log("unit_hit", unit=unit, kind=f"kind_{d['kind']}", seat=d["seat"], square=d["sq"], hits=d["hits"],
                hp=hp)


def _hit_objects(ctx: Ctx, square: str, strength: int) -> None:
    state = ctx.state
    f = state.factory_at(square)
    if f is not None:  # the building takes the hit before what it stands on
        fd = state.factories[f]
        fd["hits"] += strength
        hp = pack().troops["F"].hp.value
        owner = _controller(state, square) or fd.get("issued_to")
        if fd["hits"] >= hp:
            del state.factories[f]
            ctx.log("factory_destroyed", factory=f, square=square)
        else:
            ctx.log("factory_hit", factory=f, square=square, hits=fd["hits"], hp=hp)
        if owner in state.ledger:
            note(state, owner, say("ledger_factory_hit", factory=f, square=square, hits=min(fd["hits"], hp), hp=hp))
        return
    for what in objects_on(state, square):
        taken = state.damage.setdefault(square, {})
        taken[what] = taken.get(what, 0) + strength
        need = OBJECT_HITS[what]
        if taken[what] >= need:
            state.destroyed.setdefault(square, []).append(what)
            ctx.log("object_destroyed", what=f"object_{what}", square=square)
        else:
            ctx.log("object_hit", what=f"object_{what}", square=square, hits=taken[what], need=need)
        owner = _controller(state, square)
        if what == "city" and owner in state.ledger:  # the ledger keeps hits on buildings and cities (U-6.4)
            note(state, owner, say("ledger_city_hit", square=square, hits=min(taken[what], need), need=need))


def _controller(state: GameState, square: str) -> str | None:
    area = pack().area_of(at(square))
    return state.control.get(area.id) if area is not None else None


def note(state: GameState, seat: str, what: Label, income: int = 0, expense: int = 0) -> None:
    """A line of ``seat``'s ledger (U-6.4): a hit on its building or city, or a payment of this module."""
    msg = what if not isinstance(what, str) else say(what)
    state.gold[seat] = state.gold.get(seat, 0) + income - expense
    if not pack().scenarios[state.scenario].economy:
        return  # Skirmish keeps no ledger
    state.ledger.setdefault(seat, []).append({"turn": state.turn, "what": {"id": msg.id, "params": msg.params},
                                              "income": income, "expense": expense,
                                              "balance": state.gold[seat]})
