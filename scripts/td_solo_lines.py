"""Total Domination: compute the solo cards' space-selection lines from the board's geometry.

A solo card shows four numbered arrows (spec §15.5). Laid with the active Axis country's symbol on
its board edge, each arrow is a straight line from that edge across the board; the automa takes the
first suitable space the line crosses. The book has no board, so the lines are computed here from the
``xy`` of data/board.yaml and each card's ``arrows`` in data/solo.yaml, then written back into
solo.yaml as ``lines`` (the pack reads only the lists, never the geometry).

An arrow is ``[t, angle]`` in the card's own frame: ``t`` (0..1) is where it leaves the edge, counted
from the edge's UK-side end for the German orientation; ``angle`` (degrees) turns it from the inward
normal toward increasing ``t``. The German edge is x = 1000; for Japan the card is turned half round,
so the Japanese lines are the German ones turned 180 degrees about the pole (x = 0 is Japan's edge).
A space is crossed when its centre lies within BAND of the line, ahead of the edge; nearest first.

    python scripts/td_solo_lines.py          # rewrite data/solo.yaml's lines
    python scripts/td_solo_lines.py --check  # exit 1 if the file's lines are stale
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

import yaml

DATA = Path(__file__).resolve().parents[1] / "app" / "games" / "total_domination" / "data"
BAND = 55.0  # half the width of the strip a line sweeps: about one space's radius
SIZE = 1000.0

HEADER = """# Total Domination: the 18 solo cards of the Axis automa (spec §15, src §13.0).
# The book prints no card (spec §18.4): every card is reconstructed. Years: 10 of 1939 and 2 each of
# 1940-1943, so two 1939 cards can leave in each of 1940-1943 and the 1943 deck still deals 9.
# Each Axis part: actions resolved left to right ([verb, unit]) and the unit priority. `arrows` are the
# four space-selection arrows as [t, angle] (scripts/td_solo_lines.py explains the frame); `lines` are
# COMPUTED from them and the board's xy by that script - edit the arrows, then rerun it, never the lines.
# Lines list every space the line crosses, Arctic spaces included: a rule skips spaces not in play
# (pack.line_on). solo-01 is the rulebook's worked example (spec §16.5): Germany moves an army, builds
# an army, destroys an army; its German arrow 1 meets the Balkans first, then Romania, then Poland.
"""


def ray(orient: str, t: float, angle: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where the arrow starts and its unit direction, on the board, for that orientation."""
    a = math.radians(angle)
    # German frame: edge x = SIZE, t runs from the UK end (y = SIZE) up; inward normal (-1, 0), tangent (0, -1)
    start = (SIZE, SIZE * (1 - t))
    d = (-math.cos(a), -math.sin(a))
    if orient == "japan":
        start = (SIZE - start[0], SIZE - start[1])
        d = (-d[0], -d[1])
    return start, d


def crossed(spaces: dict[str, tuple[float, float]], start: tuple[float, float], d: tuple[float, float]) -> list[str]:
    hits: list[tuple[float, str]] = []
    for sid, (x, y) in spaces.items():
        rx, ry = x - start[0], y - start[1]
        along = rx * d[0] + ry * d[1]
        off = abs(rx * d[1] - ry * d[0])
        if along >= 0 and off <= BAND:
            hits.append((along, sid))
    return [sid for _, sid in sorted(hits)]


def lines_for(spaces: dict[str, tuple[float, float]], arrows: list[list[float]]) -> dict[str, list[list[str]]]:
    return {orient: [crossed(spaces, *ray(orient, t, angle)) for t, angle in arrows] for orient in ("germany", "japan")}


def board_xy(data: Path = DATA) -> dict[str, tuple[float, float]]:
    doc = yaml.safe_load((data / "board.yaml").read_text(encoding="utf-8"))
    return {s["id"]: (float(s["xy"][0]), float(s["xy"][1])) for s in doc["spaces"]}


def render(doc: dict[str, Any]) -> str:
    lines = [HEADER.rstrip("\n"), f"source: {doc.get('source', 'reconstructed')}", "cards:"]
    for c in doc["cards"]:
        lines.append(f"  - id: {c['id']}")
        lines.append(f"    number: {c['number']}")
        lines.append(f"    year: {c['year']}")
        for power in ("germany", "japan"):
            acts = ", ".join(f"[{v}, {u}]" for v, u in c[power]["actions"])
            lines.append(f"    {power}: {{actions: [{acts}], units: [{', '.join(c[power]['units'])}]}}")
        lines.append(f"    arrows: [{', '.join(f'[{t}, {a}]' for t, a in c['arrows'])}]")
        lines.append("    lines:")
        for orient in ("germany", "japan"):
            lines.append(f"      {orient}:")
            lines += [f"        - [{', '.join(line)}]" for line in c["lines"][orient]]
        lines.append(f"    source: {c.get('source', 'reconstructed')}")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="only report whether solo.yaml's lines are current")
    args = ap.parse_args()
    path = DATA / "solo.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    xy = board_xy()
    for c in doc["cards"]:
        c["lines"] = lines_for(xy, c["arrows"])
        empty = [(o, n + 1) for o, ls in c["lines"].items() for n, line in enumerate(ls) if not line]
        if empty:
            print(f"{c['id']}: arrows crossing no space: {empty}", file=sys.stderr)
    text = render(doc)
    if args.check:
        stale = text != path.read_text(encoding="utf-8")
        print("solo.yaml lines are stale: rerun scripts/td_solo_lines.py" if stale else "solo.yaml lines are current")
        return 1 if stale else 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path} ({len(doc['cards'])} cards)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
