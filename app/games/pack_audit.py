"""A data pack's audit: named checks, each returning its findings, run when the pack is loaded.

Each game's ``pack_load`` holds one ``Audit`` and registers its checks with ``@check``; ``audit(pack)``
prefixes every finding with its check's name, after the reader's own findings (``pack.problems``: an
unknown key, a duplicate id...). A check tripped by a pack too broken to look at (a missing key, a
wrong type) is a finding too, not a crash. Pure: no web, no database."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Check = Callable[[Any], list[str]]


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
