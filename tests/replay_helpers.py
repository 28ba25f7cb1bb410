"""Rebuild a match's states from the database with the server's own replay: tests only."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass
from typing import Any

import psycopg

from app.db import sync_url
from app.games.protocol import Action, Decision, GameRules, Seat, action_rng
from app.sessions.history import EXPORT_FORMAT, public_hash, replay_states
from app.sessions.replay import state_hash


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



def undo_heavy_export(game: GameRules, seed: bytes, moves: int, pairs: int, players: int = 2,
                      options: dict[str, Any] | None = None) -> dict[str, Any]:
    """An export of ``moves`` bot moves in which every undoable decision is first answered and taken
    back ``pairs`` times (the undo/redo pairs a fidgeting player leaves in the log).

    Its hashes come from an oracle that is obviously right and too slow for a server: a copy
    of the whole state kept under every move."""
    options = dict(options or {})
    seats = game.roles(players, options)
    state = game.setup(dict(options), seats, action_rng(seed, 0))
    bots = random.Random(int.from_bytes(seed[:4], "big"))
    actions: list[dict[str, Any]] = []

    def log(payload: dict[str, Any], seat: str) -> None:
        actions.append({"seq": len(actions) + 1, "seat": seat, "payload": payload,
                        "state_hash": state_hash(game, state), "public_hash": public_hash(game, state)})

    def answer(decision: Decision, action: Action) -> None:
        game.apply(state, decision.seat, action, action_rng(seed, len(actions) + 1))
        payload: dict[str, Any] = {"decision": decision.id, "choices": list(action.choices)}
        if decision.undoable:
            payload["undoable"] = True
        log(payload, decision.seat)

    for _ in range(moves):
        if not game.pending(state):
            break
        decision = game.pending(state)[0]
        action = game.bot(state, decision, bots)
        for _ in range(pairs if decision.undoable else 0):
            before = copy.deepcopy(state)
            answer(decision, action)
            state = before
            log({"undo": len(actions)}, decision.seat)
        answer(decision, action)
    return {"format": EXPORT_FORMAT, "game": game.id, "engine_version": game.version, "options": options,
            "seats": [{"seat": s.id, "label": s.label, "roles": list(s.roles)} for s in seats],
            "seed": seed.hex(), "actions": actions}
