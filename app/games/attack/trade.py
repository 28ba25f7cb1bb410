"""Trade (spec §19): the active player exchanges Economics cards with the others, as often as they like.

Hands are hidden, so an offer is made the way it is at a table: the active player shows the cards
they give (none: they ask for a gift) and asks for a number of cards, of one type or of any type
(or for nothing: a gift). The partner, who alone sees the offer, refuses or accepts and then picks
which of their cards answer the request. Between players with no adjacent regions (sea lanes and
anchored zones count, spec §24) the sea controller may block the exchange. Only an exchange that
happens makes Trade one of the turn's actions (A-19.2); "done trading" ends it.

The offer under discussion lives in ``state.turn["trade_offer"]``, for the two parties' views."""

from __future__ import annotations

from typing import Any

from app.games.attack import victory
from app.games.attack.engine import Ctx, Task, answer, task, wait
from app.games.attack.flow import ActionKind, actions_taken, record_action, register_action
from app.games.attack.pack import ECON_TYPES, pack
from app.games.attack.state import GameState
from app.games.attack.text import Label, as_json, say
from app.games.attack.views import view_part

MOST_ASKED = 4  # the largest number of cards one offer asks for (more: a second exchange)


def neighbours(state: GameState, a: str, b: str) -> bool:
    """A-19.5: do ``a`` and ``b`` own adjacent regions (by land, a sea lane or an anchored zone)?"""
    geo = state.geo
    theirs = state.regions_of(b)
    return any(geo.adjacent(mine, other) for mine in state.regions_of(a) for other in theirs)


def blocker(state: GameState, a: str, b: str) -> str | None:
    """The seat that may block an exchange between ``a`` and ``b`` (None: it cannot be blocked)."""
    ctrl = state.sea_controller
    if ctrl is None or ctrl in (a, b) or ctrl not in state.live() or neighbours(state, a, b):
        return None
    return ctrl


def partners(state: GameState, seat: str) -> list[str]:
    """Seats ``seat`` could exchange a card with: at least one of the two holds one."""
    mine = bool(state.hands.get(seat))
    return [s for s in state.live() if s != seat and (mine or state.hands.get(s))]


def _allowed(state: GameState, seat: str) -> bool:
    # a Trade closed without an exchange opens again only after another action, so a turn cannot loop
    closed = state.turn.get("trade_closed_at")
    if closed is not None and closed == len(actions_taken(state)):
        return False
    return not victory.trade_locked(state) and bool(partners(state, seat))


def _start(ctx: Ctx, seat: str) -> None:
    ctx.state.turn["trade_exchanges"] = 0
    ctx.push({"k": "trade", "seat": seat})


def eligible(state: GameState, seat: str, request: str) -> list[str]:
    """The cards of ``seat`` that answer ``request`` ("any:2", "OIL:1", "nothing")."""
    if request == "nothing":
        return []
    kind = request.split(":")[0]
    econ = pack().econ
    return [c for c in state.hands.get(seat, []) if kind == "any" or econ[c].type == kind]


def asked(request: str) -> int:
    return 0 if request == "nothing" else int(request.split(":")[1])


def request_label(request: str) -> dict[str, Any] | str:
    """The request in words, as a stored message (it is also a parameter of other lines)."""
    if request == "nothing":
        return as_json(say("trade_ask_nothing"))
    kind, n = request.split(":")
    if kind == "any":
        return as_json(say("trade_ask_any", n=int(n)))
    return as_json(say("trade_ask_type", n=int(n), type=f"econ_{kind}"))


def gives_label(cards: list[str]) -> dict[str, Any] | str:
    return as_json(say("trade_gives_cards", cards=list(cards)) if cards else say("trade_gives_nothing"))


def card_label(card: str) -> Label:
    c = pack().econ[card]
    return say("choice_trade_card", card=card, type=f"econ_{c.type}", value=c.value)


@task("trade")
def _run_menu(ctx: Ctx, t: Task) -> bool:
    """A-19.1: no limit on exchanges; the seat picks a partner, or ends trading."""
    state, seat = ctx.state, t["seat"]
    if victory.trade_locked(state):
        _close(ctx, t)
        return False
    choices: list[tuple[str, Label]] = [
        (s, say("choice_trade_with", seat=state.colours[s], n=len(state.hands.get(s, []))))
        for s in partners(state, seat)]
    choices.append(("done", say("choice_trade_done")))
    return wait(t, seat, "trade_partner", say("prompt_trade_partner", seat=state.colours[seat]), choices)


@answer("trade")
def _menu_answered(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    if choices[0] == "done":
        _close(ctx, t)
        return
    ctx.push({"k": "trade_give", "seat": t["seat"], "partner": choices[0]})


def _close(ctx: Ctx, t: Task) -> None:
    state = ctx.state
    ctx.pop(t)
    if not state.turn.pop("trade_exchanges", 0):
        state.turn["trade_closed_at"] = len(actions_taken(state))
    state.turn.pop("trade_offer", None)
    ctx.log("trade_closed", seat=state.colours[t["seat"]])


@task("trade_give")
def _run_give(ctx: Ctx, t: Task) -> bool:
    """The cards the active seat offers (none: it asks for a gift)."""
    state, seat = ctx.state, t["seat"]
    hand = state.hands.get(seat, [])
    if not hand:
        ctx.pop(t)
        ctx.push({"k": "trade_ask", "seat": seat, "partner": t["partner"], "give": []})
        return False
    choices: list[tuple[str, Label]] = [(c, card_label(c)) for c in hand]
    return wait(t, seat, "trade_give", say("prompt_trade_give", seat=state.colours[seat],
                                           partner=state.colours[t["partner"]]),
                choices, lo=0, hi=len(choices), undoable=True)


@answer("trade_give")
def _given(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    hand = ctx.state.hands.get(t["seat"], [])
    ctx.push({"k": "trade_ask", "seat": t["seat"], "partner": t["partner"], "give": [c for c in hand if c in choices]})


@task("trade_ask")
def _run_ask(ctx: Ctx, t: Task) -> bool:
    """What the active seat asks for in return: nothing, or n cards of any type or of one type."""
    state, seat, partner = ctx.state, t["seat"], t["partner"]
    most = min(MOST_ASKED, len(state.hands.get(partner, [])))
    requests = ["nothing"] if t["give"] else []
    for n in range(1, most + 1):
        requests += [f"any:{n}", *(f"{kind}:{n}" for kind in ECON_TYPES)]
    choices: list[tuple[str, Label]] = [(r, request_label(r)) for r in requests]
    choices.append(("cancel", say("choice_trade_cancel")))
    return wait(t, seat, "trade_ask", say("prompt_trade_ask", seat=state.colours[seat],
                                          partner=state.colours[partner], gives=gives_label(t["give"])), choices)


@answer("trade_ask")
def _asked(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat, partner = ctx.state, t["seat"], t["partner"]
    ctx.pop(t)
    if choices[0] == "cancel":
        return
    give, request = list(t["give"]), choices[0]
    # the partner is shown the cards on offer, whatever it answers
    state.see(partner, *give)
    state.turn["trade_offer"] = {"from": seat, "to": partner, "give": give, "ask": request}
    line = say("trade_offered_private", seat=state.colours[seat], partner=state.colours[partner],
               gives=gives_label(give), asks=request_label(request))
    ctx.log("trade_offered", private={seat: line, partner: line}, seat=state.colours[seat],
            partner=state.colours[partner])
    ctx.push({"k": "trade_reply", "seat": partner})


@task("trade_reply")
def _run_reply(ctx: Ctx, t: Task) -> bool:
    """The partner accepts or refuses. Asked even when it cannot accept, so the others learn nothing of its hand."""
    state, partner = ctx.state, t["seat"]
    offer = state.turn["trade_offer"]
    choices: list[tuple[str, Label]] = []
    if len(eligible(state, partner, offer["ask"])) >= asked(offer["ask"]):
        choices.append(("accept", say("choice_trade_accept")))
    choices.append(("refuse", say("choice_trade_refuse")))
    return wait(t, partner, "trade_reply", say("prompt_trade_reply", seat=state.colours[partner],
                                               offerer=state.colours[offer["from"]], gives=gives_label(offer["give"]),
                                               asks=request_label(offer["ask"])), choices)


@answer("trade_reply")
def _replied(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, partner = ctx.state, t["seat"]
    ctx.pop(t)
    offer = state.turn["trade_offer"]
    if choices[0] == "refuse":
        state.turn.pop("trade_offer", None)
        ctx.log("trade_refused", seat=state.colours[partner], offerer=state.colours[offer["from"]])
        return
    n, cards = asked(offer["ask"]), eligible(state, partner, offer["ask"])
    if len(cards) > n:
        ctx.push({"k": "trade_pick", "seat": partner})
    else:
        offer["take"] = cards
        ctx.push({"k": "trade_block", "seat": offer["from"]})


@task("trade_pick")
def _run_pick(ctx: Ctx, t: Task) -> bool:
    """The partner chooses which of its cards answer the request."""
    state, partner = ctx.state, t["seat"]
    offer = state.turn["trade_offer"]
    n = asked(offer["ask"])
    choices: list[tuple[str, Label]] = [(c, card_label(c)) for c in eligible(state, partner, offer["ask"])]
    return wait(t, partner, "trade_pick", say("prompt_trade_pick", seat=state.colours[partner], n=n,
                                              asks=request_label(offer["ask"])), choices, lo=n, hi=n)


@answer("trade_pick")
def _picked(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state = ctx.state
    ctx.pop(t)
    offer = state.turn["trade_offer"]
    offer["take"] = [c for c in state.hands.get(t["seat"], []) if c in choices]
    ctx.push({"k": "trade_block", "seat": offer["from"]})


@task("trade_block")
def _run_block(ctx: Ctx, t: Task) -> bool:
    """A-19.5: between players with no adjacent regions, the sea controller may block the exchange."""
    state = ctx.state
    offer = state.turn["trade_offer"]
    ctrl = blocker(state, offer["from"], offer["to"])
    if ctrl is None:
        ctx.pop(t)
        _exchange(ctx)
        return False
    choices: list[tuple[str, Label]] = [("allow", say("choice_trade_allow")), ("block", say("choice_trade_block"))]
    return wait(t, ctrl, "trade_block", say("prompt_trade_block", seat=state.colours[ctrl],
                                            a=state.colours[offer["from"]], b=state.colours[offer["to"]],
                                            given=len(offer["give"]), taken=len(offer["take"])), choices)


@answer("trade_block")
def _blocked(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state = ctx.state
    ctx.pop(t)
    if choices[0] == "allow":
        _exchange(ctx)
        return
    offer = state.turn.pop("trade_offer")
    # a blocked trade costs the active player nothing
    ctx.log("trade_blocked", seat=state.colours[t["by_seat"]], a=state.colours[offer["from"]],
            b=state.colours[offer["to"]])


def _exchange(ctx: Ctx) -> None:
    state = ctx.state
    offer: dict[str, Any] = state.turn.pop("trade_offer")
    a, b, give, take = offer["from"], offer["to"], offer["give"], offer["take"]
    for card in give:
        state.hands[a].remove(card)
        state.hands.setdefault(b, []).append(card)
    for card in take:
        state.hands[b].remove(card)
        state.hands.setdefault(a, []).append(card)
    # both parties know where every card of the exchange now lies
    state.see(a, *give, *take)
    state.see(b, *give, *take)
    if "TRADE" not in actions_taken(state):  # the first exchange makes it an action
        record_action(state, "TRADE")
    state.turn["trade_exchanges"] = state.turn.get("trade_exchanges", 0) + 1
    line = say("trade_done_private", a=state.colours[a], b=state.colours[b], gives=gives_label(give),
               takes=gives_label(take))
    ctx.log("trade_done", private={a: line, b: line}, a=state.colours[a], b=state.colours[b], given=len(give),
            taken=len(take))


@view_part
def _offer_view(state: GameState, seat: str | None) -> dict[str, Any]:
    """The offer under discussion: in full to its two parties (the partner was shown the cards), else who with whom."""
    offer = state.turn.get("trade_offer")
    if not offer:
        return {}
    if seat in (offer["from"], offer["to"]):
        shown = {"from": offer["from"], "to": offer["to"], "give": list(offer["give"]), "ask": offer["ask"]}
        if seat == offer["to"] and "take" in offer:
            shown["take"] = list(offer["take"])
        return {"trade_offer": shown}
    return {"trade_offer": {"from": offer["from"], "to": offer["to"]}}


register_action(ActionKind("TRADE", order=70, allowed=_allowed, start=_start, counts=False))
