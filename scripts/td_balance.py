#!/usr/bin/env python
"""Total Domination bot balance (issue 11). Not a test: it prints figures.

Plays N seeded bot-vs-bot games of the full game (game i: seed FIRST + i, players 2 + i % 3,
table options at their defaults unless --vary), every seat run by the heuristic bot
(app/games/total_domination/bot.py), and prints the Axis / Allies win share per seating and
overall, how the games ended (Axis 29, Allied threshold, 1945...), the mean final VP and games/s.
Solo games (the automa's Axis against the bot as the Allies) are played and reported apart.

    nice -n 10 .venv/bin/python scripts/td_balance.py                     # 2,000 games + 200 solo
    nice -n 10 .venv/bin/python scripts/td_balance.py -n 300 --solo 0 --jobs 2
    nice -n 10 .venv/bin/python scripts/td_balance.py -n 300 --players 4 --vary

Every game is determined by its seed (deal, randomness of the rules and the bot's own choices),
so a figure is reproducible on any machine with the same engine, data pack and bot.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.protocol import action_rng  # noqa: E402
from app.games.total_domination import derived  # noqa: E402
from app.games.total_domination.rules import GAME  # noqa: E402

MAX_DECISIONS = 20_000
PLAYER_COUNTS = (2, 3, 4)


def varied_options(seed: int, players: int) -> dict[str, Any]:
    """A seeded spread over the table's options (board sides, advanced rules, scenarios, hands)."""
    r = random.Random(seed * 31 + players)
    opts: dict[str, Any] = {
        "board": r.choice(("basic", "alternative")),
        "setup": r.choice(("standard", "alternative")),
        "bombers": r.random() < 0.5,
        "uboats": r.random() < 0.5,
        "arctic": r.random() < 0.5,
        "scenario": r.choice(("full", "full", "rise_of_the_axis", "fall_of_the_axis")),
    }
    if players == 2:
        opts["two_player"] = r.choice(("shared", "separate"))
    if players == 3:
        opts["pair"] = r.choice(("allies", "axis"))
    return opts


Result = tuple[int, int, str, str, int, int, int, int, float, float]


def play(job: tuple[int, int, bool]) -> Result:
    """One game: (seed, players, winning side, how it ended, last year, Axis VP, Allies VP, decisions,
    CPU seconds of the game, CPU seconds of them the bot took)."""
    cpu0 = time.process_time()
    in_bot = 0.0
    seed, players, vary = job
    options = varied_options(seed, players) if vary else {}
    st = GAME.setup(options, GAME.roles(players, options), random.Random(seed))
    bot_rng = random.Random(seed * 7919)
    key = f"td-balance{seed}".encode()
    n = 0
    for n in range(MAX_DECISIONS):  # noqa: B007
        if st.outcome is not None:
            break
        d = GAME.pending(st)[0]
        t = time.process_time()
        action = GAME.bot(st, d, bot_rng)
        in_bot += time.process_time() - t
        GAME.apply(st, d.seat, action, action_rng(key, st.step))
    else:
        raise RuntimeError(f"game {seed} ({players} players) did not end in {MAX_DECISIONS} decisions")
    o = st.outcome or {}
    totals = derived.side_totals(st)
    how = str((o.get("summary_msg") or {}).get("id", "?")).removeprefix("outcome_")
    return (seed, players, str(o.get("side")), how, st.year, totals["axis"], totals["allies"], n,
            time.process_time() - cpu0, in_bot)


def report(title: str, results: list[Result], seconds: float) -> None:
    by: dict[int, Counter[str]] = defaultdict(Counter)
    ends: Counter[str] = Counter()
    years: Counter[int] = Counter()
    vp: dict[str, list[int]] = {"axis": [], "allies": []}
    cpu: dict[int, list[float]] = defaultdict(list)
    bot_cpu: dict[int, list[float]] = defaultdict(list)
    for _, players, side, how, year, axis, allies, _n, game_cpu, in_bot in results:
        cpu[players].append(game_cpu)
        bot_cpu[players].append(in_bot)
        by[players][side] += 1
        ends[how] += 1
        years[year] += 1
        vp["axis"].append(axis)
        vp["allies"].append(allies)
    total = len(results)
    print(f"\n== {title}: {total} games")
    allc: Counter[str] = Counter()
    for players in sorted(by):
        c = by[players]
        allc.update(c)
        n = sum(c.values())
        print(f"  {players} player(s): {n:5d} games  Axis {100 * c['axis'] / n:5.1f} %  "
              f"Allies {100 * c['allies'] / n:5.1f} %  draws {100 * c['None'] / n:4.1f} %")
    if total:
        print(f"  overall:     {total:5d} games  Axis {100 * allc['axis'] / total:5.1f} %  "
              f"Allies {100 * allc['allies'] / total:5.1f} %")
        print("  ended by:    " + ", ".join(f"{k} {100 * v / total:.1f} %" for k, v in ends.most_common()))
        print("  final year:  " + ", ".join(f"{y}: {years[y]}" for y in sorted(years)))
        print(f"  mean VP:     Axis {sum(vp['axis']) / total:.1f}  Allies {sum(vp['allies']) / total:.1f}")
        decisions = sum(r[7] for r in results)
        print(f"  speed:       {total / seconds:.1f} games/s, {decisions / total:.0f} decisions a game "
              f"({seconds:.1f} s wall)")
        for players in sorted(cpu):
            c, b = cpu[players], bot_cpu[players]
            print(f"  CPU a game:  {players} player(s) {1000 * sum(c) / len(c):.0f} ms (max {1000 * max(c):.0f} ms), "
                  f"of it the bot {1000 * sum(b) / len(b):.0f} ms")


def run(jobs: list[tuple[int, int, bool]], workers: int) -> tuple[list[Result], float]:
    t0 = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(play, jobs, chunksize=8)
    else:
        results = [play(j) for j in jobs]
    return results, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--games", type=int, default=2000)
    ap.add_argument("--solo", type=int, default=200, help="solo games, reported apart (default 200)")
    ap.add_argument("--first", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--players", default="", help="only these player counts, e.g. 2,4 (default 2,3,4)")
    ap.add_argument("--vary", action="store_true", help="spread the games over the table's options")
    args = ap.parse_args()
    counts = tuple(int(p) for p in args.players.split(",") if p) or PLAYER_COUNTS
    jobs = [(args.first + i, counts[i % len(counts)], args.vary) for i in range(args.games)]
    if jobs:
        results, seconds = run(jobs, args.jobs)
        report("bot vs bot" + (" (options varied)" if args.vary else " (default options)"), results, seconds)
    if args.solo:
        solo = [(args.first + i, 1, args.vary) for i in range(args.solo)]
        results, seconds = run(solo, args.jobs)
        report("solo: the automa vs the bot as the Allies", results, seconds)


if __name__ == "__main__":
    main()
