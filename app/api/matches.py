"""The JSON API of tables and matches (the contract other clients and bots rely on)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy import ColumnElement, and_, exists, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import SignedIn, get_cache, get_db, optional_user, require_signed_in, require_user
from app.api.schemas import (
    ActionIn,
    ActionOut,
    BotIn,
    ChatIn,
    CreateMatchIn,
    CreateMatchOut,
    ErrorOut,
    GameOut,
    JoinIn,
    LogLine,
    MatchOut,
    MatchSummary,
    OptionOut,
)
from app.games.registry import installed
from app.models import Action as ActionRow
from app.models import ChatMessage, Match, MatchSeat, User
from app.sessions import floods, service
from app.sessions.clocks import clock_states
from app.sessions.errors import ApiError
from app.sessions.maintenance import engine_warning
from app.sessions.replay import LoadedMatch, MatchCache
from app.sessions.views import event_msg, event_text, pending_for, seat_message, seat_view

router = APIRouter(prefix="/api", tags=["matches"])
ERRORS = {code: {"model": ErrorOut} for code in (400, 401, 403, 404, 409, 422)}


@router.get("/games", response_model=list[GameOut], summary="The games installed on this server")
async def list_games() -> list[GameOut]:
    return [
        GameOut(id=g.id, title=g.title, min_players=g.min_players, max_players=g.max_players,
                options=[OptionOut(id=o.id, label=o.label, kind=o.kind, default=o.default,
                                   choices=list(o.choices)) for o in g.options])
        for g in installed().values()
    ]


def invite_url(request: Request, match_id: str) -> str:
    return str(request.url_for("table_page", match_id=match_id))


@router.post("/matches", response_model=CreateMatchOut, responses=ERRORS, summary="Create a table")
async def create_match(body: CreateMatchIn, request: Request, user: User = Depends(require_user),
                       db: AsyncSession = Depends(get_db)) -> CreateMatchOut:
    async with db.begin():
        await floods.admit_table(db, user, request)
        match = await service.create_match(db, user, body.game, body.players, body.options, body.mode,
                                           body.clock.model_dump(exclude_none=True) if body.clock else None)
        match.spectator_chat = body.spectator_chat
        match.private = body.private
        await service.join(db, user, match.id, None)
    return CreateMatchOut(match_id=match.id, invite_url=invite_url(request, match.id))


async def summaries(db: AsyncSession, request: Request, user: User | None, mine: bool) -> list[MatchSummary]:
    games = installed()
    stmt = select(Match).order_by(Match.updated_at.desc()).limit(200)
    if mine:
        if user is None:
            return []
        stmt = stmt.where(exists().where(and_(MatchSeat.match_id == Match.id, MatchSeat.user_id == user.id)))
    else:
        stmt = stmt.where(or_(Match.status == "open", Match.status == "active"), listed_for(user))
    matches = [m for m in (await db.scalars(stmt)).all() if m.game in games]
    seats_by_match: dict[str, list[MatchSeat]] = {}
    if matches:
        rows = (await db.scalars(select(MatchSeat).where(MatchSeat.match_id.in_([m.id for m in matches])))).all()
        for row in rows:
            seats_by_match.setdefault(row.match_id, []).append(row)
    out = []
    for m in matches:
        seats = seats_by_match.get(m.id, [])
        you = service.seat_of(seats, user)
        out.append(MatchSummary(
            match_id=m.id, game=m.game, title=games[m.game].title, mode=m.mode, status=m.status,
            players=m.players, seated=sum(1 for s in seats if s.user_id or s.bot), you=you,
            your_move=m.status == "active" and you is not None and you in (m.waiting_on or [])
            and not next(s.bot for s in seats if s.seat == you),  # a bot plays a resigned or handed-over seat
            url=invite_url(request, m.id)))
    return out


def listed_for(user: User | None) -> ColumnElement[bool]:
    """Public tables, and private ones to their host and seated players (others need the link)."""
    if user is None:
        return Match.private.is_(False)
    return or_(Match.private.is_(False), Match.created_by == user.id,
               exists().where(and_(MatchSeat.match_id == Match.id, MatchSeat.user_id == user.id)))


@router.get("/matches", response_model=list[MatchSummary],
            summary="Open and running tables (private ones only to their players), or ?mine=1")
async def list_matches(request: Request, mine: bool = Query(False), db: AsyncSession = Depends(get_db),
                       user: User | None = Depends(optional_user)) -> list[MatchSummary]:
    return await summaries(db, request, user, mine)


async def match_out(db: AsyncSession, cache: MatchCache, match: Match, user: service.Player | None) -> MatchOut:
    seats = await service.seat_rows(db, match.id)
    you = service.seat_of(seats, user)
    names = await player_names(db, seats)
    clocks = await clock_states(db, match, seats, service.utcnow())
    await db.commit()  # the connection goes back to the pool before the CPU work (it comes back only on a miss)
    message = await read_message(db, cache, match, you)
    return MatchOut(
        match_id=match.id, game=match.game, mode=match.mode, you=you,
        seats=[{"seat": s.seat, "label": s.label, "roles": s.roles, "player": names.get(s.user_id),
                "bot": s.bot, "waiting": s.seat in (match.waiting_on or [])} for s in seats],
        clocks=clocks, engine_warning=engine_warning(match), **message)


async def read_message(db: AsyncSession, cache: MatchCache, match: Match, seat: str | None) -> dict[str, Any]:
    """The seat's message as of ``match`` (or newer), for a reader: never waits on the
    match's lock while holding a connection, and builds it before anything else runs."""
    if match.status == "open":
        return seat_message(None, match, seat)
    loaded = await cache.read(db, match)
    return seat_message(loaded, loaded.head if loaded.seq != match.seq and loaded.head else match, seat)


async def player_names(db: AsyncSession, seats: list[MatchSeat]) -> dict[int | None, str]:
    ids = [s.user_id for s in seats if s.user_id is not None]
    if not ids:
        return {}
    rows = (await db.execute(select(User.id, User.name, User.is_guest).where(User.id.in_(ids)))).all()
    return {uid: f"{name} (guest)" if guest else name for uid, name, guest in rows}


@router.get("/matches/{match_id}", response_model=MatchOut, responses=ERRORS,
            summary="A match as the caller's seat sees it (the public view for spectators)")
async def get_match(match_id: str, db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache),
                    user: User | None = Depends(optional_user)) -> MatchOut:
    match = await service.get_match(db, match_id)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/join", response_model=MatchOut, responses=ERRORS, summary="Take a seat")
async def join(match_id: str, body: JoinIn | None = None, user: User = Depends(require_user),
               db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache)) -> MatchOut:
    async with db.begin():
        await service.join(db, user, match_id, body.seat if body else None)
        match = await service.get_match(db, match_id)
        await service.notify(db, match)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/bots", response_model=MatchOut, responses=ERRORS,
             summary="Fill an empty seat with a bot")
async def add_bot(match_id: str, body: BotIn, user: User = Depends(require_user),
                  db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache)) -> MatchOut:
    async with db.begin():
        await service.add_bot(db, user, match_id, body.seat, body.bot)
        match = await service.get_match(db, match_id)
        await service.notify(db, match)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/start", response_model=MatchOut, responses=ERRORS, summary="Start a full table")
async def start(match_id: str, request: Request, user: User = Depends(require_user),
                db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache)) -> MatchOut:
    match = await start_and_wake(request, db, cache, user, match_id)
    return await match_out(db, cache, match, user)


async def start_and_wake(request: Request, db: AsyncSession, cache: MatchCache, user: User, match_id: str) -> Match:
    """Start the table (one transaction) and wake any bot due to move."""
    async with cache.writing(match_id), db.begin():
        match = await service.start(db, cache, user, match_id)
    request.app.state.bots.kick(match_id)
    return match


async def submit_and_wake(request: Request, db: AsyncSession, cache: MatchCache, user: service.Player, match_id: str,
                          seq: int, decision: str, choices: list[str], key: str | None) -> service.Submitted:
    """The one way a human's answer enters the log (JSON API and pages alike)."""
    async with cache.writing(match_id), db.begin():
        done = await service.submit(db, cache, user, match_id, seq, decision, choices, key)
    if done.applied and done.has_bots:
        request.app.state.bots.kick(match_id)
    return done


def action_out(loaded: LoadedMatch, match: Match, seat: str, applied: bool) -> ActionOut:
    return ActionOut(seq=loaded.seq, view=seat_view(loaded, seat), pending=pending_for(loaded, seat, match.status),
                     applied=applied)


@router.post("/matches/{match_id}/actions", response_model=ActionOut,
             responses={**ERRORS, 409: {"description": "stale seq: {error, seq, view, pending} to resync"}},
             summary="Answer a pending decision")
async def act(match_id: str, body: ActionIn, request: Request, user: SignedIn = Depends(require_signed_in),
              db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache)) -> ActionOut | JSONResponse:
    try:
        done = await submit_and_wake(request, db, cache, user, match_id, body.seq, body.decision, body.picked(),
                                     body.key)
    except ApiError as exc:
        if exc.status != 409:
            raise
        current = await match_out(db, cache, await service.get_match(db, match_id), user)
        return JSONResponse(status_code=409, content={
            "error": exc.error, "seq": current.seq, "view": current.view,
            "pending": [p.model_dump() for p in current.pending]})
    loaded = cache.peek(match_id)
    if loaded is None or loaded.seq != done.seq:  # a retried key, or the table moved on meanwhile
        loaded = await cache.load(db, done.match, upto=done.seq)
    return action_out(loaded, done.match, done.seat, done.applied)


@router.get("/matches/{match_id}/log", response_model=list[LogLine], responses=ERRORS,
            summary="The public event log")
async def public_log(match_id: str, db: AsyncSession = Depends(get_db)) -> list[LogLine]:
    await service.get_match(db, match_id)
    rows = (await db.execute(select(ActionRow.seq, ActionRow.events).where(ActionRow.match_id == match_id)
                             .order_by(ActionRow.seq))).all()
    return [LogLine(seq=seq, text=event_text(e, None), msg=event_msg(e, None)) for seq, events in rows for e in events]


def chat_open_to(match: Match, seat: str | None) -> bool:
    """Spectators read and write the chat only where the host let them; players always do."""
    return seat is not None or match.spectator_chat


CHAT_CLOSED = "only the players chat at this table: the host did not let spectators chat"


@router.get("/matches/{match_id}/chat", responses=ERRORS, summary="The table's chat")
async def chat(match_id: str, db: AsyncSession = Depends(get_db),
               user: User | None = Depends(optional_user)) -> list[dict[str, object]]:
    match = await service.get_match(db, match_id)
    if not chat_open_to(match, service.seat_of(await service.seat_rows(db, match_id), user)):
        raise ApiError(403, CHAT_CLOSED)
    rows = (await db.execute(select(ChatMessage.id, User.name, User.is_guest, ChatMessage.text, ChatMessage.created_at)
                             .join(User, User.id == ChatMessage.user_id)
                             .where(ChatMessage.match_id == match_id).order_by(ChatMessage.id).limit(500))).all()
    # marked as seats are (player_names): a guest may borrow a name an account does not hold
    return [{"id": i, "name": f"{n} (guest)" if guest else n, "text": t, "at": at.isoformat()}
            for i, n, guest, t, at in rows]


@router.post("/matches/{match_id}/chat", responses=ERRORS, summary="Say something at the table")
async def say(match_id: str, body: ChatIn, user: User = Depends(require_user),
              db: AsyncSession = Depends(get_db)) -> dict[str, bool]:
    async with db.begin():
        match = await service.get_match(db, match_id)
        if not chat_open_to(match, service.seat_of(await service.seat_rows(db, match_id), user)):
            raise ApiError(403, CHAT_CLOSED)
        floods.admit_chat_line(user.id, match_id)
        db.add(ChatMessage(match_id=match_id, user_id=user.id, text=body.text))
        await service.notify(db, match)
    return {"ok": True}
