"""A legal bot with simple priorities.

It prefers battles that knock out enemy units whose loss cuts enemy supply, builds
that reach supply spaces or extend its own supply, always uses protecting and
eliminating reactions, and keeps its hand otherwise.
"""

from __future__ import annotations

import random

from app.games.protocol import Action, Decision
from app.games.qmg import board
from app.games.qmg.actions import battle_spaces, build_spaces
from app.games.qmg.cards.registry import RULES
from app.games.qmg.data import card, team_of
from app.games.qmg.engine import current
from app.games.qmg.state import GameState
from app.games.qmg.supply import is_supply_space, supplied_spaces

BASIC_PREF = {"build_army": 6, "land_battle": 6, "build_navy": 4, "sea_battle": 4,
              "status": 5.5, "response": 4.5, "event": 6, "economic_warfare": 6}


def _battle_value(state: GameState, c: str, space: str) -> float:
    foes = [x for x in state.units.get(space, []) if team_of(x) != team_of(c)]
    if not foes:
        return 0.2
    value = 5.0
    victim = foes[0]
    if board.is_supply(space):
        value += 3
    if space == board.capital(victim):
        value += 4
    # how many of the victim's units lose supply if it goes
    before = supplied_spaces(state, victim)
    units = {s: [x for x in cs if not (s == space and x == victim)] for s, cs in state.units.items()}
    after = supplied_spaces(state, victim, units)
    value += 2 * len((before - {space}) - after)
    return value


def _build_value(state: GameState, c: str, space: str) -> float:
    value = 1.0
    # own units that are cut off now and would be supplied again through the new unit
    before = supplied_spaces(state, c)
    units = {s: list(cs) for s, cs in state.units.items()}
    if c not in units.get(space, []):
        units.setdefault(space, []).append(c)
    after = supplied_spaces(state, c, units)
    value += 2 * len((after - before) - {space})
    if is_supply_space(state, space, team_of(c)):
        value += 4 if not state.units.get(space) else 1
    # neighbours that are supply spaces not yet ours: extends the front
    value += 0.5 * sum(1 for n in board.base_adjacent(space)
                       if board.is_supply(n) and c not in state.units.get(n, []))
    if any(team_of(x) != team_of(c) for n in board.base_adjacent(space) for x in state.units.get(n, [])):
        value += 1
    return value


def _play_value(state: GameState, c: str | None, iid: str) -> float:
    """How good playing this card looks: basic cards by their best target."""
    d = card(iid)
    if c is None:
        return BASIC_PREF.get(d.type, 3)
    if d.type in ("land_battle", "sea_battle"):
        targets = battle_spaces(state, c, "land" if d.type == "land_battle" else "sea")
        return 2 + max((_battle_value(state, c, s) for s in targets), default=0)
    if d.type in ("build_army", "build_navy"):
        spaces = build_spaces(state, c, "army" if d.type == "build_army" else "navy")
        return 2 + max((_build_value(state, c, s) for s in spaces), default=0)
    return BASIC_PREF.get(d.type, 3)


def _score(state: GameState, d: Decision, cid: str, c: str | None, rng: random.Random) -> float:
    noise = rng.random() * 0.5
    if d.kind == "action":
        verb, _, rest = cid.partition(":")
        if verb == "discard":
            return 0.5 + noise
        if verb in ("use", "instead"):
            return 6 + noise
        if verb == "realloc":
            return 0.1 + noise
        if verb == "remove":
            return 0.0
        return _play_value(state, c, rest) + noise * 4
    if d.kind == "react":
        if cid == "pass":
            return 1 + noise
        iid = cid.split(":", 1)[1]
        r = RULES.get(card(iid).key)
        owner = card(iid).country
        if r and r.cost_deck > len(state.countries[owner].deck):
            return 0.5  # the cost would be paid in VP
        return 8 + noise
    if d.kind == "use_status":
        # Dominance-phase VP: worth taking even though a used German Status risks Enigma,
        # since a Status that never scores is worth nothing either.
        return 0.0 if cid == "skip" else 8 + noise
    if c is None:
        return noise
    if d.kind == "battle":
        if cid == "skip":
            return 0.1
        return _battle_value(state, c, cid.split(":")[1]) + noise
    if d.kind in ("build", "deploy"):
        if cid == "skip":
            return 0.1
        parts = cid.split(":")
        return (_build_value(state, c, parts[1]) if parts[0] != "declare" else 0.3) + noise
    if d.kind == "eliminate":
        return (0 if cid == "skip" else 5) + noise
    return noise


def choose(state: GameState, d: Decision, rng: random.Random) -> Action:
    ids = [ch.id for ch in d.choices]
    t = current(state)
    c = (t.get("c") or t.get("chooser")) if t else None
    if isinstance(c, list):
        c = None
    if d.kind in ("setup_discard", "pay_hand", "realloc_discard"):
        # throw away the least useful cards
        ranked = sorted(ids, key=lambda i: BASIC_PREF.get(card(i).type, 3) + rng.random() * 3)
        return Action(d.id, tuple(ranked[: d.min]))
    if d.kind == "discard_phase":
        n = 1 if ids and rng.random() < 0.3 else 0
        ranked = sorted(ids, key=lambda i: BASIC_PREF.get(card(i).type, 3) + rng.random() * 3)
        return Action(d.id, tuple(ranked[:n]))
    if d.max != 1 or d.min != 1:
        n = rng.randint(d.min, min(d.max, len(ids))) if ids else 0
        return Action(d.id, tuple(rng.sample(ids, n)))
    best = max(ids, key=lambda i: _score(state, d, i, c, rng))
    return Action(d.id, (best,))
