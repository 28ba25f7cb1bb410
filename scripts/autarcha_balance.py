#!/usr/bin/env python
"""Autarcha bot balance (issue 14). Not a test: it prints figures.

Plays N seeded bot-vs-bot games (game i: seed SEED + i), both sides run by the heuristic bot
(app/games/autarcha/bot.py), the scenarios in turn (or one, with --scenario), and prints how often each
side wins (white, the south; red, the north), how often the side that won the start roll wins, the draws
(the 200-turn guard), the turns and answers a game takes and the CPU it costs.

    nice -n 10 .venv/bin/python scripts/autarcha_balance.py --games 2000 --jobs 2
    nice -n 10 .venv/bin/python scripts/autarcha_balance.py --games 200 --scenario skirmish

Every game is determined by its seed (deployment, dice and the bot's choices), so a figure is reproducible
on any machine with the same engine, data pack and bot.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.autarcha.pack import SCENARIOS  # noqa: E402
from app.games.autarcha.rules import GAME  # noqa: E402
from app.games.protocol import action_rng  # noqa: E402

# seed, scenario, winner ("white", "red" or "" for a draw), the starter, turns, answers, CPU seconds
Result = tuple[int, str, str, str, int, int, float]


def play(job: tuple[int, str]) -> Result:
    cpu0 = time.process_time()
    seed, scenario = job
    options = {"scenario": scenario}
    st = GAME.setup(options, GAME.roles(2, options), random.Random(seed))
    bot_rng = random.Random(seed * 7919)
    key = f"autarcha-balance{seed}".encode()
    limit = GAME.max_actions(2, options)
    n = 0
    for n in range(limit):  # noqa: B007
        if st.outcome is not None:
            break
        d = next(x for x in GAME.pending(st) if not x.optional)
        GAME.apply(st, d.seat, GAME.bot(st, d, bot_rng), action_rng(key, st.step))
    else:
        raise RuntimeError(f"game {seed} ({scenario}) did not end in {limit} answers")
    winners = list((st.outcome or {}).get("winners", []))
    return seed, scenario, winners[0] if len(winners) == 1 else "", st.first or "", st.turn, n, \
        time.process_time() - cpu0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scenario", choices=SCENARIOS, help="one scenario only (default: each in turn)")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    jobs = [(args.seed + i, args.scenario or SCENARIOS[(args.seed + i) % len(SCENARIOS)]) for i in range(args.games)]
    t0 = time.time()
    with multiprocessing.Pool(args.jobs) as pool:
        results = pool.map(play, jobs, chunksize=4)
    wall = time.time() - t0
    print(f"Autarcha balance: {len(results)} bot-vs-bot games from seed {args.seed} in {wall:.0f} s "
          f"({args.jobs} job(s))")

    def shares(rows: list[Result], title: str) -> None:
        n = len(rows)
        won = Counter(r[2] for r in rows)
        decisive = n - won[""]
        starter = sum(1 for r in rows if r[2] and r[2] == r[3])
        print(f"{title:>14}: {n:5} games  white {100 * won['white'] / n:5.1f} %  red {100 * won['red'] / n:5.1f} %"
              f"  draws {100 * won[''] / n:5.1f} %  | of decisive: white "
              f"{100 * won['white'] / max(decisive, 1):5.1f} %, the starter {100 * starter / max(decisive, 1):5.1f} %"
              f"  | turns {sum(r[4] for r in rows) / n:5.1f}, answers {sum(r[5] for r in rows) / n:6.0f}"
              f", CPU {sum(r[6] for r in rows) / n:5.2f} s a game")

    shares(results, "all")
    for scenario in SCENARIOS:
        rows = [r for r in results if r[1] == scenario]
        if rows:
            shares(rows, scenario)


if __name__ == "__main__":
    main()
