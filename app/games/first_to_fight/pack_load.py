"""Reads First to Fight's YAML data pack (``data/``) into ``pack.Pack`` and audits it; the only reader of ``data/``.

Two layers, as in the other games' packs. ``load_pack`` reads each file strictly: a file that is
missing, not YAML, or an item without a required field or with a field of the wrong kind is refused
at once (``ValueError`` naming the file and the item), so nothing half-built reaches the rules. What
can still be read but is wrong (a duplicate id, an unknown key, a link without a source) is kept as a
finding in ``Pack.problems``. ``audit`` then checks the built pack against the vocabularies of
``pack``, the counts and facts of the rulebook (spec §4, §12, §15) and what the rules need of the
data (a connected map, tracks with an occupied end, a deck of events that lasts to V 1945, names
that can be told apart as secrets). ``load_pack`` refuses a pack with any finding unless told not
to, so a pack edited by hand cannot quietly break a rule.

Every finding names the file and the item: ``"soldiers.yaml: s07: strength 6 is outside 1..5"``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from app.games.first_to_fight.pack import (
    ABILITIES,
    ATTRIBUTE_CAP,
    EVENT_OPS,
    FORMATIONS,
    LAST_MONTH,
    OCCUPIED_SQUARES,
    REGION_RULES,
    REGIONS,
    STAGE_II_FROM,
    START_MONTH,
    Effect,
    Event,
    Mission,
    Pack,
    Region,
    Soldier,
    month_index,
)
from app.games.pack_audit import Audit, YamlFile

REGIONS_FILE = "regions.yaml"
SOLDIERS_FILE = "soldiers.yaml"
MISSIONS_FILE = "missions.yaml"
EVENTS_FILE = "events.yaml"

# the rulebook's counts (spec §2; the mission count is OQ-2's 30 = 16 red + 14 yellow)
SOLDIER_COUNT = 54
MISSION_COUNT = 30
STAGE_I_COUNT = 16
STAGE_II_COUNT = 14
EVENT_COUNT = 24
MIN_TRACK = OCCUPIED_SQUARES + 1  # at least one light square to start on
NOT_RECRUITABLE = "NAI"  # §6.3.4
BOOK_RULES = {"WAR": "DROPS", "POL": "UNDERGROUND_STATE", "NEA": "TRAINING_CAMP", "WEU": "MAIN_FRONT",
              "NAI": "REVEAL_TWO"}  # §4.1 (NAI's by elimination)

SOLDIER_ID = re.compile(r"^s\d\d$")
MISSION_ID = re.compile(r"^m\d\d$")
EVENT_ID = re.compile(r"^ev\d\d$")
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")

REGION_KEYS = {"id", "name", "name_pl", "rule", "rule_name", "rule_name_pl", "recruitable", "colour", "track",
               "thresholds", "start", "source"}
SOLDIER_KEYS = {"id", "name", "formation", "strength", "underground", "ability", "note", "note_pl", "source"}
MISSION_KEYS = {"id", "title", "title_pl", "date", "stage", "region", "formation", "difficulty", "vp", "note",
                "note_pl", "source"}
EVENT_KEYS = {"id", "title", "title_pl", "region", "advance", "date", "effects", "text", "text_pl", "source"}
EFFECT_KEYS = {"op", "region", "n"}


class _File(YamlFile):
    """One YAML file being read: every complaint names the file and the item."""

    def items(self, key: str) -> list[dict[str, Any]]:
        got = self.doc.get(key)
        if not isinstance(got, list) or not all(isinstance(x, dict) for x in got):
            raise ValueError(f"{self.name}: '{key}' must be a list of mappings")
        return got

    def field(self, item: dict[str, Any], key: str, kind: type, where: str, default: Any = ...) -> Any:
        if key not in item:
            if default is ...:
                raise ValueError(f"{self.name}: {where}: '{key}' is missing")
            return default
        value = item[key]
        # YAML's true/false are ints to Python: a bool where a number is due is a typo, not a 1
        if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
            raise ValueError(f"{self.name}: {where}: '{key}' must be {kind.__name__}, not {value!r}")
        return value

    def ints(self, item: dict[str, Any], key: str, where: str) -> tuple[int, ...]:
        value = self.field(item, key, list, where)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            raise ValueError(f"{self.name}: {where}: '{key}' must be a list of whole numbers")
        return tuple(value)

    def month(self, item: dict[str, Any], key: str, where: str) -> int:
        label = self.field(item, key, str, where)
        try:
            return month_index(label)
        except ValueError as exc:  # a bad Roman month or year: say which item
            raise ValueError(f"{self.name}: {where}: '{key}' {label!r} is not a date like 'VIII 1940'") from exc


    def unique(self, items: list[dict[str, Any]]) -> None:
        ids = [str(x.get("id")) for x in items]
        dups = sorted({i for i in ids if ids.count(i) > 1})
        if dups:
            self.problems.append(f"{self.name}: duplicate ids {dups}")


def _where(item: dict[str, Any], i: int) -> str:
    return str(item.get("id", f"item #{i + 1}"))


def _read_regions(f: _File) -> tuple[dict[str, Region], frozenset[frozenset[str]]]:
    regions: dict[str, Region] = {}
    items = f.items("regions")
    f.unique(items)
    for i, r in enumerate(items):
        where = _where(r, i)
        f.known(r, REGION_KEYS, where)
        region = Region(id=f.field(r, "id", str, where), name=f.field(r, "name", str, where),
                        name_pl=f.field(r, "name_pl", str, where), rule=f.field(r, "rule", str, where),
                        rule_name=f.field(r, "rule_name", str, where),
                        rule_name_pl=f.field(r, "rule_name_pl", str, where),
                        recruitable=f.field(r, "recruitable", bool, where), colour=f.field(r, "colour", str, where),
                        track=f.ints(r, "track", where), thresholds=f.ints(r, "thresholds", where),
                        start=f.field(r, "start", int, where), source=f.field(r, "source", str, where, ""))
        regions.setdefault(region.id, region)
    links: set[frozenset[str]] = set()
    raw = f.doc.get("links")
    if not isinstance(raw, list):
        raise ValueError(f"{f.name}: 'links' must be a list of pairs")
    for i, pair in enumerate(raw):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise ValueError(f"{f.name}: link #{i + 1}: {pair!r} is not a pair of region ids")
        link = frozenset(pair)
        if link in links:
            f.problems.append(f"{f.name}: link {pair[0]}-{pair[1]} is listed twice")
        links.add(link)
    if not str(f.doc.get("links_source", "")).strip():
        f.problems.append(f"{f.name}: links: no links_source")
    f.known(f.doc, {"regions", "links", "links_source"}, "file")
    return regions, frozenset(links)


def _read_soldiers(f: _File) -> dict[str, Soldier]:
    soldiers: dict[str, Soldier] = {}
    items = f.items("soldiers")
    f.unique(items)
    for i, s in enumerate(items):
        where = _where(s, i)
        f.known(s, SOLDIER_KEYS, where)
        soldier = Soldier(id=f.field(s, "id", str, where), name=f.field(s, "name", str, where),
                          formation=f.field(s, "formation", str, where), strength=f.field(s, "strength", int, where),
                          underground=f.field(s, "underground", int, where),
                          ability=f.field(s, "ability", str, where), note=f.field(s, "note", str, where),
                          note_pl=f.field(s, "note_pl", str, where), source=f.field(s, "source", str, where, ""))
        soldiers.setdefault(soldier.id, soldier)
    return soldiers


def _read_missions(f: _File) -> dict[str, Mission]:
    missions: dict[str, Mission] = {}
    items = f.items("missions")
    f.unique(items)
    for i, m in enumerate(items):
        where = _where(m, i)
        f.known(m, MISSION_KEYS, where)
        mission = Mission(id=f.field(m, "id", str, where), title=f.field(m, "title", str, where),
                          title_pl=f.field(m, "title_pl", str, where), date=f.month(m, "date", where),
                          stage=f.field(m, "stage", int, where), region=f.field(m, "region", str, where),
                          formation=f.field(m, "formation", str, where),
                          difficulty=f.field(m, "difficulty", int, where), vp=f.field(m, "vp", int, where),
                          note=f.field(m, "note", str, where, ""), note_pl=f.field(m, "note_pl", str, where, ""),
                          source=f.field(m, "source", str, where, ""))
        missions.setdefault(mission.id, mission)
    return missions


def _read_effect(f: _File, e: Any, where: str) -> Effect:
    if not isinstance(e, dict):
        raise ValueError(f"{f.name}: {where}: an effect must be a mapping, not {e!r}")
    f.known(e, EFFECT_KEYS, where)
    return Effect(op=f.field(e, "op", str, where), region=f.field(e, "region", str, where, ""),
                  n=f.field(e, "n", int, where, 0))


def _read_events(f: _File) -> dict[str, Event]:
    events: dict[str, Event] = {}
    items = f.items("events")
    f.unique(items)
    for i, e in enumerate(items):
        where = _where(e, i)
        f.known(e, EVENT_KEYS, where)
        effects = tuple(_read_effect(f, x, f"{where} effect #{j + 1}")
                        for j, x in enumerate(f.field(e, "effects", list, where)))
        event = Event(id=f.field(e, "id", str, where), title=f.field(e, "title", str, where),
                      title_pl=f.field(e, "title_pl", str, where), region=f.field(e, "region", str, where),
                      advance=f.field(e, "advance", int, where), date=f.month(e, "date", where), effects=effects,
                      text=f.field(e, "text", str, where, ""), text_pl=f.field(e, "text_pl", str, where, ""),
                      source=f.field(e, "source", str, where, ""))
        events.setdefault(event.id, event)
    return events


def load_pack(data_dir: Path, check: bool = True) -> Pack:
    """The pack in ``data_dir``; refused (``ValueError`` listing every finding) if its audit finds anything."""
    problems: list[str] = []
    regions, links = _read_regions(_File(data_dir, REGIONS_FILE, problems))
    soldiers = _read_soldiers(_File(data_dir, SOLDIERS_FILE, problems))
    missions = _read_missions(_File(data_dir, MISSIONS_FILE, problems))
    events = _read_events(_File(data_dir, EVENTS_FILE, problems))
    p = Pack(regions=regions, links=links, soldiers=soldiers, missions=missions, events=events,
             problems=tuple(problems))
    found = audit(p)
    if found and check:
        raise ValueError(f"the First to Fight data pack in {data_dir} is refused:\n  " + "\n  ".join(found))
    return p


# ---------------------------------------------------------------------------------------------- audit

AUDIT = Audit()
CHECKS = AUDIT.checks
check = AUDIT.check


def audit(p: Pack) -> list[str]:
    """Every finding, each prefixed by the name of the check that made it (empty: the pack is sound)."""
    return AUDIT(p)


def _by_name(p: Pack, surname: str) -> Soldier | None:
    found = [s for s in p.soldiers.values() if surname in s.name]
    return found[0] if len(found) == 1 else None


def _by_title(items: dict[str, Any], title: str) -> Any:
    found = [x for x in items.values() if x.title == title]
    return found[0] if len(found) == 1 else None


# -- the board: regions, links, tracks

@check
def region_ids(p: Pack) -> list[str]:
    got, want = sorted(p.regions), sorted(REGIONS)
    return [] if got == want else [f"{REGIONS_FILE}: the regions are {got}, not {want} (spec §4.1)"]


@check
def region_rules(p: Pack) -> list[str]:
    out = []
    for r in p.regions.values():
        if r.rule not in REGION_RULES:
            out.append(f"{REGIONS_FILE}: {r.id}: rule {r.rule!r} is not one of {list(REGION_RULES)}")
        elif r.id in BOOK_RULES and r.rule != BOOK_RULES[r.id]:
            out.append(f"{REGIONS_FILE}: {r.id}: rule {r.rule} is not the book's {BOOK_RULES[r.id]} (spec §4.1)")
    rules = [r.rule for r in p.regions.values()]
    dups = sorted({x for x in rules if rules.count(x) > 1})
    if dups:
        out.append(f"{REGIONS_FILE}: several regions share the rule {dups}: each region has its own")
    return out


@check
def recruitable(p: Pack) -> list[str]:
    out = []
    for r in p.regions.values():
        if r.recruitable != (r.id != NOT_RECRUITABLE):
            out.append(f"{REGIONS_FILE}: {r.id}: recruitable is {r.recruitable}; only {NOT_RECRUITABLE} "
                       "may not receive recruits (spec §6.3.4)")
    return out


@check
def region_texts(p: Pack) -> list[str]:
    out = []
    for r in p.regions.values():
        for key in ("name", "name_pl", "rule_name", "rule_name_pl"):
            if not str(getattr(r, key)).strip():
                out.append(f"{REGIONS_FILE}: {r.id}: {key} is empty")
        if not HEX.match(r.colour):
            out.append(f"{REGIONS_FILE}: {r.id}: colour {r.colour!r} is not '#rrggbb'")
    colours = [r.colour.lower() for r in p.regions.values()]
    if len(set(colours)) != len(colours):
        out.append(f"{REGIONS_FILE}: two regions share a colour: the board edges must be told apart")
    return out


@check
def links(p: Pack) -> list[str]:
    out = []
    for link in sorted(p.links, key=sorted):
        ends = sorted(link)
        if len(ends) != 2:
            out.append(f"{REGIONS_FILE}: link {ends} joins a region to itself")
        unknown = [x for x in ends if x not in p.regions]
        if unknown:
            out.append(f"{REGIONS_FILE}: link {'-'.join(ends)} names unknown regions {unknown}")
    if p.regions:
        start = sorted(p.regions)[0]
        seen, todo = {start}, [start]
        while todo:
            for n in p.neighbours(todo.pop()):
                if n in p.regions and n not in seen:
                    seen.add(n)
                    todo.append(n)
        cut = sorted(set(p.regions) - seen)
        if cut:
            out.append(f"{REGIONS_FILE}: links: {cut} cannot be reached from {start}: the map must be connected")
    return out


@check
def tracks(p: Pack) -> list[str]:
    out = []
    for r in p.regions.values():
        where = f"{REGIONS_FILE}: {r.id}"
        if len(r.track) < MIN_TRACK:
            out.append(f"{where}: the track has {len(r.track)} squares; it needs {MIN_TRACK} or more "
                       f"(the last {OCCUPIED_SQUARES} are occupied)")
            continue
        if len(r.thresholds) != len(r.track) - 1:
            out.append(f"{where}: {len(r.thresholds)} thresholds for {len(r.track)} squares: one arrow "
                       f"between each two squares, so {len(r.track) - 1}")
        if any(x < 0 for x in r.track):
            out.append(f"{where}: a domination level below 0 on the track {list(r.track)}")
        if any(b < a for a, b in zip(r.track, r.track[1:], strict=False)):
            out.append(f"{where}: the domination levels fall to the right {list(r.track)}: the Axis side is the right")
        if any(x < 1 for x in r.thresholds):
            out.append(f"{where}: a sabotage threshold below 1 {list(r.thresholds)}")
        if not 0 <= r.start < r.occupied_from:
            out.append(f"{where}: start square {r.start} is not on the light part (squares 0..{r.occupied_from - 1})")
    nea = p.regions.get("NEA")
    if nea is not None and 1 not in nea.track[: nea.occupied_from]:
        out.append(f"{REGIONS_FILE}: NEA: no light square shows level 1, which Example 3 needs (spec §13)")
    return out


# -- soldiers

@check
def soldiers(p: Pack) -> list[str]:
    out = []
    if len(p.soldiers) != SOLDIER_COUNT:
        out.append(f"{SOLDIERS_FILE}: {len(p.soldiers)} soldiers, the deck has {SOLDIER_COUNT} (spec §2)")
    for s in p.soldiers.values():
        where = f"{SOLDIERS_FILE}: {s.id}"
        if not SOLDIER_ID.match(s.id):
            out.append(f"{where}: the id is not s<two digits>")
        if s.formation not in FORMATIONS:
            out.append(f"{where}: formation {s.formation!r} is not one of {list(FORMATIONS)}")
        if s.ability not in ABILITIES:
            out.append(f"{where}: ability {s.ability!r} is not one of {list(ABILITIES)}")
        for key in ("strength", "underground"):
            value = getattr(s, key)
            if not 1 <= value <= ATTRIBUTE_CAP:
                out.append(f"{where}: {key} {value} is outside 1..{ATTRIBUTE_CAP}")
        for key in ("name", "note", "note_pl"):
            if not str(getattr(s, key)).strip():
                out.append(f"{where}: {key} is empty")
    return out


@check
def book_soldiers(p: Pack) -> list[str]:
    """The soldiers the book names (spec §12.2) and what its examples fix about them."""
    out = []
    named = ("Chruściel", "Rapp-Kochańska", "Krasnodębski", "Nahorski", "Bałuk", "Pilch")
    found = {n: _by_name(p, n) for n in named}
    out += [f"{SOLDIERS_FILE}: no single soldier named {n} (spec §12.2)" for n, s in found.items() if s is None]
    k, nah, bal, pil = (found[n] for n in ("Krasnodębski", "Nahorski", "Bałuk", "Pilch"))
    if k is not None and (k.formation, k.strength, k.underground, k.ability) != ("PILOT", 3, 2, "TRAINING"):
        out.append(f"{SOLDIERS_FILE}: {k.id}: Krasnodębski is a Pilot, 3/2, Training (Example 1), not "
                   f"{k.formation} {k.strength}/{k.underground} {k.ability}")
    for s in (bal, pil):
        if s is not None and s.formation == "PILOT":
            out.append(f"{SOLDIERS_FILE}: {s.id}: {s.name} adds 1 to Battle of Britain unwounded, so is no Pilot "
                       "(Example 3)")
    if None not in (k, nah, bal, pil):
        assert k and nah and bal and pil
        if bal.underground != pil.underground:
            out.append(f"{SOLDIERS_FILE}: {bal.id}, {pil.id}: Bałuk and Pilch tie on Underground in Example 3 "
                       f"({bal.underground} and {pil.underground})")
        if max(k.underground, nah.underground) >= min(bal.underground, pil.underground):
            out.append(f"{SOLDIERS_FILE}: {nah.id}, {k.id}: Nahorski and Krasnodębski take the first wounds in "
                       "Example 3, so their Underground is below Bałuk's and Pilch's")
    return out


# -- missions

@check
def missions(p: Pack) -> list[str]:
    out = []
    if len(p.missions) != MISSION_COUNT:
        out.append(f"{MISSIONS_FILE}: {len(p.missions)} missions, not {MISSION_COUNT} (spec §2, OQ-2)")
    stages = [m.stage for m in p.missions.values()]
    for stage, want in ((1, STAGE_I_COUNT), (2, STAGE_II_COUNT)):
        if stages.count(stage) != want:
            out.append(f"{MISSIONS_FILE}: {stages.count(stage)} stage {stage} missions, not {want} (spec §12.3)")
    for m in p.missions.values():
        where = f"{MISSIONS_FILE}: {m.id}"
        if not MISSION_ID.match(m.id):
            out.append(f"{where}: the id is not m<two digits>")
        if m.stage not in (1, 2):
            out.append(f"{where}: stage {m.stage} is neither 1 (red) nor 2 (yellow)")
        elif m.stage != (1 if m.date < STAGE_II_FROM else 2):
            out.append(f"{where}: stage {m.stage} does not match its date (stage II from I 1943, spec §7.2)")
        if not START_MONTH <= m.date <= LAST_MONTH:
            out.append(f"{where}: date {m.date} is off the time track (IX 1939..V 1945)")
        if m.region not in REGIONS:
            out.append(f"{where}: region {m.region!r} is not one of {list(REGIONS)}")
        if m.formation not in FORMATIONS:
            out.append(f"{where}: formation {m.formation!r} is not one of {list(FORMATIONS)}")
        if m.difficulty < 1:
            out.append(f"{where}: difficulty {m.difficulty} is below 1")
        if m.vp < 1:
            out.append(f"{where}: vp {m.vp} is below 1")
        for key in ("title", "title_pl"):
            if not str(getattr(m, key)).strip():
                out.append(f"{where}: {key} is empty")
    return out


@check
def book_missions(p: Pack) -> list[str]:
    m = _by_title(p.missions, "Battle of Britain")
    if m is None:
        return [f"{MISSIONS_FILE}: no single mission titled 'Battle of Britain' (spec §12.3)"]
    got = (m.date, m.region, m.formation, m.difficulty)
    want = (month_index("VIII 1940"), "NEA", "PILOT", 8)
    return [] if got == want else [f"{MISSIONS_FILE}: {m.id}: Battle of Britain is VIII 1940, NEA, Pilot, "
                                   f"difficulty 8 (Examples 1 and 3), not {got}"]


# -- events

@check
def events(p: Pack) -> list[str]:
    out = []
    if len(p.events) != EVENT_COUNT:
        out.append(f"{EVENTS_FILE}: {len(p.events)} events, the deck has {EVENT_COUNT} (spec §2)")
    for e in p.events.values():
        where = f"{EVENTS_FILE}: {e.id}"
        if not EVENT_ID.match(e.id):
            out.append(f"{where}: the id is not e<two digits>")
        if e.region not in REGIONS:
            out.append(f"{where}: region {e.region!r} is not one of {list(REGIONS)}")
        if e.advance < 1:
            out.append(f"{where}: advance {e.advance} is below 1: time must move")
        if not START_MONTH <= e.date <= LAST_MONTH:
            out.append(f"{where}: date {e.date} is off the time track (IX 1939..V 1945)")
        if not e.effects:
            out.append(f"{where}: no effect")
        for j, x in enumerate(e.effects):
            out += [f"{where} effect #{j + 1}: {msg}" for msg in _effect_problems(p, x)]
        for key in ("title", "title_pl", "text", "text_pl"):
            if not str(getattr(e, key)).strip():
                out.append(f"{where}: {key} is empty")
    total = sum(e.advance for e in p.events.values())
    if total < LAST_MONTH - START_MONTH:
        out.append(f"{EVENTS_FILE}: the advances add up to {total} months; the deck must be able to carry the "
                   f"time marker the {LAST_MONTH - START_MONTH} months from IX 1939 to V 1945")
    return out


def _effect_problems(p: Pack, x: Effect) -> list[str]:
    if x.op not in EVENT_OPS:
        return [f"op {x.op!r} is not one of {list(EVENT_OPS)}"]
    out = []
    if x.op == "domination":
        if x.region and x.region not in p.regions:
            out.append(f"region {x.region!r} is unknown")
        if x.n == 0:
            out.append("domination moves 0 squares")
    elif x.op in ("recruit", "heal"):
        if x.region not in p.regions:
            out.append(f"{x.op} needs a region, not {x.region!r}")
        if x.op == "recruit" and x.n < 1:
            out.append(f"recruit places {x.n} soldiers")
    elif x.op == "nurses":
        if x.n < 1:
            out.append(f"nurses gives {x.n} tokens")
        if x.region:
            out.append("nurses go to every player, not to a region")
    return out


@check
def book_events(p: Pack) -> list[str]:
    out = []
    o = _by_title(p.events, "Operation Overlord")
    if o is None:
        out.append(f"{EVENTS_FILE}: no single event titled 'Operation Overlord' (spec §12.1)")
    elif (o.date, o.region, o.advance) != (month_index("VI 1944"), "WEU", 6):
        out.append(f"{EVENTS_FILE}: {o.id}: Operation Overlord is VI 1944, WEU, advance 6 (Example 3), not "
                   f"{(o.date, o.region, o.advance)}")
    h = _by_title(p.events, "Attack on Pearl Harbor")
    if h is None:
        out.append(f"{EVENTS_FILE}: no single event titled 'Attack on Pearl Harbor' (spec §12.1)")
    elif sorted((x.op, x.region, x.n) for x in h.effects) != [("domination", "NEA", -1), ("domination", "WEU", -1)]:
        out.append(f"{EVENTS_FILE}: {h.id}: Pearl Harbor lowers domination by 1 in WEU and in NEA, and does "
                   "nothing else (spec §12.1)")
    return out


# -- provenance and names

@check
def sources(p: Pack) -> list[str]:
    items = [*((REGIONS_FILE, r.id, r.source) for r in p.regions.values()),
             *((SOLDIERS_FILE, s.id, s.source) for s in p.soldiers.values()),
             *((MISSIONS_FILE, m.id, m.source) for m in p.missions.values()),
             *((EVENTS_FILE, e.id, e.source) for e in p.events.values())]
    return [f"{file}: {i}: no source" for file, i, src in items if not src.strip()]


def _secret_names(p: Pack) -> list[tuple[str, str, str]]:
    """(file, id, text) of every name that is a secret token somewhere: a soldier in a deck, a mission in a
    hand or the stage II pile, an event in its deck."""
    return [*((SOLDIERS_FILE, s.id, s.name) for s in p.soldiers.values()),
            *((MISSIONS_FILE, m.id, m.title) for m in p.missions.values()),
            *((MISSIONS_FILE, m.id, m.title_pl) for m in p.missions.values()),
            *((EVENTS_FILE, e.id, e.title) for e in p.events.values()),
            *((EVENTS_FILE, e.id, e.title_pl) for e in p.events.values())]


@check
def names(p: Pack) -> list[str]:
    """Names unique, and none inside another: a leak check looks for a secret's name in what a seat is sent,
    so a public name holding a secret one would be a false leak, and one secret inside another a missed one."""
    out = []
    named = _secret_names(p)
    seen: dict[str, tuple[str, str]] = {}
    for file, i, text in named:
        key = text.strip().casefold()
        if key in seen and seen[key] != (file, i):
            out.append(f"{file}: {i}: the name {text!r} is also {seen[key][0]}: {seen[key][1]}'s")
        seen.setdefault(key, (file, i))
    for file, i, text in named:
        for file2, i2, text2 in named:
            a, b = text.strip().casefold(), text2.strip().casefold()
            if a and a != b and a in b:
                out.append(f"{file}: {i}: the name {text!r} is inside {file2}: {i2}'s {text2!r}")
    return out


@check
def public_texts(p: Pack) -> list[str]:
    """A name is secret while its card is hidden (a mission in a hand, a soldier or an event in its deck), so no
    text shown beside another card (a soldier's note, a mission's note once revealed, an event's effect, a
    region's rule) may quote it."""
    texts = [*((SOLDIERS_FILE, s.id, t) for s in p.soldiers.values() for t in (s.note, s.note_pl)),
             *((MISSIONS_FILE, m.id, t) for m in p.missions.values() for t in (m.note, m.note_pl)),
             *((EVENTS_FILE, e.id, t) for e in p.events.values() for t in (e.text, e.text_pl)),
             *((REGIONS_FILE, r.id, t) for r in p.regions.values()
               for t in (r.name, r.name_pl, r.rule_name, r.rule_name_pl))]
    return [f"{file}: {i}: its text quotes {file2}: {i2}'s name {name!r}"
            for file, i, text in texts for file2, i2, name in _secret_names(p)
            if (file, i) != (file2, i2) and name.strip() and name.strip().casefold() in text.casefold()]
