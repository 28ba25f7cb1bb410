"""Rebuild a match's states from the database, as the server would: for tests only."""

from __future__ import annotations

from typing import Any

import psycopg

from app.db import sync_url
from app.games.protocol import Action, GameRules, Seat, action_rng


def conninfo(database_url: str) -> str:
    return sync_url(database_url).replace("postgresql+psycopg", "postgresql")


def states_by_seq(database_url: str, match_id: str, game: GameRules) -> dict[int, Any]:
    """seq -> a dumped copy of the state after that seq (0 = after setup)."""
    with psycopg.connect(conninfo(database_url)) as conn:
        seed, options = conn.execute("SELECT seed, options FROM matches WHERE id = %s", (match_id,)).fetchone()
        seats = [Seat(id=s, label=label, roles=tuple(roles)) for s, label, roles in conn.execute(
            "SELECT seat, label, roles FROM match_seats WHERE match_id = %s ORDER BY position", (match_id,))]
        rows = conn.execute("SELECT seq, seat, payload FROM actions WHERE match_id = %s ORDER BY seq",
                            (match_id,)).fetchall()
    state = game.setup(dict(options), seats, action_rng(bytes(seed), 0))
    out = {0: game.load(game.dump(state))}
    for seq, seat, payload in rows:
        game.apply(state, seat, Action(payload["decision"], tuple(payload["choices"])), action_rng(bytes(seed), seq))
        out[seq] = game.load(game.dump(state))
    return out
