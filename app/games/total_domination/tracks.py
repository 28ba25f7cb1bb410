"""The USA and China tracks (spec §9): a marker moves by Lend-Lease or by an Axis Invasion, and at
the track's last space its country joins the Allies at once."""

from __future__ import annotations

from app.games.total_domination.engine import Ctx
from app.games.total_domination.pack import JOINS, pack


def joined(state_tracks: dict[str, int], nation: str) -> bool:
    return state_tracks.get(nation, 0) >= pack().tracks[nation]


def advance(ctx: Ctx, nation: str, cause: str) -> str | None:
    """Move ``nation``'s marker one space right. ``cause`` "lend_lease": the card on top of the
    country's deck is returned for the Allied power to set aside; "invasion": it is shuffled into
    the main deck and nobody gets it (spec §9.3). An empty deck still moves the marker (gap G7)."""
    state = ctx.state
    if state.controller.get(nation) != "nonaligned" or state.options.get("scenario") == "rise_of_the_axis":
        return None
    state.tracks[nation] = state.tracks.get(nation, 0) + 1
    deck = state.decks.get(nation, [])
    card = deck.pop(0) if deck else None
    ctx.log("track_advances", nation=nation, cause=cause, position=state.tracks[nation],
            last=pack().tracks[nation])
    if card is not None and cause == "invasion":
        state.deck.insert(ctx.rng.randrange(len(state.deck) + 1), card)
        card = None
    if joined(state.tracks, nation):
        state.controller[nation] = JOINS[nation]
        ctx.log("nation_joins", nation=nation, power=JOINS[nation])
    return card
