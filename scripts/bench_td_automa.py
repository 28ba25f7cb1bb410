#!/usr/bin/env python
"""Speed of the solo automa's turn (Total Domination, spec §15) on the real board.

Not a test. From a seeded solo setup, every solo card is dealt and the automa plays them all,
Germany and Japan in turn, again and again from the same start; prints milliseconds per turn
(a turn: reveal, every action with its legality queries, the consequences, the log).

    .venv/bin/python scripts/bench_td_automa.py --rounds 30
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.total_domination import GAME, engine  # noqa: E402
from app.games.total_domination.engine import Ctx  # noqa: E402
from app.games.total_domination.pack import pack  # noqa: E402
from app.games.total_domination.state import dump, load  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30, help="plays of the whole solo deck")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = GAME.setup({}, GAME.roles(1, {}), random.Random(args.seed))
    start.stack = []
    frozen = dump(start)
    cards = sorted(pack().solo)
    turns, began = 0, time.perf_counter()
    for r in range(args.rounds):
        state = load(copy.deepcopy(frozen))
        state.solo["dealt"] = list(cards)
        ctx = Ctx(state, random.Random(r))
        for i in range(len(cards)):
            ctx.push({"k": "automa_turn", "power": "germany" if i % 2 == 0 else "japan"})
            engine.run(ctx)
            turns += 1
    took = time.perf_counter() - began
    print(f"{turns} automa turns in {took:.2f} s: {1000 * took / turns:.2f} ms per turn")


if __name__ == "__main__":
    main()
