"""The air strike (spec §13.1.A, "atak lotnictwa szturmowego"), a turn's single card play.

The player discards a card from hand (turn choice ``strike:<card>``: the card is committed first,
like an Operations card), picks a supplied ready bomber that did not move this turn, one space
within 2 spaces of it, then the units to destroy there one by one at normal attack costs while
the card's value lasts (Tactics ±1 apply, G14; no saved OP added, none saved). The bomber is then
spent: it neither strikes nor moves again this round.
"""

from __future__ import annotations

from app.games.total_domination.attacks import air_strike_cost, air_strike_options, destroy
from app.games.total_domination.changes import consequences, snapshot
from app.games.total_domination.costs import card_value
from app.games.total_domination.engine import Ctx, Task, ask, cont, task
from app.games.total_domination.flow import Play, register_play
from app.games.total_domination.operations import Choice, end_turn, invades, invasions, log_destroyed, own_units
from app.games.total_domination.state import GameState
from app.games.total_domination.text import say


def strike_targets(state: GameState, power: str, bomber_id: str, space: str, left: int) -> list[str]:
    """Units on ``space`` the strike may destroy next within ``left`` OP (a bomber only once no
    army or fleet stands beside it)."""
    found = air_strike_options(state, power, state.unit(bomber_id), _moved(state)).get(space, [])
    return [u for u in found if (c := air_strike_cost(state, power, space, [u])) is not None and c <= left]


def strike_spaces(state: GameState, power: str, bomber_id: str, value: int) -> list[str]:
    """Spaces this bomber could strike where the card pays for at least one unit."""
    opts = air_strike_options(state, power, state.unit(bomber_id), _moved(state))
    return sorted(s for s in opts if strike_targets(state, power, bomber_id, s, value))


def strike_bombers(state: GameState, power: str, value: int) -> list[str]:
    return [u.id for u in own_units(state, power)
            if u.kind == "bomber" and strike_spaces(state, power, u.id, value)]


def _moved(state: GameState) -> set[str]:
    return set(state.turn.get("moved", []))


def strike_choices(state: GameState, power: str) -> list[Choice]:
    if not state.options.get("bombers") or not any(u.kind == "bomber" for u in own_units(state, power)):
        return []
    out: list[Choice] = []
    for c in state.hand(power):
        value = card_value(state, power, c)
        if strike_bombers(state, power, value):
            out.append((f"strike:{c}", say("choice_strike", card=c, op=value)))
    return out


def start_strike(ctx: Ctx, power: str, choice: str) -> None:
    state = ctx.state
    card = choice.split(":", 1)[1]
    state.hand(power).remove(card)
    state.discard.append(card)  # discarded for the strike: nothing is saved from it (§13.1.A)
    value = card_value(state, power, card)
    state.turn["strike"] = {"power": power, "card": card, "op": value, "bomber": None, "space": None}
    ctx.log("strike_played", power=power, card=card, op=value)
    bombers = strike_bombers(state, power, value)
    ctx.push(ask(state.seat_of(power), say("prompt_strike_bomber", power=power),
                 [(b, say("choice_bomber", space=state.unit(b).space)) for b in bombers], "strike_bomber",
                 kind="strike", undoable=True, power=power))


@cont("strike_bomber")
def _bomber_chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power = ctx.state, t["power"]
    strike = state.turn["strike"]
    strike["bomber"] = choices[0]
    spaces = strike_spaces(state, power, choices[0], strike["op"])
    ctx.push(ask(state.seat_of(power), say("prompt_strike_space", power=power), [(s, s) for s in spaces],
                 "strike_space", kind="strike", undoable=True, power=power))


@cont("strike_space")
def _space_chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power = ctx.state, t["power"]
    strike = state.turn["strike"]
    strike["space"] = choices[0]
    bomber = state.unit(strike["bomber"])
    ctx.log("strike_flies", power=power, start=bomber.space, space=choices[0])
    ctx.push({"k": "strike_targets", "power": power, "hits": 0})


@task("strike_targets")
def _run_targets(ctx: Ctx, t: Task) -> bool:
    state, power = ctx.state, t["power"]
    strike = state.turn["strike"]
    found = strike_targets(state, power, strike["bomber"], strike["space"], strike["op"])
    if not found:
        ctx.pop(t)
        _end(ctx)
        return False
    options: list[Choice] = []
    for uid in found:
        u = state.unit(uid)
        price = air_strike_cost(state, power, u.space, [uid]) or 0
        options.append((f"hit:{uid}", say("choice_attack", nation=u.nation, kind=u.kind, space=u.space,
                                          cost=price)))
    if t["hits"]:
        options.append(("done", say("choice_strike_done", op=strike["op"])))
    ctx.pop(t)
    undoable = not any(invades(state, power, f"attack:x:{c[4:]}") for c, _ in options if c != "done")
    ctx.push(ask(state.seat_of(power), say("prompt_strike_target", power=power, op=strike["op"]), options,
                 "strike_hit", kind="strike", undoable=undoable, power=power, hits=t["hits"]))
    return False


@cont("strike_hit")
def _hit(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power = ctx.state, t["power"]
    strike = state.turn["strike"]
    if choices[0] == "done":
        _end(ctx)
        return
    uid = choices[0][4:]
    price = air_strike_cost(state, power, strike["space"], [uid]) or 0
    strike["op"] -= price
    before = snapshot(state)
    facts = destroy(state, power, uid)
    log_destroyed(ctx, power, facts, price)
    consequences(ctx, before)
    invasions(ctx, facts)
    ctx.push({"k": "strike_targets", "power": power, "hits": t["hits"] + 1})


def _end(ctx: Ctx) -> None:
    """The bomber turns to its spent side: no other strike, no move this round (§13.1.A)."""
    strike = ctx.state.turn.pop("strike")
    end_turn(ctx, strike["power"])
    for u in ctx.state.units:
        if u.id == strike["bomber"]:
            u.spent = True
            ctx.log("strike_ends", power=strike["power"], space=u.space)


register_play(Play("strike", strike_choices, start_strike))
