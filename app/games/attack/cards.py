"""The Economics cards as they move: drawn from the deck, taken from a hand, put back (spec §17).

Every move of a hidden card goes through here, so the log always says it the same way: publicly
"draws an Economics card", and the card itself only to the seats that may see it."""

from __future__ import annotations

from app.games.attack.engine import Ctx
from app.games.attack.text import say


def draw(ctx: Ctx, seat: str) -> str | None:
    """``seat`` draws the top card of the deck (None: the deck is empty)."""
    state = ctx.state
    if not state.deck:
        ctx.log("deck_empty", seat=state.colours[seat])
        return None
    card = state.deck.pop(0)
    state.hands.setdefault(seat, []).append(card)
    ctx.log("card_drawn", private={seat: say("card_drawn_private", seat=state.colours[seat], card=card)},
            seat=state.colours[seat])
    return card


def take_random(ctx: Ctx, taker: str, loser: str) -> str | None:
    """``taker`` draws one card blind from ``loser``'s shuffled hand (A-17.2 item 2); only the two see it."""
    state = ctx.state
    hand = state.hands.get(loser, [])
    if not hand:
        ctx.log("no_card_to_take", seat=state.colours[taker], loser=state.colours[loser])
        return None
    card = ctx.rng.choice(hand)  # not randrange(): a die is randrange(6), and scripted dice must stay dice
    hand.remove(card)
    state.hands.setdefault(taker, []).append(card)
    state.see(taker, card)
    state.see(loser, card)
    line = say("card_taken_private", seat=state.colours[taker], loser=state.colours[loser], card=card)
    ctx.log("card_taken", private={taker: line, loser: line}, seat=state.colours[taker], loser=state.colours[loser])
    return card


def shuffle_back(ctx: Ctx, card: str) -> None:
    """A card goes back into the deck, which is shuffled (A-16.5)."""
    state = ctx.state
    state.deck.append(card)
    ctx.rng.shuffle(state.deck)
    ctx.log("card_shuffled_back", card=card)
