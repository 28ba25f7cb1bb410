"""Land battles (spec §10, §11, §16; reference algorithm §10.4).

MOVES pushes ``land_battle(region, attacker, units)`` for each contested region once all movement
is done (A-7.2); the moving units are the attacker's reserve, off the map until the battle ends.
The defender's units stay on the map while they fight (its region stays its own until the last
one falls): casualties leave the map as they happen, so the map always shows what is left.

The battle lives in ``state.battle`` (``kind: "land"``), which is public and kept after the end
(``over``) until the next battle replaces it; the view shows it until the turn ends, so the table
can show the last one round by round.

Choosing units (the opening four, each round's reinforcements) is one multi-choice decision whose
choices are unit tokens "INF:1", "INF:2", "TNK:1"...: the number of a type's tokens picked is how
many of that type go in (``picked``). Tokens are offered up to what the cap allows, so the list
stays short however big the army.
"""

from __future__ import annotations

from typing import Any

from app.games.attack import cards, dice
from app.games.attack.engine import Ctx, Task, answer, answers, question, task, wait, wait_all
from app.games.attack.flow import check_end
from app.games.attack.pack import LAND_TYPES, MIN_DICE, OPENING, pack
from app.games.attack.state import GameState
from app.games.attack.text import Label, say
from app.games.attack.views import view_part

Units = dict[str, int]

ATTACKER, DEFENDER = "A", "D"
# spec §24: the engine's policy for neutral defenders nobody commands (published in the log)
ENGINE_ORDER: tuple[str, ...] = ("INF", "ART", "TNK", "PLN")
NEUTRAL = "neutral_defenders"  # the term naming an uncommanded neutral side in log lines


def land_battle(region: str, attacker: str, units: Units) -> Task:
    """The task that fights for ``region``: ``units`` are the attacker's moving units (its reserve)."""
    return {"k": "land_battle", "region": region, "attacker": attacker,
            "units": {t: n for t, n in units.items() if n}, "step": "begin"}


# ------------------------------------------------------------------ unit arithmetic
def total(units: Units) -> int:
    return sum(units.values())


def plus(a: Units, b: Units) -> Units:
    return {t: a.get(t, 0) + b.get(t, 0) for t in LAND_TYPES if a.get(t, 0) + b.get(t, 0)}


def minus(a: Units, b: Units) -> Units:
    return {t: a.get(t, 0) - b.get(t, 0) for t in LAND_TYPES if a.get(t, 0) - b.get(t, 0)}


def units_msg(units: Units) -> list[dict[str, Any]]:
    """A group of units as a log parameter: "infantry ×2, tank ×1" in the reader's language."""
    return [{"id": "unit_count", "params": {"unit": f"unit_{t}", "count": units[t]}}
            for t in LAND_TYPES if units.get(t)]


def tokens(reserve: Units, most: int) -> list[tuple[str, Label]]:
    """The choices for picking at most ``most`` units out of ``reserve``: one token per unit."""
    return [(f"{t}:{i}", say("choice_unit_token", unit=f"unit_{t}", i=i))
            for t in LAND_TYPES for i in range(1, min(reserve.get(t, 0), most) + 1)]


def picked(choices: tuple[str, ...] | list[str]) -> Units:
    """The units a token answer commits: how many of each type's tokens were picked."""
    out: Units = {}
    for c in choices:
        kind = c.split(":", 1)[0]
        out[kind] = out.get(kind, 0) + 1
    return {t: out[t] for t in LAND_TYPES if t in out}


def hits_by_type(faces: list[str], engaged: Units) -> Units:
    """A-10.3.5: a face hits when it shows one of the roller's own engaged types, one die per unit."""
    return {t: min(faces.count(t), engaged.get(t, 0)) for t in LAND_TYPES
            if min(faces.count(t), engaged.get(t, 0))}


def casualties(hits: int, engaged: Units) -> Units:
    """A-10.3.6: the opponent's engaged units fall infantry first, then tanks, artillery, planes;
    hits beyond them are lost (reserves are never hit)."""
    out: Units = {}
    for t in LAND_TYPES:
        k = min(hits, engaged.get(t, 0))
        if k:
            out[t] = k
            hits -= k
    return out


def dice_count(engaged: Units) -> int:
    """A-10.3.4: one die a unit, two a tank, never fewer than two."""
    return max(MIN_DICE, sum((2 if t == "TNK" else 1) * n for t, n in engaged.items()))


def engine_pick(reserve: Units, n: int) -> Units:
    """The uncommanded neutral defenders' choice (spec §24): as many as allowed, in ENGINE_ORDER."""
    out: Units = {}
    for t in ENGINE_ORDER:
        k = min(n, reserve.get(t, 0))
        if k:
            out[t] = k
            n -= k
    return {t: out[t] for t in LAND_TYPES if t in out}


def real_choice(reserve: Units, lo: int, hi: int) -> bool:
    """Is there more than one way to move between ``lo`` and ``hi`` units out of ``reserve``?"""
    hi = min(hi, total(reserve))
    if hi <= 0:
        return False
    if lo < hi:
        return True
    return total(reserve) > hi and sum(1 for n in reserve.values() if n) > 1


def forced_pick(reserve: Units, n: int) -> Units:
    """The only possible pick of ``n`` units (everything, or ``n`` of the single type there is)."""
    if total(reserve) <= n:
        return dict(reserve)
    return {t: min(n, k) for t, k in reserve.items() if k and n > 0}


# ------------------------------------------------------------------ who is who
def side_seat(b: dict[str, Any], side: str) -> str | None:
    """The seat making ``side``'s choices (None: the engine plays uncommanded neutral defenders)."""
    return b["attacker"] if side == ATTACKER else (b["defender"] or b["commander"])


def side_name(state: GameState, b: dict[str, Any], side: str) -> str:
    """A side as a log term: the player's colour, or the neutral defenders."""
    if side == ATTACKER:
        return state.colours[b["attacker"]]
    return state.colours[b["defender"]] if b["defender"] else NEUTRAL


def other(side: str) -> str:
    return DEFENDER if side == ATTACKER else ATTACKER


def cap(r: int) -> int:
    """A-10.3.3: at most 3 + r units engaged after reinforcing in round r."""
    return 3 + r


# ------------------------------------------------------------------ the battle
@task("land_battle")
def _run_battle(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    while state.outcome is None:
        step = t["step"]
        if step == "done":  # the battle ended inside this run: the task is already off the stack
            return False
        if step == "begin":
            if _begin(ctx, t):
                return False  # the command question (or nothing left to fight) comes first
            continue
        b = state.battle
        if step in ("open:A", "open:D"):
            side = step[-1]
            me = b["sides"][side]
            n = min(OPENING, total(me["reserve"]))
            seat = side_seat(b, side)
            if seat is not None and real_choice(me["reserve"], n, n):
                return _ask(state, t, seat, side, n, n)
            _commit(ctx, t, side, engine_pick(me["reserve"], n) if seat is None else forced_pick(me["reserve"], n))
            continue
        if step == "reinforce":
            side = b["turn"]
            me = b["sides"][side]
            room = min(cap(b["round"]) - total(me["engaged"]), total(me["reserve"]))
            lo = 1 if not me["engaged"] and me["reserve"] else 0
            seat = side_seat(b, side)
            if seat is not None and real_choice(me["reserve"], lo, room):
                return _ask(state, t, seat, side, lo, room)
            pick = engine_pick(me["reserve"], max(room, 0)) if seat is None else forced_pick(me["reserve"], lo)
            _commit(ctx, t, side, pick)
            continue
        raise RuntimeError(f"land battle step {step!r}")
    return False


@answer("land_battle")
def _answer_battle(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    side = t["step"][-1] if t["step"].startswith("open:") else ctx.state.battle["turn"]
    _commit(ctx, t, side, picked(choices))


def _ask(state: GameState, t: Task, seat: str, side: str, lo: int, hi: int) -> bool:
    b = state.battle
    me, them = b["sides"][side], b["sides"][other(side)]
    colour = state.colours[seat]
    if t["step"] == "open:A":
        prompt = say("prompt_opening", seat=colour, n=hi, region=b["region"], reserve=units_msg(me["reserve"]))
        kind = "battle_opening"
    elif t["step"] == "open:D":
        prompt = say("prompt_opening_defence", seat=colour, n=hi, region=b["region"],
                     attack=units_msg(them["engaged"]), reserve=units_msg(me["reserve"]))
        kind = "battle_opening"
    else:
        prompt = say("prompt_reinforce" if lo == 0 else "prompt_reinforce_one", seat=colour, n=hi, round=b["round"],
                     region=b["region"], engaged=units_msg(me["engaged"]), reserve=units_msg(me["reserve"]),
                     enemy=units_msg(them["engaged"]))
        kind = "battle_reinforce"
    b["waiting"] = {"seat": seat, "side": side, "kind": kind}
    return wait(t, seat, kind, prompt, tokens(me["reserve"], hi), lo, hi)


def _commit(ctx: Ctx, t: Task, side: str, units: Units) -> None:
    """``side`` moves ``units`` from its reserve into the battle; then the step that follows."""
    state = ctx.state
    b = state.battle
    b.pop("waiting", None)
    me = b["sides"][side]
    me["reserve"] = minus(me["reserve"], units)
    me["engaged"] = plus(me["engaged"], units)
    name = side_name(state, b, side)
    if t["step"].startswith("open:"):
        ctx.log("battle_opening", side=name, units=units_msg(units), region=b["region"])
        t["step"] = "open:D" if side == ATTACKER else "reinforce"
        return
    b["added"] = units
    if units:
        ctx.log("battle_reinforce", side=name, units=units_msg(units), round=b["round"])
    _fire(ctx, t, side)


def _fire(ctx: Ctx, t: Task, side: str) -> None:
    """Steps 2–4 of a half-round (A-10.3.4–6), then the end check (A-10.3.7) or the next half."""
    state = ctx.state
    b = state.battle
    me, them = b["sides"][side], b["sides"][other(side)]
    faces = dice.battle_dice(ctx.rng, dice_count(me["engaged"]))
    hits = hits_by_type(faces, me["engaged"])
    lost = casualties(sum(hits.values()), them["engaged"])
    them["engaged"] = minus(them["engaged"], lost)
    them["lost"] = plus(them.get("lost", {}), lost)
    if other(side) == DEFENDER and b["defender"]:
        state.remove_units(b["region"], lost)  # a player defender's pieces stand on the map
    name, foe = side_name(state, b, side), side_name(state, b, other(side))
    ctx.log("battle_roll", side=name, round=b["round"], n=len(faces), faces=[f"face_{f}" for f in faces])
    n = sum(hits.values())
    if n:
        ctx.log("battle_hits", side=name, n=n, by_type=units_msg(hits), foe=foe, units=units_msg(lost))
    else:
        ctx.log("battle_no_hits", side=name)
    b["halves"].append({"round": b["round"], "side": side, "added": b.pop("added", {}), "engaged": dict(me["engaged"]),
                        "dice": faces, "hits": hits, "wasted": n - total(lost), "casualties": lost,
                        "after": {s: {"engaged": dict(b["sides"][s]["engaged"]),
                                      "reserve": dict(b["sides"][s]["reserve"])} for s in (ATTACKER, DEFENDER)}})
    if not them["engaged"] and not them["reserve"]:
        _end(ctx, t, side)
        return
    if side == ATTACKER:
        b["round"] += 1
    b["turn"] = other(side)


def _begin(ctx: Ctx, t: Task) -> bool:
    """A-10.2.1 (and A-16.3 for a neutral region). True: the task gave way to another first."""
    state = ctx.state
    region, attacker, units = t["region"], t["attacker"], dict(t["units"])
    defender = state.owner.get(region)
    t["step"] = "open:A"
    state.battle = {"kind": "land", "region": region, "attacker": attacker, "defender": defender,
                    "turns_taken": state.turns_taken, "commander": None, "card": None, "round": 1,
                    "turn": DEFENDER, "halves": [], "over": False, "winner": None,
                    "sides": {ATTACKER: {"engaged": {}, "reserve": units, "lost": {}},
                              DEFENDER: {"engaged": {}, "reserve": {}, "lost": {}}}}
    b = state.battle
    if defender == attacker:  # nothing to fight: MOVES should not have asked
        state.add_units(region, attacker, units)
        b["over"], b["winner"] = True, ATTACKER
        t["step"] = "done"
        ctx.pop(t)
        return True
    if defender is not None:
        b["sides"][DEFENDER]["reserve"] = {k: n for k, n in state.units.get(region, {}).items() if n}
        ctx.log("battle_begins", seat=state.colours[attacker], region=region, foe=state.colours[defender],
                attack=units_msg(units), defence=units_msg(b["sides"][DEFENDER]["reserve"]))
        return False
    card = cards.draw(ctx, attacker)
    if card is None:  # README: an empty deck leaves nobody to defend the region
        ctx.log("neutral_undefended", seat=state.colours[attacker], region=region)
        _end(ctx, t, ATTACKER)
        return True
    state.see("*", card)  # spec §25.2: the card goes to the attacker or back into the deck: shown to all
    b["card"] = card
    defenders = pack().econ[card].defending()
    b["sides"][DEFENDER]["reserve"] = {k: defenders[k] for k in LAND_TYPES if defenders.get(k)}
    ctx.log("neutral_card", seat=state.colours[attacker], card=card, region=region, units=units_msg(defenders))
    ctx.log("battle_begins_neutral", seat=state.colours[attacker], region=region, attack=units_msg(units),
            defence=units_msg(defenders))
    if not defenders:
        _end(ctx, t, ATTACKER)
        return True
    ctx.push({"k": "neutral_command", "region": region, "attacker": attacker})
    return True


def _end(ctx: Ctx, t: Task, winner: str) -> None:
    """A-10.3.7, A-10.3.9, A-10.3.10, A-16.5 and the settled reading of A-17.2."""
    state = ctx.state
    b = state.battle
    region, attacker, defender, card = b["region"], b["attacker"], b["defender"], b["card"]
    b["over"], b["winner"] = True, winner
    b.pop("waiting", None)
    t["step"] = "done"
    ctx.pop(t)
    if winner == ATTACKER:
        me = b["sides"][ATTACKER]
        survivors = plus(me["engaged"], me["reserve"])
        state.add_units(region, attacker, survivors)
        ctx.log("battle_won", seat=state.colours[attacker], region=region, units=units_msg(survivors))
        capital_of = state.capital_owner(region)
        if capital_of is not None and capital_of != attacker:
            ctx.log("capital_captured", seat=state.colours[attacker], owner=state.colours[capital_of], region=region)
        if defender is not None:
            cards.take_random(ctx, attacker, defender)
        elif card is not None:
            ctx.log("neutral_card_kept", seat=state.colours[attacker], card=card)
    else:
        if defender is not None:
            ctx.log("battle_held", seat=state.colours[defender], region=region,
                    units=units_msg(state.units.get(region, {})))
        else:
            ctx.log("neutral_held", region=region)
            if card is not None:
                hand = state.hands.get(attacker, [])
                if card in hand:
                    hand.remove(card)
                cards.shuffle_back(ctx, card)
    check_end(ctx)


# ------------------------------------------------------------------ neutral defenders
@task("neutral_command")
def _run_command(ctx: Ctx, t: Task) -> bool:
    """Every other live player is offered command of the defenders at once (spec §24)."""
    state = ctx.state
    b = state.battle
    b["waiting"] = {"kind": "neutral_command"}
    offered = [s for s in state.live() if s != t["attacker"]]
    if not offered:
        _command(ctx, t, {})
        return False
    defenders = units_msg(b["sides"][DEFENDER]["reserve"])
    qs = {s: question(s, "neutral_command",
                      say("prompt_command", seat=state.colours[s], attacker=state.colours[t["attacker"]],
                          region=t["region"], units=defenders),
                      [("command", say("choice_command")), ("decline", say("choice_decline_command"))], undoable=True)
          for s in offered}
    return wait_all(t, f"command:{state.step}", qs)


@answers("neutral_command")
def _answer_command(ctx: Ctx, t: Task, got: dict[str, tuple[str, ...]]) -> None:
    _command(ctx, t, got)


def _command(ctx: Ctx, t: Task, got: dict[str, tuple[str, ...]]) -> None:
    state = ctx.state
    b = state.battle
    b.pop("waiting", None)
    ctx.pop(t)
    volunteers = [s for s in state.live() if got.get(s) == ("command",)]
    if not volunteers:
        ctx.log("command_nobody", region=t["region"])
        return
    if len(volunteers) > 1:
        ctx.log("command_volunteers", seats=[state.colours[s] for s in volunteers], region=t["region"])
    rolling = volunteers
    while len(rolling) > 1:  # spec §24: the tied highest roll again
        rolls = {s: dice.blue(ctx.rng) for s in rolling}
        for s in rolling:
            ctx.log("command_roll", seat=state.colours[s], a=rolls[s][0], b=rolls[s][1], total=sum(rolls[s]))
        best = max(sum(r) for r in rolls.values())
        rolling = [s for s in rolling if sum(rolls[s]) == best]
    b["commander"] = rolling[0]
    ctx.log("command_taken", seat=state.colours[rolling[0]], region=t["region"])


# ------------------------------------------------------------------ what the table shows
@view_part
def _battle_view(state: GameState, seat: str | None) -> dict[str, Any]:
    """The land battle in progress, or the last one of this turn (``over``), half-round by
    half-round: all public."""
    b = state.battle
    if not b or b.get("kind") != "land" or (b["over"] and b.get("turns_taken") != state.turns_taken):
        return {"land_battle": None}
    return {"land_battle": {
        "region": b["region"], "attacker": b["attacker"], "defender": b["defender"], "commander": b["commander"],
        "neutral": b["defender"] is None, "card": b["card"], "round": b["round"], "turn": b["turn"],
        "over": b["over"], "winner": b["winner"], "waiting": b.get("waiting"),
        "sides": {s: {"engaged": dict(v["engaged"]), "reserve": dict(v["reserve"]), "lost": dict(v.get("lost", {}))}
                  for s, v in b["sides"].items()},
        "halves": [dict(h) for h in b["halves"]],
    }}
