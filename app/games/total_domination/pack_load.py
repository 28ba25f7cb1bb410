"""Reads the YAML files of ``data/`` into the frozen types of ``pack.py``.

Two layers of checking. ``read`` refuses a malformed pack as it reads (an unknown space id, a bad
kind, a duplicate id, an unknown key: ``ValueError`` naming the file and the item), so nothing
half-built reaches the rules. ``audit`` then runs the consistency checks of spec §18 on the built
pack (stars = starting VP, capitals, the worked examples' geography...); ``read`` raises on any
finding unless told not to, so a pack edited by hand cannot quietly break the book's facts.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import yaml

from app.games.pack_audit import Audit
from app.games.total_domination.pack import (
    AXIS,
    JOINS,
    NATIONS,
    NEUTRAL,
    NONALIGNED,
    POWERS,
    TECH_GROUPS,
    UNIT_KINDS,
    YEARS,
    AutomaPart,
    Board,
    Card,
    Event,
    Link,
    Pack,
    Placement,
    Scenario,
    SoloCard,
    Space,
    Tech,
    Year,
    side_of,
)

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: 10x faster, same result
SIDES: tuple[str, ...] = ("basic", "alternative")
BOARD_KEYS: tuple[str, ...] = ("basic", "alternative", "basic+arctic", "alternative+arctic")
SHAPES: tuple[str, ...] = ("land", "island", "coastal")
LINK_KINDS: tuple[str, ...] = ("land", "sea", "arrow")
EVENT_KINDS: tuple[str, ...] = ("tactics", "logistics", "research", "diplomacy", "peace")
ICONS: tuple[str, ...] = ("army", "fleet", "bomber", "move", "satellite", "resistance")
FLAGS: tuple[str, ...] = ("brazil", "spain", "sweden", "turkey")
DECKS: tuple[str, ...] = ("main", "usa", "china")
VERBS: tuple[str, ...] = ("build", "move", "destroy")
AUTOMA_UNITS: tuple[str, ...] = ("army", "fleet")
ORIENTATIONS: tuple[str, ...] = ("germany", "japan")
TECH_IDS: tuple[str, ...] = tuple(f"{g}{n}" for g, top in zip("ABCDE", (4, 3, 3, 2, 3), strict=True)
                                  for n in range(1, top + 1))
SCENARIOS: tuple[str, ...] = ("full", "rise_of_the_axis", "fall_of_the_axis")
# who may hold which unit kind: a unit of the wrong shape for its space is refused
SHAPES_FOR: dict[str, tuple[str, ...]] = {
    "army": ("land", "coastal"),
    "fleet": ("island", "coastal"),
    "bomber": ("land", "island", "coastal"),
    "uboat": ("island", "coastal"),  # and only on U-boat spaces
    "resistance": ("land", "coastal"),
}
STACKED: tuple[str, ...] = ("army", "fleet", "bomber")  # U-boats and Resistance do not count (spec §4.9)


class _File:
    """One YAML file being read: every complaint names the file and the item."""

    def __init__(self, data_dir: Path, name: str) -> None:
        self.name = name
        path = data_dir / name
        if not path.exists():
            raise ValueError(f"{name}: missing from {data_dir}")
        try:
            self.doc: dict[str, Any] = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) or {}
        except yaml.YAMLError as exc:
            raise ValueError(f"{name}: not valid YAML ({exc})") from exc
        if not isinstance(self.doc, dict):
            raise ValueError(f"{name}: the top level must be a mapping")
        self.need(bool(self.doc.get("source")), "the file", "has no source:")

    def need(self, ok: bool, item: str, problem: str) -> None:
        if not ok:
            raise ValueError(f"{self.name}: {item}: {problem}")

    def keys(self, raw: Any, item: str, required: Iterable[str], optional: Iterable[str] = ()) -> dict[str, Any]:
        self.need(isinstance(raw, dict), item, "must be a mapping")
        req = tuple(required)
        allowed = set(req) | set(optional)
        for k in raw:
            self.need(k in allowed, item, f"unknown key {k!r}")
        for k in req:
            self.need(k in raw, item, f"missing key {k!r}")
        return raw

    def one_of(self, value: Any, allowed: Iterable[Any], item: str, what: str) -> Any:
        opts = tuple(allowed)
        self.need(value in opts, item, f"bad {what} {value!r} (one of {', '.join(map(str, opts))})")
        return value

    def unique(self, ids: list[str], what: str) -> None:
        seen: set[str] = set()
        for i in ids:
            self.need(i not in seen, f"{what} {i!r}", "duplicate id")
            seen.add(i)


def _int(f: _File, value: Any, item: str, what: str, lo: int, hi: int) -> int:
    f.need(isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi, item,
           f"bad {what} {value!r} (an integer {lo}..{hi})")
    return int(value)


def _source(f: _File, raw: dict[str, Any], item: str) -> str:
    src = raw.get("source", "reconstructed")
    f.need(isinstance(src, str) and bool(src.strip()), item, "empty source:")
    return str(src)


# ------------------------------------------------------------------ board.yaml


def _read_board(data_dir: Path) -> tuple[list[Space], list[Link]]:
    f = _File(data_dir, "board.yaml")
    raw_spaces = f.doc.get("spaces") or []
    f.need(isinstance(raw_spaces, list) and bool(raw_spaces), "spaces", "must be a non-empty list")
    f.unique([str(s.get("id")) if isinstance(s, dict) else "?" for s in raw_spaces], "space")
    spaces: list[Space] = []
    for raw in raw_spaces:
        item = f"space {raw.get('id')!r}" if isinstance(raw, dict) else "a space"
        s = f.keys(raw, item, ("id", "name", "name_pl", "shape", "stars", "xy"),
                   ("nation", "capital", "factory", "shipyard", "uboat", "arctic", "source"))
        f.need(isinstance(s["id"], str) and s["id"].isidentifier() and s["id"].islower(), item, "id must be snake_case")
        f.one_of(s["shape"], SHAPES, item, "shape")
        if s.get("nation") is not None:
            f.one_of(s["nation"], NATIONS, item, "nation")
        xy = s["xy"]
        f.need(isinstance(xy, list) and len(xy) == 2 and all(isinstance(v, int | float) and 0 <= v <= 1000 for v in xy),
               item, f"bad xy {xy!r} (two numbers in 0..1000)")
        for flag in ("capital", "factory", "shipyard", "uboat", "arctic"):
            f.need(isinstance(s.get(flag, False), bool), item, f"{flag} must be true or false")
        spaces.append(Space(
            id=s["id"], name=str(s["name"]), name_pl=str(s["name_pl"]), shape=s["shape"],
            stars=_int(f, s["stars"], item, "stars", 0, 3), nation=s.get("nation"),
            capital=s.get("capital", False), factory=s.get("factory", False), shipyard=s.get("shipyard", False),
            uboat=s.get("uboat", False), arctic=s.get("arctic", False), xy=(float(xy[0]), float(xy[1])),
            source=_source(f, s, item),
        ))
    by_id = {s.id: s for s in spaces}
    links: list[Link] = []
    seen: set[tuple[str, str, str]] = set()
    for raw in f.doc.get("links") or []:
        item = f"link {raw.get('a')}-{raw.get('b')}" if isinstance(raw, dict) else "a link"
        x = f.keys(raw, item, ("a", "b", "kind"), ("sides", "arctic", "source"))
        for end in (x["a"], x["b"]):
            f.need(end in by_id, item, f"unknown space id {end!r}")
        f.need(x["a"] != x["b"], item, "links a space to itself")
        kind = f.one_of(x["kind"], LINK_KINDS, item, "kind")
        sides = tuple(x.get("sides", SIDES))
        f.need(bool(sides), item, "sides is empty")
        for side in sides:
            f.one_of(side, SIDES, item, "side")
        arctic = x.get("arctic", False)
        f.need(isinstance(arctic, bool), item, "arctic must be true or false")
        on_arctic = by_id[x["a"]].arctic or by_id[x["b"]].arctic
        f.need(arctic == on_arctic, item, "arctic: true exactly when an end is an Arctic space")
        ends = {by_id[x["a"]].shape, by_id[x["b"]].shape}
        # a land route (arrows included) carries armies, a sea lane fleets: each end must take that unit
        if kind == "sea":
            f.need("land" not in ends, item, "a sea lane cannot touch a land space")
        else:
            f.need("island" not in ends, item, f"a {kind} link cannot touch an island space")
        a, b = sorted((x["a"], x["b"]))
        for side in sides:
            f.need((a, b, side) not in seen, item, f"duplicate link on the {side} side")
            seen.add((a, b, side))
        links.append(Link(a=x["a"], b=x["b"], kind=kind, sides=sides, arctic=arctic, source=_source(f, x, item)))
    return spaces, links


def build_boards(spaces: list[Space], links: list[Link]) -> dict[str, Board]:
    boards: dict[str, Board] = {}
    for side in SIDES:
        for arctic in (False, True):
            key = side + ("+arctic" if arctic else "")
            kept = [s for s in spaces if arctic or not s.arctic]
            boards[key] = Board.build(key, kept, [x for x in links if side in x.sides and (arctic or not x.arctic)])
    return boards


# ------------------------------------------------------------------ setup.yaml


def _placements(f: _File, raw: Any, item: str, spaces: dict[str, Space]) -> tuple[Placement, ...]:
    f.need(isinstance(raw, list), item, "placements must be a list")
    out: list[Placement] = []
    for i, p in enumerate(raw):
        where = f"{item} placement {i + 1}"
        p = f.keys(p, where, ("space", "nation", "kind"), ("count",))
        f.need(p["space"] in spaces, where, f"unknown space id {p['space']!r}")
        f.one_of(p["nation"], (*NATIONS, NEUTRAL), where, "nation")
        f.one_of(p["kind"], UNIT_KINDS, where, "unit kind")
        out.append(Placement(space=p["space"], nation=p["nation"], kind=p["kind"],
                             count=_int(f, p.get("count", 1), where, "count", 1, 4)))
    return tuple(out)


def _read_setup(data_dir: Path, spaces: dict[str, Space], techs: dict[str, Tech]) -> dict[str, Any]:
    f = _File(data_dir, "setup.yaml")
    doc = f.keys(f.doc, "the file", ("source", "standard", "scenarios", "arctic_extra", "alternative_setup",
                                     "starting_vp"), ())
    standard = _placements(f, doc["standard"], "standard", spaces)
    scenarios: dict[str, Scenario] = {}
    raw_sc = doc["scenarios"]
    f.need(isinstance(raw_sc, list), "scenarios", "must be a list")
    f.unique([str(s.get("id")) for s in raw_sc], "scenario")
    for raw in raw_sc:
        item = f"scenario {raw.get('id')!r}"
        s = f.keys(raw, item, ("id", "first_year", "last_year"),
                   ("placements", "techs", "tracks", "coalition", "deal", "source"))
        f.one_of(s["id"], SCENARIOS, item, "id")
        first = f.one_of(s["first_year"], YEARS, item, "first_year")
        last = f.one_of(s["last_year"], YEARS, item, "last_year")
        f.need(first <= last, item, "first_year after last_year")
        placements = standard if s.get("placements", "standard") == "standard" else _placements(
            f, s["placements"], item, spaces)
        st_techs: dict[str, tuple[str, ...]] = {}
        for power, ids in (s.get("techs") or {}).items():
            f.one_of(power, POWERS, item, "power in techs")
            for t in ids:
                f.need(t in techs, item, f"unknown tech {t!r}")
            st_techs[power] = tuple(ids)
        tracks = {}
        for k, v in (s.get("tracks") or {"usa": 0, "china": 0}).items():
            tracks[f.one_of(k, ("usa", "china"), item, "track")] = _int(f, v, item, "track position", 0, 9)
        coalition = {}
        for k, v in (s.get("coalition") or {"france": "uk", "italy": "germany"}).items():
            coalition[f.one_of(k, ("france", "italy"), item, "coalition country")] = f.one_of(v, POWERS, item,
                                                                                            "controller")
        deal = s.get("deal")
        if deal is not None:
            _int(f, deal, item, "deal", 1, 9)
        scenarios[s["id"]] = Scenario(id=s["id"], first_year=first, last_year=last, placements=placements,
                                      techs=st_techs, tracks=tracks, coalition=coalition, deal=deal,
                                      source=_source(f, s, item))
    for sid in SCENARIOS:
        f.need(sid in scenarios, f"scenario {sid!r}", "missing")
    alt = f.keys(doc["alternative_setup"], "alternative_setup", ("order", "units"), ("source",))
    f.need(sorted(alt["order"]) == sorted(POWERS), "alternative_setup", "order must list the four powers once")
    for power, groups in alt["units"].items():
        f.one_of(power, POWERS, "alternative_setup", "power")
        for g in groups:
            g = f.keys(g, f"alternative_setup {power}", ("nation", "kinds", "count"), ("spaces",))
            f.one_of(g["nation"], NATIONS, f"alternative_setup {power}", "nation")
            for k in g["kinds"]:
                f.one_of(k, UNIT_KINDS, f"alternative_setup {power}", "unit kind")
            for sp in g.get("spaces", ()):
                f.need(sp in spaces, f"alternative_setup {power}", f"unknown space id {sp!r}")
    vp = doc["starting_vp"]
    f.need(isinstance(vp, dict) and sorted(vp) == sorted(POWERS), "starting_vp", "must give the four powers")
    return {
        "scenarios": scenarios,
        "arctic_extra": _placements(f, doc["arctic_extra"], "arctic_extra", spaces),
        "alternative_setup": alt,
        "starting_vp": {p: _int(f, vp[p], "starting_vp", p, 0, 40) for p in POWERS},
    }


# ------------------------------------------------------------------ sheets.yaml


def _read_sheets(data_dir: Path) -> dict[str, Any]:
    f = _File(data_dir, "sheets.yaml")
    doc = f.keys(f.doc, "the file", ("source", "years", "tracks", "techs", "tokens"), ())
    years: dict[int, Year] = {}
    f.unique([str(y.get("year")) for y in doc["years"]], "year")
    for raw in doc["years"]:
        item = f"year {raw.get('year')!r}"
        y = f.keys(raw, item, ("year", "draw", "starts", "passes"), ("source",))
        years[f.one_of(y["year"], YEARS, item, "year")] = Year(
            year=y["year"], draw=_int(f, y["draw"], item, "draw", 1, 9),
            starts=f.one_of(y["starts"], POWERS, item, "starting power"),
            passes=f.one_of(y["passes"], ("left", "right"), item, "pass direction"))
    for yr in YEARS:
        f.need(yr in years, f"year {yr}", "missing")
    tracks = {}
    for k, v in doc["tracks"].items():
        tracks[f.one_of(k, ("usa", "china"), "tracks", "track")] = _int(f, v, "tracks", k, 1, 9)
    raw_techs = doc["techs"]
    f.unique([str(t.get("id")) for t in raw_techs], "tech")
    ids = [t.get("id") for t in raw_techs]
    techs: dict[str, Tech] = {}
    for raw in raw_techs:
        item = f"tech {raw.get('id')!r}"
        t = f.keys(raw, item, ("id", "name", "name_pl", "group", "cube"), ("requires", "requires_any", "source"))
        f.one_of(t["id"], TECH_IDS, item, "id")
        for r in (*t.get("requires", ()), *t.get("requires_any", ())):
            f.need(r in ids and r != t["id"], item, f"unknown prerequisite {r!r}")
        techs[t["id"]] = Tech(id=t["id"], name=str(t["name"]), name_pl=str(t["name_pl"]),
                              group=f.one_of(t["group"], TECH_GROUPS, item, "group"),
                              cube=f.one_of(t["cube"], ("place", "remove"), item, "cube"),
                              requires=tuple(t.get("requires", ())), requires_any=tuple(t.get("requires_any", ())),
                              source=_source(f, t, item))
    for tid in TECH_IDS:
        f.need(tid in techs, f"tech {tid}", "missing")
    tokens: dict[str, dict[str, int]] = {}
    for owner, kinds in doc["tokens"].items():
        f.one_of(owner, (*NATIONS, NEUTRAL, "resistance"), "tokens", "owner")
        where = f"tokens {owner}"
        tokens[owner] = {f.one_of(k, UNIT_KINDS, where, "unit kind"): _int(f, n, where, k, 0, 30)
                         for k, n in kinds.items()}
    return {"years": years, "tracks": tracks, "techs": techs, "tokens": tokens}


# ------------------------------------------------------------------ cards.yaml


def _read_cards(data_dir: Path, techs: dict[str, Tech]) -> dict[str, Card]:
    f = _File(data_dir, "cards.yaml")
    raw_cards = f.doc.get("cards") or []
    f.unique([str(c.get("id")) for c in raw_cards], "card")
    cards: dict[str, Card] = {}
    for raw in raw_cards:
        item = f"card {raw.get('id')!r}"
        c = f.keys(raw, item, ("id", "name", "name_pl", "op", "tech", "colour", "event"),
                   ("deck", "text", "text_pl", "source"))
        cid = c["id"]
        f.need(isinstance(cid, str) and len(cid) == 5 and cid.startswith("td-") and cid[3:].isdigit(), item,
               "id must be td-01 .. td-60")
        f.need(c["tech"] in techs, item, f"unknown tech {c['tech']!r}")
        e = f.keys(c["event"], f"{item} event", ("kind",), ("value", "icons", "flag", "vp", "op"))
        kind = f.one_of(e["kind"], EVENT_KINDS, f"{item} event", "kind")
        icons = e.get("icons") or {}
        f.need(isinstance(icons, dict), f"{item} event", "icons must be a mapping")
        for icon, n in icons.items():
            f.one_of(icon, ICONS, f"{item} event", "icon")
            _int(f, n, f"{item} event", f"{icon} count", 1, 3)
        if e.get("flag") is not None:
            f.one_of(e["flag"], FLAGS, f"{item} event", "flag")
        value = e.get("value")
        if value is not None:
            f.one_of(value, (-1, 1, 5, 6, 7), f"{item} event", "tactics value")
        cards[cid] = Card(id=cid, name=str(c["name"]), name_pl=str(c["name_pl"]),
                          op=_int(f, c["op"], item, "op", 0, 9), tech=c["tech"],
                          colour=f.one_of(c["colour"], NATIONS, item, "colour"),
                          event=Event(kind=kind, value=value, icons=dict(icons), flag=e.get("flag"),
                                      vp=_int(f, e.get("vp", 0), f"{item} event", "vp", 0, 9),
                                      op=_int(f, e.get("op", 0), f"{item} event", "op", 0, 9)),
                          deck=f.one_of(c.get("deck", "main"), DECKS, item, "deck"),
                          text=str(c.get("text", "")), text_pl=str(c.get("text_pl", "")), source=_source(f, c, item))
    return cards


# ------------------------------------------------------------------ solo.yaml


def _automa(f: _File, raw: Any, item: str) -> AutomaPart:
    p = f.keys(raw, item, ("actions", "units"))
    actions: list[tuple[str, str]] = []
    for a in p["actions"]:
        f.need(isinstance(a, list) and len(a) == 2, item, f"bad action {a!r} ([verb, unit])")
        actions.append((f.one_of(a[0], VERBS, item, "verb"), f.one_of(a[1], AUTOMA_UNITS, item, "unit")))
    f.need(bool(actions), item, "no actions")
    units = tuple(f.one_of(u, AUTOMA_UNITS, item, "unit") for u in p["units"])
    f.need(sorted(units) == sorted(AUTOMA_UNITS), item, "units must rank army and fleet once each")
    return AutomaPart(actions=tuple(actions), units=units)


def _read_solo(data_dir: Path, spaces: dict[str, Space]) -> dict[str, SoloCard]:
    f = _File(data_dir, "solo.yaml")
    raw_cards = f.doc.get("cards") or []
    f.unique([str(c.get("id")) for c in raw_cards], "solo card")
    solo: dict[str, SoloCard] = {}
    for raw in raw_cards:
        item = f"solo card {raw.get('id')!r}"
        c = f.keys(raw, item, ("id", "number", "year", "germany", "japan", "lines"), ("arrows", "source"))
        number = _int(f, c["number"], item, "number", 1, 18)
        f.need(c["id"] == f"solo-{number:02d}", item, "id must be solo-NN matching number")
        f.need(c["year"] in YEARS[:5], item, f"bad year {c['year']!r} (1939..1943)")
        lines: dict[str, tuple[tuple[str, ...], ...]] = {}
        f.need(isinstance(c["lines"], dict) and sorted(c["lines"]) == sorted(ORIENTATIONS), item,
               "lines must give germany and japan")
        for orient in ORIENTATIONS:
            arrows = c["lines"][orient]
            f.need(isinstance(arrows, list) and len(arrows) == 4, item, f"{orient}: four arrows needed")
            for n, line in enumerate(arrows, 1):
                for sp in line:
                    f.need(sp in spaces, item, f"{orient} arrow {n}: unknown space id {sp!r}")
                f.need(len(set(line)) == len(line), item, f"{orient} arrow {n}: a space listed twice")
            lines[orient] = tuple(tuple(line) for line in arrows)
        solo[c["id"]] = SoloCard(id=c["id"], number=number, year=c["year"],
                                 germany=_automa(f, c["germany"], f"{item} germany"),
                                 japan=_automa(f, c["japan"], f"{item} japan"), lines=lines,
                                 source=_source(f, c, item))
    return solo


# ------------------------------------------------------------------ the whole pack


def read(data_dir: Path, audit_pack: bool = True) -> Pack:
    spaces, links = _read_board(data_dir)
    by_id = {s.id: s for s in spaces}
    sheets = _read_sheets(data_dir)
    setup = _read_setup(data_dir, by_id, sheets["techs"])
    built = Pack(
        boards=build_boards(spaces, links), cards=_read_cards(data_dir, sheets["techs"]), techs=sheets["techs"],
        solo=_read_solo(data_dir, by_id), years=sheets["years"], tracks=sheets["tracks"], tokens=sheets["tokens"],
        scenarios=setup["scenarios"], arctic_extra=setup["arctic_extra"],
        alternative_setup=setup["alternative_setup"], starting_vp=setup["starting_vp"],
    )
    if audit_pack:
        problems = audit(built)
        if problems:
            raise ValueError(f"{data_dir}: the pack fails spec §18:\n  " + "\n  ".join(problems))
    return built


# ------------------------------------------------------------------ spec §18: the consistency checks

AUDIT = Audit()
CHECKS = AUDIT.checks
check = AUDIT.check


def audit(p: Pack) -> list[str]:
    """Every finding, each prefixed by the name of the check that made it (empty: the pack is sound)."""
    return AUDIT(p)


def _home_stars(b: Board, power: str) -> int:
    coalition = {"uk": ("france",), "germany": ("italy",)}.get(power, ())
    return sum(s.stars for s in b.spaces.values() if s.nation in (power, *coalition))


@check
def stars_equal_starting_vp(p: Pack) -> list[str]:
    out = []
    for key, b in p.boards.items():
        for power in POWERS:
            if _home_stars(b, power) != p.starting_vp[power]:
                out.append(f"{key}: {power}'s home stars {_home_stars(b, power)} != starting VP {p.starting_vp[power]}")
    want = {"japan": 7, "germany": 8, "ussr": 9, "uk": 10}
    if p.starting_vp != want:
        out.append(f"starting VP {p.starting_vp} != the book's {want}")
    return out


@check
def capitals(p: Pack) -> list[str]:
    b = p.boards["basic+arctic"]
    out = [f"{s.id}: a capital with {s.stars} stars" for s in b.spaces.values() if s.capital and s.stars != 3]
    out += [f"{s.id}: a capital of no home country" for s in b.spaces.values() if s.capital and s.nation is None]
    out += [f"{s.id}: 3 stars but not a capital" for s in b.spaces.values() if s.stars == 3 and not s.capital]
    for nation in (*POWERS, "usa"):
        if len([s for s in b.spaces.values() if s.capital and s.nation == nation]) != 1:
            out.append(f"{nation} needs exactly one capital")
    if b.capital_of("germany") != "germany":
        out.append("Germany (the space) must be the German capital (src §13.0: it holds 4 units)")
    if b.spaces["italy"].capital:
        out.append("Italy is not a capital (src §6.2: one UK fleet takes it)")
    return out


@check
def factories_and_shipyards(p: Pack) -> list[str]:
    b = p.boards["basic"]
    out = []
    for sid in ("germany", "italy", "france"):
        s = b.spaces[sid]
        if not (s.factory and s.shipyard and s.shape == "coastal"):
            out.append(f"{sid} needs a factory, a shipyard and a coast")
    out += [f"{s.id}: a factory or shipyard off a home space" for s in b.spaces.values()
            if (s.factory or s.shipyard) and s.nation is None]
    out += [f"{s.id}: a shipyard on a land space" for s in b.spaces.values() if s.shipyard and s.shape == "land"]
    out += [f"{s.id}: a factory on an island" for s in b.spaces.values() if s.factory and s.shape == "island"]
    return out


@check
def worked_example_geography(p: Pack) -> list[str]:
    out = []
    for key, b in p.boards.items():
        if b.spaces["ukraine"].shape != "coastal" or "land" not in b.kinds_between("ukraine", "poland"):
            out.append(f"{key}: Ukraine must be coastal with a land route to Poland (src §6.2)")
        if "land" not in b.kinds_between("italy", "germany"):
            out.append(f"{key}: Italy-Germany must be a land route (src §6.2)")
        uk_sea = [o for o, k in b.neighbours["italy"] if k == "sea" and b.spaces[o].nation in ("uk", "france")]
        if not uk_sea:
            out.append(f"{key}: Italy must be reached by a sea lane from UK territory (src §6.2)")
    for key in ("basic", "basic+arctic"):
        b = p.boards[key]
        german = {s.id for s in b.spaces.values() if s.nation in ("germany", "italy")} | {"balkans"}
        if not any(k == "arrow" and o in german for o, k in b.neighbours["romania"]):
            out.append(f"{key}: Romania needs an arrow link to a space holding German units (src §13.0)")
        if any(k != "arrow" and o in german for o, k in b.neighbours["romania"]):
            out.append(f"{key}: Romania must reach the German units only through the arrows (src §13.0)")
        if "land" not in b.kinds_between("germany", "balkans"):
            out.append(f"{key}: a German army must move Germany -> Balkans (src §13.0)")
    return out


@check
def uboat_spaces(p: Pack) -> list[str]:
    out = []
    seas = {"atlantic_ocean", "caribbean_sea"}
    want = {key: seas | ({"iceland"} if key.endswith("+arctic") else set()) for key in BOARD_KEYS}
    for key, ids in want.items():
        got = {s.id for s in p.boards[key].spaces.values() if s.uboat}
        if got != ids:
            out.append(f"{key}: U-boat spaces {sorted(got)} != {sorted(ids)}")
    for s in p.boards["basic+arctic"].spaces.values():
        if s.uboat and (s.shape == "land" or s.stars < 1):
            out.append(f"{s.id}: a U-boat space must take fleets and carry stars")
    return out


@check
def arctic_spaces(p: Pack) -> list[str]:
    out = []
    five = {"arctic", "iceland", "norway", "finland", "aleutians"}
    for key, b in p.boards.items():
        got = {s.id for s in b.spaces.values() if s.arctic}
        want = five if key.endswith("+arctic") else set()
        if got != want:
            out.append(f"{key}: Arctic spaces {sorted(got)} != {sorted(want)}")
    if any(pl.space != "finland" or pl.nation != NEUTRAL for pl in p.arctic_extra) or not p.arctic_extra:
        out.append("the Arctic adds one neutral army in Finland (src §11.4)")
    return out


@check
def alternative_side(p: Pack) -> list[str]:
    out = []
    for key in ("alternative", "alternative+arctic"):
        out += [f"{key}: arrow link {x.a}-{x.b}" for x in p.boards[key].links if x.kind == "arrow"]
    if not any(x.kind == "arrow" for x in p.boards["basic"].links):
        out.append("the basic side needs its arrow links")
    if set(p.boards["basic"].spaces) != set(p.boards["alternative"].spaces):
        out.append("both sides have the same spaces")
    basic = {(x.a, x.b, x.kind) for x in p.boards["basic"].links}
    alt = {(x.a, x.b, x.kind) for x in p.boards["alternative"].links}
    if not alt - basic:
        out.append("the alternative side needs connections of its own")
    return out


def _reach(b: Board, start: str, allowed: Callable[[str], bool]) -> set[str]:
    seen = {start}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        for other, _ in b.neighbours[here]:
            if other not in seen and allowed(other):
                seen.add(other)
                todo.append(other)
    return seen


@check
def connectivity(p: Pack) -> list[str]:
    out = []
    for key, b in p.boards.items():
        first = next(iter(b.spaces))
        lost = set(b.spaces) - _reach(b, first, lambda _: True)
        if lost:
            out.append(f"{key}: unreachable spaces {sorted(lost)}")
        for nation in NATIONS:
            homes = b.home_spaces(nation)
            if not homes:
                out.append(f"{key}: {nation} has no home space")
                continue
            # a unit can always trace supply home: every home space links to another space
            out += [f"{key}: {h} is isolated" for h in homes if not b.neighbours[h]]
    return out


@check
def cards(p: Pack) -> list[str]:
    out = []
    ids = [f"td-{n:02d}" for n in range(1, 61)]
    if sorted(p.cards) != ids:
        out.append("the cards must be td-01 .. td-60")
    decks = {d: [c for c in p.cards.values() if c.deck == d] for d in DECKS}
    if [len(decks[d]) for d in DECKS] != [54, 4, 2]:
        out.append(f"decks {[len(decks[d]) for d in DECKS]} != 54 main, 4 USA, 2 China")
    for c in p.cards.values():
        want = {"usa": "usa", "china": "china"}.get(c.deck)
        if (want and c.colour != want) or (not want and c.colour in NONALIGNED_COLOURS):
            out.append(f"{c.id}: colour {c.colour} in the {c.deck} deck (green and purple form their own decks)")
        if not 3 <= c.op <= 6:
            out.append(f"{c.id}: OP {c.op} outside 3..6")
    for t in p.techs:
        n = sum(c.tech == t for c in p.cards.values())
        if n != 4:
            out.append(f"tech {t} is on {n} cards, not 4")
    for colour in NATIONS:
        if not any(c.colour == colour for c in p.cards.values()):
            out.append(f"no event in {colour}'s colour")
    return out


NONALIGNED_COLOURS = ("usa", "china")
AXIS_COLOURS = (*AXIS, "italy")


@check
def events(p: Pack) -> list[str]:
    out = []
    for c in p.cards.values():
        e = c.event
        if e.kind == "tactics":
            if e.value not in (-1, 1, 5, 6, 7):
                out.append(f"{c.id}: tactics value {e.value}")
            elif e.value >= 5 and e.value != c.op + 1:
                out.append(f"{c.id}: a tactics {e.value} must sit on a {e.value - 1}-OP card, not {c.op}")
        elif e.value is not None:
            out.append(f"{c.id}: a value on a {e.kind} event")
        if e.kind == "logistics":
            if not e.icons:
                out.append(f"{c.id}: logistics without icons")
            if "satellite" in e.icons and c.colour not in AXIS_COLOURS:
                out.append(f"{c.id}: a satellite icon on an Allied colour")
            if "resistance" in e.icons and c.colour in AXIS_COLOURS:
                out.append(f"{c.id}: a resistance icon on an Axis colour")
            if "bomber" in e.icons and c.colour not in POWERS:
                out.append(f"{c.id}: a bomber icon on {c.colour}, who has no bombers")
        elif e.icons:
            out.append(f"{c.id}: icons on a {e.kind} event")
        if e.kind == "diplomacy":
            if e.flag not in FLAGS or e.vp not in (1, 2):
                out.append(f"{c.id}: diplomacy needs a flag and 1 or 2 VP")
        elif e.flag is not None or e.vp:
            out.append(f"{c.id}: a flag or VP on a {e.kind} event")
        if e.kind == "peace":
            if e.op < 1:
                out.append(f"{c.id}: a peace card adds its OP")
        elif e.op:
            out.append(f"{c.id}: an event op on a {e.kind} event")
    ev = [c.event for c in p.cards.values()]
    if not any(e.kind == "logistics" and "bomber" in e.icons for e in ev):
        out.append("solo rule 9 needs a Logistics event with a bomber icon")
    if not any(e.kind == "tactics" and e.value == -1 for e in ev):
        out.append("solo rule 9 needs a Tactics -1 event")
    for v in (5, 6, 7):
        if not any(e.kind == "tactics" and e.value == v for e in ev):
            out.append(f"no Tactics {v} event")
    for flag in FLAGS:
        same = [e for e in ev if e.kind == "diplomacy" and e.flag == flag]
        if len(same) < 2:
            out.append(f"flag {flag} on {len(same)} cards: same-flag plays never happen")
    if not any(c.deck == "usa" and c.event.kind == "peace" and c.event.op == 1 for c in p.cards.values()):
        out.append("an American Peace card adding 1 OP is needed (src §7.5)")
    return out


@check
def techs(p: Pack) -> list[str]:
    out = []
    if sorted(p.techs) != sorted(TECH_IDS):
        out.append("the techs must be A1..A4, B1..B3, C1..C3, D1, D2, E1..E3")
    place = {"A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2"}
    for t in p.techs.values():
        if t.cube != ("place" if t.id in place else "remove"):
            out.append(f"{t.id}: cube {t.cube}")
    want = {"A3": {"A1", "A2"}, "B3": {"B1", "B2"}}
    for tid, need in want.items():
        if not need <= set(p.techs[tid].requires):
            out.append(f"{tid} must require {sorted(need)}")
    if len(p.techs["A3"].requires) != 3 or len(p.techs["A4"].requires) != 2:
        out.append("A3 shows three prerequisites, A4 two (spec §8.2)")
    if set(p.techs["E2"].requires_any) != {"D1", "D2"}:
        out.append("E2 requires Espionage or Enigma")
    return out


@check
def solo_deck(p: Pack) -> list[str]:
    out = []
    if sorted(p.solo) != [f"solo-{n:02d}" for n in range(1, 19)]:
        out.append("the solo cards must be solo-01 .. solo-18")
    years = [c.year for c in p.solo.values()]
    n1939 = years.count(1939)
    if n1939 < 8:  # two 1939 cards leave in each of 1940..1943 and 6 are dealt in 1939
        out.append(f"{n1939} cards of 1939: at least 8 needed")
    deck = n1939
    for year, deal in ((1940, 5), (1941, 6), (1942, 7), (1943, 9)):
        deck += years.count(year) - 2
        if deck < deal:
            out.append(f"the {year} solo deck has {deck} cards, {deal} are dealt")
    all_spaces = p.boards["basic+arctic"].spaces
    for c in p.solo.values():
        for orient in ORIENTATIONS:
            for n, line in enumerate(c.lines[orient], 1):
                if not line:
                    out.append(f"{c.id}: {orient} arrow {n} crosses no space")
                out += [f"{c.id}: {orient} arrow {n}: unknown {s}" for s in line if s not in all_spaces]
    return out


@check
def solo_example(p: Pack) -> list[str]:
    """Spec §16.5: a card whose German actions are move army, build army, destroy army, and along
    whose arrow 1 from the German edge the Balkans is the first empty space a German army can reach
    from Germany, with Romania before Poland."""
    b = p.boards["basic"]
    homes = {s.id for s in b.spaces.values() if s.nation in ("germany", "italy")}
    cards = [c for c in p.solo.values()
             if c.germany.actions == (("move", "army"), ("build", "army"), ("destroy", "army"))]
    for c in cards:
        line = [s for s in c.lines["germany"][0] if s in b.spaces]
        if "balkans" not in line or "romania" not in line or "poland" not in line:
            continue
        before = line[:line.index("balkans")]
        # spaces before the Balkans must be full (home spaces, Romania's neutral army) or shut to an army
        if all(s in homes or s == "romania" or b.spaces[s].shape == "island" for s in before) and \
                line.index("romania") < line.index("poland"):
            return []
    return ["no solo card reproduces the §16.5 example"]


def _legal_placements(b: Board, placements: Iterable[Placement], what: str) -> list[str]:
    out = []
    count: dict[str, int] = {}
    owners: dict[str, set[str]] = {}
    uboats: dict[str, int] = {}
    for pl in placements:
        s = b.spaces.get(pl.space)
        if s is None:
            out.append(f"{what}: {pl.space} is not on the {b.key} board")
            continue
        if s.shape not in SHAPES_FOR[pl.kind]:
            out.append(f"{what}: a {pl.kind} cannot stand on {s.id} ({s.shape})")
        if pl.kind == "uboat":
            uboats[s.id] = uboats.get(s.id, 0) + pl.count
            if not s.uboat or pl.nation != "germany":
                out.append(f"{what}: a U-boat on {s.id}")
        if pl.kind in STACKED:
            count[s.id] = count.get(s.id, 0) + pl.count
            owners.setdefault(s.id, set()).add(_owner(pl.nation))
    for sid, n in count.items():
        if n > b.spaces[sid].limit:
            out.append(f"{what}: {n} units on {sid} (limit {b.spaces[sid].limit})")
        if len(owners[sid]) > 1:
            out.append(f"{what}: units of {sorted(owners[sid])} share {sid}")
    out += [f"{what}: {n} U-boats on {sid}" for sid, n in uboats.items() if n > 2]
    return out


def _owner(nation: str) -> str:
    # who a unit belongs to at setup for stacking: coalition and non-aligned units stack with their patron
    return {"france": "uk", "italy": "germany", "usa": "usa", "china": "china"}.get(nation, nation)


@check
def placements(p: Pack) -> list[str]:
    out = []
    std = p.scenarios["full"].placements
    b = p.boards["basic"]
    out += _legal_placements(b, std, "standard setup")
    out += _legal_placements(p.boards["basic+arctic"], (*std, *p.arctic_extra), "Arctic setup")
    for pl in std:
        s = b.spaces.get(pl.space)
        if s is None:
            continue  # reported by _legal_placements
        if pl.nation == NEUTRAL:
            if s.nation is not None:
                out.append(f"standard setup: a neutral army on a home space ({s.id})")
        elif s.nation != pl.nation:
            out.append(f"standard setup: a {pl.nation} unit off its home spaces ({s.id})")
    neutral = [pl for pl in std if pl.nation == NEUTRAL]
    if sum(pl.count for pl in neutral) != 4 or not any(pl.space == "romania" for pl in neutral):
        out.append("four neutral armies, one in Romania (src §1.0, §13.0)")
    for sc in p.scenarios.values():
        out += _legal_placements(b, sc.placements, f"scenario {sc.id}")
    for nation, kinds in _unit_counts((*std, *p.arctic_extra)).items():
        for kind, n in kinds.items():
            limit = p.tokens.get(nation, {}).get(kind, 0)
            if n > limit:
                out.append(f"standard setup: {n} {nation} {kind} but {limit} tokens")
    return out


def _unit_counts(placements: Iterable[Placement]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for pl in placements:
        out.setdefault(pl.nation, {})
        out[pl.nation][pl.kind] = out[pl.nation].get(pl.kind, 0) + pl.count
    return out


FALL_OF_THE_AXIS: tuple[tuple[str, str, str, int], ...] = (  # spec §14.2, src §12.2, word for word
    ("poland", "germany", "army", 1), ("baltic_states", "germany", "army", 1), ("ukraine", "germany", "army", 1),
    ("benelux", "germany", "army", 1), ("libya", "italy", "army", 1), ("france", "germany", "fleet", 1),
    ("atlantic_ocean", "germany", "uboat", 2), ("caribbean_sea", "germany", "uboat", 1),
    ("india", "uk", "army", 1), ("persia", "uk", "army", 1), ("egypt", "uk", "army", 1),
    ("eastern_usa", "usa", "army", 1), ("western_usa", "usa", "army", 1), ("great_britain", "uk", "fleet", 2),
    ("atlantic_ocean", "uk", "fleet", 1), ("western_usa", "usa", "fleet", 1), ("hawaii", "usa", "fleet", 1),
    ("indochina", "japan", "army", 1), ("east_indies", "japan", "army", 1), ("siam", "japan", "army", 1),
    ("burma", "japan", "army", 1), ("nanking", "japan", "fleet", 1), ("ryukyu", "japan", "fleet", 1),
    ("philippines", "japan", "fleet", 1), ("marianas", "japan", "fleet", 1), ("solomon_islands", "japan", "fleet", 1),
    ("siberia", "ussr", "army", 2), ("northern_ussr", "ussr", "army", 1), ("southern_ussr", "ussr", "army", 1),
    ("china", "china", "army", 1),
)


def start_vp(p: Pack, sc: Scenario) -> dict[str, int]:
    """Each side's VP as a scenario starts on the basic board: spaces held (a home space by its
    country's controller unless an enemy stands there, another space by whoever stands there)
    plus tech VP (spec §8.3). A pack-side estimate for the audit; the rules compute the real thing."""
    b = p.boards["basic"]
    who = {**{n: n for n in POWERS}, **sc.coalition}
    joined = {n: JOINS[n] for n in NONALIGNED if sc.tracks.get(n, 0) >= p.tracks[n]}
    who.update(joined)
    holders: dict[str, set[str]] = {}
    for pl in sc.placements:
        if pl.kind in ("army", "fleet") and pl.nation in who:
            holders.setdefault(pl.space, set()).add(side_of(who[pl.nation]))
    out = {"axis": 0, "allies": 0}
    for s in b.spaces.values():
        home = side_of(who[s.nation]) if s.nation in who else None
        here = holders.get(s.id, set())
        side = next(iter(here)) if len(here) == 1 and (home is None or here != {home}) else home
        if side and not (s.capital and home and side != home):  # one enemy unit leaves a capital unheld
            out[side] += s.stars
    for power, techs in sc.techs.items():
        out[side_of(power)] += max(0, len({p.techs[t].group for t in techs}) - 1)
    return out


@check
def scenarios(p: Pack) -> list[str]:
    out = []
    full, rise, fall = (p.scenarios[s] for s in SCENARIOS)
    if (full.first_year, full.last_year) != (1939, 1945) or (rise.first_year, rise.last_year) != (1939, 1942):
        out.append("full runs 1939-1945, Rise of the Axis 1939-1942")
    if rise.placements != full.placements:
        out.append("Rise of the Axis uses the standard setup")
    if (fall.first_year, fall.last_year, fall.deal) != (1943, 1945, 5):
        out.append("Fall of the Axis runs 1943-1945 and deals 5")
    got = sorted((pl.space, pl.nation, pl.kind, pl.count) for pl in fall.placements if pl.nation != NEUTRAL)
    if got != sorted(FALL_OF_THE_AXIS):
        out.append("Fall of the Axis placements differ from §14.2")
    if fall.coalition.get("france") != "germany" or fall.coalition.get("italy") != "germany":
        out.append("in Fall of the Axis France and Italy are German")
    if start_vp(p, fall)["axis"] >= 29:
        out.append(f"Fall of the Axis starts the Axis at {start_vp(p, fall)['axis']} VP: a win at the first check")
    for power in POWERS:
        have = fall.techs.get(power, ())
        if len(have) != 3:
            out.append(f"Fall of the Axis: {power} starts with 3 techs, not {len(have)}")
        for t in have:
            tech = p.techs[t]
            if not set(tech.requires) <= set(have) or (tech.requires_any and not set(tech.requires_any) & set(have)):
                out.append(f"Fall of the Axis: {power}'s {t} lacks its prerequisites")
    return out


@check
def sheets(p: Pack) -> list[str]:
    out = []
    if p.years[1939].starts != "germany":
        out.append("Germany starts 1939 (src §4.0)")
    for y in YEARS:
        want = "left" if y % 2 else "right"
        if p.years[y].passes != want:
            out.append(f"{y} passes {p.years[y].passes}, the book says {want}")
    for y in (1939, 1941):
        if p.years[y].draw != 4:
            out.append(f"{y} draws 4 (spec §18.5)")
    if p.tracks != {"usa": 4, "china": 2}:
        out.append("the USA track ends at 4, China's at 2 (one step per card of their decks)")
    for power in POWERS:
        tk = p.tokens.get(power, {})
        if tk.get("bomber") != 2 or tk.get("army", 0) < 1 or tk.get("fleet", 0) < 1:
            out.append(f"{power}: armies, fleets and 2 bombers")
    if p.tokens.get("germany", {}).get("uboat", 0) < 3:
        out.append("Germany needs at least 3 U-boats (src §12.2)")
    if p.tokens.get("neutral") != {"army": 5} or p.tokens.get("resistance") != {"resistance": 6}:
        out.append("5 neutral armies (4 + Finland) and 6 Resistance markers")
    return out


@check
def sources(p: Pack) -> list[str]:
    items: list[tuple[str, str]] = [(f"space {s.id}", s.source) for s in p.boards["basic+arctic"].spaces.values()]
    items += [(f"link {x.a}-{x.b}", x.source) for b in p.boards.values() for x in b.links]
    items += [(f"card {c.id}", c.source) for c in p.cards.values()]
    items += [(f"tech {t.id}", t.source) for t in p.techs.values()]
    items += [(f"solo {c.id}", c.source) for c in p.solo.values()]
    items += [(f"scenario {s.id}", s.source) for s in p.scenarios.values()]
    return [f"{what}: source {src!r}" for what, src in items
            if not (src.startswith("reconstructed") or src.startswith("rulebook §"))]
