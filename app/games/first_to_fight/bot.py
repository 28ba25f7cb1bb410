"""A heuristic bot for every seat of First to Fight (GameRules.bot).

Not a search: each answer is scored by one estimate, what the seat's own missions are worth on the
board the answer leaves, and the best answer taken. A mission in hand is worth its chance of success
times (VP + 5), the 5 being the failure it avoids; the chance comes from the mission's margin
(Strength in its region against difficulty + domination level), widened by the time left before its
date and lowered by the Axis pushes expected there meanwhile. Moving, recruiting, training, healing
and sabotaging are all "the board after it" against "the board now", plus the VP tokens it takes.

The bot reads only what its seat may see: ``views.view(state, seat)`` (the public board, its own hand),
the decision it is asked (its choices and prompt: a drawn card it is offered is one it saw) and the
pack's printed data (the decks' composition is public: every card not on the table, the board or a
discard, never their order). It never reads another hand or a deck, so re-dealing the hidden cards
never changes an answer. Decisions of a kind it cannot read get a legal random answer.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from math import comb
from typing import Any

from app.games.first_to_fight import views
from app.games.first_to_fight.pack import (
    ATTRIBUTE_CAP,
    FAIL_VP,
    FORMATIONS,
    NURSE_CAP,
    ORDERS,
    REGIONS,
    SABOTAGE_OCCUPIED_VP,
    STAGE_II_CAP,
    Mission,
    Pack,
    pack,
)
from app.games.first_to_fight.state import GameState
from app.games.protocol import Action, Decision, random_bot

Board = dict[str, dict[str, Any]]  # soldier id -> {region, s, u, trained, wounds}
Dom = dict[str, int]  # region -> the marker's square
PASS_WORDS = ("pass", "done", "no", "none", "skip", "decline", "stop", "keep_all", "nothing")
YES_WORDS = ("yes", "use", "ok", "accept")
EPS = 0.05  # a gain below this is not worth an action (passing keeps things as they are)
LEVEL_PER_SQUARE = 0.5  # a track's level rises about every second square
# Strength the table usually gathers in a mission's region by its date, beyond what lies there now
# (calibrated on bot games: about 9 in 10 missions succeed, the hardest red ones about 3 in 4)
KEEP_REACH = 5.0
KEEP_FOURTH = 0.5  # the fourth red card is kept when its expected score is above this


# ---------------------------------------------------------------- what the seat knows
@dataclass
class Know:
    seat: str
    view: dict[str, Any]
    data: Pack = field(default_factory=pack)

    @cached_property
    def hand(self) -> list[Mission]:
        return [self.data.missions[m] for m in self.view.get("hand", []) if m in self.data.missions]

    @property
    def time(self) -> int:
        return int(self.view.get("time", 0))

    @cached_property
    def board(self) -> Board:
        return {s: dict(d) for s, d in self.view.get("soldiers", {}).items()}

    @cached_property
    def dom(self) -> Dom:
        return {r: int(d["square"]) for r, d in self.view.get("domination", {}).items()}

    @property
    def players(self) -> int:
        return len(self.view.get("seats", [])) or 4

    @cached_property
    def me(self) -> dict[str, Any]:
        return next((s for s in self.view.get("seats", []) if s["id"] == self.seat), {})

    @property
    def nurses(self) -> int:
        return int(self.me.get("nurses", 0))

    @property
    def concentration(self) -> dict[str, Any] | None:
        return self.view.get("concentration")

    @cached_property
    def event_pool(self) -> list[str]:
        """Events not yet seen (the event deck's composition: every event neither drawn nor gone)."""
        out = set(self.data.events) - set(self.view.get("events_gone", [])) - set(self.view.get("event_track", []))
        if self.view.get("event_drawn"):
            out.discard(self.view["event_drawn"])
        return sorted(out) or sorted(self.data.events)

    @cached_property
    def advance(self) -> float:
        """Months a round moves the time marker, on average over the events still to come."""
        pool = self.event_pool
        return max(1.0, sum(self.data.events[e].advance for e in pool) / len(pool))

    @cached_property
    def push(self) -> dict[str, float]:
        """Squares the Axis pushes each region by per round, on average (§6.4 step 2)."""
        pool = self.event_pool
        squares = 2 if self.players >= 4 else 1
        return {r: squares * sum(1 for e in pool if self.data.events[e].region == r) / len(pool) for r in REGIONS}

    @cached_property
    def soldier_pool(self) -> list[str]:
        """Soldiers that can still come out of the deck: neither on the board nor fallen."""
        out = set(self.data.soldiers) - set(self.board) - set(self.view.get("fallen", []))
        return sorted(out)

    def rounds_until(self, m: Mission) -> float:
        return max(0.0, (m.date - self.time) / self.advance)

    # ------------------------------------------------------------ the estimate
    def level(self, region: str, dom: Dom | None = None) -> int:
        d = self.dom if dom is None else dom
        return self.data.regions[region].track[d[region]]

    def strength(self, m: Mission, board: Board) -> int:
        """§7.3: one for each soldier in the region, plus Strength - 1 for each unwounded one of the formation."""
        total = 0
        for s, d in board.items():
            if d["region"] != m.region:
                continue
            total += 1
            if not d["wounds"] and self.data.soldiers[s].formation == m.formation:
                total += d["s"] - 1
        return total

    def chance(self, m: Mission, board: Board, dom: Dom, rounds: float | None = None) -> float:
        r = self.rounds_until(m) if rounds is None else rounds
        target = m.difficulty + self.level(m.region, dom)
        risk = self.push[m.region] * min(r, 6.0) * LEVEL_PER_SQUARE
        spread = 0.7 + 0.45 * min(r, 6.0)
        return 1.0 / (1.0 + math.exp(-(self.strength(m, board) - target - risk + 0.5) / spread))

    def worth(self, m: Mission, board: Board, dom: Dom) -> float:
        """A mission in hand: its expected score, the nearer ones weighed more (the board will change)."""
        p = self.chance(m, board, dom)
        ev = p * m.vp + (1 - p) * FAIL_VP
        return ev / (1.0 + 0.08 * self.rounds_until(m))

    def value(self, board: Board | None = None, dom: Dom | None = None, hand: Iterable[Mission] | None = None) -> float:
        b = self.board if board is None else board
        d = self.dom if dom is None else dom
        return sum(self.worth(m, b, d) for m in (self.hand if hand is None else hand))

    @cached_property
    def base(self) -> float:
        return self.value()

    def conc_bonus(self, region: str, board: Board | None = None, soldier: str | None = None) -> float:
        """+1 VP for a soldier new to the concentration token's region (§9)."""
        c = self.concentration
        if not c or c.get("region") != region:
            return 0.0
        if soldier is not None and (board or self.board).get(soldier, {}).get("region") == region:
            return 0.0
        return 1.0

    def locked(self, soldier: str) -> bool:
        c = self.concentration
        d = self.board.get(soldier)
        return bool(c and d and d["region"] == c.get("region")
                    and self.data.soldiers[soldier].formation == c.get("formation"))

    # ------------------------------------------------------------ what-ifs (gain in VP against now)
    def gain_move(self, soldier: str, dest: str) -> float:
        d = self.board.get(soldier)
        if d is None or d["region"] == dest or self.locked(soldier):
            return float("-inf")
        b = dict(self.board)
        b[soldier] = {**d, "region": dest}
        return self.value(b) - self.base + self.conc_bonus(dest, soldier=soldier)

    def gain_place(self, soldier: str, region: str) -> float:
        """A soldier from the deck placed in ``region`` at its printed values."""
        card = self.data.soldiers[soldier]
        b = dict(self.board)
        b[soldier] = {"region": region, "s": card.strength, "u": card.underground, "trained": False, "wounds": 0}
        return self.value(b) - self.base + self.conc_bonus(region)

    def gain_train(self, soldier: str, attr: str) -> float:
        d = self.board.get(soldier)
        key = "s" if attr.upper().startswith("S") else "u"
        if d is None or d[key] >= ATTRIBUTE_CAP:
            return float("-inf")
        b = dict(self.board)
        b[soldier] = {**d, key: d[key] + 1, "trained": True}
        gain = self.value(b) - self.base
        if not d["trained"]:
            gain += 0.15 * self.need(soldier)  # a training token lets a wounded soldier survive (§8)
        if key == "u":
            gain += 0.1 * self.need(soldier)  # wounded last, and helps a sabotage
        return gain

    def gain_heal(self, soldier: str) -> float:
        d = self.board.get(soldier)
        if d is None or not d["wounds"]:
            return float("-inf")
        b = dict(self.board)
        b[soldier] = {**d, "wounds": d["wounds"] - 1}
        return self.value(b) - self.base + 0.3 * self.need(soldier) + 0.05

    def gain_sabotage(self, region: str) -> float:
        dom = dict(self.dom)
        if dom[region] <= 0:
            return float("-inf")
        vp = SABOTAGE_OCCUPIED_VP if dom[region] >= self.data.regions[region].occupied_from else 0
        dom[region] -= 1
        return self.value(dom=dom) - self.base + vp

    def gain_push(self, region: str, squares: int) -> float:
        dom = dict(self.dom)
        dom[region] = min(len(self.data.regions[region].track) - 1, max(0, dom[region] + squares))
        return self.value(dom=dom) - self.base

    def need(self, soldier: str) -> float:
        """What losing this soldier would cost the seat's missions (0: nothing)."""
        if soldier not in self.board:
            return 0.0
        b = {s: d for s, d in self.board.items() if s != soldier}
        return max(0.0, self.base - self.value(b))

    def expected_best_place(self, region: str, draws: int, formation: str | None = None) -> float:
        """The expected gain of drawing ``draws`` soldiers from the pool and keeping the best in ``region``."""
        pool = [s for s in self.soldier_pool if formation is None or self.data.soldiers[s].formation == formation]
        if not pool:
            return 0.0
        gains = sorted((self.gain_place(s, region) for s in pool), reverse=True)
        n, k = len(gains), min(draws, len(gains))
        total = comb(n, k)
        return sum(g * comb(n - i - 1, k - 1) / total for i, g in enumerate(gains) if n - i - 1 >= k - 1)

    # ------------------------------------------------------------ best single actions
    def best_move(self, adjacent: bool = True, dest: str | None = None) -> tuple[float, str, str]:
        best = (0.0, "", "")
        for s, d in self.board.items():
            targets = self.data.neighbours(d["region"]) if adjacent else [r for r in REGIONS if r != d["region"]]
            for r in targets:
                if dest is not None and r != dest:
                    continue
                g = self.gain_move(s, r)
                if g > best[0]:
                    best = (g, s, r)
        return best

    def best_train(self) -> float:
        return max([0.0] + [self.gain_train(s, a) for s in self.board for a in ("S", "U")])

    def best_sabotage(self) -> float:
        return max([0.0] + [self.gain_sabotage(r) for r in REGIONS if self.can_sabotage(r)])

    def can_sabotage(self, region: str) -> bool:
        sq = self.dom[region]
        if sq <= 0:
            return False
        under = sum(d["u"] for d in self.board.values() if d["region"] == region)
        return under > self.data.regions[region].thresholds[sq - 1]

    def nurse_worth(self) -> float:
        if self.nurses >= NURSE_CAP:
            return 0.0
        wounded = [s for s, d in self.board.items() if d["wounds"]]
        return 0.3 + max([0.0] + [self.gain_heal(s) for s in wounded]) * 0.8

    def token_worth(self, region: str, formation: str) -> float:
        """The concentration token on (region, formation): it locks those soldiers where this seat needs
        them, and every soldier this seat brings there later scores +1."""
        mine = [m for m in self.hand if m.region == region]
        if not mine:
            return 0.1 if region in self._reachable_soldier_regions() else 0.0
        held = [s for s, d in self.board.items()
                if d["region"] == region and self.data.soldiers[s].formation == formation]
        lock = sum(self.need(s) for s in held)
        want = sum(1.0 for m in mine if m.formation == formation)
        return 0.4 * lock + 0.3 * want + 0.5

    def _reachable_soldier_regions(self) -> set[str]:
        return {d["region"] for d in self.board.values()}

    def best_token(self) -> tuple[float, str, str]:
        best = (0.0, "", "")
        c = self.concentration or {}
        for r in REGIONS:
            for f in FORMATIONS:
                g = self.token_worth(r, f)
                if c.get("region") == r and c.get("formation") == f:
                    g = 0.0  # it already lies there
                if g > best[0]:
                    best = (g, r, f)
        return best

    def rule_worth(self, region: str) -> float:
        """A region's special rule, used by the Sabotage chooser (§4.4)."""
        rule = self.data.regions[region].rule
        if rule == "DROPS":
            return max(0.0, self.best_move(adjacent=False, dest=region)[0])
        if rule == "UNDERGROUND_STATE":
            return max([0.0] + [self.expected_best_place(region, 1, f) for f in FORMATIONS])
        if rule == "TRAINING_CAMP":
            gains = sorted((self.gain_train(s, "S") for s, d in self.board.items() if d["region"] == region),
                           reverse=True)
            return sum(g for g in gains[:3] if g > 0)
        if rule == "MAIN_FRONT":
            worst = self.main_front_discard()
            push = self.gain_push(region, 1)
            return (max(0.0, -worst[0]) if worst[1] else 0.0) + push
        if rule == "REVEAL_TWO":
            return 2 * max(0.0, self.expected_best_place(region, 1))
        return 0.0

    def main_front_discard(self) -> tuple[float, str]:
        """(the gain of discarding, the mission) for the worst mission in hand; a stage I card brings a
        stage II card in its place (unless a cap says no: OQ-10)."""
        best = (0.0, "")
        for m in self.hand:
            replace = 0.0
            if m.stage == 1 and self.can_draw_stage2():
                replace = 1.5
            g = -self.outlook(m) + replace
            if g > best[0] + 0.5:
                best = (g, m.id)
        return (-best[0], best[1]) if best[1] else (0.0, "")

    def outlook(self, m: Mission) -> float:
        """A mission's expected score: by the board when it is near, by how hard it is when it is far."""
        r = self.rounds_until(m)
        if r <= 1.0:
            return self.worth(m, self.board, self.dom)
        return self.keep_worth(m)

    def can_draw_stage2(self) -> bool:
        stage2 = sum(1 for m in self.hand if m.stage == 2)
        return stage2 < STAGE_II_CAP and self.view.get("decks", {}).get("stage2", 1) > 0

    def keep_worth(self, m: Mission) -> float:
        """A mission card judged when keeping it: its expected score if this seat works towards it. Early
        on the board tells little: how hard the card is weighs more than where the soldiers lie now."""
        # the Axis pushes by the date are left out: the table's sabotage tends to undo them
        target = m.difficulty + self.level(m.region)
        pool = [s for s in self.soldier_pool if self.data.soldiers[s].formation == m.formation]
        here = self.strength(m, self.board)
        reach = here + KEEP_REACH + 0.3 * len(pool)
        p = 1.0 / (1.0 + math.exp(-(reach - target) / 1.5))
        return p * m.vp + (1 - p) * FAIL_VP

    # ------------------------------------------------------------ the order tiles
    def order_worth(self, order: str, vp: int, last: bool, active: list[str]) -> float:
        if order == "MOVEMENT":
            g = self.best_move(adjacent=False)[0]
        elif order == "SABOTAGE":
            g = self.best_sabotage() + max([0.0] + [self.rule_worth(r) for r in REGIONS
                                                    if not self.view["domination"][r]["occupied"]])
        elif order == "TRAINING":
            g = self.best_train() + self.nurse_worth()
        elif order == "RECRUITMENT":
            g = max([0.0] + [self.expected_best_place(r, 3) for r in REGIONS if self.data.regions[r].recruitable])
            g += 0.3  # the kept soldier's ability
        elif order == "CONCENTRATION":
            g = max(self.best_token()[0], self.best_move()[0], self.nurse_worth())
        else:
            g = self.maneuvers_worth(last, active)
        return g + vp

    def maneuvers_worth(self, last: bool, active: list[str]) -> float:
        """Ending the Orders Phase: good when the missions due next are safe, bad when they still need work;
        the unchosen tiles get +1 VP for whoever takes them (the next starter first)."""
        due = [m for m in self.hand if m.date <= self.time + self.advance]
        ready = sum(self.chance(m, self.board, self.dom, 0.0) - 0.6 for m in due)
        others = len([o for o in active if o != "MANEUVERS"])
        return 0.6 + 1.2 * ready + (0.8 if last else 0.0) - 0.25 * others


# ---------------------------------------------------------------- answers, by decision kind
Picks = list[str] | None
Handler = Callable[[Know, Decision], Picks]


def know(state: GameState, seat: str) -> Know:
    return Know(seat=seat, view=views.view(state, seat, page=False))


def _best(ids: Iterable[str], score: Callable[[str], float]) -> tuple[str, float]:
    """The highest-scoring id; ties go to the first offered (deterministic)."""
    best, best_s = "", float("-inf")
    for i in ids:
        s = score(i)
        if s > best_s:
            best, best_s = i, s
    return best, best_s


def _pass_id(d: Decision) -> str | None:
    for c in d.choice_ids():
        if c.lower() in PASS_WORDS:
            return c
    return None


def _params(d: Decision, k: Know) -> dict[str, Any]:
    """What the question names (its prompt's parameters): the soldier being moved, the region..."""
    out: dict[str, Any] = {}
    if d.prompt_msg is not None:
        out.update(d.prompt_msg.params)
    return out


def _named(k: Know, d: Decision, kind: str) -> str | None:
    """A soldier / region / formation the prompt names (its parameters: the soldier being moved...)."""
    for v in _params(d, k).values():
        if not isinstance(v, str):
            continue
        x = v.removeprefix("formation_")
        if kind == "soldier" and x in k.data.soldiers:
            return x
        if kind == "region" and x in REGIONS:
            return x
        if kind == "formation" and x in FORMATIONS:
            return x
    return None


def _types(k: Know, ids: list[str]) -> set[str]:
    out: set[str] = set()
    for i in ids:
        if i in ORDERS:
            out.add("order")
        elif i in k.data.soldiers:
            out.add("soldier")
        elif i in REGIONS:
            out.add("region")
        elif i in FORMATIONS:
            out.add("formation")
        elif i in k.data.missions:
            out.add("mission")
        elif i in k.data.events:
            out.add("event")
        elif i in ("S", "U"):
            out.add("attr")
        elif i.lower() in PASS_WORDS:
            out.add("pass")
        else:
            out.add("other")
    return out


def _words(d: Decision) -> str:
    msg = d.prompt_msg.id if d.prompt_msg is not None else ""
    return f"{d.kind} {msg}".lower()


def _pick_by_gain(d: Decision, score: Callable[[str], float], threshold: float = EPS) -> Picks:
    """The best choice by ``score``; the pass choice when nothing gains ``threshold``."""
    p = _pass_id(d)
    ids = [c for c in d.choice_ids() if c != p]
    best, s = _best(ids, score)
    if p is not None and (s < threshold or not best):
        return [p]
    return [best] if best else None


def _order(k: Know, d: Decision) -> Picks:
    tiles = k.view.get("tiles", {})
    active = d.choice_ids()
    last = active == ["MANEUVERS"]
    best, _ = _best(active, lambda o: k.order_worth(o, int(tiles.get(o, {}).get("vp", 0)), last, active))
    return [best]


def _soldier_pick(k: Know, d: Decision, words: str) -> Picks:
    ids = [c for c in d.choice_ids() if c in k.data.soldiers]
    if any(w in words for w in ("wound", "loss", "tie")):
        # the leader gives the wound to the soldier this seat needs least (an unneeded one may die)
        best, _ = _best(ids, lambda s: -k.need(s) + (0.01 if k.board.get(s, {}).get("trained") else 0.0))
        return [best]
    if any(w in words for w in ("heal", "treat", "nurse", "cure")):
        return _pick_by_gain(d, k.gain_heal, threshold=0.0 if k.nurses >= NURSE_CAP else EPS)
    if "camp" in words or (d.max > 1 and "train" in words):
        gains = sorted(((k.gain_train(s, "S"), s) for s in ids), reverse=True)
        picks = [s for g, s in gains if g > 0][:d.max] or [s for _, s in gains[:d.min]]
        return picks if len(picks) >= d.min else [s for _, s in gains[:max(d.min, 1)]]
    if "train" in words:
        return _pick_by_gain(d, lambda s: max(k.gain_train(s, "S"), k.gain_train(s, "U")))
    if "recruit" in words or "draw" in words or "keep" in words or "reveal" in words:
        region = _named(k, d, "region")
        if region is None:
            return _pick_by_gain(d, lambda s: max(k.gain_place(s, r) for r in REGIONS))
        return _pick_by_gain(d, lambda s: k.gain_place(s, region), threshold=float("-inf"))
    # moving a soldier (Movement, the bonus, the drops, the ability): the soldier with the best move
    dest = _named(k, d, "region") if "drop" in words else None
    adjacent = not any(w in words for w in ("special", "any", "drop"))

    def move_score(s: str) -> float:
        here = k.board.get(s, {}).get("region")
        targets = [dest] if dest else (k.data.neighbours(here) if adjacent and here else list(REGIONS))
        return max([float("-inf")] + [k.gain_move(s, r) for r in targets if r])
    return _pick_by_gain(d, move_score)


def _region_pick(k: Know, d: Decision, words: str) -> Picks:
    if "sabot" in words and "rule" not in words and "special" not in words:
        return _pick_by_gain(d, k.gain_sabotage, threshold=0.0)
    if "rule" in words or "special" in words:
        return _pick_by_gain(d, k.rule_worth)
    if "recruit" in words:
        return _pick_by_gain(d, lambda r: k.expected_best_place(r, 2) + 0.3, threshold=float("-inf"))
    if "conc" in words or "token" in words:
        f = _named(k, d, "formation")
        return _pick_by_gain(d, lambda r: k.token_worth(r, f) if f else max(k.token_worth(r, x) for x in FORMATIONS),
                             threshold=float("-inf"))
    if "loss" in words or "wound" in words:
        return d.choice_ids()[:1]
    soldier = _named(k, d, "soldier")
    if soldier is not None:  # a destination
        return _pick_by_gain(d, lambda r: k.gain_move(soldier, r), threshold=float("-inf"))
    return None


def _formation_pick(k: Know, d: Decision, words: str) -> Picks:
    region = _named(k, d, "region")
    if "conc" in words or "token" in words:
        if region:
            return _pick_by_gain(d, lambda f: k.token_worth(region, f), threshold=float("-inf"))
        return _pick_by_gain(d, lambda f: max(k.token_worth(r, f) for r in REGIONS), threshold=float("-inf"))
    # Polish Underground State: the formation whose soldier helps most in Poland
    return _pick_by_gain(d, lambda f: k.expected_best_place(region or "POL", 1, f), threshold=float("-inf"))


def _mission_pick(k: Know, d: Decision, words: str) -> Picks:
    ids = [c for c in d.choice_ids() if c in k.data.missions]
    p = _pass_id(d)
    missions = [k.data.missions[m] for m in ids]
    if "discard" in words or "front" in words:
        worth, mid = k.main_front_discard()
        if mid in ids:
            return [mid]
        if p is not None:
            return [p]
        best, _ = _best(ids, lambda m: -k.keep_worth(k.data.missions[m]))
        return [best]
    ranked = sorted(missions, key=lambda m: (-k.keep_worth(m), m.id))
    if d.max == 1:
        if p is not None and d.min == 0 and "keep" not in words:
            return [p]
        return [ranked[0].id]
    # keeping several (setup: 3 or 4 of the 4 red cards; the draft's last two): the fourth card is kept
    # only when it looks winnable, since a failure costs 5
    picks = [m.id for m in ranked[:d.min]]
    for m in ranked[d.min:d.max]:
        if k.keep_worth(m) > KEEP_FOURTH:
            picks.append(m.id)
    return picks


def _event_pick(k: Know, d: Decision, words: str) -> Picks:
    """Liaison: the event put back on top is the one whose Axis push and time advance suit this seat."""
    squares = 2 if k.players >= 4 else 1

    def score(e: str) -> float:
        ev = k.data.events[e]
        due = [m for m in k.hand if m.date <= k.time + ev.advance]
        ready = sum(k.chance(m, k.board, k.dom, 0.0) - 0.55 for m in due)
        return k.gain_push(ev.region, squares) + ready

    ids = [c for c in d.choice_ids() if c in k.data.events]
    best, _ = _best(ids, score)
    if "bottom" in words:
        best, _ = _best(ids, lambda e: -score(e))
    return [best]


def _attr_pick(k: Know, d: Decision, words: str) -> Picks:
    soldier = _named(k, d, "soldier")
    if soldier is None:
        return ["S"] if "S" in d.choice_ids() else None
    return _pick_by_gain(d, lambda a: k.gain_train(soldier, a), threshold=float("-inf"))


def _other_pick(k: Know, d: Decision, words: str) -> Picks:
    """Choices of the game's own ids: the Concentration bonuses, yes/no questions."""
    ids = d.choice_ids()
    p = _pass_id(d)

    def score(c: str) -> float:
        low = c.lower()
        if c == p:
            return 0.0
        if "nurse" in low:
            return k.nurse_worth()
        if "token" in low or "conc" in low:
            return k.best_token()[0]
        if "move" in low or "mov" in low:
            return k.best_move()[0]
        if low in YES_WORDS or low.startswith("use"):
            return 0.2  # an optional ability or rule: use it unless a question after it says no
        return 0.1
    best, _ = _best(ids, score)
    return [best] if best else None


# ---------------------------------------------------------------- the kinds the rule modules ask
ABILITY_WORTH = {"VICTORY_POINT": 1.0, "ADDITIONAL_RECRUITMENT": 0.6, "TRAINING": 0.4, "UNDERGROUND": 0.4,
                 "MOVEMENT": 0.3, "LIAISON": 0.2}


def _keep_set(k: Know, d: Decision) -> Picks:
    """Setup (3 or 4 of the 4 red cards) and the draft's last two: the best ``min``, and the rest only
    while each looks winnable, since a failure costs 5."""
    ranked = sorted(d.choice_ids(), key=lambda m: (-k.keep_worth(k.data.missions[m]), m))
    picks = ranked[:d.min]
    picks += [m for m in ranked[d.min:d.max] if k.keep_worth(k.data.missions[m]) > KEEP_FOURTH]
    return picks


def _keep_one(k: Know, d: Decision) -> Picks:
    best, _ = _best(d.choice_ids(), lambda m: k.keep_worth(k.data.missions[m]))
    return [best]


def _wound_tie(k: Know, d: Decision) -> Picks:
    """The leader gives the tied wounds to the soldiers this seat needs least; between equals, to a
    trained one (a trained soldier survives one wound, §8)."""
    ranked = sorted(d.choice_ids(), key=lambda s: (k.need(s) - (0.01 if k.board.get(s, {}).get("trained") else 0.0),
                                                   s))
    return ranked[:d.min]


def _treatment(k: Know, d: Decision) -> Picks:
    # nurses are worth nothing at the end: at the cap, any heal is better than none
    return _pick_by_gain(d, k.gain_heal, threshold=-0.01 if k.nurses >= NURSE_CAP else EPS)


def _move_soldier(k: Know, d: Decision) -> Picks:
    anywhere = d.prompt_msg is not None and d.prompt_msg.id == "prompt_move_any"

    def score(s: str) -> float:
        here = k.board.get(s, {}).get("region")
        targets = [r for r in REGIONS if r != here] if anywhere else (k.data.neighbours(here) if here else [])
        return max([float("-inf")] + [k.gain_move(s, r) for r in targets])
    return _pick_by_gain(d, score)


def _move_to(k: Know, d: Decision) -> Picks:
    soldier = _named(k, d, "soldier")
    if soldier is None:
        return None
    return _pick_by_gain(d, lambda r: k.gain_move(soldier, r), threshold=EPS)


def _sabotage(k: Know, d: Decision) -> Picks:
    return _pick_by_gain(d, k.gain_sabotage, threshold=0.0)


def _train_soldier(k: Know, d: Decision) -> Picks:
    return _pick_by_gain(d, lambda s: max(k.gain_train(s, "S"), k.gain_train(s, "U")))


def _train_attribute(k: Know, d: Decision) -> Picks:
    soldier = _named(k, d, "soldier")
    if soldier is None:
        return None
    return _pick_by_gain(d, lambda a: k.gain_train(soldier, a), threshold=float("-inf"))


def _recruit_region(k: Know, d: Decision) -> Picks:
    n = int(_params(d, k).get("n", 2) or 2)
    return _pick_by_gain(d, lambda r: k.expected_best_place(r, n) + 0.4, threshold=EPS)


def _recruit_keep(k: Know, d: Decision) -> Picks:
    region = _named(k, d, "region")
    if region is None:
        return None
    return _pick_by_gain(d, lambda s: k.gain_place(s, region) + ABILITY_WORTH.get(k.data.soldiers[s].ability, 0.0),
                         threshold=float("-inf"))


def _bonus(k: Know, d: Decision) -> Picks:
    worth = {"token": k.best_token()[0], "move": k.best_move()[0], "nurse": k.nurse_worth()}
    return _pick_by_gain(d, lambda b: worth.get(b, 0.0))


def _token_formation(k: Know, d: Decision) -> Picks:
    _, region, formation = k.best_token()
    if formation in d.choice_ids():
        return [formation]
    return _pick_by_gain(d, lambda f: max(k.token_worth(r, f) for r in REGIONS), threshold=float("-inf"))


def _token_region(k: Know, d: Decision) -> Picks:
    """The token goes where it is worth most, not back where it lay (that would waste the bonus)."""
    f = _named(k, d, "formation")
    if f is None:
        return None
    c = k.concentration or {}
    return _pick_by_gain(d, lambda r: k.token_worth(r, f) - (9.0 if (c.get("region"), c.get("formation")) == (r, f)
                                                              else 0.0), threshold=float("-inf"))


def _region_rule(k: Know, d: Decision) -> Picks:
    return _pick_by_gain(d, k.rule_worth)


def _drops(k: Know, d: Decision) -> Picks:
    region = _named(k, d, "region") or "WAR"
    return _pick_by_gain(d, lambda s: k.gain_move(s, region), threshold=float("-inf"))


def _underground(k: Know, d: Decision) -> Picks:
    return _pick_by_gain(d, lambda f: k.expected_best_place("POL", 1, f), threshold=float("-inf"))


def _camp(k: Know, d: Decision) -> Picks:
    gains = sorted(((k.gain_train(s, "S"), s) for s in d.choice_ids()), key=lambda x: (-x[0], x[1]))
    picks = [s for g, s in gains if g > 0][:d.max]
    return picks if len(picks) >= d.min else [s for _, s in gains[:d.min]]


def _main_front(k: Know, d: Decision) -> Picks:
    _, mission = k.main_front_discard()
    p = _pass_id(d)
    if mission in d.choice_ids():
        return [mission]
    return [p] if p is not None else None


def _ability(k: Know, d: Decision) -> Picks:
    """Every ability helps the recruiter or costs nothing: use it (Underground activity lowers the marker
    for everyone's missions, this seat's among them)."""
    ids = d.choice_ids()
    use = next((c for c in ids if c.lower() in YES_WORDS), None)
    return [use] if use is not None else None


def _ability_move(k: Know, d: Decision) -> Picks:
    soldier = _named(k, d, "soldier")
    if soldier is None:
        return None
    return _pick_by_gain(d, lambda r: k.gain_move(soldier, r))


def _ability_train(k: Know, d: Decision) -> Picks:
    soldier = _named(k, d, "soldier")
    if soldier is None:
        return None
    return _pick_by_gain(d, lambda a: k.gain_train(soldier, a), threshold=float("-inf"))


KINDS: dict[str, Handler] = {
    "order": _order, "keep_missions": _keep_set, "draft_keep": _keep_set, "draft_pick": _keep_one,
    "keep_stage2": _keep_one, "treatment": _treatment, "wound_tie": _wound_tie, "move_soldier": _move_soldier,
    "move_to": _move_to, "sabotage": _sabotage, "train_soldier": _train_soldier, "train_attribute": _train_attribute,
    "recruit_region": _recruit_region, "recruit_keep": _recruit_keep, "bonus": _bonus,
    "token_formation": _token_formation, "token_region": _token_region, "region_rule": _region_rule,
    "drops_soldier": _drops, "underground_formation": _underground, "camp_soldiers": _camp,
    "main_front_discard": _main_front, "ability": _ability, "ability_move": _ability_move,
    "ability_train": _ability_train, "liaison_top": lambda k, d: _event_pick(k, d, ""),
}


def _answer(k: Know, d: Decision) -> Picks:
    """A known kind by its own handler; an unknown one read from its choices' types."""
    if d.kind in KINDS:
        return KINDS[d.kind](k, d)
    ids = d.choice_ids()
    words = _words(d)
    types = _types(k, ids) - {"pass"}
    if types == {"order"}:
        return _order(k, d)
    if types == {"soldier"}:
        return _soldier_pick(k, d, words)
    if types == {"region"}:
        return _region_pick(k, d, words)
    if types == {"formation"}:
        return _formation_pick(k, d, words)
    if types == {"mission"}:
        return _mission_pick(k, d, words)
    if types == {"event"}:
        return _event_pick(k, d, words)
    if types == {"attr"}:
        return _attr_pick(k, d, words)
    if types <= {"other"}:
        return _other_pick(k, d, words)
    return None


# ---------------------------------------------------------------- the entry point
def _legal(d: Decision, picks: list[str]) -> bool:
    ids = set(d.choice_ids())
    return d.min <= len(picks) <= d.max and len(set(picks)) == len(picks) and all(p in ids for p in picks)


def heuristic_picks(state: GameState, decision: Decision) -> Picks:
    """The heuristic answer, or None where the bot would fall back to a random one (tests)."""
    picks = _answer(know(state, decision.seat), decision)
    return picks if picks is not None and _legal(decision, picks) else None


def choose(state: GameState, decision: Decision, rng: random.Random) -> Action:
    """The bot's answer to ``decision``: a heuristic one for the kinds it reads, else a legal random one."""
    ids = decision.choice_ids()
    if len(ids) == 1 and decision.min == 1:
        return Action(decision=decision.id, choices=(ids[0],))
    picks = heuristic_picks(state, decision)
    if picks is not None:
        return Action(decision=decision.id, choices=tuple(picks))
    return random_bot(decision, rng)
