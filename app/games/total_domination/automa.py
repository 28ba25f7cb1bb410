"""The solo mode's Axis automa (spec §15): Germany's and Japan's turns when nobody plays them.

The automa IS the rules: on its turn it reveals the top card of its dealt pile (automa_deck.py)
and carries out the active country's actions left to right, each with the country's unit
priority, the card's space selection lines (arrows 1..4 from the country's board edge, nearest
space first) and the Defence Priority; it asks nobody, draws no randomness and pays no OP, and
every choice goes to the log with the rule that made it. Legality is the standard rules'
(movement.destinations, movement.build_spaces, attacks.attack_targets): supply, adjacency for
destroys with the capital's own attack, stacking, shapes, tokens.

Readings where the book is silent (each in the README's "Solo mode"):
- a move goes out of the first home space in Defence Priority order that keeps a unit of the
  country behind; when no home space can give one, a unit elsewhere moves (the one nearest the
  chosen space); the destination is an EMPTY space (no units at all);
- when no arrow's line crosses a possible space or target, the nearest one decides (fewest steps
  from the mover, or from the country's capital for a destroy; then the id), so a possible
  action is never dropped for want of a line;
- the tech extras (§15.6) follow an action that was carried out, not one that was ignored;
- rule 11 is checked at a turn whose revealed card gives the country no executable action
  (not when the dealt pile is empty: the automa then passes, it is not stopped);
- US and Chinese units before joining are never the automa's targets (§15.4 gap).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from app.games.total_domination import automa_deck  # noqa: F401  (registers the deal, the techs, the views)
from app.games.total_domination import pack as td_pack
from app.games.total_domination.attacks import apply_attack, attack_targets
from app.games.total_domination.changes import consequences, snapshot
from app.games.total_domination.derived import controller, is_home_of, joined
from app.games.total_domination.engine import Ctx, Task, task
from app.games.total_domination.movement import apply_move, build_spaces, destinations
from app.games.total_domination.pack import AXIS, NONALIGNED, SoloCard
from app.games.total_domination.state import GameState, Unit
from app.games.total_domination.tracks import advance

# §15.7 (rulebook: "Priorytet obrony"), by space id, in order
DEFENCE: dict[str, tuple[str, ...]] = {
    "germany": ("germany", "italy", "austria", "czechoslovakia"),
    "japan": ("japan", "nanking", "manchuria", "ryukyu"),
}
KINDS = ("army", "fleet")  # rule 8: no bombers, U-boats or Resistance for the automa
# §15.6: the tech that gives one extra action of its unit type, per verb
EXTRAS: dict[str, tuple[tuple[str, str], ...]] = {
    "build": (("C1", "army"), ("C2", "fleet")),
    "move": (("A1", "army"), ("B1", "fleet")),
    "destroy": (("A2", "army"), ("A3", "army"), ("B2", "fleet"), ("B3", "fleet")),
}

Why = dict[str, Any]  # a reason as a catalogue message in JSON form


def why(msg_id: str, **params: Any) -> Why:
    return {"id": msg_id, "params": params}


# ------------------------------------------------------------------ the board as the automa sees it
def defence(state: GameState, power: str) -> list[str]:
    """The country's Defence Priority list: its home spaces on this board, in the book's order."""
    return [s for s in DEFENCE[power] if s in state.geo.spaces and is_home_of(state, s, power)]


def own(state: GameState, power: str, u: Unit) -> bool:
    return u.kind in KINDS and state.power_of(u.nation) == power


def garrison(state: GameState, power: str, space: str) -> int:
    return sum(1 for u in state.units_at(space) if own(state, power, u))


def empty_homes(state: GameState, power: str) -> list[str]:
    """Rule 10: the home spaces with no unit of the country, in Defence Priority order."""
    return [s for s in defence(state, power) if garrison(state, power, s) == 0]


def holds_homes(state: GameState, power: str) -> bool:
    return all(controller(state, s) == power for s in defence(state, power))


def lines(card: SoloCard, power: str) -> list[tuple[int, tuple[str, ...]]]:
    """The card's lines for this orientation, as (arrow number, spaces nearest first)."""
    return [(i + 1, tuple(line)) for i, line in enumerate(card.lines.get(power, ()))]


def steps_from(state: GameState, start: str) -> dict[str, int]:
    """Fewest steps from ``start`` to every space, by any connection."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        for other, _ in state.geo.neighbours[s]:
            if other not in dist:
                dist[other] = dist[s] + 1
                todo.append(other)
    return dist


def select(state: GameState, card: SoloCard, power: str, spaces: set[str], origin: str,
           what: Why) -> tuple[str, Why] | None:
    """§15.5: the first of ``spaces`` along arrow 1, else arrow 2, 3, 4; else the nearest to ``origin``."""
    if not spaces:
        return None
    for arrow, line in lines(card, power):
        for s in line:
            if s in spaces:
                return s, why("why_arrow", arrow=arrow, what=what)
    dist = steps_from(state, origin) if origin in state.geo.spaces else {}
    best = min(spaces, key=lambda s: (dist.get(s, len(state.geo.spaces)), s))
    return best, why("why_nearest", what=what, origin=origin or best)


def unit_order(u: Unit) -> tuple[int, str]:
    return (len(u.id), u.id)


# ------------------------------------------------------------------ the three actions
def _after(ctx: Ctx, facts: list[tuple[str, ...]], before: Any) -> None:
    consequences(ctx, before)
    for fact in facts:
        if fact[0] == "axis_invasion":
            advance(ctx, fact[1], "invasion")


def _move(ctx: Ctx, power: str, unit: Unit, dest: str, reason: list[Why]) -> None:
    state = ctx.state
    src = unit.space
    before = snapshot(state)
    facts = apply_move(state, unit, dest)
    ctx.log("automa_move", power=power, kind=unit.kind, src=src, dest=dest, why=reason)
    _after(ctx, facts, before)


def refill(ctx: Ctx, card: SoloCard, power: str, kind: str) -> bool:
    """Rule 10: a move goes to the first empty home space (Defence Priority) a unit can reach, by
    a unit that leaves no other home space empty: a unit away from home first, the nearest."""
    state = ctx.state
    homes = set(defence(state, power))
    for target in empty_homes(state, power):
        best: tuple[tuple[int, int, int, str], Unit] | None = None
        for u in state.units:
            if u.kind != kind or not own(state, power, u):
                continue
            if u.space in homes and garrison(state, power, u.space) < 2:
                continue
            path = destinations(state, u).get(target)
            if path is None:
                continue
            rank = (u.space in homes, len(path), *unit_order(u))
            if best is None or rank < best[0]:
                best = (rank, u)
        if best is not None:
            _move(ctx, power, best[1], target, [why("why_garrison", space=target, power=power)])
            return True
    return False


def move(ctx: Ctx, card: SoloCard, power: str, kind: str) -> bool:
    """Move one unit of ``kind`` to an empty space: out of the first home space in Defence Priority
    order that keeps a unit of the country, else from elsewhere; the space by the lines."""
    state = ctx.state
    if refill(ctx, card, power, kind):
        return True
    homes = defence(state, power)
    for home in homes:
        if garrison(state, power, home) < 2:
            continue  # the last unit never leaves (§15.7 "WAŻNE")
        movers = sorted((u for u in state.units_at(home) if u.kind == kind and own(state, power, u)), key=unit_order)
        for u in movers:
            reach = {s for s in destinations(state, u) if not state.units_at(s)}
            chosen = select(state, card, power, reach, u.space, why("what_empty_space"))
            if chosen is not None:
                _move(ctx, power, u, chosen[0], [why("why_defence_from", space=home), chosen[1]])
                return True
    # no home space can spare one: a unit of the type elsewhere
    movers = sorted((u for u in state.units if u.kind == kind and own(state, power, u) and u.space not in homes),
                    key=unit_order)
    paths = {u.id: destinations(state, u) for u in movers}
    reach = {s for u in movers for s in paths[u.id] if not state.units_at(s)}
    capital = homes[0] if homes else (movers[0].space if movers else "")
    chosen = select(state, card, power, reach, capital, why("what_empty_space"))
    if chosen is None:
        return False
    dest = chosen[0]
    u = min((u for u in movers if dest in paths[u.id]), key=lambda u: (len(paths[u.id][dest]), *unit_order(u)))
    _move(ctx, power, u, dest, [why("why_field_unit"), chosen[1]])
    return True


def build(ctx: Ctx, card: SoloCard, power: str, kind: str) -> bool:
    """Build one unit of ``kind`` on the first home space in Defence Priority order where it is legal."""
    state = ctx.state
    options = [(n, s) for n, k, s in build_spaces(state, power) if k == kind]
    if not options:
        return False
    order = defence(state, power)
    rank = {s: i for i, s in enumerate(order)}
    nation, space = min(options, key=lambda o: (rank.get(o[1], len(rank)), o[1]))
    reason = why("why_defence_build", space=space) if space in rank else why("why_other_home", space=space)
    before = snapshot(state)
    state.new_unit(nation, kind, space)
    ctx.log("automa_build", power=power, kind=kind, nation=nation, space=space, why=[reason])
    _after(ctx, [], before)
    return True


def _targets(state: GameState, power: str) -> dict[str, tuple[Unit, str]]:
    """The units the automa may destroy now (unit id -> (unit, an origin)): standard legality, no
    US / Chinese unit before its country joins."""
    out: dict[str, tuple[Unit, str]] = {}
    for origin, target, _ in attack_targets(state, power):
        u = state.unit(target)
        if u.kind not in KINDS or (u.nation in NONALIGNED and not joined(state, u.nation)):
            continue
        out.setdefault(target, (u, origin))
    return out


def _destroy(ctx: Ctx, power: str, u: Unit, origin: str, reason: list[Why]) -> None:
    state = ctx.state
    before = snapshot(state)
    space, nation, kind = u.space, u.nation, u.kind
    facts = apply_attack(state, power, origin, u.id)
    ctx.log("automa_destroy", power=power, kind=kind, nation=nation, space=space, why=reason)
    _after(ctx, facts, before)


def intruder(state: GameState, power: str, kinds: tuple[str, ...]) -> tuple[Unit, str, str] | None:
    """§15.7: an enemy unit on an Axis home space the automa can destroy, the first by Defence
    Priority (the active country's list, then its partner's); on one space, by ``kinds``' order."""
    targets = _targets(state, power)
    partner = next(p for p in AXIS if p != power)
    for space in defence(state, power) + defence(state, partner):
        here = [(u, o) for u, o in targets.values() if u.space == space and u.kind in kinds]
        if here:
            u, origin = min(here, key=lambda x: (kinds.index(x[0].kind), *unit_order(x[0])))
            return u, origin, space
    return None


def destroy(ctx: Ctx, card: SoloCard, power: str, kind: str, intruders: tuple[str, ...] = ()) -> bool:
    """Destroy one enemy unit of ``kind``: an Allied unit on an Axis home space first (``intruders``:
    the types that count, in order), else the first along the lines."""
    state = ctx.state
    if intruders:
        found = intruder(state, power, intruders)
        if found is not None:
            u, origin, space = found
            _destroy(ctx, power, u, origin, [why("why_intruder", space=space)])
            return True
    targets = [(u, o) for u, o in _targets(state, power).values() if u.kind == kind]
    homes = defence(state, power)
    chosen = select(state, card, power, {u.space for u, _ in targets}, homes[0] if homes else "",
                    why("what_enemy", kind=kind)) if targets else None
    if chosen is None:
        return False
    u, origin = min(((u, o) for u, o in targets if u.space == chosen[0]), key=lambda x: unit_order(x[0]))
    _destroy(ctx, power, u, origin, [chosen[1]])
    return True


Doer = Callable[[Ctx, SoloCard, str, str], bool]
DO: dict[str, Doer] = {"build": build, "move": move, "destroy": destroy}


# ------------------------------------------------------------------ the turn
def type_order(action_unit: str, priority: tuple[str, ...]) -> list[str]:
    """The icon's unit type, then the card's unit priority, then any other type (§15.4 item 4)."""
    out: list[str] = []
    for k in (action_unit, *priority, *KINDS):
        if k in KINDS and k not in out:
            out.append(k)
    return out


def resolve(ctx: Ctx, card: SoloCard, power: str, index: int, verb: str, unit: str) -> bool:
    """One action of the card; True when it was carried out."""
    state = ctx.state
    if verb not in DO:
        return False  # not an action the automa knows (the pack's audit admits build / move / destroy only)
    ctx.log("automa_action", power=power, index=index, action=why("automa_icon_" + verb, kind=unit))
    if unit not in KINDS and unit not in ("", "any", "unit"):
        ctx.log("automa_icon_ignored", power=power, kind=unit)  # rule 8
        return False
    kinds = type_order(unit, getattr(card, power).units)
    done = False
    if verb == "destroy":
        # an Allied unit on an Axis home space must go first, whatever the icon's type (§15.7)
        found = intruder(state, power, tuple(kinds))
        if found is not None:
            u, origin, space = found
            _destroy(ctx, power, u, origin, [why("why_intruder", space=space)])
            done = True
    if not done and verb == "move" and empty_homes(state, power):
        for k in kinds:  # rule 10: the first possible move refills an empty home space, whatever the type
            if refill(ctx, card, power, k):
                done = True
                break
    if not done:
        for k in kinds:
            if k != kinds[0]:
                ctx.log("automa_other_type", power=power, wanted=kinds[0], kind=k)
            if DO[verb](ctx, card, power, k):
                done = True
                break
    if not done:
        ctx.log("automa_impossible", power=power, index=index)
        return False
    for tech, kind in EXTRAS[verb]:
        if tech in state.techs.get(power, []):
            ctx.log("automa_extra", power=power, tech=tech, kind=kind)
            extra = (destroy(ctx, card, power, kind, intruders=(kind,)) if verb == "destroy"
                     else DO[verb](ctx, card, power, kind))
            if not extra:
                ctx.log("automa_extra_impossible", power=power, tech=tech, kind=kind)
    return True


@task("automa_turn")
def _run_automa_turn(ctx: Ctx, t: Task) -> bool:
    state, power = ctx.state, t["power"]
    ctx.pop(t)
    solo = state.solo
    if not solo.get("dealt"):
        # the automa never passes by choice: with its dealt cards used up, both Axis countries pass
        gone = [p for p in AXIS if p not in state.passed]
        state.passed.extend(gone)
        ctx.log("automa_out_of_cards", powers=gone)
        return False
    card_id = solo["dealt"].pop(0)
    solo["revealed"], solo["revealed_for"] = card_id, power
    solo.setdefault("used", []).append(card_id)
    card = td_pack.pack().solo[card_id]
    part = getattr(card, power)
    ctx.log("automa_reveals", power=power, number=card.number, year=card.year,
            actions=[why("automa_icon_" + v, kind=k) for v, k in part.actions])
    done = 0
    for i, (verb, unit) in enumerate(part.actions, 1):
        done += resolve(ctx, card, power, i, verb, unit)
    if not done:
        if holds_homes(state, power):
            state.bonus_vp[power] = state.bonus_vp.get(power, 0) + 1
            ctx.log("automa_bonus", power=power, total=state.bonus_vp[power])
        else:
            ctx.log("automa_no_bonus", power=power)
    ctx.log("automa_turn_ends", power=power)
    return False
