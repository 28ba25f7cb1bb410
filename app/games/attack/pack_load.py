"""Reads the YAML data pack into ``pack.Pack`` (the only reader of ``data/``).

PLACEHOLDER by the lead: the DATA part replaces this with the full loader and ``audit()`` (every
§23 fact checked; a broken pack refused)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from app.games.attack.pack import Colour, EconCard, Lane, Map, Pack, Region, SeaZone


def _yaml(path: Path) -> Any:
    with path.open(encoding="utf-8") as f:
        return yaml.safe_load(f)


def load_pack(data_dir: Path) -> Pack:
    m = _yaml(data_dir / "map.yaml")
    regions = [Region(id=r["id"], name=r["name"], name_pl=r["name_pl"], continent=r["continent"],
                      lon=float(r["lon"]), lat=float(r["lat"]),
                      outline=tuple((float(x), float(y)) for x, y in r.get("outline", ())),
                      source=r.get("source", "reconstructed")) for r in m["regions"]]
    lanes = [Lane(a=x["a"], b=x["b"], source=x.get("source", "reconstructed")) for x in m.get("lanes", ())]
    zones = [SeaZone(id=z["id"], name=z["name"], name_pl=z["name_pl"], anchored=bool(z["anchored"]),
                     borders=tuple(z["borders"]), zones=tuple(z.get("zones", ())), lon=float(z.get("lon", 0)),
                     lat=float(z.get("lat", 0)), source=z.get("source", "reconstructed")) for z in m.get("zones", ())]
    geo = Map.build("west", regions, [tuple(p) for p in m["land"]], lanes, zones)
    e = _yaml(data_dir / "economics.yaml")
    econ = {c["id"]: EconCard(id=c["id"], type=c["type"], value=int(c["value"]),
                              defenders=tuple(sorted((t, int(n)) for t, n in c["defenders"].items())),
                              name=c["name"], name_pl=c["name_pl"], source=c.get("source", "reconstructed"))
            for c in e["cards"]}
    d = _yaml(data_dir / "dice.yaml")
    c = _yaml(data_dir / "colours.yaml")
    colours = tuple(Colour(id=x["id"], name=x["name"], name_pl=x["name_pl"], hex=x["hex"],
                           source=x.get("source", "reconstructed")) for x in c["colours"])
    return Pack(map=geo, econ=econ, die_faces=tuple(d["faces"]), colours=colours, navy_limit=d.get("navy_limit"))
