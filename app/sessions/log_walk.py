"""The one walk of a match's log: from a state (the setup, or a snapshot) through logged rows,
each applied with its own ``action_rng``, exactly as the server applied it. Every user of the
log goes through here: the match cache (live play, history's past views, the state after an
undo), export's public hashes, verifying an export, and ``python -m app replay``.

A row is a move (an answer to a pending decision), an undo (takes back the standing move it
names: the newest one or, inside a simultaneous step, a seat's own answer), or a table event
(a "meta" row, a resignation...) that leaves the game state alone."""

from __future__ import annotations

import pickle
from collections.abc import Iterator, Sequence
from typing import Any, Protocol, TypeVar

from app.games.protocol import Action, GameRules, Seat, State, action_rng, validate_action

SETUP_SEQ = 0
# A walk keeps the state after every CHECKPOINT_EVERY-th standing move, so an undo replays
# at most that many moves instead of the whole game (memory: one pickled state per stretch).
CHECKPOINT_EVERY = 32


class LoggedMove(Protocol):
    seq: int
    seat: str
    payload: dict[str, Any]


M = TypeVar("M", bound=LoggedMove)


def is_undo(move: LoggedMove) -> bool:
    return "undo" in move.payload


def is_meta(move: LoggedMove) -> bool:
    """Table events in the log (a resignation...) that leave the game state alone."""
    return "meta" in move.payload


def setup(game: GameRules, options: dict[str, Any], seats: list[Seat], seed: bytes) -> State:
    """The state before the first row: the game's setup with the match's seed."""
    return game.setup(dict(options), seats, action_rng(seed, SETUP_SEQ))


def standing(moves: Sequence[M]) -> list[M]:
    """The rows still standing: each undo row takes back the standing row it names.

    Snapshots at or after an undone move are deleted with the undo, so a range that
    starts at a snapshot always holds the moves its undos take back."""
    out: list[M] = []
    for move in moves:
        if is_undo(move):
            at = next((i for i, m in enumerate(out) if m.seq == move.payload["undo"]), None)
            if at is None:
                raise ValueError(f"undo at seq {move.seq} takes back seq {move.payload['undo']}, which does not stand")
            del out[at]
        else:
            out.append(move)
    return out


def undoable_move(moves: Sequence[M], seat: str) -> M | None:
    """The move ``seat`` may take back now among the standing ``moves``, if any: its own newest
    standing move, when that is the newest move of all, or when only other seats' answers to the
    same simultaneous step came after it (answers of one step commute, and none revealed anything)."""
    for i in range(len(moves) - 1, -1, -1):
        move = moves[i]
        if move.seat == seat:
            if is_meta(move) or not move.payload.get("undoable"):
                return None
            later = moves[i + 1:]
            group = move.payload.get("group")
            if all(m.payload.get("undoable") and group is not None and m.payload.get("group") == group
                   for m in later):
                return move
            return None
        if not (move.payload.get("undoable") and move.payload.get("group")):
            return None  # another seat's move that is not part of a simultaneous step
    return None


def play(game: GameRules, state: State, seed: bytes, move: LoggedMove, check: bool = True) -> None:
    """Apply one logged move to ``state`` in place. ``check``: the move must answer a decision
    pending for its seat, legally (an export or an old log under new rules); the server's own
    log skips that, as every row was legal when it was committed."""
    if is_meta(move):
        return
    if not check:
        action = Action(decision=move.payload["decision"], choices=tuple(move.payload["choices"]))
    else:
        decision = next((d for d in game.pending(state)
                         if d.id == move.payload["decision"] and d.seat == move.seat), None)
        if decision is None:
            raise ValueError(f"no decision '{move.payload['decision']}' was pending for seat '{move.seat}'")
        action = validate_action(decision, list(move.payload["choices"]))
    game.apply(state, move.seat, action, action_rng(seed, move.seq))


def walk(game: GameRules, state: State, seed: bytes, moves: Sequence[M], *, check: bool = True,
         every_row: bool = True, checkpoint_every: int = CHECKPOINT_EVERY) -> Iterator[tuple[M, State]]:
    """Walk ``moves`` from ``state``, yielding each row with the state after it.

    ``every_row`` False: only the end matters, so the undone moves and their undos are left
    out before the walk (each standing move is applied once, in place on ``state``).
    Otherwise the walk is linear in the log: an undo returns to the state kept under an undoable
    move (the usual undo; undo/redo pairs cost nothing), else to the nearest checkpoint below it.
    The state yielded is the walk's own: read it before asking for the next one."""
    if not every_row:
        moves = standing(moves)

    def rebuild(kept: list[M], checkpoints: list[bytes]) -> State:
        base = min(len(kept) // checkpoint_every, len(checkpoints) - 1) * checkpoint_every
        state = pickle.loads(checkpoints[base // checkpoint_every])
        for k in range(base, len(kept)):
            play(game, state, seed, kept[k], check)
            if (k + 1) % checkpoint_every == 0 and len(checkpoints) == (k + 1) // checkpoint_every:
                checkpoints.append(_freeze(state))  # those past an undone move were dropped
        return state

    kept: list[M] = []
    # checkpoints[i]: the state after the first i * checkpoint_every standing moves, frozen only
    # once an undo may need it. Pickles, not deep copies: exact (types and key order survive),
    # compact, and several times faster.
    checkpoints: list[bytes] | None = None
    under_top: bytes | None = None  # the state under the newest standing move, if it may be undone
    for move in moves:
        if is_undo(move):
            at = next((i for i, m in enumerate(kept) if m.seq == move.payload["undo"]), None)
            if at is None or checkpoints is None:
                raise ValueError("an undo that takes back a move that does not stand")
            newest = at == len(kept) - 1  # else a seat's answer inside a simultaneous step
            del kept[at]
            del checkpoints[at // checkpoint_every + 1:]  # those held the undone move
            state = pickle.loads(under_top) if newest and under_top is not None else rebuild(kept, checkpoints)
            under_top = None
        else:
            if every_row:
                if checkpoints is None:
                    checkpoints = [_freeze(state)]
                under_top = _freeze(state) if move.payload.get("undoable") else None
            play(game, state, seed, move, check)
            kept.append(move)
            if checkpoints is not None and len(kept) % checkpoint_every == 0:
                checkpoints.append(_freeze(state))
        yield move, state


def walk_to_end(game: GameRules, state: State, seed: bytes, moves: Sequence[LoggedMove], *,
                check: bool = False) -> State:
    """The state after the whole of ``moves`` (the server's own log: not checked by default)."""
    for _step in walk(game, state, seed, moves, check=check, every_row=False):
        pass  # in place: with the undone moves left out, nothing walks back to a kept state
    return state


def _freeze(state: State) -> bytes:
    return pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
