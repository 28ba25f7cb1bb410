"""How long Total Domination takes to list a power's Action Phase plays (every registered play:
operations, techs, events, rockets, Lend-Lease...), the question every turn asks, on states from
seeded random games. Prints µs per call; no assertion (speed figures live here, not in tests).

    .venv/bin/python scripts/bench_td_events.py [games] [calls]
"""

from __future__ import annotations

import random
import sys
import time

from app.games.protocol import random_bot
from app.games.total_domination import GAME
from app.games.total_domination.flow import PLAYS, turn_choices
from app.games.total_domination.state import GameState


def action_states(games: int) -> list[tuple[GameState, str]]:
    """A copy of the state at every "your turn" question of ``games`` seeded 4-player games."""
    out: list[tuple[GameState, str]] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = GAME.setup({"bombers": True, "uboats": True}, GAME.roles(4, {}), rng)
        for _ in range(4000):
            if GAME.outcome(state) is not None:
                break
            decision = GAME.pending(state)[0]
            if decision.kind == "turn" and state.active:
                out.append((GAME.load(GAME.dump(state)), state.active))
            GAME.apply(state, decision.seat, random_bot(decision, rng), random.Random(rng.random()))
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    states = action_states(games)
    print(f"{len(states)} turn questions from {games} seeded 4-player games")
    picks = [states[i % len(states)] for i in range(calls)]
    t0 = time.perf_counter()
    for state, power in picks:
        turn_choices(state, power)
    print(f"turn_choices (all plays): {(time.perf_counter() - t0) / calls * 1e6:8.1f} µs per call")
    for kind, play in PLAYS.items():
        t0 = time.perf_counter()
        for state, power in picks:
            play.choices(state, power)
        print(f"  {kind:10s} {(time.perf_counter() - t0) / calls * 1e6:8.1f} µs per call")


if __name__ == "__main__":
    main()
