"""Hidden facts as values at places, and the one check that no payload gives one away.

A game's ``secrets(state, seat)`` names what ``seat`` must not learn. A plain string is a
token that must not appear anywhere (a card id in another hand, a sealed bid). A
:class:`Secret` says more: a value that is not text (a coordinate pair, a number), or a
value that is only secret next to something (a unit's facing is "NE" — harmless alone,
a leak beside that unit's id). ``leaks()`` judges any payload a seat receives — JSON
bodies and frames, HTML fragments, logs, error texts — by those values, not by ids alone.
Pure: no web, no database.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

NEAR_WINDOW = 300  # characters around an id that count as "next to it" in text and HTML


@dataclass(frozen=True)
class Secret:
    place: str  # where the fact lives, for the report: "p2's headquarters", "facing of tank t3"
    value: Any  # str, int or a tuple (a coordinate pair...): hashable, JSON-like
    near: str | None = None  # secret only together with this id (e.g. the unit the facing belongs to)


def as_secret(item: str | Secret) -> Secret:
    return item if isinstance(item, Secret) else Secret(place="", value=item)


def leaks(payload: str, secrets: Iterable[str | Secret]) -> list[Secret]:
    """The secrets ``payload`` gives away."""
    found: list[Secret] = []
    index: _Index | None = None
    for secret in map(as_secret, secrets):
        if secret.near is None and isinstance(secret.value, str):
            if secret.value in payload:
                found.append(secret)
            continue
        if index is None:  # parsed and walked once, for all the secrets that are not plain text
            index = _Index(_json(payload))
        if _leaked(secret, payload, index):
            found.append(secret)
    return found


def _json(payload: str) -> Any:
    try:
        return json.loads(payload)
    except ValueError:
        return None


class _Index:
    """A parsed payload's values, walked once: scalars by type and value, and the
    sequences and coordinate objects a tuple secret may take the shape of."""

    def __init__(self, parsed: Any) -> None:
        self.parsed = parsed is not None
        self.dicts: list[dict[str, Any]] = []
        self.scalars: set[tuple[type, Any]] = set()
        self.shapes: set[tuple[Any, ...]] = set()
        self._mentioning: dict[str, list[dict[str, Any]]] | None = None
        todo = [parsed] if self.parsed else []
        while todo:  # a loop, not recursion: payloads are walked for every secret check
            v = todo.pop()
            if isinstance(v, dict):
                self.dicts.append(v)
                todo.extend(v.values())
                for keys in COORDINATE_KEYS:
                    if keys[0] in v:  # {"x": 3, "y": 4}
                        self._shape(tuple(v.get(k) for k in keys))
            elif isinstance(v, list):
                todo.extend(v)
                self._shape(tuple(v))
            else:
                self.scalars.add((type(v), v))

    def _shape(self, shape: tuple[Any, ...]) -> None:
        with contextlib.suppress(TypeError):  # holds lists or objects: no coordinate tuple equals it
            self.shapes.add(shape)

    def mentioning(self, ident: str) -> list[dict[str, Any]]:
        """The objects that name ``ident`` as a key or a value: indexed on the first call, so that
        each secret tied to an id looks at those objects only, not at every object of the payload."""
        if self._mentioning is None:
            self._mentioning = {}
            for d in self.dicts:
                named = {k for k in d if isinstance(k, str)} | {v for v in d.values() if isinstance(v, str)}
                for name in named:
                    self._mentioning.setdefault(name, []).append(d)
        return self._mentioning.get(ident, [])

    def holds(self, value: Any) -> bool:
        if isinstance(value, tuple):
            return value in self.shapes
        return (type(value), value) in self.scalars


def _leaked(secret: Secret, text: str, index: _Index) -> bool:
    value = secret.value
    if secret.near is None:
        if isinstance(value, str):
            return value in text
        if index.parsed:
            return index.holds(value)
        return any(form in text for form in _forms(value))
    if index.parsed:
        return any(any(_same(v, value) for v in d.values() if v != secret.near)
                   for d in index.mentioning(secret.near))
    return _near_in_text(text, secret.near, value)


COORDINATE_KEYS = (("x", "y"), ("row", "col"), ("col", "row"), ("q", "r"), ("file", "rank"))


def _same(found: Any, value: Any) -> bool:
    if isinstance(value, tuple):
        if isinstance(found, list):
            return found == list(value)
        if isinstance(found, dict):  # {"x": 3, "y": 4}
            return any(tuple(found.get(k) for k in keys) == value for keys in COORDINATE_KEYS if keys[0] in found)
        return False
    return type(found) is type(value) and found == value


def _forms(value: Any) -> list[str]:
    """How a non-text value may be written in HTML or plain text."""
    if isinstance(value, tuple):
        parts = [str(v) for v in value]
        joined = [",".join(parts), ", ".join(parts)]
        return [f"{a}{j}{b}" for j in joined for a, b in (("[", "]"), ("(", ")"), ('"', '"'))]
    return [f'"{value}"', f">{value}<"]


def _near_in_text(text: str, ident: str, value: Any) -> bool:
    token = re.compile(rf"(?<![\w-]){re.escape(str(value))}(?![\w-])")
    for at in (m.start() for m in re.finditer(re.escape(ident), text)):
        window = text[max(0, at - NEAR_WINDOW): at + len(ident) + NEAR_WINDOW]
        if token.search(window):
            return True
    return False
