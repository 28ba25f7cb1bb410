"""Match lifecycle and the one path every action takes into the log."""

from __future__ import annotations

import base64
import contextlib
import logging
import os
import random
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any, Protocol

import orjson
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app import clock
from app.games.protocol import (
    Action,
    Decision,
    GameRules,
    Illegal,
    action_rng,
    random_bot,
    validate_action,
)
from app.games.registry import get as get_game
from app.games.registry import package
from app.i18n import t
from app.models import Action as ActionRow
from app.models import Match, MatchPace, MatchSeat, Snapshot, User
from app.sessions import autopass
from app.sessions.clock_rules import ClockError, parse_pace
from app.sessions.errors import Conflict, Forbidden, Invalid, Refused, RefusedMidway, Stale, not_found
from app.sessions.hooks import turn_changed
from app.sessions.replay import LoadedMatch, MatchCache, MatchHead, SeatsSeen, state_hash
from app.sessions.settings import snapshot_every
from app.sessions.views import decisions

log = logging.getLogger("warroom.sessions")

NOTIFY_CHANNEL = "match_events"
RANDOM_BOT = "random"  # the platform's; every other name is one of the game's own (GamePackage.bots)


def _seed_source() -> random.Random:
    """Where match ids and seeds come from: the OS, or (tests and benchmarks only, via
    WARROOM_TEST_SEED) a seeded generator, so that a failing run can be reproduced."""
    fixed = os.environ.get("WARROOM_TEST_SEED")
    if not fixed:
        return random.SystemRandom()
    if int(os.environ.get("WARROOM_WORKERS", "1")) > 1:
        fixed += f":{os.getpid()}"  # sibling workers must not deal the same ids
    return random.Random(fixed)


_SEEDS = _seed_source()


def new_match_id() -> str:
    # 12 url-safe chars, unguessable: private tables stay private
    return base64.urlsafe_b64encode(_SEEDS.randbytes(9)).decode()


def new_match_seed() -> bytes:
    return _SEEDS.randbytes(32)


def check_options(game: GameRules, options: dict[str, Any]) -> dict[str, Any]:
    specs = {o.id: o for o in game.options}
    for key in options:
        if key not in specs:
            known = ", ".join(specs) or "none"
            raise Invalid(f"options.{key}: {game.title} has no option '{key}' (known: {known})")
    result: dict[str, Any] = {}
    for spec in game.options:
        value = options.get(spec.id, spec.default)
        if spec.kind == "bool":
            if not isinstance(value, bool):
                raise Invalid(f"options.{spec.id}: must be true or false")
        elif spec.choices and value not in spec.choices:
            raise Invalid(f"options.{spec.id}: must be one of {', '.join(map(str, spec.choices))}")
        result[spec.id] = value
    return result


TABLE_NAME_MAX = 60


def table_name(given: str | None) -> str | None:
    """The name a new table goes by: the one given, tidied; None leaves it to each reader's language
    ("<host>'s game", "Gra: <host>"), see ``shown_table_name``."""
    name = " ".join((given or "").split())  # tabs and line breaks fold into single spaces
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise Invalid(t("table_name_control"))
    if len(name) > TABLE_NAME_MAX:
        raise Invalid(t("table_name_too_long", max=TABLE_NAME_MAX, got=len(name)))
    return name or None


def shown_table_name(name: str | None, host: str | None, game_title: str) -> str:
    """A table's name as a reader sees it: its own, else its host's game in the reader's language."""
    if name:
        return name
    return t("table_default_name", name=host) if host else game_title


async def create_match(db: AsyncSession, user: User, game_id: str, players: int, options: dict[str, Any],
                       mode: str, clock: dict[str, Any] | None = None, name: str | None = None) -> Match:
    game = get_game(game_id)
    if game is None:
        raise Invalid(f"game: '{game_id}' is not installed here")
    if not game.min_players <= players <= game.max_players:
        raise Invalid(f"players: {game.title} takes {game.min_players}–{game.max_players} players").said(
            "err_players_range", min=game.min_players, max=game.max_players)
    opts = check_options(game, options)
    try:
        seats = game.roles(players, opts)
    except Illegal as exc:
        raise Invalid(f"players: {exc}").said("err_players_range", min=game.min_players, max=game.max_players) from exc
    try:
        pace = parse_pace(mode, clock)  # None: untimed
    except ClockError as exc:
        raise Invalid(str(exc)) from exc
    match_id = new_match_id()
    while await db.get(Match, match_id) is not None:  # only a seeded test run ever repeats an id
        match_id = new_match_id()
    match = Match(id=match_id, game=game.id, name=table_name(name), engine_version=game.version,
                  options=opts, mode=mode, players=players, status="open", seq=0, seed=new_match_seed(),
                  created_by=user.id, waiting_on=[])
    db.add(match)
    await db.flush()
    for position, seat in enumerate(seats):
        db.add(MatchSeat(match_id=match.id, seat=seat.id, position=position, label=seat.label,
                         roles=list(seat.roles)))
    if pace is not None:
        db.add(MatchPace(match_id=match.id, kind=pace.kind, initial_ms=pace.initial_ms, credit_ms=pace.credit_ms,
                         cap_ms=pace.cap_ms))
    await db.flush()
    return match


async def get_match(db: AsyncSession, match_id: str, lock: bool = False) -> Match:
    stmt = select(Match).where(Match.id == match_id)
    if lock:
        stmt = stmt.with_for_update()
    match = await db.scalar(stmt)
    if match is None:
        raise not_found(f"match '{match_id}'")
    return match


async def seat_rows(db: AsyncSession, match_id: str) -> list[MatchSeat]:
    rows = (await db.scalars(select(MatchSeat).where(MatchSeat.match_id == match_id)
                             .order_by(MatchSeat.position))).all()
    return list(rows)


class Player(Protocol):
    """Who acts: a User row, or just the id a signed session cookie carries."""

    @property
    def id(self) -> int: ...


def seat_of(seats: list[MatchSeat], user: Player | None) -> str | None:
    if user is None:
        return None
    return next((s.seat for s in seats if s.user_id == user.id), None)


async def seated(db: AsyncSession, user: User, match_id: str, doing: str) -> tuple[Match, list[MatchSeat], str]:
    """Lock a running match for one of its players: (match, seats, the caller's seat).
    ``doing`` completes "this match is finished: there is nothing to …"."""
    match = await get_match(db, match_id, lock=True)
    seats = await seat_rows(db, match_id)
    seat = seat_of(seats, user)
    if seat is None:
        raise Forbidden("you do not hold a seat at this table").said("err_no_seat")
    if match.status != "active":
        raise Refused(f"this match is {match.status}: there is nothing to {doing}").said("err_match_not_in_play")
    return match, seats, seat


async def join(db: AsyncSession, user: User, match_id: str, seat: str | None) -> str:
    match = await get_match(db, match_id, lock=True)
    if match.status != "open":
        raise Refused("this table has already started; you can watch it as a spectator").said("err_already_started")
    seats = await seat_rows(db, match_id)
    if (mine := seat_of(seats, user)) is not None:
        if seat in (None, mine):
            return mine
        raise Refused(f"you already sit in seat '{mine}'; one seat per player").said("err_one_seat")
    free = [s for s in seats if s.user_id is None and s.bot is None]
    if seat is None:
        if not free:
            raise Refused("every seat at this table is taken").said("err_table_full")
        chosen = free[0]
    else:
        chosen = next((s for s in seats if s.seat == seat), None)
        if chosen is None:
            raise Invalid(f"seat: no seat '{seat}' at this table (seats: {', '.join(s.seat for s in seats)})")
        if chosen not in free:
            raise Refused(f"seat '{seat}' is already taken").said("err_seat_taken").said("err_seat_taken")
    chosen.user_id = user.id
    await db.flush()
    return chosen.seat


async def add_bot(db: AsyncSession, user: User, match_id: str, seat: str, bot: str) -> None:
    match = await get_match(db, match_id, lock=True)
    if match.status != "open":
        raise Refused("bots can only fill seats before the match starts").said("err_bots_before_start")
    known = (RANDOM_BOT, *package(match.game).bots)
    if bot not in known:
        raise Invalid(f"bot: unknown bot '{bot}' (known: {', '.join(known)})")
    seats = await seat_rows(db, match_id)
    if seat_of(seats, user) is None and match.created_by != user.id:
        raise Forbidden("only the table's host or a seated player may add bots").said("err_bots_who")
    chosen = next((s for s in seats if s.seat == seat), None)
    if chosen is None:
        raise Invalid(f"seat: no seat '{seat}' at this table")
    if chosen.user_id is not None or chosen.bot is not None:
        raise Refused(f"seat '{seat}' is already taken").said("err_seat_taken")
    chosen.bot = bot
    await db.flush()


async def start(db: AsyncSession, cache: MatchCache, user: User, match_id: str) -> Match:
    match = await get_match(db, match_id, lock=True)
    if match.created_by != user.id:
        raise Forbidden("only the player who created the table may start it").said("err_host_starts")
    if match.status != "open":
        raise Refused(f"this match is already {match.status}").said("err_already_started")
    seats = await seat_rows(db, match_id)
    empty = [s.seat for s in seats if s.user_id is None and s.bot is None]
    if empty:
        raise Refused(f"cannot start: seats {', '.join(empty)} are empty (invite players or add bots)").said(
            "err_empty_seats")
    match.status = "active"
    cache.forget(match_id)
    loaded = await cache.load(db, match)
    match.waiting_on = waiting_on(loaded)
    loaded.head = MatchHead.of(match)
    await turn_changed(db, match, [], utcnow())
    await notify(db, match)
    return match


def settle(match: Match, loaded: LoadedMatch) -> None:
    """Bring the match row in step with its state: who is waiting, and the outcome."""
    outcome = loaded.game.outcome(loaded.state)
    if outcome is not None:
        finish(match, asdict(outcome))
    match.waiting_on = [] if outcome else waiting_on(loaded)
    loaded.head = MatchHead.of(match)


async def drop_resigned_winners(db: AsyncSession, match: Match) -> None:
    """A seat whose player resigned never wins, even when the bot that took it over plays on to
    its team's victory: the game's outcome names seats, the table knows who gave up."""
    if match.status != "finished" or not match.outcome:
        return
    resigned = {s.seat for s in await seat_rows(db, match.id) if s.resigned}
    winners = list(match.outcome.get("winners") or [])
    if resigned & set(winners):
        match.outcome = {**match.outcome, "winners": [w for w in winners if w not in resigned],
                         "resigned": sorted(resigned & set(winners))}


def utcnow() -> datetime:
    """Server time, the only clock Warroom trusts (see app/clock.py for how tests move it)."""
    return clock.now()


def finish(match: Match, outcome: dict[str, Any]) -> None:
    match.status = "finished"
    match.outcome = outcome
    match.finished_at = utcnow()
    match.waiting_on = []


def waiting_on(loaded: LoadedMatch) -> list[str]:
    """The seats the table waits for: any-time (optional) decisions keep nobody waiting."""
    return sorted({d.seat for d in decisions(loaded) if not d.optional})


async def notify(db: AsyncSession, match: Match, move: bool = False) -> None:
    """Tell every worker, at commit, that the match changed: by a move, or at the table
    (seats, start, chat, a resignation...), which makes sockets read their seats again."""
    kind = "move" if move else "table"
    await db.execute(text("SELECT pg_notify(:channel, :payload)"),
                     {"channel": NOTIFY_CHANNEL, "payload": f"{match.id}:{match.seq}:{kind}"})


def rules_refusal(exc: Illegal, game_id: str | None = None) -> RefusedMidway:
    """The rules' refusal, with its words for the pages (a game message or a UI key) kept."""
    refusal = RefusedMidway(str(exc))
    if exc.ui_key:
        refusal.said(exc.ui_key, **exc.ui_params)
    refusal.game_msg, refusal.game_id = exc.msg, game_id
    return refusal


def find_decision(loaded: LoadedMatch, seat: str, decision_id: str) -> Decision:
    pending = loaded.game.pending(loaded.state)
    for decision in pending:
        if decision.id == decision_id and decision.seat == seat:
            return decision
    mine = [d.id for d in pending if d.seat == seat]
    if any(d.id == decision_id for d in pending):  # a seat the caller does not hold: forbidden, not malformed
        raise Forbidden(f"decision '{decision_id}' is not yours to make: it is another seat's turn").said(
            "err_not_your_decision")
    if not mine:
        raise Refused(f"it is not your turn: nothing is waiting on seat '{seat}'").said("err_not_your_turn")
    raise Refused(f"decision '{decision_id}' is not pending; waiting on you: {', '.join(mine)}").said(
        "err_not_pending")


def play_answer(loaded: LoadedMatch, seat: str, action: Action, seq: int) -> list[Any]:
    """The one place a new answer is applied (the ORM's ``commit_action`` and ``one_trip`` both
    come here): the rules with the move's own dice, and the cached state's seq moved on."""
    events = loaded.game.apply(loaded.state, seat, action, action_rng(loaded.seed, seq))
    loaded.seq = seq
    loaded.views.clear()
    return events


def action_payload(action: Action, decision: Decision, auto: bool = False) -> dict[str, Any]:
    """What the log keeps of an answer."""
    payload: dict[str, Any] = {"decision": action.decision, "choices": list(action.choices)}
    if decision.undoable:
        payload["undoable"] = True
    if decision.group is not None:
        payload["group"] = decision.group  # lets a seat take back its answer inside the step
    if auto:
        payload["auto"] = True  # the seat's own answer, sent by its auto-pass setting
    return payload


async def commit_action(db: AsyncSession, match: Match, loaded: LoadedMatch, seat: str, decision: Decision,
                        action: Action, user_id: int | None, key: str | None, *, auto: bool = False) -> None:
    """Apply ``action`` to the locked match and write it to the log, in the caller's
    transaction, which runs inside ``cache.writing``: on any failure the cached state,
    perhaps half-changed, is dropped there. ``auto``: the seat's auto-pass setting answered."""
    seq = match.seq + 1
    try:
        events = play_answer(loaded, seat, action, seq)
    except Illegal as exc:
        raise rules_refusal(exc, loaded.game.id) from exc
    logged = [asdict(e) for e in events]
    payload = action_payload(action, decision, auto)
    db.add(ActionRow(match_id=match.id, seq=seq, seat=seat, user_id=user_id, idempotency_key=key,
                     payload=payload, events=logged, state_hash=state_hash(loaded.game, loaded.state),
                     engine_version=loaded.game.version))
    match.seq = seq
    before = list(match.waiting_on or [])
    settle(match, loaded)
    await drop_resigned_winners(db, match)
    await turn_changed(db, match, before, utcnow())
    loaded.remember(seq, logged)
    if seq % snapshot_every() == 0:
        db.add(Snapshot(match_id=match.id, seq=seq, state=loaded.game.dump(loaded.state),
                        engine_version=loaded.game.version))
    await notify(db, match, move=True)


async def submit(db: AsyncSession, cache: MatchCache, user: Player, match_id: str, seq: int, decision_id: str,
                 choices: list[str], key: str | None) -> Submitted:
    """Answer a pending decision for the caller's seat. A repeated idempotency ``key``
    applies nothing and reports the seq of the earlier request instead.

    The common case costs one database round trip (``one_trip``); whatever it cannot
    vouch for takes the ORM path below, which gives every precise answer."""
    done = await one_trip(db, cache, user, match_id, seq, decision_id, choices, key)
    if done is not None:
        return done
    match = await get_match(db, match_id, lock=True)
    seats = await seat_rows(db, match_id)
    seat = seat_of(seats, user)
    if seat is None:
        raise Forbidden("you do not hold a seat at this table; spectators cannot act").said("err_spectator_acts")
    if next(s for s in seats if s.seat == seat).bot:
        raise Forbidden(f"a bot plays seat '{seat}' now; reclaim the seat before moving").said("err_bot_plays_seat")
    if key is not None:
        earlier = await db.scalar(select(ActionRow).where(ActionRow.match_id == match_id,
                                                          ActionRow.idempotency_key == key))
        if earlier is not None:
            if earlier.user_id != user.id:
                raise Conflict("this idempotency key was already used by someone else")
            return Submitted(match, earlier.seq, False, seat, has_bots=answered_for_seats(match, seats))
    if match.status != "active":
        raise Refused(f"this match is {match.status}: no moves can be made").said("err_match_not_in_play")
    stale = Stale(f"stale move: it was made against seq {seq} but the table is at seq {match.seq}").said(
        "err_stale_move", seq=seq, now=match.seq)
    if seq > match.seq:
        raise stale
    loaded = await cache.load(db, match)
    if seq < match.seq and not any(d.id == decision_id and d.seat == seat for d in loaded.game.pending(loaded.state)):
        raise stale  # fresh while its decision is still pending (others answering a simultaneous step meanwhile)
    decision = find_decision(loaded, seat, decision_id)
    try:
        action = validate_action(decision, choices)
    except Illegal as exc:
        raise rules_refusal(exc, loaded.game.id) from exc
    await commit_action(db, match, loaded, seat, decision, action, user.id, key)
    if loaded.seen is None:
        timed = await db.get(MatchPace, match.id) is not None
        loaded.seen = SeatsSeen({s.user_id: s.seat for s in seats if s.user_id is not None and not s.bot},
                                one_trip=match.mode != "async" and not timed)
    return Submitted(match, match.seq, True, seat, has_bots=answered_for_seats(match, seats))


MOVE_SQL = ("SELECT verdict, bots, passers"
            " FROM warroom_move($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)")


async def one_trip(db: AsyncSession, cache: MatchCache, user: Player, match_id: str, seq: int, decision_id: str,
                   choices: list[str], key: str | None) -> Submitted | None:
    """The common move in one statement (``warroom_move``, migration 0013): the cached state
    at seq N answers everything the rules decide, the statement checks under the row lock
    that the cache was right and writes the move, and nothing else reaches the database.

    None (nothing written, and the cached state dropped if it was touched): the ORM path
    must answer. It takes the cases this does not vouch for: no current cached state or no
    seats seen yet (the first move after a load), any refusal (it words it precisely, from
    the table as it is), a retried idempotency key, timed tables (their clocks move with the
    turn) and play-by-web ones (the turn hook tells the seats now waiting), and a game
    ending while a resigned seat could be among its winners."""
    loaded = cache.peek(match_id)
    if (loaded is None or loaded.seen is None or not loaded.seen.one_trip or loaded.head is None
            or loaded.head.status != "active" or seq > loaded.seq):
        return None
    seat = loaded.seen.players.get(user.id)
    if seat is None:
        return None
    game = loaded.game
    decision = next((d for d in decisions(loaded) if d.id == decision_id and d.seat == seat), None)
    if decision is None:  # a stale seq among others: the ORM path words every refusal
        return None
    try:
        action = validate_action(decision, choices)
    except Illegal:
        return None
    move = loaded.seq + 1
    try:
        # in step with the state before the statement's await, as commit_action has it: a reader
        # meanwhile sees a state ahead of its row while the match is busy and builds its own
        events = play_answer(loaded, seat, action, move)
    except Illegal:
        cache.forget(match_id)  # perhaps half-changed: the ORM path starts from the log
        return None
    events_json = orjson.dumps(events, option=orjson.OPT_NON_STR_KEYS)  # what asdict gives, in C
    logged = orjson.loads(events_json)
    outcome = game.outcome(loaded.state)
    head = MatchHead("finished", [], asdict(outcome)) if outcome is not None else MatchHead(
        "active", waiting_on(loaded), None)
    loaded.head = head
    loaded.remember(move, logged)
    snapshot = game.dump(loaded.state) if move % snapshot_every() == 0 else None
    conn = await db.connection()
    # the driver's own connection: the session's transaction has not begun (no BEGIN is sent)
    # and the statement commits on its own
    raw = (await conn.get_raw_connection()).driver_connection
    assert raw is not None
    try:
        verdict, bots, passers = await raw.fetchrow(
            MOVE_SQL, match_id, move, seat, user.id, key, dumps(action_payload(action, decision)), events_json.decode(),
            state_hash(game, loaded.state), game.version, head.status, dumps(head.waiting_on),
            maybe_dumps(head.outcome), utcnow(), maybe_dumps(snapshot))
    except BaseException:
        cache.forget(match_id)
        # the pool never saw this statement: a connection it left lost or mid-answer must not go back
        with contextlib.suppress(Exception):
            await conn.invalidate()
        raise
    if verdict != "ok":
        log.debug("match %s: move %s takes the ORM path (%s)", match_id, move, verdict)
        cache.forget(match_id)
        return None
    return Submitted(head, move, True, seat, has_bots=answer_due(loaded, decoded(bots), decoded(passers)),
                     match_id=match_id)


def answer_due(loaded: LoadedMatch, bots: dict[str, str], passers: dict[str, list[Any]]) -> bool:
    """Whether ``bot_step`` would answer now: a required decision of a bot's seat, or one the
    seat's auto-pass setting passes (as ``warroom_move`` read the seats under the lock). The
    bot driver is woken only then: its look costs a transaction and the match's lock."""
    offered = autopass.offered(loaded.game)
    for decision in decisions(loaded):
        if decision.optional:
            continue
        if decision.seat in bots:
            return True
        setting = passers.get(decision.seat) if offered else None
        if setting is not None:
            user_id, mode, round_mark = setting
            seat = MatchSeat(match_id=loaded.match_id, seat=decision.seat, user_id=user_id, bot=None, autopass=mode,
                             autopass_round=round_mark)
            if autopass.due(loaded.game, loaded.state, seat, decision):
                return True
    return False


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def decoded(value: Any) -> Any:
    """A jsonb result: SQLAlchemy's codec on its pooled connections decodes it, asyncpg's own gives text."""
    return orjson.loads(value) if isinstance(value, str | bytes) else value


def maybe_dumps(value: Any) -> str | None:
    return None if value is None else dumps(value)


@dataclass(frozen=True)
class Submitted:
    match: Match | MatchHead  # the head alone after a move in one round trip (no row was read)
    seq: int  # of the move (or of the earlier request with the same key)
    applied: bool
    seat: str
    has_bots: bool  # whether a bot (or a seat's auto-pass) may be due to answer next
    match_id: str = ""

    def __post_init__(self) -> None:
        if not self.match_id and isinstance(self.match, Match):
            object.__setattr__(self, "match_id", self.match.id)


def answered_for_seats(match: Match, seats: list[MatchSeat]) -> bool:
    """Whether the server may answer for some seat: a bot, or a player's auto-pass setting."""
    return any(s.bot for s in seats) or (autopass.offered(get_game(match.game))
                                         and any(autopass.may_pass(s) for s in seats))


async def bot_step(db: AsyncSession, cache: MatchCache, match_id: str) -> bool:
    """Let one bot answer one pending decision, or one seat's auto-pass setting pass one
    reaction window for it. Returns whether anything moved."""
    match = await get_match(db, match_id, lock=True)
    if match.status != "active":
        return False
    seats = await seat_rows(db, match_id)
    bots = {s.seat: s.bot for s in seats if s.bot}
    passers = {s.seat: s for s in seats if autopass.may_pass(s)} if autopass.offered(get_game(match.game)) else {}
    if not set(match.waiting_on) & (bots.keys() | passers.keys()):
        return False
    loaded = await cache.load(db, match)
    decision: Decision | None = None
    for d in loaded.game.pending(loaded.state):
        if d.optional:
            continue
        if d.seat in passers and (choice := autopass.due(loaded.game, loaded.state, passers[d.seat], d)):
            # the seat's own answer: attributed to it, marked auto, replayed like any other
            await commit_action(db, match, loaded, d.seat, d, validate_action(d, [choice]), passers[d.seat].user_id,
                                None, auto=True)
            return True
        if d.seat in bots:
            decision = d
            break
    if decision is None:
        return False
    rng = action_rng(match.seed, -(match.seq + 1))  # a bot's own dice, apart from the game's
    proposed = (random_bot(decision, rng) if bots[decision.seat] == RANDOM_BOT
                else loaded.game.bot(loaded.state, decision, rng))
    action = validate_action(decision, list(proposed.choices))
    await commit_action(db, match, loaded, decision.seat, decision, action, None, None)
    return True

