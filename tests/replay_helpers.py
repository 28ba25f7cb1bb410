"""Rebuild a match's states from the database with the server's own replay: tests only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg

from app.db import sync_url
from app.games.protocol import GameRules, Seat, action_rng
from app.sessions.history import replay_states


def conninfo(database_url: str) -> str:
    return sync_url(database_url).replace("postgresql+psycopg", "postgresql")


@dataclass
class Row:
    seq: int
    seat: str
    payload: dict[str, Any]


def states_by_seq(database_url: str, match_id: str, game: GameRules) -> dict[int, Any]:
    """seq -> a dumped copy of the state after that seq (0 = after setup)."""
    with psycopg.connect(conninfo(database_url)) as conn:
        seed, options = conn.execute("SELECT seed, options FROM matches WHERE id = %s", (match_id,)).fetchone()
        seats = [Seat(id=s, label=label, roles=tuple(roles)) for s, label, roles in conn.execute(
            "SELECT seat, label, roles FROM match_seats WHERE match_id = %s ORDER BY position", (match_id,))]
        rows = [Row(*r) for r in conn.execute(
            "SELECT seq, seat, payload FROM actions WHERE match_id = %s ORDER BY seq", (match_id,)).fetchall()]
    out = {0: game.load(game.dump(game.setup(dict(options), seats, action_rng(bytes(seed), 0))))}
    for row, state in replay_states(game, dict(options), seats, bytes(seed), rows):
        out[row.seq] = game.load(game.dump(state))
    return out

