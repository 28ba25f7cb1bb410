"""Reading and auditing a data pack: its YAML files read strictly (``YamlFile``), and named checks,
each returning its findings, run when the pack is loaded.

Each game's ``pack_load`` holds one ``Audit`` and registers its checks with ``@check``; ``audit(pack)``
prefixes every finding with its check's name, after the reader's own findings (``pack.problems``: an
unknown key, a duplicate id...). A check tripped by a pack too broken to look at (a missing key, a
wrong type) is a finding too, not a crash. Pure: no web, no database."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

Check = Callable[[Any], list[str]]
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: faster, same result


class Audit:
    def __init__(self) -> None:
        self.checks: dict[str, Check] = {}

    def check(self, fn: Check) -> Check:
        self.checks[fn.__name__] = fn
        return fn

    def __call__(self, pack: Any) -> list[str]:
        """Every finding (empty: the pack is sound)."""
        out = [f"reading: {msg}" for msg in getattr(pack, "problems", ())]
        for name, fn in self.checks.items():
            try:
                out += [f"{name}: {msg}" for msg in fn(pack)]
            except (KeyError, ValueError, IndexError, TypeError, AttributeError) as exc:
                out.append(f"{name}: cannot check ({type(exc).__name__}: {exc})")
        return out


class YamlFile:
    """One YAML file of a data pack being read: a file missing, not YAML, or not a mapping is refused
    at once; every complaint names the file (and the item). A game's reader adds its field readers."""

    def __init__(self, data_dir: Path, name: str, problems: list[str]) -> None:
        self.name = name
        self.problems = problems
        path = data_dir / name
        if not path.exists():
            raise ValueError(f"{name}: missing from {data_dir}")
        try:
            doc = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
        except yaml.YAMLError as exc:
            raise ValueError(f"{name}: not valid YAML ({exc})") from exc
        if not isinstance(doc, dict):
            raise ValueError(f"{name}: the file must be a mapping")
        self.doc: dict[str, Any] = doc

    def known(self, item: dict[str, Any], keys: set[str], where: str) -> None:
        extra = sorted(set(item) - keys)
        if extra:
            self.problems.append(f"{self.name}: {where}: unknown keys {extra}")
