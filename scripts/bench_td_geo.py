#!/usr/bin/env python
"""Speed of Total Domination's derived state and legal-move queries (control, supply, VP,
destinations, attack targets, builds) on a synthetic board the size of the real one.

Not a test. The board is a seeded W x H grid of spaces (land routes along rows, sea lanes along
columns, a few arrow links), each power's home spaces in one corner band, and N units scattered
seeded over the board; prints microseconds per call, so a bot or the fuzzer knows what a full
legal-action listing costs.

    .venv/bin/python scripts/bench_td_geo.py --width 10 --height 8 --units 60
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games.total_domination import attacks, derived, movement  # noqa: E402
from app.games.total_domination import pack as td_pack  # noqa: E402
from app.games.total_domination.pack import POWERS, Board, Link, Space, register_board  # noqa: E402
from app.games.total_domination.state import GameState  # noqa: E402


def board(width: int, height: int, rng: random.Random) -> Board:
    spaces, links = [], []
    corners = {(0, 0): "germany", (width - 1, 0): "uk", (0, height - 1): "japan", (width - 1, height - 1): "ussr"}
    for x in range(width):
        for y in range(height):
            nation = None
            for (cx, cy), n in corners.items():
                if abs(cx - x) + abs(cy - y) <= 2:
                    nation = n
            capital = (x, y) in corners
            spaces.append(Space(id=f"s{x}_{y}", name="", name_pl="", shape=rng.choice(["land", "coastal", "coastal"]),
                                stars=3 if capital else rng.choice([0, 1, 1, 2]), nation=nation, capital=capital,
                                factory=nation is not None, shipyard=nation is not None and rng.random() < 0.5,
                                uboat=rng.random() < 0.03))
            if x + 1 < width:
                links.append(Link(f"s{x}_{y}", f"s{x + 1}_{y}", "land"))
            if y + 1 < height:
                links.append(Link(f"s{x}_{y}", f"s{x}_{y + 1}", "sea"))
    for _ in range(4):
        links.append(Link(f"s0_{rng.randrange(height)}", f"s{width - 1}_{rng.randrange(height)}", "arrow"))
    return Board.build("bench", spaces, links)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=10)
    ap.add_argument("--height", type=int, default=8)
    ap.add_argument("--units", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    geo = board(args.width, args.height, rng)
    register_board(geo)
    td_pack.pack = lambda: type("P", (), {"tokens": {p: {"army": 99, "fleet": 99, "bomber": 2} for p in POWERS}})()
    st = GameState(options={"players": 4, "bombers": True, "uboats": True, "scenario": "full"}, board="bench",
                   seats={p: p for p in POWERS}, seat_labels={p: p for p in POWERS}, hand_of={p: p for p in POWERS},
                   controller={"france": "uk", "italy": "germany", "usa": "nonaligned", "china": "nonaligned"})
    ids = list(geo.spaces)
    for _ in range(args.units):
        s = geo.spaces[rng.choice(ids)]
        p = rng.choice(POWERS)
        if movement.stack_room(st, s.id) < 1 or any(st.power_of(u.nation) != p for u in st.units_at(s.id)):
            continue
        st.new_unit(p, "fleet" if s.shape != "land" and rng.random() < 0.4 else "army", s.id)
    mine = [u for u in st.units if u.nation == "germany"]

    def timed(name: str, fn: Callable[[], object]) -> None:
        t = time.perf_counter()
        for _ in range(args.repeat):
            fn()
        print(f"{name:<34} {(time.perf_counter() - t) / args.repeat * 1e6:9.0f} µs")

    print(f"board {len(geo.spaces)} spaces, {len(geo.links)} links, {len(st.units)} units "
          f"({len(mine)} German)")
    timed("control_map", lambda: derived.control_map(st))
    timed("supplied_spaces(germany)", lambda: derived.supplied_spaces(st, "germany"))
    timed("vp", lambda: derived.vp(st))
    timed("destinations, every German unit", lambda: [movement.destinations(st, u) for u in mine])
    timed("attack_targets(germany)", lambda: attacks.attack_targets(st, "germany"))
    timed("build_spaces(germany)", lambda: movement.build_spaces(st, "germany"))


if __name__ == "__main__":
    main()
