#!/usr/bin/env python
"""First to Fight bot balance (issue 13). Not a test: it prints figures.

Plays N seeded bot-vs-bot games (game i: seed SEED + i, the table options at their defaults unless
--vary), every seat run by the heuristic bot (app/games/first_to_fight/bot.py), and prints the win share
of each seat POSITION (1st = the random starting player of round 1, then clockwise; a shared win counts
as a fraction), the scores, missions won and failed, the rounds played and the bot's CPU per 100 answers.
With --random S, the seats in positions S (e.g. "2,4") are played by the random bot instead: how often
the heuristic bot beats it.

    nice -n 10 .venv/bin/python scripts/ftf_balance.py --games 2000 --players 4 --jobs 2
    nice -n 10 .venv/bin/python scripts/ftf_balance.py --games 200 --players 2,3 --vary
    nice -n 10 .venv/bin/python scripts/ftf_balance.py --games 200 --random 2,4

Every game is determined by its seed (deal, dice, starting player and the bot's choices), so a figure is
reproducible on any machine with the same engine, data pack and bot.
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

from app.games.first_to_fight.rules import GAME  # noqa: E402
from app.games.protocol import action_rng, random_bot  # noqa: E402

MAX_DECISIONS = 20_000


def varied_options(seed: int) -> dict[str, Any]:
    r = random.Random(seed * 31)
    return {"draft": r.random() < 0.5, "events": r.random() < 0.5}


# seed, players, win share by position, score by position, successes, failures, kept four, rounds,
# decisions, CPU of the game, CPU in the bot, randomly played positions, the bot's slowest answer
Result = tuple[int, int, dict[int, float], dict[int, int], int, int, int, int, int, float, float, tuple[int, ...],
               float]


def play(job: tuple[int, int, bool, tuple[int, ...]]) -> Result:
    cpu0 = time.process_time()
    seed, players, vary, random_positions = job
    options = varied_options(seed) if vary else {}
    st = GAME.setup(options, GAME.roles(players, options), random.Random(seed))
    position = {s: i for i, s in enumerate(st.clockwise(st.starter))}
    randoms = {s for s, i in position.items() if i in random_positions}
    bot_rng = random.Random(seed * 7919)
    key = f"ftf-balance{seed}".encode()
    in_bot = slowest = 0.0
    n = 0
    for n in range(MAX_DECISIONS):  # noqa: B007
        if st.outcome is not None:
            break
        d = next(x for x in GAME.pending(st) if not x.optional)
        t = time.process_time()
        action = random_bot(d, bot_rng) if d.seat in randoms else GAME.bot(st, d, bot_rng)
        took = time.process_time() - t
        in_bot += took
        slowest = max(slowest, took)
        GAME.apply(st, d.seat, action, action_rng(key, st.step))
    else:
        raise RuntimeError(f"game {seed} ({players} players) did not end in {MAX_DECISIONS} decisions")
    o = st.outcome or {}
    winners = list(o.get("winners", []))
    share = {position[w]: 1.0 / len(winners) for w in winners}
    scores = {position[s]: int(v) for s, v in (o.get("scores") or {}).items()}
    wins = sum(len(v) for v in st.succeeded.values())
    fails = sum(len(v) for v in st.failed.values())
    four = sum(1 for v in st.started_four.values() if v)
    return (seed, players, share, scores, wins, fails, four, st.round, n, time.process_time() - cpu0, in_bot,
            tuple(sorted(random_positions)), slowest)


def report(results: list[Result], seconds: float) -> None:
    by: dict[int, list[Result]] = defaultdict(list)
    for r in results:
        by[r[1]].append(r)
    for players, rs in sorted(by.items()):
        wins: Counter[int] = Counter()
        score: Counter[int] = Counter()
        for r in rs:
            for pos, s in r[2].items():
                wins[pos] += s  # type: ignore[assignment]
            for pos, v in r[3].items():
                score[pos] += v
        n = len(rs)
        print(f"\n== {players} players: {n} games")
        if rs[0][11]:
            print(f"  positions played by the random bot: {', '.join(str(p + 1) for p in rs[0][11])}")
        print("  win share by position: " + "  ".join(f"{p + 1}: {100 * wins[p] / n:5.1f} %"
                                                     for p in range(players)))
        print(f"  highest seat share: {100 * max(wins[p] for p in range(players)) / n:.1f} %")
        print("  mean score by position: " + "  ".join(f"{p + 1}: {score[p] / n:5.1f}" for p in range(players)))
        print(f"  missions a game: {sum(r[4] for r in rs) / n:.1f} won, {sum(r[5] for r in rs) / n:.1f} failed; "
              f"seats keeping four red: {sum(r[6] for r in rs) / n:.2f} a game")
        print(f"  rounds a game: {sum(r[7] for r in rs) / n:.1f}, decisions a game: {sum(r[8] for r in rs) / n:.0f}")
        cpu = sum(r[9] for r in rs)
        bot = sum(r[10] for r in rs)
        dec = sum(r[8] for r in rs)
        print(f"  CPU a game: {1000 * cpu / n:.0f} ms, of it the bot {1000 * bot / n:.0f} ms "
              f"({1000 * bot / max(1, dec) * 100:.1f} ms per 100 answers; the slowest answer "
              f"{1000 * max(r[12] for r in rs):.1f} ms)")
    print(f"\n  {len(results)} games in {seconds:.1f} s wall")


def progress(results: list[Result], seconds: float) -> None:
    """A running tally (a long run read before it ends): games so far and the win share by position."""
    wins: Counter[int] = Counter()
    for r in results:
        for pos, s in r[2].items():
            wins[pos] += s  # type: ignore[assignment]
    n = len(results)
    print(f"  ... {n} games, {seconds:.0f} s: " + "  ".join(f"{p + 1}: {100 * wins[p] / n:.1f} %"
                                                         for p in sorted(wins)), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--players", default="4", help="player counts, e.g. 2,4 (default 4)")
    ap.add_argument("--vary", action="store_true", help="spread the games over the table's options")
    ap.add_argument("--random", default="", help="positions (1 = the starting player) the random bot plays")
    ap.add_argument("--progress", type=int, default=0, help="print a running tally every N games")
    args = ap.parse_args()
    counts = tuple(int(p) for p in args.players.split(",") if p)
    randoms = tuple(int(p) - 1 for p in args.random.split(",") if p)
    jobs = [(args.seed + i, counts[i % len(counts)], args.vary, randoms) for i in range(args.games)]
    t0 = time.perf_counter()
    results: list[Result] = []
    with multiprocessing.Pool(max(1, args.jobs)) as pool:
        for r in pool.imap(play, jobs, chunksize=4):
            results.append(r)
            if args.progress and len(results) % args.progress == 0:
                progress(results, time.perf_counter() - t0)
    report(results, time.perf_counter() - t0)


if __name__ == "__main__":
    main()
