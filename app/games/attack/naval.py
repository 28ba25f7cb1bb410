"""Control of the seas and naval battles (spec §12, §13; the worked example §14 NAVAL-EX-1).

The NAVAL action sends the active seat's fleet to sea. Nobody at sea: it takes control unopposed
(A-12.2). Otherwise the sea controller fights or withdraws (A-12.3); a fight is a naval battle of
rounds, each a simultaneous face-down line-up of N = min(8, both sides' playable ships) cards,
then duels from the head of the line to its tail (A-13.3), then a simultaneous retreat choice.

The battle lives in ``state.turn["naval_battle"]`` (it never outlasts the action; the finished one
stays there until the turn ends so the table can still show its last duels). Ships in a battle are
counted by type; only battleships carry damage, and a damaged battleship is out of the line for
the rest of the battle (A-13.3.6), so no ship needs an identity beyond its type. A sunk ship
leaves ``state.navy`` at once (its card goes back to the Navy deck, A-13.3.5).

Every seat's line while the other still chooses is a secret (``_line_secrets``): the rules'
only required hiding (spec §25.2). The views never write a revealed line as a plain list of
ship types, so a later round's secret line can never be mistaken for an earlier, public one.
"""

from __future__ import annotations

from typing import Any

import orjson

from app.games.attack import dice
from app.games.attack.engine import Ctx, Task, answers, ask, cont, question, task, wait_all
from app.games.attack.flow import ActionKind, end_check, register_action
from app.games.attack.pack import MAX_LINE, NAVY_TYPES
from app.games.attack.state import GameState
from app.games.attack.text import Label, say
from app.games.attack.views import secret_part, view_part
from app.games.secrets import Secret

BATTLE = "naval_battle"  # the key of the battle in state.turn

# The five modifiers: (own ship, enemy ship) -> bonus; M5 counts carriers alongside.
PAIR_MODS: tuple[tuple[str, str, str | None, int], ...] = (
    ("M1", "BB", "DD", 2),
    ("M2", "SS", "BB", 2),
    ("M3", "DD", "SS", 2),
    ("M4", "CV", None, 1),  # None: any enemy ship other than a carrier
)


# ------------------------------------------------------------------ fleets
def fleet_size(state: GameState, seat: str) -> int:
    return sum(state.navy.get(seat, {}).values())


def may_take_naval(state: GameState, seat: str) -> bool:
    """A-12.2/A-12.3: a seat with ships, not already the sea controller (it cannot challenge
    itself). Gap §23.5: a seat without a single Navy card may not take NAVAL (nothing to send to sea)."""
    return seat != state.sea_controller and fleet_size(state, seat) > 0


def playable(side: dict[str, Any]) -> dict[str, int]:
    """The ships a side may lay this round: afloat, minus battleships damaged in an earlier round."""
    out = dict(side["fleet"])
    if side["out"]:
        out["BB"] -= side["out"]
    return {t: out[t] for t in NAVY_TYPES if out.get(t)}


def ship_choices(ships: dict[str, int]) -> list[tuple[str, Label]]:
    """One choice per card in hand: "BB", "DD", "DD#2"... (head of the line first in the answer)."""
    out: list[tuple[str, Label]] = []
    for t in NAVY_TYPES:
        n = ships.get(t, 0)
        for k in range(1, n + 1):
            cid = t if k == 1 else f"{t}#{k}"
            out.append((cid, say("choice_ship", unit=f"unit_{t}") if n == 1
                        else say("choice_ship_k", unit=f"unit_{t}", k=k)))
    return out


def ship_type(choice: str) -> str:
    return choice.split("#", 1)[0]


def modifiers(line: list[str], pos: int, enemy: str) -> list[tuple[str, int]]:
    """The modifiers of the ship at ``pos`` of its own revealed ``line`` against ``enemy`` (A-13.6).
    M5 reads the line as revealed: a carrier sunk earlier in the round still counts (spec §24)."""
    own = line[pos]
    out = [(m, bonus) for m, mine, theirs, bonus in PAIR_MODS
           if own == mine and (enemy == theirs if theirs is not None else enemy != "CV")]
    alongside = sum(1 for i in (pos - 1, pos + 1) if 0 <= i < len(line) and line[i] == "CV")
    if alongside:
        out.append(("M5", alongside))
    return out


# ------------------------------------------------------------------ the action
def _start(ctx: Ctx, seat: str) -> None:
    ctx.push({"k": "naval", "seat": seat})


register_action(ActionKind("NAVAL", 40, may_take_naval, _start))


def _colour(state: GameState, seat: str) -> str:
    return state.colours[seat]


def _take_control(state: GameState, seat: str) -> None:
    state.sea_controller = seat


@task("naval")
def _run_naval(ctx: Ctx, t: Task) -> bool:
    """A-12.2: nobody at sea, control without a fight; A-12.3: else the controller chooses."""
    state, seat = ctx.state, t["seat"]
    ctx.pop(t)
    holder = state.sea_controller
    if holder is None or holder in state.eliminated or fleet_size(state, holder) == 0:
        # no fleet at sea to oppose this one (a controller with no ship left has nothing to fight with)
        _take_control(state, seat)
        ctx.log("naval_unopposed", seat=_colour(state, seat))
        return False
    prompt = say("prompt_naval_challenge", seat=_colour(state, holder), attacker=_colour(state, seat))
    # the answer reveals nothing and rolls nothing: the controller may take it back
    ctx.push(ask(holder, prompt, [("fight", say("choice_naval_fight")), ("withdraw", say("choice_naval_withdraw"))],
                 "naval_challenged", kind="naval_challenge", undoable=True, attacker=seat))
    return False


@cont("naval_challenged")
def _challenged(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, holder, attacker = ctx.state, t["seat"], t["attacker"]
    if choices[0] == "withdraw":
        # no ship is lost; the challenger's fleet goes to the centre
        _take_control(state, attacker)
        ctx.log("naval_withdraws", seat=_colour(state, holder), attacker=_colour(state, attacker))
        return
    ctx.log("naval_fights", seat=_colour(state, holder), attacker=_colour(state, attacker))
    state.turn[BATTLE] = {
        "attacker": attacker, "defender": holder, "round": 0, "step": "line", "n": 0,
        "winner": None, "reason": None,
        # every card of both fleets, every battleship repaired
        "sides": {s: {"fleet": {k: v for k, v in sorted(state.navy.get(s, {}).items()) if v}, "out": 0, "sunk": {}}
                  for s in (attacker, holder)},
        "rounds": [],
    }
    ctx.push({"k": "naval_round"})


# ------------------------------------------------------------------ the rounds
def battle(state: GameState) -> dict[str, Any] | None:
    return state.turn.get(BATTLE)


def _sides(b: dict[str, Any]) -> tuple[str, str]:
    return b["attacker"], b["defender"]


@task("naval_round")
def _run_round(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    b = battle(state)
    if b is None or b["winner"] is not None:
        ctx.pop(t)
        return False
    if b["step"] == "line":
        return _ask_lines(ctx, t, b)
    return _ask_retreat(ctx, t, b)


def _ask_lines(ctx: Ctx, t: Task, b: dict[str, Any]) -> bool:
    """Step 1 (A-13.3.1): both lay N cards face down at once. A fleet of one ship type has one line
    only: it is laid for the seat, which is asked nothing."""
    state = ctx.state
    att, dfn = _sides(b)
    hands = {s: playable(b["sides"][s]) for s in (att, dfn)}
    n = min(MAX_LINE, *(sum(h.values()) for h in hands.values()))
    b["round"] += 1
    b["n"] = n
    ctx.log("naval_round", round=b["round"], n=n)
    forced: dict[str, list[str]] = {}
    qs: dict[str, dict[str, Any]] = {}
    for s in (att, dfn):
        if len(hands[s]) == 1:
            forced[s] = [next(iter(hands[s]))] * n
            continue
        other = dfn if s == att else att
        prompt = say("prompt_naval_line", seat=_colour(state, s), n=n, round=b["round"],
                     opponent=_colour(state, other))
        qs[s] = question(s, "naval_line", prompt, ship_choices(hands[s]), n, n, undoable=True)
    if not qs:
        _fight_round(ctx, b, forced)
        return False
    t["forced"] = forced
    return wait_all(t, f"naval_line:{state.turns_taken}:{b['round']}", qs)


def _ask_retreat(ctx: Ctx, t: Task, b: dict[str, Any]) -> bool:
    """Step 5 (A-13.3.7; gap: both decide at once, hidden, spec §24)."""
    state = ctx.state
    att, dfn = _sides(b)
    qs = {s: question(s, "naval_retreat", say("prompt_naval_retreat", seat=_colour(state, s), round=b["round"]),
                      [("fight_on", say("choice_naval_fight_on")), ("retreat", say("choice_naval_retreat"))],
                      undoable=True)
          for s in (att, dfn)}
    return wait_all(t, f"naval_retreat:{state.turns_taken}:{b['round']}", qs)


@answers("naval_round")
def _answered(ctx: Ctx, t: Task, got: dict[str, tuple[str, ...]]) -> None:
    b = battle(ctx.state)
    assert b is not None
    if b["step"] == "line":
        lines = {**t.pop("forced", {}), **{s: [ship_type(c) for c in picks] for s, picks in got.items()}}
        _fight_round(ctx, b, lines)
        return
    att, dfn = _sides(b)
    going = [s for s in (att, dfn) if got.get(s, ("fight_on",))[0] == "retreat"]
    if not going:
        b["step"] = "line"
        return
    for s in going:
        ctx.log("naval_retreats", seat=_colour(ctx.state, s))
    # a retreat by either ends the battle; both: the attacker loses (spec §24)
    loser = att if att in going else dfn
    _finish(ctx, b, dfn if loser == att else att, "retreat")


def _fight_round(ctx: Ctx, b: dict[str, Any], lines: dict[str, list[str]]) -> None:
    """Steps 2–4: reveal, the duels head to tail, damaged battleships out of the line."""
    rnd = reveal(ctx, b, lines)
    for i in range(b["n"]):
        duel(ctx, b, rnd, i)
    end_round(ctx, b, rnd)


def reveal(ctx: Ctx, b: dict[str, Any], lines: dict[str, list[str]]) -> dict[str, Any]:
    """Step 2 (A-13.3.3): both lines face up; the ships facing each other are the pairs, the
    attacker's first card and its partner the head (A-13.3.2)."""
    state = ctx.state
    att, dfn = _sides(b)
    for s in (att, dfn):
        ctx.log("naval_line", seat=_colour(state, s), ships=[f"unit_{k}" for k in lines[s]])
    rnd: dict[str, Any] = {
        "round": b["round"], "n": b["n"],
        "pairs": [{"pos": i + 1, "ships": {att: lines[att][i], dfn: lines[dfn][i]},
                   "status": {att: "afloat", dfn: "afloat"}, "duel": None} for i in range(b["n"])],
    }
    b["rounds"].append(rnd)
    return rnd


def duel(ctx: Ctx, b: dict[str, Any], rnd: dict[str, Any], i: int) -> None:
    """Step 3 (A-13.3.4) for the pair at ``i``: 2d6 + modifiers each, attacker's dice first; the
    higher hits the loser's frontmost ship still in line (CV against CV: the losing carrier)."""
    state = ctx.state
    att, dfn = _sides(b)
    pairs = rnd["pairs"]
    pair = pairs[i]
    if pair["status"][att] == "sunk" or pair["status"][dfn] == "sunk":
        return  # cannot happen (spec §13.8: a ship is never sunk before its own duel); kept as a guard
    lines = {s: [p["ships"][s] for p in pairs] for s in (att, dfn)}
    rolls, mods, totals = {}, {}, {}
    for s, other in ((att, dfn), (dfn, att)):
        rolls[s] = dice.blue(ctx.rng)
        mods[s] = modifiers(lines[s], i, lines[other][i])
        totals[s] = sum(rolls[s]) + sum(m for _, m in mods[s])
    record: dict[str, Any] = {
        "rolls": {s: list(rolls[s]) for s in (att, dfn)},
        "mods": {s: [{"mod": m, "bonus": v} for m, v in mods[s]] for s in (att, dfn)},
        "totals": dict(totals), "winner": None, "hit": None,
    }
    pair["duel"] = record

    def side_params(s: str, key: str) -> dict[str, Any]:
        why = [{"id": f"naval_mod_{m}", "params": {"n": v}} for m, v in mods[s]] or [{"id": "naval_mod_none",
                                                                                     "params": {}}]
        return {key: _colour(state, s), f"{key}_ship": f"unit_{pair['ships'][s]}", f"{key}_1": rolls[s][0],
                f"{key}_2": rolls[s][1], f"{key}_why": why, f"{key}_total": totals[s]}

    ctx.log("naval_duel", pos=i + 1, **side_params(att, "a"), **side_params(dfn, "d"))
    if totals[att] == totals[dfn]:
        ctx.log("naval_tie", pos=i + 1)
        return
    winner, loser = (att, dfn) if totals[att] > totals[dfn] else (dfn, att)
    record["winner"] = winner
    both_cv = pair["ships"][att] == "CV" and pair["ships"][dfn] == "CV"
    target = i if both_cv else next(j for j, p in enumerate(pairs) if p["status"][loser] != "sunk")
    hit = pairs[target]
    ship = hit["ships"][loser]
    side = b["sides"][loser]
    if ship == "BB" and hit["status"][loser] == "afloat":
        hit["status"][loser] = "damaged"
        effect = "damaged"
    else:
        hit["status"][loser] = "sunk"
        effect = "sunk"
        _sink(state, loser, side, ship)
    record["hit"] = {"seat": loser, "pos": target + 1, "ship": ship, "effect": effect}
    ctx.log(f"naval_hit_{effect}", seat=_colour(state, winner), loser=_colour(state, loser), ship=f"unit_{ship}",
            pos=target + 1)


def _sink(state: GameState, seat: str, side: dict[str, Any], ship: str) -> None:
    """A-13.3.5: the card goes back to the Navy deck, so it leaves the fleet at once."""
    side["fleet"][ship] -= 1
    if not side["fleet"][ship]:
        del side["fleet"][ship]
    side["sunk"][ship] = side["sunk"].get(ship, 0) + 1
    navy = state.navy[seat]
    navy[ship] -= 1
    if not navy[ship]:
        del navy[ship]


def end_round(ctx: Ctx, b: dict[str, Any], rnd: dict[str, Any]) -> None:
    """Step 4 (A-13.3.6): battleships hit once leave the line, kept in the fleet; then a side with no
    playable ship loses (A-13.4.3; both: the defender keeps control, spec §24), else the retreat step."""
    state = ctx.state
    att, dfn = _sides(b)
    for s in (att, dfn):
        damaged = sum(1 for p in rnd["pairs"] if p["status"][s] == "damaged")
        if damaged:
            b["sides"][s]["out"] += damaged
            ctx.log("naval_damaged_out", seat=_colour(state, s), n=damaged)
    empty = [s for s in (att, dfn) if not playable(b["sides"][s])]
    if len(empty) == 2:
        ctx.log("naval_both_empty", seat=_colour(state, dfn))
        _finish(ctx, b, dfn, "no_ships")
    elif empty:
        ctx.log("naval_no_ships", seat=_colour(state, empty[0]))
        _finish(ctx, b, dfn if empty[0] == att else att, "no_ships")
    else:
        b["step"] = "retreat"


def _finish(ctx: Ctx, b: dict[str, Any], winner: str, reason: str) -> None:
    """A-13.4: the winner's fleet goes to the centre (it controls the seas), the loser's in front of
    it; damage is repaired (A-13.5.3: it lives only in the battle record)."""
    state = ctx.state
    b["winner"], b["reason"], b["step"] = winner, reason, "over"
    _take_control(state, winner)
    ctx.log("naval_won", seat=_colour(state, winner))


# ------------------------------------------------------------------ an eliminated controller
@end_check
def _free_the_seas(ctx: Ctx) -> None:
    """Gap A-21.4 (the last-player-standing variant): an eliminated seat's fleet leaves the sea; nobody
    controls it until the next NAVAL action (recorded in the README)."""
    state = ctx.state
    if state.sea_controller is not None and state.sea_controller in state.eliminated:
        ctx.log("naval_seas_free", seat=_colour(state, state.sea_controller))
        state.sea_controller = None


# ------------------------------------------------------------------ views and secrets
def _waiting_lines(state: GameState) -> dict[str, list[str]]:
    """The lines laid so far in a line-up still waiting for the other seat (seat -> ship types)."""
    t = state.stack[-1] if state.stack else None
    if t is None or t.get("k") != "naval_round" or "qs" not in t:
        return {}
    b = battle(state)
    if b is None or b["step"] != "line":
        return {}
    return {s: [ship_type(c) for c in picks] for s, picks in sorted(t.get("got", {}).items())}


@secret_part
def _line_secrets(state: GameState, seat: str) -> list[Secret]:
    """A line laid face down is secret from every other seat until both are laid (A-13.3.1, §25.2)."""
    return [Secret(place=f"{s}'s naval line", value=tuple(line))
            for s, line in _waiting_lines(state).items() if s != seat]


@view_part
def _naval_view(state: GameState, seat: str | None) -> dict[str, Any]:
    """The naval battle of this turn for the line-up board: its rounds pair by pair (ships, dice,
    modifiers, totals, hits), each side's fleet in the battle, and the seat's own line while the
    other still chooses (nobody else's)."""
    b = battle(state)
    if b is None:
        return {"naval": None}
    laid = _waiting_lines(state)
    sides = {s: {"fleet": dict(side["fleet"]), "damaged_out": side["out"], "sunk": dict(side["sunk"]),
                 "playable": playable(side)} for s, side in b["sides"].items()}
    out: dict[str, Any] = {
        "attacker": b["attacker"], "defender": b["defender"], "round": b["round"], "n": b["n"], "step": b["step"],
        "winner": b["winner"], "reason": b["reason"], "sides": sides, "rounds": orjson.loads(orjson.dumps(b["rounds"])),
        "laid": sorted(laid), "my_line": laid.get(seat) if seat else None,
    }
    return {"naval": out}
