"""Redraws the ``outline:`` of every region in Attack!'s ``data/map.yaml`` from Natural Earth.

Not part of the game or its tests: a tool for whoever edits the map. It needs two things the
project does not install, fetched by hand into a scratch folder:

    python3 -m venv /tmp/geo && /tmp/geo/bin/pip install shapely pyyaml
    (cd /tmp && npm install world-atlas@2)          # Natural Earth 1:50m, public domain
    /tmp/geo/bin/python scripts/attack_outlines.py /tmp/node_modules/world-atlas/countries-50m.json

A region is the modern countries listed for it in ``COUNTRIES``; a country shared by several
regions is cut between them by the nearest region centre, an island part going whole to the
nearest region. ``MOVES`` restores the 1935 frontiers of eastern Europe roughly. A region keeps
its main landmass only (one polygon), with narrow straits inside it closed. Every other line of
map.yaml is left as it is; the audit (``pack_load``) then checks each centre lies in its outline.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import yaml
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union, voronoi_diagram

MAP = Path(__file__).resolve().parents[1] / "app" / "games" / "attack" / "data" / "map.yaml"
BOARD = box(-170, -60, 70, 84)  # the western half of the world
SIMPLIFY = 0.25  # degrees
STRAIT = 0.2  # degrees: gaps narrower than twice this inside one region are closed
COUNTRIES: dict[str, list[str]] = {
    "United States of America": ["alaska", "western_usa", "central_usa", "eastern_usa", "southern_usa", "florida"],
    "Canada": ["northwest_territories", "western_canada", "manitoba", "ontario", "quebec", "maritimes",
               "newfoundland"],
    "Greenland": ["greenland"], "Mexico": ["mexico"],
    **{c: ["central_america"] for c in ("Guatemala", "Belize", "Honduras", "El Salvador", "Nicaragua", "Costa Rica")},
    "Panama": ["panama"], "Cuba": ["cuba"], "Haiti": ["hispaniola"], "Dominican Rep.": ["hispaniola"],
    "Colombia": ["colombia"], "Venezuela": ["venezuela"], "Guyana": ["guianas"], "Suriname": ["guianas"],
    "Ecuador": ["ecuador"], "Peru": ["peru"], "Bolivia": ["bolivia"], "Paraguay": ["paraguay"],
    "Uruguay": ["uruguay"], "Chile": ["chile"], "Brazil": ["amazonia", "brazil"],
    "Argentina": ["rio_de_la_plata", "patagonia"],
    "Morocco": ["morocco"], "W. Sahara": ["spanish_sahara"], "Algeria": ["algeria"], "Tunisia": ["tunisia"],
    "Libya": ["libya"], "Egypt": ["egypt"], "Sudan": ["sudan"], "S. Sudan": ["sudan"],
    **{c: ["ethiopia"] for c in ("Ethiopia", "Eritrea", "Somalia", "Somaliland", "Djibouti")},
    **{c: ["senegal"] for c in ("Senegal", "Gambia", "Guinea-Bissau", "Guinea", "Mauritania")},
    **{c: ["french_west_africa"] for c in ("Mali", "Niger", "Burkina Faso")},
    "Liberia": ["liberia"], "Sierra Leone": ["liberia"],
    **{c: ["gold_coast"] for c in ("Ghana", "Côte d'Ivoire", "Togo", "Benin")},
    "Nigeria": ["nigeria"],
    **{c: ["french_equatorial_africa"] for c in ("Chad", "Central African Rep.", "Cameroon", "Congo", "Gabon",
                                                  "Eq. Guinea")},
    **{c: ["belgian_congo"] for c in ("Dem. Rep. Congo", "Rwanda", "Burundi")},
    "Kenya": ["kenya"], "Uganda": ["kenya"], "Tanzania": ["tanganyika"], "Angola": ["angola"],
    **{c: ["rhodesia"] for c in ("Zambia", "Zimbabwe", "Malawi")},
    "Mozambique": ["mozambique"], "Namibia": ["south_west_africa"],
    **{c: ["south_africa"] for c in ("South Africa", "Lesotho", "eSwatini", "Botswana")},
    "Madagascar": ["madagascar"],
    "Iceland": ["iceland"], "Ireland": ["ireland"], "United Kingdom": ["britain", "ireland"],
    "Norway": ["norway"], "Sweden": ["sweden"], "Finland": ["finland"], "Denmark": ["denmark"],
    **{c: ["low_countries"] for c in ("Netherlands", "Belgium", "Luxembourg")},
    "France": ["france", "guianas"], "Spain": ["spain"], "Portugal": ["portugal"], "Germany": ["germany"],
    "Poland": ["poland"], "Czechia": ["czechoslovakia"], "Slovakia": ["czechoslovakia"], "Austria": ["austria"],
    "Hungary": ["hungary"], "Italy": ["italy"],
    **{c: ["yugoslavia"] for c in ("Slovenia", "Croatia", "Bosnia and Herz.", "Serbia", "Montenegro", "Kosovo",
                                    "Macedonia")},
    "Albania": ["greece"], "Greece": ["greece"], "Romania": ["romania"], "Moldova": ["romania"],
    "Bulgaria": ["bulgaria"],
    **{c: ["baltic_states"] for c in ("Estonia", "Latvia", "Lithuania")},
    "Belarus": ["belorussia"], "Ukraine": ["ukraine"],
    "Russia": ["leningrad", "moscow", "archangel", "volga", "urals", "caucasus", "germany"],
    **{c: ["caucasus"] for c in ("Georgia", "Armenia", "Azerbaijan")},
    "Turkey": ["turkey"], "Syria": ["syria"], "Lebanon": ["syria"],
    **{c: ["palestine"] for c in ("Israel", "Palestine", "Jordan")},
    "Iraq": ["iraq"], "Iran": ["persia"],
    **{c: ["arabia"] for c in ("Saudi Arabia", "Yemen", "Oman", "United Arab Emirates", "Qatar", "Kuwait")},
}
CLIPS: dict[str, BaseGeometry] = {"Russia": box(0, 40, 70, 84)}  # Chukotka wraps round to the west
# 1935, not today: Ruthenia Czechoslovak; Galicia, Volhynia and western Belorussia Polish; northern
# Bukovina Romanian (rough boxes, enough for a board)
MOVES: list[tuple[str, BaseGeometry, str]] = [
    ("Ukraine", box(22, 47.7, 24.6, 48.75), "czechoslovakia"),
    ("Ukraine", box(22, 48.75, 26.6, 52.5), "poland"),
    ("Ukraine", box(24.6, 47.7, 27.3, 48.75), "romania"),
    ("Belarus", box(23, 51, 27.0, 56), "poland"),
]


def countries(topo: dict[str, Any]) -> dict[str, BaseGeometry]:
    """The TopoJSON's countries as shapely shapes, by name."""
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:  # delta-encoded, quantised
            x, y = x + dx, y + dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)

    def ring(indices: list[int]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for i in indices:
            points = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(points if not out else points[1:])
        return out

    shapes = {}
    for g in topo["objects"]["countries"]["geometries"]:
        polygons = [g["arcs"]] if g["type"] == "Polygon" else g["arcs"] if g["type"] == "MultiPolygon" else []
        parts = [Polygon(ring(p[0]), [ring(r) for r in p[1:]]).buffer(0) for p in polygons]
        if parts:
            shapes[g["properties"]["name"]] = unary_union(parts)
    return shapes


def pieces(g: BaseGeometry) -> list[Polygon]:
    if isinstance(g, MultiPolygon):
        return list(g.geoms)
    return [g] if isinstance(g, Polygon) and not g.is_empty else []


Points = list[tuple[float, float]]


def outlines(shapes: dict[str, BaseGeometry], centre: dict[str, tuple[float, float]]) -> dict[str, Points]:
    got: dict[str, list[BaseGeometry]] = {r: [] for r in centre}
    for country, area, region in MOVES:
        got[region].append(shapes[country].intersection(area))
        shapes[country] = shapes[country].difference(area)
    for country, regions in COUNTRIES.items():
        g = shapes[country].intersection(CLIPS.get(country, BOARD))
        if len(regions) == 1:
            got[regions[0]].append(g)
            continue
        for part in pieces(g):
            inside = [r for r in regions if part.contains(Point(centre[r]))]
            if len(inside) == 1 or part.area < 30:
                r = inside[0] if inside else min(regions, key=lambda r: part.distance(Point(centre[r])))
                got[r].append(part)
                continue
            candidates = inside if len(inside) > 1 else regions
            seeds = unary_union([Point(centre[r]) for r in candidates])
            cells = voronoi_diagram(seeds, envelope=box(-200, -90, 100, 90))
            for cell in cells.geoms:
                r = next(r for r in candidates if cell.contains(Point(centre[r])))
                got[r].append(part.intersection(cell))
    out = {}
    for r, gs in got.items():
        main = max(pieces(unary_union(gs).buffer(STRAIT).buffer(-STRAIT)), key=lambda p: p.area)
        ring = main.simplify(SIMPLIFY, preserve_topology=True).exterior.coords[:-1]
        points = [(round(x, 1), round(y, 1)) for x, y in ring]
        out[r] = [p for i, p in enumerate(points) if p != points[i - 1]]
    return out


def main() -> None:
    topo = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    text = MAP.read_text(encoding="utf-8")
    centre = {r["id"]: (r["lon"], r["lat"]) for r in yaml.safe_load(text)["regions"]}
    drawn = outlines(countries(topo), centre)
    lines, region = [], None
    for line in text.splitlines():
        found = re.match(r"- \{id: (\w+),", line)
        region = found.group(1) if found else region
        if line.startswith("   outline: ") and region in drawn:
            line = "   outline: [" + ", ".join(f"[{x:g}, {y:g}]" for x, y in drawn[region]) + "],"
        lines.append(line)
    MAP.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(drawn)} outlines, {sum(len(v) for v in drawn.values())} points written to {MAP}")


if __name__ == "__main__":
    main()
