"""The QMG data pack: board and cards, validated at load by Pydantic models.

The YAML files in ``data/`` carry their provenance (``source:``); the engine only
reads the fields modelled here. Every card copy gets a unique instance id such as
``ger-07`` (country prefix + position in the country's list).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

DATA_DIR = Path(__file__).parent / "data"

COUNTRIES: tuple[str, ...] = ("germany", "uk", "japan", "ussr", "italy", "usa")  # turn order
AXIS: tuple[str, ...] = ("germany", "japan", "italy")
ALLIES: tuple[str, ...] = ("uk", "ussr", "usa")
PREFIX = {"germany": "ger", "uk": "uk", "japan": "jpn", "ussr": "ussr", "italy": "ita", "usa": "usa"}
COUNTRY_NAME = {
    "germany": "Germany", "uk": "the UK", "japan": "Japan",
    "ussr": "the USSR", "italy": "Italy", "usa": "the USA",
}
COUNTRY_TITLE = {
    "germany": "Germany", "uk": "United Kingdom", "japan": "Japan",
    "ussr": "USSR", "italy": "Italy", "usa": "USA",
}
COUNTRY_PL = {
    "germany": "Niemcy", "uk": "Wielka Brytania", "japan": "Japonia",
    "ussr": "ZSRR", "italy": "Włochy", "usa": "USA",
}

# Figures printed in the rulebook (§2, §6): deck sizes and pieces per country.
RULEBOOK_DECK = {"germany": 41, "uk": 40, "japan": 34, "ussr": 34, "italy": 30, "usa": 41}
RULEBOOK_ARMIES = {"germany": 7, "uk": 5, "japan": 5, "ussr": 7, "italy": 4, "usa": 5}
RULEBOOK_NAVIES = {"germany": 3, "uk": 5, "japan": 5, "ussr": 1, "italy": 3, "usa": 6}
RULEBOOK_CARDS_TOTAL = 220

CardType = Literal[
    "build_army", "build_navy", "land_battle", "sea_battle", "status", "event", "economic_warfare", "response"
]
BASIC_TYPES: tuple[str, ...] = ("build_army", "build_navy", "land_battle", "sea_battle")


def team_of(country: str) -> str:
    return "axis" if country in AXIS else "allies"


def members(team: str) -> tuple[str, ...]:
    return AXIS if team == "axis" else ALLIES


def other_team(team: str) -> str:
    return "allies" if team == "axis" else "axis"


class _Loose(BaseModel):
    model_config = ConfigDict(extra="allow")


class Space(_Loose):
    id: str
    name_en: str
    name_pl: str | None = None
    type: Literal["land", "sea"]
    supply: bool
    home: str
    capital: bool
    adjacent: list[str]
    source: list[str] = Field(min_length=1)


class Strait(_Loose):
    id: str
    name_en: str
    anchor: str
    seas: list[str] = Field(min_length=2, max_length=2)
    default_open_to: Literal["allies", "axis"]
    source: list[str] = Field(min_length=1)


class MapPack(_Loose):
    spaces: list[Space]
    straits: list[Strait]
    non_adjacent: list[dict[str, Any]] = []

    @model_validator(mode="after")
    def _check(self) -> MapPack:
        ids = {s.id for s in self.spaces}
        if len(ids) != len(self.spaces):
            raise ValueError("duplicate space id")
        by_id = {s.id: s for s in self.spaces}
        for s in self.spaces:
            for n in s.adjacent:
                if n not in ids:
                    raise ValueError(f"{s.id}: unknown neighbour {n}")
                if s.id not in by_id[n].adjacent:
                    raise ValueError(f"adjacency not symmetric: {s.id} -> {n}")
        for st in self.straits:
            if by_id.get(st.anchor) is None or by_id[st.anchor].type != "land":
                raise ValueError(f"strait {st.id}: anchor must be a land space")
            for sea in st.seas:
                if by_id.get(sea) is None or by_id[sea].type != "sea":
                    raise ValueError(f"strait {st.id}: {sea} is not a sea space")
        for pair in self.non_adjacent:
            if pair["b"] in by_id[pair["a"]].adjacent:
                raise ValueError(f"{pair['a']} and {pair['b']} must not be adjacent")
        homes = {s.home: s.id for s in self.spaces if s.capital}
        if set(homes) != set(COUNTRIES):
            raise ValueError(f"capitals must be exactly one per country, got {sorted(homes)}")
        for c, sid in homes.items():
            if by_id[sid].type != "land" or not by_id[sid].supply:
                raise ValueError(f"capital of {c} must be a land supply space")
        # connected
        seen, todo = {self.spaces[0].id}, [self.spaces[0].id]
        while todo:
            for n in by_id[todo.pop()].adjacent:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        if seen != ids:
            raise ValueError("board graph is not connected")
        return self


class CardEntry(_Loose):
    id: str
    name_en: str
    name_pl: str | None = None
    type: CardType
    count: int = 1
    summary: str
    effect: Any = None
    uncertain: str | None = None
    source: list[str] = Field(min_length=1)


class BasicEntry(_Loose):
    id: str
    type: CardType
    count: int


class CountryPack(_Loose):
    team: Literal["axis", "allies"]
    deck_size: int
    armies: int
    navies: int
    home: str
    basic: dict[str, int]
    unique_by_type: dict[str, int]
    basic_cards: list[BasicEntry]
    cards: list[CardEntry]
    source: list[str] = Field(min_length=1)


class BasicType(_Loose):
    name_en: str
    name_pl: str
    summary: str


class CardPack(_Loose):
    basic_card_types: dict[str, BasicType]
    countries: dict[str, CountryPack]

    @model_validator(mode="after")
    def _check(self) -> CardPack:
        if tuple(self.countries) != COUNTRIES and set(self.countries) != set(COUNTRIES):
            raise ValueError("cards must list the six countries")
        total = 0
        ids: set[str] = set()
        for c, pack in self.countries.items():
            n = sum(b.count for b in pack.basic_cards) + sum(k.count for k in pack.cards)
            if n != pack.deck_size or n != RULEBOOK_DECK[c]:
                raise ValueError(f"{c}: {n} cards, rulebook says {RULEBOOK_DECK[c]}")
            if pack.armies != RULEBOOK_ARMIES[c] or pack.navies != RULEBOOK_NAVIES[c]:
                raise ValueError(f"{c}: pieces differ from the rulebook")
            for b in pack.basic_cards:
                if pack.basic.get(b.type) != b.count:
                    raise ValueError(f"{c}: basic count mismatch for {b.type}")
            for t, want in pack.unique_by_type.items():
                got = sum(k.count for k in pack.cards if k.type == t)
                if got != want:
                    raise ValueError(f"{c}: {got} {t} cards, expected {want}")
            for k in [*pack.basic_cards, *pack.cards]:
                if k.id in ids:
                    raise ValueError(f"duplicate card id {k.id}")
                ids.add(k.id)
            total += n
        if total != RULEBOOK_CARDS_TOTAL:
            raise ValueError(f"{total} cards in all, rulebook says {RULEBOOK_CARDS_TOTAL}")
        return self


class CardDef(BaseModel):
    """One physical card (instance)."""

    model_config = ConfigDict(frozen=True)

    iid: str  # instance id, e.g. "ger-07"
    key: str  # definition id, e.g. "ger_blitzkrieg" or "ger_land_battle"
    country: str
    type: str
    name_en: str
    name_pl: str
    summary: str
    summary_pl: str
    uncertain: str | None = None


def _read(name: str) -> dict[str, Any]:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: much faster
    with open(DATA_DIR / name, encoding="utf-8") as fh:
        return yaml.load(fh, Loader=loader)  # noqa: S506 - a safe loader


@cache
def map_pack() -> MapPack:
    return MapPack.model_validate(_read("map.yaml"))


@cache
def card_pack() -> CardPack:
    pack = CardPack.model_validate(_read("cards.yaml"))
    spaces = {s.id for s in map_pack().spaces}
    for c, cp in pack.countries.items():
        if cp.home not in spaces:
            raise ValueError(f"{c}: home {cp.home} is not a space")
        for card in cp.cards:
            for ref in _space_refs(card.effect):
                if ref not in spaces:
                    raise ValueError(f"{card.id}: unknown space {ref}")
    return pack


_SPACE_KEYS = {"where", "space", "adjacent_to", "in_or_adjacent_to"}
_NOT_SPACES = {
    "battled_space", "built_space", "space_of_removed_unit", "axis_home_space",
    "same_or_adjacent_to",
}


def _space_refs(node: Any, key: str | None = None) -> list[str]:
    """Space ids mentioned in a card's structured effect (for the 'every id resolves' check)."""
    out: list[str] = []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _space_refs(v, k)
    elif isinstance(node, list):
        for v in node:
            out += _space_refs(v, key)
    elif isinstance(node, str) and key in _SPACE_KEYS and node not in _NOT_SPACES and " " not in node:
        out.append(node)
    return out


@cache
def polish() -> dict[str, Any]:
    """The cards in Polish (data/cards_pl.yaml): a text for every basic type and unique card, and a
    name for each unique card the rulebook does not name (cards.yaml's name_pl wins)."""
    data = _read("cards_pl.yaml")
    pack = card_pack()
    lacking = [t for t in pack.basic_card_types if not data["basic_card_types"].get(t)]
    for cp in pack.countries.values():
        for k in cp.cards:
            entry = data["cards"].get(k.id) or {}
            if not entry.get("text") or not (k.name_pl or entry.get("name")):
                lacking.append(k.id)
    if lacking:
        raise ValueError(f"cards_pl.yaml lacks a Polish name or text for {', '.join(lacking)}")
    return data


@cache
def catalogue() -> dict[str, CardDef]:
    """Every card instance by id, in deck-list order per country."""
    pack = card_pack()
    pl = polish()
    out: dict[str, CardDef] = {}
    for c in COUNTRIES:
        cp = pack.countries[c]
        n = 0
        for b in cp.basic_cards:
            bt = pack.basic_card_types[b.type]
            for _ in range(b.count):
                n += 1
                iid = f"{PREFIX[c]}-{n:02d}"
                out[iid] = CardDef(
                    iid=iid, key=b.id, country=c, type=b.type, name_en=bt.name_en.rstrip("!"),
                    name_pl=bt.name_pl, summary=bt.summary, summary_pl=pl["basic_card_types"][b.type],
                )
        for k in cp.cards:
            for _ in range(k.count):
                n += 1
                iid = f"{PREFIX[c]}-{n:02d}"
                out[iid] = CardDef(
                    iid=iid, key=k.id, country=c, type=k.type, name_en=k.name_en,
                    name_pl=k.name_pl or pl["cards"][k.id].get("name") or k.name_en, summary=k.summary,
                    summary_pl=pl["cards"][k.id]["text"], uncertain=k.uncertain,
                )
    return out


def card(iid: str) -> CardDef:
    return catalogue()[iid]


@cache
def _deck_ids(country: str) -> tuple[str, ...]:
    return tuple(i for i, d in catalogue().items() if d.country == country)


def deck_of(country: str) -> list[str]:
    """A fresh list of the country's card ids, in deck-list order."""
    return list(_deck_ids(country))


def pieces(country: str) -> tuple[int, int]:
    cp = card_pack().countries[country]
    return cp.armies, cp.navies
