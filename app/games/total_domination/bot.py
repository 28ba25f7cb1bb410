"""A heuristic bot for every belligerent of Total Domination (GameRules.bot).

Not a search: each answer is scored by cheap, local estimates in "OP-equivalents" and the best
one taken. What the bot looks at is what its seat may see: its own hand(s), the public board,
the public track / tech / discard state. It never reads another hand, the deck order, or a
face-down tech card (a secret of the other seats: views.secrets).

The plan, power by power, is the same: take the stars that are not its side's (uncontrolled
first, enemy home spaces and capitals above all), keep its own capital and home spaces
garrisoned against adjacent enemies, build where the front is, develop one tech a year when a
card's tech fits (production and movement early, a new colour for its VP, rockets late), play
the events that pay, and pass with one card left, the best one kept as the reserve.

Every answer is one of the offered choice ids, within the decision's min..max; ties are broken
by the order offered, so the bot is deterministic given the state (it never needs the rng).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from typing import Any

from app.games.protocol import Action, Decision
from app.games.total_domination import derived, engine
from app.games.total_domination.costs import card_value, cost
from app.games.total_domination.pack import ALLIES, AXIS, NONALIGNED, POWERS, card, pack, side_of
from app.games.total_domination.state import GameState, Unit

Scores = dict[str, float]
HOLDERS = derived.HOLDERS

# what a developed tech is worth to its owner per remaining year, in OP saved (roughly how often
# the cheaper action is taken in a year), before the VP of a new colour
TECH_USE: dict[str, float] = {
    "A1": 3.0, "C1": 3.0, "B1": 1.5, "C2": 1.5, "A2": 1.5, "B2": 1.0, "A3": 2.0, "B3": 1.5,
    "A4": 0.5, "C3": 0.8, "D1": 0.8, "D2": 0.8, "E1": 1.0, "E2": 1.2, "E3": 1.5,
}
ROCKETRY = ("E1", "E2", "E3")
# the weight of an enemy army / fleet 1, 2... spaces away in a space's pressure: a farther reach
# made both sides stand guard and the Axis, which needs fewer VP, gained most (measured)
REACH = (1.0,)
# how much a capture beside enemy armies / fleets is discounted (1 / (1 + HOLD x their number)):
# the Axis, which must hold 29 VP at a year's end, gained by it; the Allies, racing to a higher
# threshold, lost by it (scripts/td_balance.py, 120-game samples: Axis wins 25 % -> 32 % with
# it on the Axis side, 25 % -> 38 % with it on the Allied side), so only the Axis weighs it
HOLD = {"axis": 1.0, "allies": 0.0}
CONQUEST = 3.0  # solo: the extra weight of the home spaces of the Axis country to conquer
HORIZON = 3  # years of a tech's use the bot counts on
VP_OP = 2.5  # one VP, in OP: about what a unit that takes a 1-star space costs


# ---------------------------------------------------------------- who is answering
def _powers_of_decision(state: GameState, decision: Decision) -> list[str]:
    """The power(s) the decision is for: the task's own power, else the hand of a simultaneous
    question (its id ends with the hand id), else the seat's powers."""
    t = engine.current(state)
    if t is not None:
        p = t.get("power")
        if isinstance(p, str) and p in POWERS:
            return [p]
        if "qs" in t and "-" in decision.id:
            hid = decision.id.split("-", 1)[1]
            powers = [p for p in POWERS if state.hand_of.get(p) == hid and not state.automa(p)]
            if powers:
                return powers
    if state.active and state.seats.get(state.active) == decision.seat:
        return [state.active]
    return [p for p in state.powers_of(decision.seat) if not state.automa(p)] or list(ALLIES)


def _years_left(state: GameState) -> int:
    return max(1, int(state.options.get("last_year", 1945)) - state.year + 1)


def _last_year(state: GameState) -> bool:
    return state.year >= int(state.options.get("last_year", 1945))


# ---------------------------------------------------------------- cards: what one is worth to a power
def tech_worth(state: GameState, power: str, tech: str) -> float:
    """A tech developed this year, in OP: its use over the years left plus the VP of a new colour."""
    have = state.techs.get(power, [])
    if tech in have or tech == state.tech_played.get(power):
        return 0.0
    t = pack().techs.get(tech)
    if t is None:
        return 0.0
    if any(r not in have for r in t.requires) or (t.requires_any and not any(r in have for r in t.requires_any)):
        return 0.0
    # revealed at step F: of use from next year; matches seldom last past 1943, so a far payback
    # counts for little
    years = min(_years_left(state) - 1, HORIZON) * 0.6
    use = TECH_USE.get(tech, 0.5) * years
    if tech in ROCKETRY:
        use = TECH_USE[tech] * max(years, 1.0) * (1.5 if state.year >= 1942 else 0.7)
    groups = {derived.tech_group(x) for x in have}
    new_colour = bool(groups) and derived.tech_group(tech) not in groups
    first = not groups
    return use + (VP_OP * 1.2 if new_colour else 0.0) + (0.5 if first else 0.0)


def _colour_ok(state: GameState, power: str, colour: str) -> bool:
    if colour == power:
        return True
    who = state.controller.get(colour)
    if colour in NONALIGNED:
        return who == power
    return who == power


def event_worth(state: GameState, power: str, card_id: str, hand: list[str] | None = None) -> float:
    """What playing the card's event is worth now, in OP (0: not playable or pointless)."""
    c = card(card_id)
    if not _colour_ok(state, power, c.colour):
        return 0.0
    ev = c.event
    if ev.kind == "diplomacy":
        same = [d for d in state.diplomacy if card(d["card"]).event.flag == ev.flag]
        best = max((card(d["card"]).event.vp for d in same), default=0)
        ours = sum(card(d["card"]).event.vp for d in same if side_of(d["power"]) == side_of(power))
        theirs = sum(card(d["card"]).event.vp for d in same if side_of(d["power"]) != side_of(power))
        if ev.vp > best:  # outbids: ours placed, theirs gone
            return (ev.vp + theirs - ours) * VP_OP * 1.5
        if ev.vp == best and best > 0:
            return ev.vp * VP_OP * 1.2
        return 0.0 if best else ev.vp * VP_OP * 1.5
    if ev.kind == "tactics":
        if ev.value in (1, -1):
            hand = hand or []
            others = [x for x in hand if x != card_id]
            if ev.value == 1:  # +1 on itself before a big operations turn: one OP per card still to play
                later = len(others) - (0 if _last_year(state) else 1)  # the reserve waits for next year
                return max(0, later) * 1.0 + (0.5 if any(card(x).op >= 5 for x in others) else 0.0)
            return 2.0
        return float(ev.value or 0) + 0.3
    if ev.kind == "logistics":
        worth = {"army": 3.0, "fleet": 3.0, "bomber": 2.5, "move": 2.0, "satellite": 4.0, "resistance": 2.5}
        total = 0.0
        for icon, n in ev.icons.items():
            if icon == "satellite" and side_of(power) != "axis":
                continue
            if icon == "resistance" and side_of(power) != "allies":
                continue
            total += worth.get(icon, 1.5) * n
        return total
    if ev.kind == "research":
        return max((tech_worth(state, power, card(x).tech) for x in state.discard), default=0.0) * 0.9
    if ev.kind == "peace":
        return float(ev.op) + 3.0
    return 0.0


def card_worth(state: GameState, power: str, card_id: str) -> float:
    """A card in hand, in OP: its operations, or its event or tech when those pay more."""
    c = card(card_id)
    base = float(c.op)
    return max(base, event_worth(state, power, card_id) + 0.5, tech_worth(state, power, c.tech) * 0.8)


def _best_cards(state: GameState, powers: list[str], cards: list[str]) -> list[str]:
    """Cards best first (ties: as offered)."""
    worth = {c: max(card_worth(state, p, c) for p in powers) for c in cards}
    return sorted(cards, key=lambda c: -worth[c])


# ---------------------------------------------------------------- the board: what a power wants
class Front:
    """The board as one power sees it at one moment: control, targets and their distances,
    enemy pressure. Built once per decision; every choice is then scored locally."""

    def __init__(self, state: GameState, power: str) -> None:
        self.state, self.power, self.side = state, power, side_of(power)
        self.geo = state.geo
        self.by = derived.units_by_space(state)
        self.cmap = derived.control_map(state)
        self.friends = set(AXIS if self.side == "axis" else ALLIES)
        # what one step of a non-aligned country's track costs the Axis (an Axis Invasion moves it)
        self.invasion = {n: invasion_cost(state, n, self.cmap) for n in NONALIGNED} if power in AXIS else {}
        targets: dict[str, float] = {}
        for s, sp in self.geo.spaces.items():
            who = self.cmap.get(s)
            value = derived.space_value(state, s)
            if value <= 0 or who in self.friends:
                continue
            if sp.nation in self.invasion:
                value = max(0.0, value - self.invasion[sp.nation] / VP_OP)  # it brings the country in
            elif who is None and sp.nation is None and any(u.nation == "neutral" for u in self.by.get(s, [])):
                value = value * 0.6  # neutral armies cost an attack first
            targets[s] = value + (1.5 if sp.capital and who is not None else 0.0)
            if derived.is_home_of(state, s, power):
                targets[s] += 2.0  # retake our own
        if state.solo_game() and self.side == "allies":
            # solo: the player wins only by conquering one Axis country (§15.1): aim at the nearest
            for s in self._conquest(state):
                targets[s] = targets.get(s, 0.0) + CONQUEST
        self.targets = targets
        self.dist = self._distances(set(targets))
        self.pressure = self._pressure()

    def _conquest(self, state: GameState) -> list[str]:
        """The home spaces still to take of the Axis country closest to being conquered."""
        best: list[str] | None = None
        for country in AXIS:
            homes = self.geo.home_spaces(country)
            if country == "germany" and state.controller.get("italy") in AXIS:
                homes += self.geo.home_spaces("italy")
            left = [s for s in homes if self.cmap.get(s) not in self.friends]
            if left and (best is None or len(left) < len(best)):
                best = left
        return best or []

    def _distances(self, sources: set[str]) -> dict[str, int]:
        dist = dict.fromkeys(sources, 0)
        todo = deque(sources)
        while todo:
            s = todo.popleft()
            for o, _ in self.geo.neighbours[s]:
                if o not in dist:
                    dist[o] = dist[s] + 1
                    todo.append(o)
        return dist

    def hostile_unit(self, u: Unit) -> bool:
        p = self.state.power_of(u.nation)
        return p is not None and side_of(p) != self.side

    def _pressure(self) -> dict[str, float]:
        """How hard enemy armies and fleets bear on each space: a unit moves along a path of its
        side's spaces, so not only the adjacent ones count (1 beside, 1/2 two away, 1/4 three)."""
        out = dict.fromkeys(self.geo.spaces, 0.0)
        for space, here in self.by.items():
            n = sum(1 for u in here if u.kind in HOLDERS and self.hostile_unit(u))
            if not n:
                continue
            seen = {space: 0}
            todo = deque([space])
            while todo:
                s = todo.popleft()
                d = seen[s]
                if d >= len(REACH):
                    continue
                for o, _ in self.geo.neighbours[s]:
                    if o not in seen:
                        seen[o] = d + 1
                        out[o] += n * REACH[d]
                        todo.append(o)
        return out

    # ------------------------------------------------------------ local control arithmetic
    def _side_value(self, s: str, here: list[Unit]) -> float:
        """This space's VP for our side minus for theirs, with these units on it."""
        who = derived._control(self.state, s, here)
        if who is None:
            return 0.0
        value = derived.space_value(self.state, s)
        return float(value) if who in self.friends else -float(value)

    def hold(self, s: str) -> float:
        """How much of a space's capture is worth counting: one the enemy stands beside is often
        lost again at once."""
        return 1.0 / (1.0 + HOLD[self.side] * self.pressure.get(s, 0.0))

    def delta(self, s: str, before: list[Unit], after: list[Unit]) -> float:
        return self._side_value(s, after) - self._side_value(s, before)

    # ------------------------------------------------------------ where a unit is worth having
    def place(self, s: str, here: list[Unit], kind: str) -> float:
        """What one more unit of ``kind`` on ``s`` is worth, besides the control it changes."""
        if kind not in HOLDERS and kind != "bomber":
            return 0.3
        sp = self.geo.spaces[s]
        d = self.dist.get(s, 9)
        worth = 2.2 / (1 + d)
        mine = sum(1 for u in here if u.kind in HOLDERS and self.state.power_of(u.nation) == self.power)
        press = self.pressure.get(s, 0)
        if self.cmap.get(s) in self.friends and press >= 0.25:
            value = derived.space_value(self.state, s) + (2.0 if sp.capital else 0.0)
            if derived.is_home_of(self.state, s, self.power):
                value += 1.0 + (1.0 if sp.factory or sp.shipyard else 0.0)  # a Destruction marker too
            need = 2 if sp.capital and press >= 1.5 else 1
            worth += value * min(1.0, press) * (0.8 if mine < need else 0.15)
        if mine >= 2:
            worth *= 0.6  # spread out: one unit holds a space
        return worth


# ---------------------------------------------------------------- operations
def _split(choice: str) -> list[str]:
    return choice.split(":")


def _move_score(f: Front, unit: Unit, dest: str) -> float:
    src_before = f.by.get(unit.space, [])
    src_after = [u for u in src_before if u.id != unit.id]
    dst_before = f.by.get(dest, [])
    dst_after = dst_before + [unit]
    taken = f.delta(dest, dst_before, dst_after)
    gain = f.delta(unit.space, src_before, src_after) + (taken * f.hold(dest) if taken > 0 else taken)
    here = f.place(unit.space, src_after, unit.kind)
    there = f.place(dest, dst_before, unit.kind)
    score = gain * VP_OP + there - here
    sp = f.geo.spaces[dest]
    if sp.nation in f.invasion and not any(u.nation == sp.nation for u in f.by.get(dest, [])):
        score -= f.invasion[sp.nation]  # an Axis Invasion pushes the country towards the Allies
    return score


def _build_score(f: Front, kind: str, space: str) -> float:
    before = f.by.get(space, [])
    ghost = Unit(id="ghost", nation=f.power, kind=kind, space=space)
    gain = f.delta(space, before, before + [ghost])
    base = 1.0 if kind in HOLDERS else 0.4  # a unit on the board is worth having anywhere
    if kind == "bomber":
        base = 0.6
    return gain * VP_OP + base + f.place(space, before, kind)


def _attack_score(f: Front, target_id: str) -> float:
    state = f.state
    try:
        target = state.unit(target_id)
    except KeyError:
        return -1.0
    here = f.by.get(target.space, [])
    after = [u for u in here if u.id != target.id]
    gain = f.delta(target.space, here, after)
    threat = 0.0
    for o, _ in f.geo.neighbours[target.space]:
        if f.cmap.get(o) in f.friends:
            threat += derived.space_value(state, o) * 0.4
    follow = 1.5 if target.space in f.targets and not any(u.kind in HOLDERS for u in after) else 0.0
    score = gain * VP_OP + 1.2 + min(threat, 3.0) + follow
    if target.nation in f.invasion:
        score -= f.invasion[target.nation]
    if target.nation == "neutral":
        score -= 0.5
    return score


def operation_scores(state: GameState, power: str, ids: list[str]) -> Scores:
    f = Front(state, power)
    left = int(state.turn.get("ops", {}).get("op", 0)) if state.turn.get("ops") else 0
    scores: Scores = {}
    for c in ids:
        parts = _split(c)
        verb = parts[0]
        try:
            if verb == "build" and len(parts) == 4:
                _, _, kind, space = parts
                price = cost(state, power, "build_" + kind)
                scores[c] = _build_score(f, kind, space) - 0.25 * price
            elif verb == "move" and len(parts) == 3:
                unit = state.unit(parts[1])
                price = cost(state, power, "move_" + unit.kind)
                scores[c] = _move_score(f, unit, parts[2]) - 0.25 * price
            elif verb == "attack" and len(parts) == 3:
                scores[c] = _attack_score(f, parts[2]) - 0.25 * 2
            elif verb == "hit" and len(parts) == 2:
                scores[c] = _attack_score(f, parts[1])
            elif verb == "satellite" and len(parts) == 2:
                scores[c] = _build_score(f, "army", parts[1]) + 0.5
            elif verb == "resistance" and len(parts) == 2:
                scores[c] = 1.0 + derived.space_value(state, parts[1]) * 0.8
            elif verb == "remove":
                scores[c] = -5.0
            elif verb == "saved":
                scores[c] = 0.5 if left >= 1 else 0.2
            elif verb == "save":
                scores[c] = 0.05  # when nothing pays, 1 OP kept beats every OP lost
            elif verb == "done":
                scores[c] = 0.0
            else:
                scores[c] = -1.0
        except (KeyError, ValueError):
            scores[c] = -1.0
    return scores


def _pick_operation(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    ids = decision.choice_ids()
    scores = operation_scores(state, powers[0], ids)
    best = _argmax(ids, scores)
    if scores[best] <= 0.0:
        # nothing pays: keep 1 OP if offered, else stop
        for fallback in ("saved", "save", "done"):
            if fallback in ids and (fallback != "saved" or scores.get("saved", 0) > 0):
                if fallback == "save" and "done" in ids and scores.get("save", -1) < scores.get("done", 0):
                    continue
                return [fallback]
    return [best]


# ---------------------------------------------------------------- the turn
def turn_scores(state: GameState, power: str, ids: list[str]) -> Scores:
    hand = list(state.hand(power))
    worth = {c: card_worth(state, power, c) for c in hand}
    keep = max(hand, key=lambda c: (worth[c], c)) if hand else None
    # no reserve after Lend-Lease (the pass discards the hand) nor after the last year: play it all
    last = _last_year(state) or power in state.lend_lease
    scores: Scores = {}
    for c in ids:
        kind, _, rest = c.partition(":")
        cid = rest.split(":")[0] if rest else ""
        op = float(card(cid).op) if cid in pack().cards else 0.0
        # the card kept as the reserve is played only when it is the last one of the last year
        keeping = 2.0 if (cid == keep and not last and len(hand) > 1) else 0.0
        if kind == "pass":
            # one card left: pass and keep it as the reserve (nothing is lost); in the last year play it
            scores[c] = 20.0 if (len(hand) <= 1 and not last) or not hand else -50.0
        elif kind == "ops":
            scores[c] = 10.0 + card_value(state, power, cid) * 0.1 - keeping
        elif kind == "event":
            # an event worth its card's OP is played: the operations' tie-break (0.1 per OP) is smaller
            scores[c] = 10.0 + event_worth(state, power, cid, hand) - op - keeping + 0.75
        elif kind == "tech":
            gain = tech_worth(state, power, card(cid).tech)
            scores[c] = 10.0 + gain - op - keeping
        elif kind == "lendlease":
            scores[c] = 10.0 + _lend_lease_worth(state, power) - op - keeping
        elif kind == "rocket":
            scores[c] = 10.0 + 2.5 - op * 0.5 - keeping
        elif kind == "strike":
            scores[c] = 10.0 - 0.5 - keeping
        else:
            scores[c] = 9.0
    return scores


def join_worth(state: GameState, nation: str, cmap: dict[str, str | None] | None = None) -> float:
    """What the country joining is worth to the Allies, in VP: its home stars the Axis does not
    hold come to them, and their threshold rises by 2 (§10.1)."""
    cmap = derived.control_map(state) if cmap is None else cmap
    stars = sum(derived.space_value(state, s) for s in state.geo.home_spaces(nation)
                if cmap.get(s) not in AXIS)
    return float(stars - derived.ALLIED_STEP)


def invasion_cost(state: GameState, nation: str, cmap: dict[str, str | None]) -> float:
    """What an Axis Invasion of a non-aligned country costs the Axis, in OP: its share of the
    country's joining (nothing once it joined, or where joining helps the Axis)."""
    if state.controller.get(nation) != "nonaligned" or state.options.get("scenario") == "rise_of_the_axis":
        return 0.0
    to_go = max(1, pack().tracks.get(nation, 1) - state.tracks.get(nation, 0))
    return max(0.0, join_worth(state, nation, cmap)) * VP_OP / to_go


def _lend_lease_worth(state: GameState, power: str) -> float:
    nation = "usa" if power == "uk" else "china"
    pos, end = state.tracks.get(nation, 0), pack().tracks.get(nation, 99)
    to_go = end - pos
    if to_go <= 0:
        return 0.0
    joins = join_worth(state, nation) * VP_OP + 3.0  # and its units
    return joins / to_go + 1.0 if to_go <= _years_left(state) + 1 else 1.0


# ---------------------------------------------------------------- small questions
def _argmax(ids: list[str], scores: Scores) -> str:
    best = ids[0]
    for c in ids[1:]:
        if scores.get(c, -1e9) > scores.get(best, -1e9):
            best = c
    return best


def _card_ids(ids: list[str]) -> list[str]:
    cards = pack().cards
    return [c for c in ids if c in cards]


def _pick_cards(state: GameState, decision: Decision, powers: list[str], best: bool) -> list[str]:
    ids = decision.choice_ids()
    cards = _card_ids(ids)
    others = [c for c in ids if c not in cards]
    n = max(decision.min, 1) if cards else decision.min
    n = min(n, decision.max, len(ids))
    order = _best_cards(state, powers, cards)
    if not best:
        order = list(reversed(order))
    chosen = order[:n]
    if len(chosen) < decision.min:
        chosen += [c for c in others if c not in chosen][: decision.min - len(chosen)]
    return chosen


def _pick_reserve(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    ids = decision.choice_ids()
    cards = _card_ids(ids)
    if not cards:
        return ids[: max(decision.min, 1)]
    n = min(decision.max, len(cards))
    return _best_cards(state, powers, cards)[:max(n, decision.min)]


def _pick_swap(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    """Swap the worst card away when it is worth less than an average draw; else keep the hand."""
    ids = decision.choice_ids()
    cards = _card_ids(ids)
    if not cards:
        return ids[: decision.min]
    worst = list(reversed(_best_cards(state, powers, cards)))
    p = powers[0]
    bad = [c for c in worst if card_worth(state, p, c) < 4.3]
    n = min(len(bad), decision.max)
    if n < decision.min:
        n = decision.min
    if n == 0:
        return ["skip"] if "skip" in ids and decision.min >= 1 else []
    return worst[:n]


def _pick_espionage(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    ids = decision.choice_ids()
    hands = [c for c in ids if c in state.hands]
    if not hands:
        return ids[:1]
    return [max(hands, key=lambda h: (len(state.hands[h]), -hands.index(h)))]


def _pick_spy_discard(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    """Make the enemy lose what would serve it best (its own colour's events, high OP)."""
    ids = decision.choice_ids()
    cards = _card_ids(ids)
    target = engine.current(state)
    victim_powers = [p for p in POWERS if target is not None and state.hand_of.get(p) == target.get("target")]
    order = _best_cards(state, victim_powers or powers, cards)
    return order[: decision.max] if decision.max else []


def _pick_power(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    """Tactics target: +1 on itself, −1 on the strongest opponent still to play."""
    ids = decision.choice_ids()
    me = powers[0]
    if me in ids:
        return [me]
    vp = derived.vp(state)
    live = [p for p in ids if p in POWERS and p not in state.passed]
    pool = live or [p for p in ids if p in POWERS] or ids
    return [max(pool, key=lambda p: (vp.get(p, 0), -ids.index(p)))]


def _pick_rocket_type(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    ids = decision.choice_ids()
    return [max(ids, key=lambda r: (r in ROCKETRY, r))]


def _pick_hand(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    ids = decision.choice_ids()
    return [max(ids, key=lambda h: (len(state.hands.get(h, [])), -ids.index(h)))]


def _pick_research(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    ids = decision.choice_ids()
    p = powers[0]
    return [max(ids, key=lambda c: (tech_worth(state, p, card(c).tech) if c in pack().cards else 0.0,
                                    -ids.index(c)))]


def _pick_space(state: GameState, decision: Decision, powers: list[str], want_front: bool) -> list[str]:
    """A space choice (retreat, placement, strategic bombing, air strike): the most valuable."""
    ids = decision.choice_ids()
    f = Front(state, powers[0])
    scores: Scores = {}
    for c in ids:
        kind, _, space = c.partition("@")
        if not space:
            space, kind = c, "army"
        if space not in f.geo.spaces:
            scores[c] = -0.5 if c in ("none", "skip", "done") else -1.0
            continue
        if want_front:
            scores[c] = f.place(space, f.by.get(space, []), kind) + (0.3 if kind in HOLDERS else 0.0)
        else:
            scores[c] = derived.space_value(state, space) + (2.0 if f.geo.spaces[space].capital else 0.0) \
                + (1.0 if f.geo.spaces[space].factory or f.geo.spaces[space].shipyard else 0.0)
    return [_argmax(ids, scores)]


def _pick_strike(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    ids = decision.choice_ids()
    if any(c.startswith("hit:") for c in ids):
        scores = operation_scores(state, powers[0], ids)
        best = _argmax(ids, scores)
        if "done" in ids and scores[best] <= 0:
            return ["done"]
        return [best]
    if all(c in state.geo.spaces for c in ids):
        return _pick_space(state, decision, powers, want_front=False)
    return ids[:1]


def _pick_radar(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    ids = decision.choice_ids()
    return [next((c for c in ids if c.startswith("radar:")), ids[0])]


Handler = Callable[[GameState, Decision, list[str]], list[str]]

HANDLERS: dict[str, Handler] = {
    "operation": _pick_operation,
    "logistics": lambda s, d, p: _pick_operation(s, d, p),
    "rebuild": lambda s, d, p: [_argmax(d.choice_ids(), operation_scores(s, p[0], d.choice_ids()))],
    "draft_pick": lambda s, d, p: _pick_cards(s, d, p, best=True),
    "enigma_keep": lambda s, d, p: _pick_cards(s, d, p, best=True),
    "draft_discard": lambda s, d, p: _pick_cards(s, d, p, best=False),
    "pass_discard": lambda s, d, p: _pick_cards(s, d, p, best=False),
    "arctic_exchange": lambda s, d, p: _pick_cards(s, d, p, best=False),
    "reserve": _pick_reserve,
    "swap": _pick_swap,
    "espionage": _pick_espionage,
    "espionage_discard": _pick_spy_discard,
    "tactics_target": _pick_power,
    "research": _pick_research,
    "rocket_type": _pick_rocket_type,
    "rocket_target": _pick_hand,
    "radar": _pick_radar,
    "strike": _pick_strike,
    "bombing": lambda s, d, p: _pick_space(s, d, p, want_front=False),
    "retreat": lambda s, d, p: _pick_space(s, d, p, want_front=True),
    "place": lambda s, d, p: _pick_space(s, d, p, want_front=True),
}


def _pick_turn(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    ids = decision.choice_ids()
    return [_argmax(ids, turn_scores(state, powers[0], ids))]


HANDLERS["turn"] = _pick_turn


def _fallback(state: GameState, decision: Decision, powers: list[str]) -> list[str]:
    """A question this bot has no plan for: cards best first, then spaces by value, else the
    first offered answers (a "none"/"skip" only when nothing else is offered)."""
    ids = decision.choice_ids()
    if _card_ids(ids):
        return _pick_cards(state, decision, powers, best=True)
    if any(c in state.geo.spaces for c in ids):
        return _pick_space(state, decision, powers, want_front=False)
    real = [c for c in ids if c not in ("none", "skip", "pass", "done")] or ids
    n = min(max(decision.min, 1), decision.max, len(real)) if real else 0
    picked = real[:n]
    if len(picked) < decision.min:
        picked += [c for c in ids if c not in picked][: decision.min - len(picked)]
    return picked


def _legal(decision: Decision, picked: list[str]) -> bool:
    ids = set(decision.choice_ids())
    return (decision.min <= len(picked) <= decision.max and len(set(picked)) == len(picked)
            and all(c in ids for c in picked))


def choose(state: GameState, decision: Decision, rng: random.Random) -> Action:
    powers = _powers_of_decision(state, decision)
    handler = HANDLERS.get(decision.kind)
    picked: list[str] = []
    if handler is not None:
        picked = handler(state, decision, powers)
    if not _legal(decision, picked):
        picked = _fallback(state, decision, powers)
    if not _legal(decision, picked):  # never an illegal answer, whatever the heuristics said
        ids = decision.choice_ids()
        picked = ids[: max(decision.min, 0)] if decision.min else []
    return Action(decision=decision.id, choices=tuple(picked))


def explain(state: GameState, decision: Decision) -> dict[str, Any]:
    """The scores behind a turn or an operation answer (for tests and debugging)."""
    powers = _powers_of_decision(state, decision)
    ids = decision.choice_ids()
    if decision.kind == "turn":
        return dict(turn_scores(state, powers[0], ids))
    if decision.kind in ("operation", "logistics", "rebuild"):
        return dict(operation_scores(state, powers[0], ids))
    return {}
