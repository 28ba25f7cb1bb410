"""First to Fight's data pack: the five regions and their tracks, the soldiers, the missions, the
neutral events, the time track.

The rulebook gives the procedures but almost none of the data (spec §15), so the YAML files in
``data/`` are authored: each item carries ``source:`` (a rulebook section, a historical reference, or
``reconstructed``). This module is the only reader of those files (through ``pack_load``); the rules
see typed, frozen objects. Rule tests stage their own packs (``Pack`` is plain data) and install one
with ``use_pack``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"

REGIONS: tuple[str, ...] = ("WAR", "POL", "NEA", "WEU", "NAI")  # spec §4.1
FORMATIONS: tuple[str, ...] = ("INFANTRY", "SAILOR", "ARMORED", "PILOT", "PARATROOPER", "SABOTEUR")  # §5.2
ABILITIES: tuple[str, ...] = ("ADDITIONAL_RECRUITMENT", "VICTORY_POINT", "TRAINING", "UNDERGROUND", "MOVEMENT",
                              "LIAISON")  # §5.5
ORDERS: tuple[str, ...] = ("MOVEMENT", "SABOTAGE", "TRAINING", "RECRUITMENT", "CONCENTRATION", "MANEUVERS")  # §6.2
REGION_RULES: tuple[str, ...] = ("DROPS", "UNDERGROUND_STATE", "TRAINING_CAMP", "MAIN_FRONT", "REVEAL_TWO")  # §4.4
EVENT_OPS: tuple[str, ...] = ("domination", "recruit", "nurses", "heal")  # the advanced effects' vocabulary
ATTRIBUTE_CAP = 5  # §5.3
NURSE_CAP = 3  # §5.4
FAIL_VP = -5  # §7.7
SABOTAGE_OCCUPIED_VP = 3  # §6.3.2
OCCUPIED_SQUARES = 3  # the last three squares of a track (§4.3)
STAGE_II_CAP = 3  # §7.4
START_MONTH = 0  # IX 1939
LAST_MONTH = 68  # V 1945 (§10.1)
STAGE_II_FROM = 40  # I 1943
MONTHS_PL = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")


def month_label(index: int) -> str:
    """The time track's square ``index`` as the book writes dates: "IX 1939" (index 0)."""
    month = (index + 8) % 12
    year = 1939 + (index + 8) // 12
    return f"{MONTHS_PL[month]} {year}"


def month_index(label: str) -> int:
    """"VIII 1940" -> 11; the inverse of ``month_label`` (spec §10.1's formula)."""
    roman, year = label.split()
    return (int(year) - 1939) * 12 + MONTHS_PL.index(roman) + 1 - 9


@dataclass(frozen=True)
class Region:
    id: str  # one of REGIONS
    name: str
    name_pl: str
    rule: str  # one of REGION_RULES: its special rule (§4.4)
    rule_name: str
    rule_name_pl: str
    recruitable: bool  # NAI is not (§6.3.4)
    colour: str  # "#rrggbb": the board edge where its soldiers lie
    track: tuple[int, ...]  # the domination level of each square, left to right
    thresholds: tuple[int, ...]  # len(track) - 1: thresholds[i] is the arrow between squares i and i+1
    start: int  # the black-numbered starting square (an index into track)
    source: str = "reconstructed"

    @property
    def occupied_from(self) -> int:
        """The first of the three dark squares (§4.3)."""
        return len(self.track) - OCCUPIED_SQUARES


@dataclass(frozen=True)
class Soldier:
    id: str  # "s01".."s54"
    name: str  # as the card shows it: rank, name, "ps." and nom de guerre
    formation: str  # one of FORMATIONS
    strength: int  # printed Strength (1..5)
    underground: int  # printed Underground (1..5)
    ability: str  # one of ABILITIES
    note: str  # one line of history, English
    note_pl: str
    source: str  # where the person's story is told (a reference), and "reconstructed" for the game values


@dataclass(frozen=True)
class Mission:
    id: str  # "m01".."m30"
    title: str
    title_pl: str
    date: int  # month index on the time track (0..68)
    stage: int  # 1 (red) or 2 (yellow), from the date (§7.2)
    region: str
    formation: str
    difficulty: int
    vp: int
    note: str = ""
    note_pl: str = ""
    source: str = "reconstructed"


@dataclass(frozen=True)
class Effect:
    op: str  # one of EVENT_OPS
    region: str = ""  # "domination"/"recruit"/"heal": the region ("" for domination: every region)
    n: int = 0  # domination: squares (negative = left); recruit: soldiers; nurses: tokens each


@dataclass(frozen=True)
class Event:
    id: str  # "ev01".."ev24" (not "e01": a hex-like id turns up by chance in hashes and form ids)
    title: str
    title_pl: str
    region: str  # the region the Axis push hits (§6.4 step 2)
    advance: int  # months the time marker moves (§10.2)
    date: int  # month index of its advanced-rule date (§11.2)
    effects: tuple[Effect, ...]  # the advanced effect
    text: str = ""  # the effect in words, English
    text_pl: str = ""
    source: str = "reconstructed"


@dataclass(frozen=True)
class Pack:
    regions: dict[str, Region]
    links: frozenset[frozenset[str]]  # neighbouring regions (§4.2), symmetric
    soldiers: dict[str, Soldier]
    missions: dict[str, Mission]
    events: dict[str, Event]
    problems: tuple[str, ...] = field(default=())

    def neighbours(self, region: str) -> list[str]:
        return sorted(r for link in self.links if region in link for r in link if r != region)

    def adjacent(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.links


_PACK: list[Pack] = []


def pack() -> Pack:
    """The game's data pack (loaded once; a test may install its own with ``use_pack``)."""
    if not _PACK:
        from app.games.first_to_fight.pack_load import load_pack

        _PACK.append(load_pack(DATA_DIR))
    return _PACK[-1]


def use_pack(staged: Pack | None) -> None:
    """Install ``staged`` as the pack (None: back to the data files). For rule tests."""
    _PACK.clear()
    if staged is not None:
        _PACK.append(staged)
