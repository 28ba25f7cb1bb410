"""Which games this server runs.

The built-in games are listed by import path; a game that is not yet written
simply is not listed. ``WARROOM_EXTRA_GAMES`` (comma-separated ``module:attr``)
adds games such as the test-only fixture game without showing them in a normal
run's lobby.
"""

from __future__ import annotations

import importlib
import logging
import os
from functools import cache

from app.games.protocol import GamePackage, GameRules

log = logging.getLogger("warroom.games")

BUILTIN: tuple[str, ...] = (
    "app.games.qmg:GAME",
    "app.games.total_domination:GAME",
    "app.games.attack:GAME",
    "app.games.first_to_fight:GAME",
    "app.games.autarcha:GAME",
)


def _load(path: str) -> GameRules:
    module_name, _, attr = path.partition(":")
    game = getattr(importlib.import_module(module_name), attr or "GAME")
    if not isinstance(game, GameRules):
        raise TypeError(f"{path} does not satisfy the GameRules protocol")
    return game


@cache
def installed() -> dict[str, GameRules]:
    games: dict[str, GameRules] = {}
    for path in BUILTIN:
        try:
            game = _load(path)
        except ModuleNotFoundError as missing:
            if missing.name and path.startswith(missing.name):
                continue  # that game's package is not written yet
            log.exception("game %s failed to load; it is not offered on this server", path)
            continue
        except Exception:
            # one broken game must not take the other games' tables down with it
            log.exception("game %s failed to load; it is not offered on this server", path)
            continue
        games[game.id] = game
    extra = os.environ.get("WARROOM_EXTRA_GAMES", "")
    for path in filter(None, (p.strip() for p in extra.split(","))):
        game = _load(path)
        games[game.id] = game
    return games


def get(game_id: str) -> GameRules | None:
    return installed().get(game_id)


NO_PACKAGE = GamePackage()


def package(game_id: str) -> GamePackage:
    """The game's package (catalogue, board, view sections, bots); an empty one for an unknown game."""
    game = get(game_id)
    return game.package if game is not None else NO_PACKAGE
