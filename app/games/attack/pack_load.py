"""Reads the YAML data pack (``data/``) into ``pack.Pack`` and audits it; the only reader of ``data/``.

Two layers. ``load_pack`` reads each file strictly: a file that is missing, not YAML, or an item
without a required field or with a field of the wrong kind is refused at once (``ValueError``
naming the file and the item), so nothing half-built reaches the rules. What can still be read but
is wrong (an unknown key, a duplicate id or link) is kept as a finding in ``Pack.problems``.
``audit`` then checks the built pack against the facts of spec §23 and the rules that use it (the
map symmetric, connected and complete, the deck able to make the A-20.3 example, names safe as
secrets...). ``load_pack`` refuses a pack with any finding unless told not to, so a pack edited by
hand cannot quietly break a rule.

The land links are kept as written (``Map.land`` is not made symmetric here, unlike
``Map.build``), so that the audit can see a link written on one side only.
"""

from __future__ import annotations

import math
import re
from collections import deque
from itertools import combinations
from pathlib import Path
from typing import Any

from app.games.attack.pack import (
    CONTINENTS,
    ECON_TYPES,
    LAND_TYPES,
    NAVY_TYPES,
    SET_TYPES,
    START_CARDS,
    START_NAVY,
    START_REGIONS,
    Colour,
    EconCard,
    Lane,
    Map,
    Pack,
    Region,
    SeaZone,
)
from app.games.pack_audit import Audit, YamlFile

MAP_KEY = "west"
MAX_SEATS = 6  # six colours, six sprues
BLANK = "BLANK"
FACES = 6
VALUES = range(1, 5)  # an Economics card's value (A-17.4; issue 12: values 1-4)
MAX_DEFENDERS = 10  # a neutral region's listed defenders: more would make a card a fortress
ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
CARD_ID_RE = re.compile(r"^ec-\d+$")
HEX_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
# where each continent lies on the board (lon, lat boxes): catches a region put on the wrong continent
# or a centre with lon and lat swapped
BOXES: dict[str, tuple[float, float, float, float]] = {
    "north_america": (-170, -30, 5, 85),
    "south_america": (-85, -30, -56, 13),
    "africa": (-20, 52, -36, 38),
    "eurasia": (-25, 70, 12, 82),
}
# facts the rulebook states about the board (spec §23.1): checked by ``book_facts``
MAX_LINK = 25.0  # degrees between the centres of two land neighbours: farther, they cannot touch
BLACK_SEA_COAST: tuple[str, ...] = ("ukraine", "romania", "bulgaria", "turkey", "caucasus")


class _File(YamlFile):
    """One YAML file being read: every complaint names the file and the item."""

    def items(self, key: str, required: bool = True) -> list[dict[str, Any]]:
        got = self.doc.get(key)
        if got is None and not required:
            return []
        if not isinstance(got, list) or not all(isinstance(x, dict) for x in got):
            raise ValueError(f"{self.name}: '{key}' must be a list of mappings")
        return got

    def field(self, item: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str,
              default: Any = ...) -> Any:
        if key not in item:
            if default is ...:
                raise ValueError(f"{self.name}: {where}: '{key}' is missing")
            return default
        value = item[key]
        if isinstance(value, bool) and kind is not bool and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise ValueError(f"{self.name}: {where}: '{key}' must be {kind}, not {value!r}")
        if not isinstance(value, kind):
            raise ValueError(f"{self.name}: {where}: '{key}' must be {kind}, not {value!r}")
        return value

    def names(self, item: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = self.field(item, key, list, where, [])
        if not all(isinstance(x, str) for x in value):
            raise ValueError(f"{self.name}: {where}: '{key}' must be a list of ids")
        dups = sorted({x for x in value if value.count(x) > 1})
        if dups:
            self.problems.append(f"{self.name}: {where}: '{key}' lists {', '.join(dups)} twice")
        return tuple(value)


    def unique(self, items: list[dict[str, Any]], what: str) -> None:
        ids = [str(x.get("id")) for x in items]
        dups = sorted({i for i in ids if ids.count(i) > 1})
        if dups:
            self.problems.append(f"{self.name}: duplicate {what} ids {dups}")


NUM = (int, float)
REGION_KEYS = {"id", "name", "name_pl", "continent", "lon", "lat", "land", "outline", "source"}
LANE_KEYS = {"a", "b", "source"}
ZONE_KEYS = {"id", "name", "name_pl", "anchored", "borders", "zones", "lon", "lat", "source"}
CARD_KEYS = {"id", "type", "value", "defenders", "name", "name_pl", "source"}
COLOUR_KEYS = {"id", "name", "name_pl", "hex", "source"}


def _read_map(f: _File) -> Map:
    regions: dict[str, Region] = {}
    land: dict[str, frozenset[str]] = {}
    items = f.items("regions")
    f.unique(items, "region")
    for i, r in enumerate(items):
        where = f"region {r.get('id', f'#{i + 1}')}"
        f.known(r, REGION_KEYS, where)
        outline = f.field(r, "outline", list, where, [])
        if not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, NUM) for x in p) for p in outline):
            raise ValueError(f"{f.name}: {where}: 'outline' must be a list of [lon, lat] points")
        region = Region(id=f.field(r, "id", str, where), name=f.field(r, "name", str, where),
                        name_pl=f.field(r, "name_pl", str, where), continent=f.field(r, "continent", str, where),
                        lon=float(f.field(r, "lon", NUM, where)), lat=float(f.field(r, "lat", NUM, where)),
                        outline=tuple((float(x), float(y)) for x, y in outline),
                        source=f.field(r, "source", str, where, ""))
        regions[region.id] = region
        land[region.id] = frozenset(f.names(r, "land", where))
    lanes = []
    for i, x in enumerate(f.items("lanes", required=False)):
        where = f"lane #{i + 1} ({x.get('a')}-{x.get('b')})"
        f.known(x, LANE_KEYS, where)
        lanes.append(Lane(a=f.field(x, "a", str, where), b=f.field(x, "b", str, where),
                          source=f.field(x, "source", str, where, "")))
    zones: dict[str, SeaZone] = {}
    items = f.items("zones", required=False)
    f.unique(items, "zone")
    for i, z in enumerate(items):
        where = f"zone {z.get('id', f'#{i + 1}')}"
        f.known(z, ZONE_KEYS, where)
        zone = SeaZone(id=f.field(z, "id", str, where), name=f.field(z, "name", str, where),
                       name_pl=f.field(z, "name_pl", str, where), anchored=f.field(z, "anchored", bool, where),
                       borders=f.names(z, "borders", where), zones=f.names(z, "zones", where),
                       lon=float(f.field(z, "lon", NUM, where, 0.0)), lat=float(f.field(z, "lat", NUM, where, 0.0)),
                       source=f.field(z, "source", str, where, ""))
        zones[zone.id] = zone
    # the sea moves as Map.build makes them, leaving out ids that do not resolve (the audit names them)
    sea: dict[str, set[str]] = {r: set() for r in regions}
    for lane in lanes:
        if lane.a in sea and lane.b in sea and lane.a != lane.b:
            sea[lane.a].add(lane.b)
            sea[lane.b].add(lane.a)
    for z in zones.values():
        if z.anchored:
            coast = [r for r in z.borders if r in sea]
            for a in coast:
                sea[a].update(b for b in coast if b != a)
    return Map(key=MAP_KEY, regions=regions, land=land, lanes=tuple(lanes), zones=zones,
               sea={r: frozenset(v) for r, v in sea.items()})


def _read_econ(f: _File) -> dict[str, EconCard]:
    econ: dict[str, EconCard] = {}
    items = f.items("cards")
    f.unique(items, "card")
    for i, c in enumerate(items):
        where = f"card {c.get('id', f'#{i + 1}')}"
        f.known(c, CARD_KEYS, where)
        defenders = f.field(c, "defenders", dict, where)
        if not all(isinstance(k, str) and isinstance(n, int) and not isinstance(n, bool) for k, n in defenders.items()):
            raise ValueError(f"{f.name}: {where}: 'defenders' must map unit types to counts")
        card = EconCard(id=f.field(c, "id", str, where), type=f.field(c, "type", str, where),
                        value=f.field(c, "value", int, where),
                        defenders=tuple(sorted(defenders.items(), key=lambda kv: _type_order(kv[0]))),
                        name=f.field(c, "name", str, where), name_pl=f.field(c, "name_pl", str, where),
                        source=f.field(c, "source", str, where, ""))
        econ[card.id] = card
    return econ


def _type_order(t: str) -> int:
    return LAND_TYPES.index(t) if t in LAND_TYPES else len(LAND_TYPES)


def load_pack(data_dir: Path, check: bool = True) -> Pack:
    """The pack in ``data_dir``; refused (``ValueError`` listing every finding) if its audit finds anything."""
    problems: list[str] = []
    geo = _read_map(_File(data_dir, "map.yaml", problems))
    econ = _read_econ(_File(data_dir, "economics.yaml", problems))
    d = _File(data_dir, "dice.yaml", problems)
    d.known(d.doc, {"faces", "source", "navy_limit"}, "dice")
    faces = d.field(d.doc, "faces", list, "dice")
    if not d.doc.get("source"):
        problems.append("dice.yaml: the die has no source")
    navy_limit = d.field(d.doc, "navy_limit", (dict, type(None)), "dice", None)
    c = _File(data_dir, "colours.yaml", problems)
    items = c.items("colours")
    c.unique(items, "colour")
    colours = []
    for i, x in enumerate(items):
        where = f"colour {x.get('id', f'#{i + 1}')}"
        c.known(x, COLOUR_KEYS, where)
        colours.append(Colour(id=c.field(x, "id", str, where), name=c.field(x, "name", str, where),
                              name_pl=c.field(x, "name_pl", str, where), hex=c.field(x, "hex", str, where),
                              source=c.field(x, "source", str, where, "")))
    p = Pack(map=geo, econ=econ, die_faces=tuple(str(x) for x in faces), colours=tuple(colours),
             navy_limit=navy_limit, problems=tuple(problems))
    found = audit(p)
    if found and check:
        raise ValueError(f"the Attack! data pack in {data_dir} is refused:\n  " + "\n  ".join(found))
    return p


# ---------------------------------------------------------------------------------------------- audit

AUDIT = Audit()
CHECKS = AUDIT.checks
check = AUDIT.check


def audit(p: Pack) -> list[str]:
    """Every finding, each prefixed by the name of the check that made it (empty: the pack is sound)."""
    return AUDIT(p)


def _named(p: Pack) -> list[tuple[str, str, str, str]]:
    """(kind, id, name, name_pl) of everything that has a name: all catalogue terms (text.py)."""
    m = p.map
    return [*(("region", r.id, r.name, r.name_pl) for r in m.regions.values()),
            *(("zone", z.id, z.name, z.name_pl) for z in m.zones.values()),
            *(("card", c.id, c.name, c.name_pl) for c in p.econ.values()),
            *(("colour", c.id, c.name, c.name_pl) for c in p.colours)]


@check
def ids(p: Pack) -> list[str]:
    out = []
    named = _named(p)
    for kind, i, _, _ in named:
        if kind != "card" and not ID_RE.match(i):
            out.append(f"{kind} id {i!r} is not lower_snake_case")
    seen: dict[str, str] = {}
    for kind, i, _, _ in named:
        if i in seen and seen[i] != kind:  # one id space: they are all catalogue terms
            out.append(f"{i!r} is both a {seen[i]} id and a {kind} id")
        seen.setdefault(i, kind)
    cards = list(p.econ)
    out += [f"card id {c!r} is not ec-<number>" for c in cards if not CARD_ID_RE.match(c)]
    if len({len(c) for c in cards}) > 1:  # one width: no id is a prefix of another (secrets are matched as text)
        out.append(f"card ids of several widths: {sorted({len(c) for c in cards})}")
    return out


@check
def sources(p: Pack) -> list[str]:
    m = p.map
    items: list[tuple[str, str]] = [
        *((f"region {r.id}", r.source) for r in m.regions.values()),
        *((f"zone {z.id}", z.source) for z in m.zones.values()),
        *((f"lane {x.a}-{x.b}", x.source) for x in m.lanes),
        *((f"card {c.id}", c.source) for c in p.econ.values()),
        *((f"colour {c.id}", c.source) for c in p.colours)]
    return [f"{what} has no source" for what, src in items if not src.strip()]


@check
def land_symmetric(p: Pack) -> list[str]:
    land = p.map.land
    return [f"{a} lists {b} as a land neighbour but {b} does not list {a}"
            for a in sorted(land) for b in sorted(land[a]) if b in land and a not in land[b]]


@check
def ids_resolve(p: Pack) -> list[str]:
    m = p.map
    out = [f"region {a}: unknown land neighbour {b!r}" for a in sorted(m.land) for b in sorted(m.land[a])
           if b not in m.regions]
    out += [f"lane {x.a}-{x.b}: unknown region {r!r}" for x in m.lanes for r in (x.a, x.b) if r not in m.regions]
    for z in m.zones.values():
        out += [f"zone {z.id}: unknown bordering region {r!r}" for r in z.borders if r not in m.regions]
        out += [f"zone {z.id}: unknown adjacent zone {y!r}" for y in z.zones if y not in m.zones]
    return out


@check
def links(p: Pack) -> list[str]:
    """No self-link, no link twice, no lane that adds nothing (a land link or an anchored zone already joins)."""
    m = p.map
    out = [f"region {a} is its own land neighbour" for a in sorted(m.land) if a in m.land[a]]
    anchored: set[frozenset[str]] = set()
    for z in m.zones.values():
        if z.anchored:
            anchored.update(frozenset(pair) for pair in combinations(set(z.borders), 2))
    seen: set[frozenset[str]] = set()
    for x in m.lanes:
        pair = frozenset((x.a, x.b))
        if x.a == x.b:
            out.append(f"lane {x.a}-{x.b} joins a region to itself")
        elif pair in seen:
            out.append(f"lane {x.a}-{x.b} is written twice")
        elif x.b in m.land.get(x.a, ()):
            out.append(f"lane {x.a}-{x.b} joins land neighbours")
        elif pair in anchored:
            out.append(f"lane {x.a}-{x.b} joins two coasts of one anchored zone (already one sea move)")
        seen.add(pair)
    for z in m.zones.values():
        if z.id in z.zones:
            out.append(f"zone {z.id} is adjacent to itself")
        out += [f"zone {z.id} lists zone {y} but {y} does not list {z.id}" for y in z.zones
                if y in m.zones and z.id not in m.zones[y].zones]
    return out


@check
def anchored_zones(p: Pack) -> list[str]:
    return [f"anchored zone {z.id} has {len(set(z.borders))} bordering regions (an anchor joins at least two)"
            for z in p.map.zones.values() if z.anchored and len(set(z.borders)) < 2]


@check
def reachable(p: Pack) -> list[str]:
    """Every region can be reached from every other by land and sea moves (else a seat could be walled off)."""
    m = p.map
    if not m.regions:
        return ["the map has no regions"]
    start = min(m.regions)
    seen, todo = {start}, deque([start])
    while todo:
        r = todo.popleft()
        for n in (*m.land.get(r, ()), *m.sea.get(r, ())):
            if n in m.regions and n not in seen:
                seen.add(n)
                todo.append(n)
    return [f"region {r} cannot be reached from {start}" for r in sorted(set(m.regions) - seen)]


@check
def continents(p: Pack) -> list[str]:
    m = p.map
    out = [f"region {r.id}: unknown continent {r.continent!r}" for r in m.regions.values()
           if r.continent not in CONTINENTS]
    for c in CONTINENTS:  # six players may each need one region on every continent
        n = sum(r.continent == c for r in m.regions.values())
        if n < MAX_SEATS:
            out.append(f"continent {c} has {n} regions: six players need one each (A-4.4)")
    if len(m.regions) < MAX_SEATS * START_REGIONS:
        out.append(f"{len(m.regions)} regions: six players claim {START_REGIONS} each (A-4.3)")
    return out


@check
def geography(p: Pack) -> list[str]:
    out = []
    for r in p.map.regions.values():
        box = BOXES.get(r.continent)
        if box and not (box[0] <= r.lon <= box[1] and box[2] <= r.lat <= box[3]):
            out.append(f"region {r.id} at lon {r.lon}, lat {r.lat} is not on {r.continent}")
        out += [f"region {r.id}: outline point {pt} is off the globe" for pt in r.outline
                if not (-180 <= pt[0] <= 180 and -90 <= pt[1] <= 90)]
        if r.outline and (len(r.outline) < 3 or not _inside(r.lon, r.lat, r.outline)):
            out.append(f"region {r.id}: its centre lon {r.lon}, lat {r.lat} is outside its outline")
    m = p.map
    for a in sorted(m.land):
        for b in sorted(m.land[a]):
            if a < b and b in m.regions and a in m.regions and _distance(m.regions[a], m.regions[b]) > MAX_LINK:
                out.append(f"land neighbours {a} and {b} are {_distance(m.regions[a], m.regions[b]):.0f} degrees apart")
    for z in p.map.zones.values():
        if not (-180 <= z.lon <= 180 and -90 <= z.lat <= 90):
            out.append(f"zone {z.id} at lon {z.lon}, lat {z.lat} is off the globe")
    return out


def _distance(a: Region, b: Region) -> float:
    """Degrees between two centres on a flat map, the longitude shrunk by the latitude's cosine."""
    return math.hypot((a.lon - b.lon) * math.cos(math.radians((a.lat + b.lat) / 2)), a.lat - b.lat)


def _inside(x: float, y: float, polygon: tuple[tuple[float, float], ...]) -> bool:
    """Ray casting: is the point inside the polygon (where the map draws the region's units)?"""
    inside = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


@check
def die(p: Pack) -> list[str]:
    out = []
    if len(p.die_faces) != FACES:
        out.append(f"the battle die has {len(p.die_faces)} faces, not {FACES}")
    out += [f"unknown die face {f!r}" for f in p.die_faces if f not in (*LAND_TYPES, BLANK)]
    out += [f"no die face shows {t}: a {t} could never hit" for t in LAND_TYPES if t not in p.die_faces]
    return out


@check
def econ_cards(p: Pack) -> list[str]:
    out = []
    for c in p.econ.values():
        if c.type not in ECON_TYPES:
            out.append(f"card {c.id}: unknown type {c.type!r}")
        if c.value not in VALUES:
            out.append(f"card {c.id}: value {c.value} is not 1-4")
        out += [f"card {c.id}: unknown defender type {t!r}" for t, _ in c.defenders if t not in LAND_TYPES]
        out += [f"card {c.id}: {n} {t} defenders" for t, n in c.defenders if n < 0]
        total = sum(n for _, n in c.defenders)
        if not 1 <= total <= MAX_DEFENDERS:  # a neutral region always has someone to beat
            out.append(f"card {c.id}: {total} defenders (1-{MAX_DEFENDERS})")
    return out


@check
def deck(p: Pack) -> list[str]:
    out = []
    cards = p.econ.values()
    # every region is gained once from neutral at most before it changes hands between players,
    # and the starting hands stand for the claimed regions: the deck must cover every region
    if len(p.econ) < len(p.map.regions):
        out.append(f"{len(p.econ)} cards for {len(p.map.regions)} regions (A-17.1: one card per region gained)")
    if len(p.econ) < MAX_SEATS * START_CARDS:
        out.append(f"{len(p.econ)} cards cannot deal {START_CARDS} to six players (A-4.1)")
    for t in ECON_TYPES:
        n = sum(c.type == t for c in cards)
        if t in SET_TYPES and n < MAX_SEATS:  # six players can each hold a set
            out.append(f"{n} {t} cards: sets out of reach for six players")
        elif n == 0:
            out.append(f"no {t} card")
    if not example_a20_3(p):
        out.append("no four set cards worth 9 and other cards worth 9: A-20.3's example cannot be dealt")
    return out


def example_a20_3(p: Pack) -> tuple[list[str], list[str]] | None:
    """A hand for the rulebook's production example (A-20.3): a set whose four values sum to 9, and
    Population cards (never in a set) worth 9. ``None`` if the deck cannot make it."""
    by_type = {t: sorted((c for c in p.econ.values() if c.type == t), key=lambda c: (c.value, c.id))
               for t in SET_TYPES}
    if not all(by_type.values()):
        return None
    for oil in by_type["OIL"]:
        for mn in by_type["MIN"]:
            for fac in by_type["FAC"]:
                for rail in by_type["RAIL"]:
                    the_set = [oil, mn, fac, rail]
                    if sum(c.value for c in the_set) != 9:
                        continue
                    others = _worth(sorted((c for c in p.econ.values() if c.type == "POP"),
                                           key=lambda c: (-c.value, c.id)), 9)
                    if others is not None:
                        return [c.id for c in the_set], [c.id for c in others]
    return None


def _worth(cards: list[EconCard], target: int) -> list[EconCard] | None:
    """Some of ``cards`` whose values sum to ``target`` (Population only: they never form a set)."""
    if target == 0:
        return []
    for i, c in enumerate(cards):
        if c.value <= target:
            rest = _worth(cards[i + 1:], target - c.value)
            if rest is not None:
                return [c, *rest]
    return None


@check
def names(p: Pack) -> list[str]:
    """Names unique; no card name inside another name or another name inside it (a hand's card is a
    secret matched as text, spec §25.2: a region or zone name must not look like one)."""
    out = []
    named = _named(p)
    for lang, idx in (("en", 2), ("pl", 3)):
        seen: dict[str, str] = {}
        for item in named:
            name = item[idx].strip()
            if not name:
                out.append(f"{item[0]} {item[1]} has no {lang} name")
                continue
            if name.casefold() in seen:
                out.append(f"{item[0]} {item[1]}: {lang} name {name!r} is also {seen[name.casefold()]}'s")
            seen.setdefault(name.casefold(), item[1])
    texts = [(item[1], item[idx].casefold()) for item in named for idx in (2, 3) if item[idx].strip()]
    for kind, cid, en, pl in named:
        if kind != "card":
            continue
        for mine in {en.casefold(), pl.casefold()}:
            for other, text in texts:
                if other == cid or not mine:
                    continue
                if mine in text:
                    out.append(f"card {cid}'s name {mine!r} is inside {other}'s name {text!r}")
                elif text in mine:
                    out.append(f"card {cid}'s name {mine!r} contains {other}'s name {text!r}")
    return out


@check
def colours(p: Pack) -> list[str]:
    out = []
    if len(p.colours) != MAX_SEATS:
        out.append(f"{len(p.colours)} colours, not {MAX_SEATS} (A-2: six sprues)")
    out += [f"colour {c.id}: hex {c.hex!r} is not #rrggbb" for c in p.colours if not HEX_RE.match(c.hex)]
    return out


@check
def navy(p: Pack) -> list[str]:
    if p.navy_limit is None:  # spec §24: no limit while the deck's size is unknown
        return []
    out = [f"navy_limit: unknown type {t!r}" for t in p.navy_limit if t not in NAVY_TYPES]
    for t in NAVY_TYPES:
        need = MAX_SEATS * START_NAVY.get(t, 0)  # §23.4: the starting fleets of six players
        if not isinstance(p.navy_limit.get(t), int) or p.navy_limit[t] < need:
            out.append(f"navy_limit: {t} {p.navy_limit.get(t)!r}, six starting fleets need {need}")
    return out


@check
def book_facts(p: Pack) -> list[str]:
    """What the rulebook says of the board (spec §23.1): its named places, as it names them."""
    m = p.map
    out = []
    ukraine = m.regions.get("ukraine")
    if ukraine is None or ukraine.name != "Ukraine" or ukraine.name_pl != "Ukraina":
        out.append("LAND-EX-1's Ukraine (Ukraina) is missing")
    elif ukraine.continent != "eurasia" or len(m.land.get("ukraine", ())) < 2:
        out.append("Ukraine must be a Eurasian region with land neighbours")
    north_sea = m.zones.get("north_sea")
    if north_sea is None or not north_sea.anchored:
        out.append("the North Sea Zone must be anchored (A-7.3.3's example)")
    med = m.zones.get("mediterranean")
    if med is None:
        out.append("the Mediterranean Sea Zone is missing")
    else:
        out += [f"{r} is on the Black Sea, part of the Mediterranean Sea Zone (A-3.2.5)"
                for r in BLACK_SEA_COAST if r not in med.borders]
    carib = m.zones.get("caribbean")
    if carib is None or "panama" not in carib.borders or "panama" not in m.regions:
        out.append("Panama must border the Caribbean Sea Zone (A-3.2.5)")
    if "north_atlantic" not in m.zones:
        out.append("the North Atlantic (the centre of the board, A-3.2.6) is missing")
    if "rio_de_la_plata" not in m.regions:
        out.append("Buenos Aires' region (Rio de la Plata) is missing")
    return out
