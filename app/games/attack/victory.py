"""The end of the game (spec §21) and the standings it is judged by.

Three ways to end, the table's option ``end``:

* ``timed`` (the book's usual table): the limit is a number of TURNS in all (option ``turn_limit``),
  since a web table has no wall clock the rules could read. Settled reading 3 (issue 12): the turn in
  progress when the limit is reached is the last, so the game ends after the ``turn_limit``-th turn;
  option ``finish_round`` plays the round out instead (§24). Elimination still ends it at once (A-21.2).
* ``elimination``: no turn limit; the game ends at once when a player is eliminated (A-21.1).
* ``last_standing`` (A-21.4): an eliminated player leaves and the others play on until one is left.

Without a turn limit a game ends anyway after ``UNTIMED_ROUNDS`` rounds, judged as a timed game
would be: not a rule, a guard so that no table (and no fuzzed match) runs for ever.

The winner holds the most regions; on a tie the most regions + land units (A-21.3); a tie after
that is a shared win (gap A-21.3, README)."""

from __future__ import annotations

from typing import Any

from app.games.attack.engine import Ctx, Task
from app.games.attack.flow import end_check
from app.games.attack.pack import NAVY_TYPES
from app.games.attack.state import GameState
from app.games.attack.text import as_json, say

UNTIMED_ROUNDS = 30  # with four players 120 turns: over three times the default timed game (36 turns)


# ------------------------------------------------------------------ the standings
def standings(state: GameState) -> list[tuple[int, int, str]]:
    """(regions, regions + land units, seat) of the seats still in the game, best first (A-21.3);
    seats level on both keep the turn order (the list is for showing: ``leaders`` judges)."""
    live = state.live()
    rows = [(len(state.regions_of(s)), len(state.regions_of(s)) + state.land_units(s), s) for s in live]
    return sorted(rows, key=lambda r: (-r[0], -r[1], live.index(r[2])))


def leaders(state: GameState) -> list[str]:
    """The winners if the game ended now: the most regions, then the most regions + land units; all
    those level on both share the win."""
    rows = standings(state)
    if not rows:
        return []
    best = rows[0][:2]
    return [s for a, b, s in rows if (a, b) == best]


def standing_msgs(state: GameState) -> list[dict[str, Any]]:
    """The standings as log parameters ("Green 7 regions, 19 land units"), the summary reads them."""
    return [{"id": "standing_row", "params": {"seat": state.colours[s], "regions": r, "units": ru - r, "n": r}}
            for r, ru, s in standings(state)]


def finish(ctx: Ctx, reason: str) -> None:
    """End the game now: the winners by A-21.3, the scores (regions held) and the summary line."""
    state = ctx.state
    winners = leaders(state)
    rows = standings(state)
    tie_break = len(rows) > 1 and rows[1][0] == rows[0][0]  # the regions alone did not decide
    colours = [state.colours[s] for s in winners]
    regions = rows[0][0] if rows else 0
    units = rows[0][1] - rows[0][0] if rows else 0
    reason_msg = as_json(say(f"end_{reason}"))
    if len(winners) > 1:
        summary = say("game_shared", reason=reason_msg, winners=colours, n=regions, units=units)
    elif tie_break:
        summary = say("game_won_tie_break", reason=reason_msg, winner=colours[0], n=regions, units=units)
    else:
        summary = say("game_won", reason=reason_msg, winner=colours[0] if colours else "", n=regions)
    state.phase = "over"
    state.outcome = {"winners": winners, "reason": reason,
                     "scores": {s: len(state.regions_of(s)) for s in state.seats},
                     "summary_msg": as_json(summary)}
    ctx.log("game_over", reason=reason_msg, winners=colours, round=state.round, standing=standing_msgs(state),
            result=as_json(summary))


# ------------------------------------------------------------------ the clock (turns)
def timed(state: GameState) -> bool:
    return state.options.get("end", "timed") == "timed"


def last_turn(state: GameState) -> int:
    """The number of the game's last turn (turns counted from 1 over all players): the table's
    limit, rounded up to the end of its round with ``finish_round``; the guard's for untimed games."""
    n = len(state.order or state.seats)
    if not timed(state):
        return UNTIMED_ROUNDS * n
    limit = int(state.options.get("turn_limit") or 0)
    if state.options.get("finish_round"):
        return -(-limit // n) * n
    return limit


def trade_locked(state: GameState) -> bool:
    """A-19.6: no Trade "in the last 30 minutes" of a timed game. The clock counts turns, so read
    as each player's last turn: the last round's worth of turns before the game's last turn ends."""
    if not timed(state) or state.phase != "play":
        return False
    n = len(state.live())
    turn_no = state.turns_taken + 1  # the turn in progress
    return turn_no > last_turn(state) - n


def _rounds_task(state: GameState) -> Task | None:
    return next((t for t in state.stack if t.get("k") == "rounds"), None)


def round_complete(state: GameState) -> bool:
    """Right after a turn: has every seat still in the game had its turn this round?"""
    t = _rounds_task(state)
    order = state.order
    if t is None or not order:
        return False
    pos = t.get("next", 0) % len(order)
    return pos == 0 or all(s in state.eliminated for s in order[pos:])


# ------------------------------------------------------------------ the checks (flow.check_end)
@end_check
def _elimination(ctx: Ctx) -> None:
    """A-21.1: a seat with no land units on the map is eliminated; the game ends at once, except
    in the last-player-standing variant (A-21.4), where it leaves and the others play on."""
    state = ctx.state
    if state.phase != "play":
        return
    out = [s for s in state.live() if state.land_units(s) == 0]
    if not out:
        return
    for s in out:
        state.eliminated.append(s)
        ctx.log("eliminated", seat=state.colours[s])
    if state.options.get("end") != "last_standing":
        finish(ctx, "elimination")
        return
    for s in out:
        leave(ctx, s)
    if len(state.live()) <= 1:
        finish(ctx, "last_standing")


def leave(ctx: Ctx, seat: str) -> None:
    """An eliminated player leaves (gap A-21.4, README): its Economics cards are shuffled into the
    deck, its Navy cards go back to the Navy deck, and sea control lapses if it held it. Its capital
    piece stays where it stands: whoever holds the region holds the capital (A-18.2)."""
    state = ctx.state
    colour = state.colours[seat]
    hand = state.hands.get(seat, [])
    if hand:
        # it held them, so it knows them: its own old lines naming them are no leak now
        state.see(seat, *hand)
        state.deck.extend(hand)
        ctx.rng.shuffle(state.deck)
        ctx.log("hand_returned", seat=colour, n=len(hand))
    state.hands[seat] = []
    ships = sum(state.navy.get(seat, {}).get(k, 0) for k in NAVY_TYPES)
    if ships:
        ctx.log("navy_returned", seat=colour, n=ships)
    state.navy[seat] = {}
    if state.sea_controller == seat:
        state.sea_controller = None
        ctx.log("sea_control_lapses", seat=colour)


@end_check
def _turn_end(ctx: Ctx) -> None:
    """After a turn (flow runs the checks with the turn cleared): a round's standings when the
    round is complete, then the end of a timed game (or of the guard's) when its last turn is over."""
    state = ctx.state
    if state.phase != "play" or state.turn or state.active:
        return
    if round_complete(state):
        ctx.log("round_ends", round=state.round, standing=standing_msgs(state))
    if state.turns_taken < last_turn(state):
        return
    if timed(state):
        finish(ctx, "time")
    else:
        finish(ctx, "round_cap")
