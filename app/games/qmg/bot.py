"""A legal bot with simple priorities, and a doctrine per team.

Both teams prefer battles that knock out enemy units whose loss cuts enemy supply, builds
that reach supply spaces or extend their own supply, always use protecting and eliminating
reactions and scoring Status cards in the dominance phase, and keep their hand otherwise.

With the same priorities on both sides the Allies won about 80 % of bot games (issue 8), so
each team follows a doctrine (``DOCTRINE``), tuned with ``scripts/qmg_balance.py``:

* the Axis judges its Events and Economic Warfare by looking one card ahead (``_lookahead``:
  what the card does to the public position) instead of by type, so it stops playing cards
  that do nothing; it builds navies next to supply spaces it can then land on (Japan's road
  to China, Hawaii, India and Australia); it plays a Status only when nothing better is in
  hand, unless the Status scores in the dominance phase right away;
* the Allies keep the plain priorities.

Each doctrine point alone moved the Axis' share by a few points; looking ahead (measured
from the card's play to its full resolution, before the supply phase) moved it most.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass

from app.games.protocol import Action, Decision
from app.games.qmg import board
from app.games.qmg.actions import battle_spaces, build_spaces
from app.games.qmg.cards.registry import RULES
from app.games.qmg.data import card, other_team, team_of
from app.games.qmg.engine import Ctx, apply_answer, current, decision_of
from app.games.qmg.state import GameState
from app.games.qmg.supply import is_supply_space, supplied_spaces

BASIC_PREF = {"build_army": 6, "land_battle": 6, "build_navy": 4, "sea_battle": 4,
              "status": 5.5, "response": 4.5, "event": 6, "economic_warfare": 6}


@dataclass(frozen=True)
class Doctrine:
    navy_landing: float = 0.0  # per land supply space, not held by the team, next to a new navy
    look_ahead: bool = False  # Events and Economic Warfare judged by what they do, not by type
    look_base: float = 1.0  # value of a looked-ahead card that changes nothing
    status: float = 0.0  # added to playing any Status
    status_scoring: float = 0.0  # per VP the Status would score in this turn's dominance phase (less 0.5)


DOCTRINE = {
    "axis": Doctrine(navy_landing=1.5, look_ahead=True, look_base=1.0, status=-2.0, status_scoring=1.5),
    "allies": Doctrine(),
}
LOOKAHEAD_STEPS = 40
STOP = "lookahead-stop"


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
    if not board.is_land(space):  # a navy opens the land spaces next to it to army builds
        value += DOCTRINE[team_of(c)].navy_landing * sum(
            1 for n in board.base_adjacent(space) if board.is_land(n) and board.is_supply(n)
            and not any(team_of(x) == team_of(c) for x in state.units.get(n, [])))
    if any(team_of(x) != team_of(c) for n in board.base_adjacent(space) for x in state.units.get(n, [])):
        value += 1
    return value


def _position(state: GameState, team: str) -> float:
    """Public facts only: VP, supply spaces held, units on the board, cards left in the decks."""
    value = float(state.vp[team] - state.vp[other_team(team)])
    for s, cs in state.units.items():
        for x in cs:
            sign = 1 if team_of(x) == team else -1
            value += sign * (1.0 + (2.0 if board.is_supply(s) else 0.0))
    for x, cs_ in state.countries.items():
        value += (1 if team_of(x) == team else -1) * 0.25 * min(len(cs_.deck), 8)
    return value


def _lookahead(state: GameState, c: str, cid: str) -> float | None:
    """How much better the position is after playing ``cid`` and resolving it (greedily).

    Only for cards the bot cannot judge by type (Events, Economic Warfare). Other seats pass
    every reaction in the copy, so their face-down Responses are never consulted, and the
    result is scored on public facts only (``_position``).
    """
    st = copy.deepcopy(state)
    ctx = Ctx(st, random.Random(0))
    d = decision_of(st)
    if d is None or st.stack[-1].get("k") != "action":
        return None
    # A question nobody answers, under the action task: the copy stops there once the card
    # and everything it set off are resolved, before the supply phase.
    st.stack.insert(len(st.stack) - 1, {"k": "ask", "c": c, "seat": STOP, "prompt": "", "then": "",
                                        "options": [["a", ""], ["b", ""]], "kind": "stop", "lo": 1, "hi": 1})
    team = team_of(c)
    before = _position(state, team)
    try:
        apply_answer(ctx, d.seat, d.id, (cid,))
        for _ in range(LOOKAHEAD_STEPS):
            t = current(st)
            d = decision_of(st)
            if t is None or d is None or d.seat == STOP:
                break
            ids = d.choice_ids()
            if d.seat != state.seats[c]:
                pick = ["pass"] if "pass" in ids else ids[: d.min]
            elif d.max != 1 or d.min != 1:
                pick = ids[: d.min]
            else:
                tc = t.get("c") or t.get("chooser")
                pick = [max(ids, key=lambda i: _score(st, d, i, tc if isinstance(tc, str) else None,
                                                      random.Random(0), look=False))]
            apply_answer(ctx, d.seat, d.id, tuple(pick))
    except Exception:  # noqa: BLE001 - a copy that cannot be resolved greedily is simply not judged
        return None
    return _position(st, team) - before


def _play_value(state: GameState, c: str | None, iid: str, look: bool = True) -> float:
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
    doctrine = DOCTRINE[team_of(c)]
    if d.type in ("event", "economic_warfare") and look and doctrine.look_ahead:
        gain = _lookahead(state, c, f"play:{iid}")
        if gain is not None:
            return doctrine.look_base + gain
    bonus = doctrine.status if d.type == "status" else 0.0
    r = RULES.get(d.key)
    if d.type == "status" and r is not None and r.victory is not None:
        bonus += doctrine.status_scoring * (r.victory(state, c) - 0.5)
    return BASIC_PREF.get(d.type, 3) + bonus


def _score(state: GameState, d: Decision, cid: str, c: str | None, rng: random.Random,
           look: bool = True) -> float:
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
        return _play_value(state, c, rest, look) + noise * 4
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


def _keep(iid: str) -> float:
    """How much the bot wants to keep a card in hand (low: discarded first)."""
    d = card(iid)
    pref = BASIC_PREF.get(d.type, 3)
    return pref


def choose(state: GameState, d: Decision, rng: random.Random) -> Action:
    ids = [ch.id for ch in d.choices]
    t = current(state)
    c = (t.get("c") or t.get("chooser")) if t else None
    if isinstance(c, list):
        c = None
    if d.kind in ("setup_discard", "pay_hand", "realloc_discard"):
        # throw away the least useful cards
        ranked = sorted(ids, key=lambda i: _keep(i) + rng.random() * 3)
        return Action(d.id, tuple(ranked[: d.min]))
    if d.kind == "discard_phase":
        n = 1 if ids and rng.random() < 0.3 else 0
        ranked = sorted(ids, key=lambda i: _keep(i) + rng.random() * 3)
        return Action(d.id, tuple(ranked[:n]))
    if d.max != 1 or d.min != 1:
        n = rng.randint(d.min, min(d.max, len(ids))) if ids else 0
        return Action(d.id, tuple(rng.sample(ids, n)))
    best = max(ids, key=lambda i: _score(state, d, i, c, rng))
    return Action(d.id, (best,))
