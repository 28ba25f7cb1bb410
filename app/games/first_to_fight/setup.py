"""Setup (spec §3): everything dealt at random before anyone answers anything.

The steps that ask the players (keeping 3 or 4 red missions, or the advanced draft) are tasks of
their own module, registered with ``flow.setup_step``."""

from __future__ import annotations

import random
from collections import Counter

from app.games.first_to_fight.pack import ORDERS, REGIONS, pack
from app.games.first_to_fight.state import GameState

DEALT_RED = 4  # §3 step 6
SAME_FORMATION_LIMIT = 4  # §3 step 4: 4 or 5 of the 5 first soldiers of one formation: deal again
MAX_DEALS = 1000  # the reshuffle loop's guard: a deck that can never pass is a broken pack


def deal(state: GameState, rng: random.Random) -> None:
    data = pack()
    state.tiles = {o: {"active": True, "vp": 0} for o in ORDERS}
    state.domination = {r: data.regions[r].start for r in REGIONS}
    _deal_soldiers(state, rng)
    red = sorted(m for m, card in data.missions.items() if card.stage == 1)
    yellow = sorted(m for m, card in data.missions.items() if card.stage == 2)
    rng.shuffle(red)
    rng.shuffle(yellow)
    for seat in state.seats:
        state.hands[seat] = [red.pop(0) for _ in range(min(DEALT_RED, len(red)))]
        state.vp[seat], state.nurses[seat] = 0, 0
        state.succeeded[seat], state.failed[seat], state.discarded[seat] = [], [], []
        state.stage2_received[seat] = 0
        state.started_four[seat] = False
    state.stage1_deck, state.stage2_deck = red, yellow
    events = sorted(data.events)
    rng.shuffle(events)
    state.event_deck = events
    state.time = 0
    state.starter = state.chooser = rng.choice(state.seats)


def _deal_soldiers(state: GameState, rng: random.Random) -> None:
    """§3 step 4: one soldier from the top of the deck into each region; if 4 or 5 of them share a
    formation, they go back, the whole deck is shuffled and they are dealt again."""
    data = pack()
    deck = sorted(data.soldiers)
    for _ in range(MAX_DEALS):
        rng.shuffle(deck)
        first = deck[:len(REGIONS)]
        if max(Counter(data.soldiers[s].formation for s in first).values()) < SAME_FORMATION_LIMIT:
            break
    else:
        raise ValueError("the soldier deck never deals five soldiers without four of one formation")
    for region, soldier in zip(REGIONS, first, strict=True):
        card = data.soldiers[soldier]
        state.soldiers[soldier] = {"region": region, "s": card.strength, "u": card.underground,
                                   "trained": False, "wounds": 0}
    state.soldier_deck = deck[len(REGIONS):]
