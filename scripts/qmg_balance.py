#!/usr/bin/env python
"""QMG bot balance (issue 8 §1). Not a test: it prints figures.

Plays N seeded bot-vs-bot games of Quartermaster General, spread evenly over 2..6 players
(game i: seed FIRST + i, players 2 + i % 5, table options at their defaults), and prints the
Axis / Allies win share per player count and overall, how the games ended, and games/s.

    nice -n 10 .venv/bin/python scripts/qmg_balance.py                  # 2,000 games
    nice -n 10 .venv/bin/python scripts/qmg_balance.py -n 400 --jobs 2
    nice -n 10 .venv/bin/python scripts/qmg_balance.py -n 200 --players 3,5

Every game is determined by its seed (deal, dice and the bot's own choices), so a figure is
reproducible on any machine with the same engine and bot.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.protocol import action_rng  # noqa: E402
from app.games.qmg import GAME  # noqa: E402

MAX_DECISIONS = 20_000
PLAYER_COUNTS = (2, 3, 4, 5, 6)


def play(job: tuple[int, int]) -> tuple[int, int, str, int, bool, int, int]:
    """One game: (seed, players, winning team, last round, instant win, Axis VP, Allies VP)."""
    seed, players = job
    st = GAME.setup({}, GAME.roles(players, {}), random.Random(seed))
    bot_rng = random.Random(seed * 7919)
    key = f"balance{seed}".encode()
    for _ in range(MAX_DECISIONS):
        if st.outcome is not None:
            break
        d = GAME.pending(st)[0]  # any-time removals come last; bots never need them
        GAME.apply(st, d.seat, GAME.bot(st, d, bot_rng), action_rng(key, st.step))
    else:
        raise RuntimeError(f"game {seed} did not end in {MAX_DECISIONS} decisions")
    o = st.outcome
    return seed, players, o["team"], st.round, "lead" in o["summary"], st.vp["axis"], st.vp["allies"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--games", type=int, default=2000)
    ap.add_argument("--first", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--players", default="", help="only these player counts, e.g. 2,4 (default all)")
    args = ap.parse_args()
    counts = tuple(int(p) for p in args.players.split(",") if p) or PLAYER_COUNTS
    jobs = [(args.first + i, counts[i % len(counts)]) for i in range(args.games)]

    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(play, jobs, chunksize=8)
    else:
        results = [play(j) for j in jobs]
    took = time.perf_counter() - start

    by: dict[int | str, Counter[str]] = defaultdict(Counter)
    rounds: dict[int | str, list[int]] = defaultdict(list)
    margin: dict[int | str, list[int]] = defaultdict(list)
    for _seed, players, team, last, instant, ax, al in results:
        for k in (players, "all"):
            by[k][team] += 1
            by[k]["instant"] += instant
            rounds[k].append(last)
            margin[k].append(ax - al)
    print(f"QMG bot balance: {len(results)} games, seeds {args.first}..{args.first + args.games - 1}, "
          f"engine {GAME.version}")
    print(f"{'players':>7} {'games':>6} {'Axis %':>7} {'Allies %':>8} {'lead wins %':>11} "
          f"{'avg round':>9} {'avg Axis-Allies VP':>18}")
    for k in (*counts, "all"):
        c = by[k]
        n = c["axis"] + c["allies"]
        if not n:
            continue
        print(f"{k!s:>7} {n:>6} {100 * c['axis'] / n:>7.1f} {100 * c['allies'] / n:>8.1f} "
              f"{100 * c['instant'] / n:>11.1f} {sum(rounds[k]) / n:>9.1f} {sum(margin[k]) / n:>18.1f}")
    print(f"{len(results) / took:.2f} games/s ({took:.1f} s, {args.jobs} job(s))")


if __name__ == "__main__":
    main()
