"""A game's view as a frame and parts: each rule module adds the part of a seat's view it owns, and
the secrets only it knows of, through a registry the game's ``views`` module holds, so no module
reaches into another's state to show it. Pure: no web, no database."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from app.games.secrets import Secret

ViewPart = Callable[[Any, str | None], dict[str, Any]]
SecretPart = Callable[[Any, str], Iterable[str | Secret]]


class ViewParts:
    """The parts of one game's views: ``view_part`` (what a seat or a spectator sees), ``page_part``
    (what only the table page reads, such as the seat's own pending decisions: a bot asking for its view
    at every answer leaves these out) and ``secret_part`` (what a seat must not learn)."""

    def __init__(self) -> None:
        self.views: list[ViewPart] = []
        self.pages: list[ViewPart] = []
        self.secrets: list[SecretPart] = []

    def view_part(self, fn: ViewPart) -> ViewPart:
        self.views.append(fn)
        return fn

    def page_part(self, fn: ViewPart) -> ViewPart:
        self.pages.append(fn)
        return fn

    def secret_part(self, fn: SecretPart) -> SecretPart:
        self.secrets.append(fn)
        return fn

    def add_views(self, out: dict[str, Any], state: Any, seat: str | None, page: bool = True) -> dict[str, Any]:
        for part in self.views:
            out.update(part(state, seat))
        if page:
            for part in self.pages:
                out.update(part(state, seat))
        return out

    def add_secrets(self, out: set[str | Secret], state: Any, seat: str) -> set[str | Secret]:
        for part in self.secrets:
            out.update(part(state, seat))
        return out
