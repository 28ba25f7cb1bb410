#!/usr/bin/env python
"""Speed of Total Domination's operation steps on the real board: how long listing one
"operation" decision's choices takes (every build, move, attack and removal the OP left pay).

Not a test. Plays seeded random games of the full game (4 players, bombers and U-boats on),
always choosing an Operations card on a turn, and times ``operation_choices`` at every operation
decision met; prints the count, the mean, the 95th percentile and the worst, and the mean number
of choices offered.

    .venv/bin/python scripts/bench_td_ops.py --games 6
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.protocol import Action  # noqa: E402
from app.games.total_domination import GAME, engine  # noqa: E402
from app.games.total_domination.operations import operation_choices  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    times: list[float] = []
    sizes: list[int] = []
    for g in range(args.games):
        rng = random.Random(args.seed + g)
        opts = {"bombers": True, "uboats": True}
        st = GAME.setup(opts, GAME.roles(4, opts), random.Random(args.seed + g))
        for _ in range(5000):
            pending = engine.decisions(st)
            if not pending:
                break
            d = pending[0]
            ids = [c.id for c in d.choices]
            if d.kind == "operation":
                power = st.turn["ops"]["power"]
                t0 = time.perf_counter()
                sizes.append(len(operation_choices(st, power)))
                times.append(time.perf_counter() - t0)
            pick = rng.choice([c for c in ids if c.startswith("ops:")] or ids) if d.kind == "turn" else rng.choice(ids)
            chosen = (pick,) if d.max >= 1 else ()
            GAME.apply(st, d.seat, Action(decision=d.id, choices=chosen[: max(d.min, 1)]), rng)
    if not times:
        print("no operation decision met")
        return
    ms = sorted(t * 1000 for t in times)
    print(f"{len(ms)} operation decisions in {args.games} games: mean {statistics.mean(ms):.2f} ms, "
          f"p95 {ms[int(0.95 * (len(ms) - 1))]:.2f} ms, worst {ms[-1]:.2f} ms; "
          f"{statistics.mean(sizes):.0f} choices on average (max {max(sizes)})")


if __name__ == "__main__":
    main()
