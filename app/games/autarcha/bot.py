"""Autarcha's heuristic bot: one for either side, reading only what its seat may see (the open table and
its own mines; never the other side's mines or its units behind the lid).

Its doctrine, in a commander's words:

* collect the gold first, then recruit once a turn while the army is under twelve (armour where a factory
  is, infantry in cities): a larger standing army only holds the river line while the factories replace
  every loss, and the war never ends;
* fire before anything else: the enemy HQ above all, then the unit that is worth most (artillery,
  armour, infantry, sappers), and from where it stands if it can, else move first and fire after;
* then the front: a unit near the enemy that can walk into range and fire in the same move goes first,
  and walks to the end from which it can;
* otherwise advance: the infantry closes on the nearest enemy and on the enemy HQ, ending its walk facing
  him, preferring cover; the armour raids the enemy HQ, over rivers and past the enemy's line; the HQ keeps
  its distance from every enemy and stays in cover, until at most one other unit of its side can still
  fight: then it leads the attack itself (two HQs that keep away would watch each other for ever);
* never walk onto ground that loses the unit ("–"), never waste a move on an empty order.

Deployment: the HQ at the back, in the middle, under cover; artillery behind the front rows; infantry and
armour on the rows nearest the enemy. The bot always chooses to start when the die lets it.
"""

from __future__ import annotations

import random
from functools import cached_property

from app.games.autarcha import attacks, movement
from app.games.autarcha.pack import COVER, DELTA, MOVES_PER_TURN, Square, pack
from app.games.autarcha.state import SIDE_OF, GameState, at
from app.games.protocol import Action, Decision

VALUE: dict[str, int] = {"PSZ": 100, "ART": 5, "PC": 4, "PIE": 3, "SAP": 2}  # what a kill is worth
HQ_SAFE_DISTANCE = 6  # squares: closer than this, the HQ walks away from the nearest enemy
ARMY_SIZE = 12  # units on the board: past this the treasury waits
STRIKING_DISTANCE = 8  # squares: a unit this near the enemy that can walk into range moves first
LAST_FIGHTERS = 1  # at most this many fighting units left (besides the HQ and sappers): the HQ attacks


def _squares(choices: list[str]) -> list[str]:
    return [c for c in choices if c.count(".") == 2]


def distance(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _front_row(seat: str) -> int:
    """The row of the enemy's edge: advancing means getting nearer to it."""
    return pack().board.rows - 1 if SIDE_OF[seat] == "A" else 0


def _cover(square: str) -> bool:
    r, c = at(square)
    return pack().board.terrain[r][c] in COVER


class Bot:
    def __init__(self, state: GameState, decision: Decision, rng: random.Random) -> None:
        self.state, self.decision, self.rng = state, decision, rng
        self.seat = decision.seat
        self.choices = decision.choice_ids()
        # the enemy's units on the board (public), read once per answer
        self.enemy_at = {d["sq"]: u for u, d in state.units.items() if d["seat"] != self.seat and d["sq"]}
        self.enemy_squares = [(at(sq), u) for sq, u in self.enemy_at.items()]
        self._nearest: dict[str, tuple[int, str | None]] = {}
        self.enemy_hq = next((at(sq) for sq, u in self.enemy_at.items() if state.units[u]["kind"] == "PSZ"), None)

    @cached_property
    def hq_attacks(self) -> bool:
        """Whether the side's HQ leads the attack: too few fighting units are left to do it."""
        fighters = [u for u in self.state.units_of(self.seat)
                    if self.state.units[u]["kind"] not in ("PSZ", "SAP") and movement.can_move(self.state, u)]
        return len(fighters) <= LAST_FIGHTERS

    def nearest_enemy(self, square: str) -> tuple[int, str | None]:
        """The distance to the nearest enemy unit and that unit (asked for each end of a walk: kept per square,
        since a walk's ends are mostly the same squares in other facings)."""
        found = self._nearest.get(square)
        if found is None:
            r, c = at(square)
            best, who = 10 ** 6, None
            for (er, ec), u in self.enemy_squares:
                dist = max(abs(r - er), abs(c - ec))
                if dist < best:
                    best, who = dist, u
            found = self._nearest[square] = (best, who)
        return found

    def enemy_targets(self, unit: str) -> list[str]:
        """The squares in the unit's range holding an enemy unit (firing at roads and forests wins nothing)."""
        return [s for s in attacks.in_range(self.state, unit) if s in self.enemy_at]

    def target_value(self, square: str) -> int:
        u = self.enemy_at.get(square)
        return VALUE.get(self.state.units[u]["kind"], 1) if u else 0

    def answer(self) -> tuple[str, ...]:
        handler = getattr(self, f"on_{self.decision.kind}", None)
        picked = handler() if handler else None
        if picked is None:
            return self.fallback()
        return tuple(picked) if isinstance(picked, list) else (picked,)

    def fallback(self) -> tuple[str, ...]:
        d = self.decision
        pool = [c for c in self.choices if c not in ("back", "skip", "stay", "end")] or self.choices
        n = max(d.min, 1) if d.max >= 1 else 0
        n = min(n, len(pool)) if len(pool) >= d.min else d.min
        picked = self.rng.sample(pool, n) if len(pool) >= n else self.choices[:n]
        return tuple(picked)

    # ---------------------------------------------------------------- setup
    def on_buy(self) -> str:
        kinds = [c for c in self.choices if c != "done"]
        if not kinds:
            return "done"
        weights = {"PC": 4, "PIE": 4, "ART": 2, "SAP": 1}
        return self.rng.choices(kinds, weights=[weights.get(k, 1) for k in kinds])[0]

    def on_deploy(self) -> str | None:
        squares = _squares(self.choices)
        if not squares:
            return None
        kind = str((self.decision.prompt_msg.params if self.decision.prompt_msg else {}).get("kind", ""))[5:]
        front = _front_row(self.seat)
        cols = pack().board.cols

        def to_front(s: str) -> int:
            return abs(at(s)[0] - front)

        nearest = min(to_front(s) for s in squares)
        if kind == "PSZ":
            return max(squares, key=lambda s: (to_front(s) - abs(at(s)[1] - cols // 2) + 3 * _cover(s),
                                               self.rng.random()))
        depth = {"ART": (3, 6), "SAP": (2, 5)}.get(kind, (0, 3))
        band = [s for s in squares if depth[0] <= to_front(s) - nearest <= depth[1]] or squares
        return self.rng.choice(band)

    def on_factory_site(self) -> str | None:
        squares = _squares(self.choices)
        if not squares:
            return None
        front = _front_row(self.seat)
        return max(squares, key=lambda s: (abs(at(s)[0] - front), self.rng.random()))

    def on_first(self) -> str:
        return self.seat if self.seat in self.choices else self.choices[0]

    # ---------------------------------------------------------------- the turn
    def on_move(self) -> str:
        state, choices = self.state, self.choices
        if "collect" in choices:
            return "collect"
        recruits = [c for c in choices if c.startswith("recruit:")]
        # one recruiting move a turn, the turn's first, while the army is not yet at full strength
        if recruits and state.moves_left == MOVES_PER_TURN and len(state.units_of(self.seat)) < ARMY_SIZE \
                and state.gold.get(self.seat, 0) >= 6:
            return self.rng.choice(recruits)
        best, best_score = "end", 0.0
        for c in choices:
            if not c.startswith("unit:"):
                continue
            u = c[5:]
            score = self._unit_score(u)
            if score > best_score:
                best, best_score = c, score
        return best

    def _unit_score(self, unit: str) -> float:
        state = self.state
        d = state.units[unit]
        shots = self.enemy_targets(unit)
        if shots:
            return 100.0 + max(self.target_value(s) for s in shots)
        if not movement.can_move(state, unit):
            return 0.0  # nothing worth a move: no enemy in range, no step to make
        dist, _ = self.nearest_enemy(d["sq"])
        if d["kind"] == "PSZ" and not self.hq_attacks:
            return 50.0 if dist < HQ_SAFE_DISTANCE else 0.0
        if d["kind"] == "SAP":
            return 1.0 + self.rng.random()
        if dist <= STRIKING_DISTANCE:
            worth = self.walk_and_fire(unit)
            if worth:  # the front first: it walks into range and fires in the same move
                return 30.0 + worth + self.rng.random()
            # a unit at the front that can reach no target this move pushes on, taking turns with the ones
            # coming up from behind (a front that only waits never crosses a river)
            return 9.0 + 4 * self.rng.random()
        return 10.0 + min(dist, 40) / 4 + self.rng.random()  # else bring up the furthest

    def walk_and_fire(self, unit: str) -> int:
        """The worth of the best target the unit can have in its range at the end of one walk (0: none)."""
        kind = self.state.units[unit]["kind"]
        best = 0
        for square, facing, lost in movement.reachable_ends(self.state, unit):
            if not lost:
                for s in attacks.reach(kind, facing, square):
                    if s in self.enemy_at:
                        best = max(best, self.target_value(s))
        return best

    def on_unit_move(self) -> str:
        state, choices = self.state, self.choices
        u = str((self.decision.prompt_msg.params if self.decision.prompt_msg else {}).get("unit", ""))
        shots = self.enemy_targets(u) if u in state.units else []
        if shots:
            for c in ("attack_move", "attack"):
                if c in choices:
                    return c
        if u in state.units and state.units[u]["kind"] == "SAP" and "mine" in choices and self.rng.random() < 0.3:
            return "mine"
        for c in ("move_attack", "move"):
            if c in choices:
                return c
        # never "back": the menu would offer the same unit again
        return next((c for c in choices if c != "back"), choices[0])

    def on_fire(self) -> str:
        squares = _squares(self.choices)
        worth = [(s, self.target_value(s)) for s in squares]
        worth = [w for w in worth if w[1] > 0]
        if worth:
            return max(worth, key=lambda w: (w[1], self.rng.random()))[0]
        return "skip" if "skip" in self.choices else self.choices[0]

    def on_walk(self) -> str:
        state = self.state
        u = str((self.decision.prompt_msg.params if self.decision.prompt_msg else {}).get("unit", ""))
        if u not in state.units:
            return self.choices[0]
        d = state.units[u]
        ends = [c for c in self.choices if "@" in c and not movement.ends_lost(state, u, c)]
        if not ends:
            return "stay" if "stay" in self.choices else self.choices[0]
        hq = d["kind"] == "PSZ" and not self.hq_attacks

        def score(c: str) -> tuple[float, float]:
            end, _, facing = c.partition("@")
            dist, foe = self.nearest_enemy(end)
            cover = 1.0 if _cover(end) else 0.0
            if hq:
                return (min(dist, 12) + 2 * cover, self.rng.random())
            shots = [self.target_value(s) for s in attacks.reach(d["kind"], facing, end) if s in self.enemy_at]
            if shots:  # an end from which it can fire, at the costliest target
                return (100.0 + max(shots) + 0.5 * cover, self.rng.random())
            facing_bonus = 0.0
            if foe is not None:
                fr, fc = at(state.units[foe]["sq"])
                r, c_ = at(end)
                dr, dc = DELTA[facing]
                if (fr - r) * dr + (fc - c_) * dc > 0:
                    facing_bonus = 1.5
            # closing on the nearest enemy and on the enemy HQ both: a line that only faces the enemy's line
            # trades unit for unit while the factories replace them, and never ends the war
            objective = distance(at(end), self.enemy_hq) if self.enemy_hq else dist
            if d["kind"] == "PC":  # the armour raids: straight for the HQ, over rivers and past the enemy's line
                return (-objective + 0.5 * cover, self.rng.random())
            return (-(dist + objective) / 2 + facing_bonus + 0.5 * cover, self.rng.random())

        pick = max(ends, key=score)
        if "stay" in self.choices and hq:
            here, _ = self.nearest_enemy(d["sq"])
            if score(pick)[0] <= min(here, 12) + 2 * _cover(d["sq"]):
                return "stay"
        return pick

    def on_recruit(self) -> str:
        kinds = [c for c in self.choices if c != "done"]
        if not kinds or ("done" in self.choices and self.rng.random() < 0.5):
            return "done"
        for k in ("PC", "PIE", "ART", "SAP"):
            if k in kinds:
                return k
        return kinds[0]

    def on_place(self) -> str | None:
        squares = _squares(self.choices)
        if not squares:
            return None
        return min(squares, key=lambda s: (self.nearest_enemy(s)[0], self.rng.random()))

    def on_mine_at(self) -> str | None:
        return self.on_place()


def choose(state: GameState, decision: Decision, rng: random.Random) -> Action:
    return Action(decision.id, Bot(state, decision, rng).answer())
