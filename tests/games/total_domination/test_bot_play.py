"""The heuristic bot over real seeded games (the authored pack): its answers are legal and
deterministic whatever the rng, and blind to every card its seat may not see."""

from __future__ import annotations

import random

from app.games.total_domination import bot
from app.games.total_domination.rules import GAME
from app.games.total_domination.state import GameState, dump, load


def seeded_game(seed: int, players: int) -> GameState:
    return GAME.setup({}, GAME.roles(players, {}), random.Random(seed))


def scramble_hidden(st: GameState, seat: str, rng: random.Random) -> GameState:
    """The same public table with every card ``seat`` cannot see dealt anew: other hands and
    reserves, the draw pile, others' face-down techs and draft packets (sizes kept)."""
    other = load(dump(st))
    mine = {other.hand_of[p] for p in other.powers_of(seat) if p in other.hand_of}
    pools: list[list[str]] = [other.deck]
    pools += [h for hid, h in other.hands.items() if hid not in mine]
    pools += [h for hid, h in other.set_aside.items() if hid not in mine]
    unseen = [c for pool in pools for c in pool]
    rng.shuffle(unseen)
    for pool in pools:
        n = len(pool)
        pool[:] = unseen[:n]
        del unseen[:n]
    return other


def test_the_bot_never_reads_what_its_seat_cannot_see() -> None:
    rng = random.Random(5)
    for seed, players in ((3, 4), (4, 2)):
        st = seeded_game(seed, players)
        for _ in range(400):
            if st.outcome is not None:
                break
            d = GAME.pending(st)[0]
            a = GAME.bot(st, d, random.Random(1))
            if d.kind in ("turn", "operation", "reserve", "draft_pick", "tactics_target", "logistics"):
                blind = scramble_hidden(st, d.seat, rng)
                assert bot.choose(blind, d, random.Random(1)).choices == a.choices, (seed, d.kind)
            GAME.apply(st, d.seat, a, random.Random(st.step))


def test_the_bot_is_deterministic_whatever_the_rng() -> None:
    st = seeded_game(11, 3)
    for _ in range(300):
        if st.outcome is not None:
            break
        d = GAME.pending(st)[0]
        a = GAME.bot(st, d, random.Random(1))
        assert GAME.bot(st, d, random.Random(99)).choices == a.choices
        assert set(a.choices) <= set(d.choice_ids()) and d.min <= len(a.choices) <= d.max
        GAME.apply(st, d.seat, a, random.Random(st.step))
