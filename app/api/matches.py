"""The JSON API of tables and matches (the contract other clients and bots rely on)."""

from __future__ import annotations

from dataclasses import asdict

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import SignedIn, get_cache, get_db, get_work, optional_user, require_signed_in, require_user
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
from app.games.registry import get as get_game
from app.games.registry import installed
from app.models import Match, MatchSeat, User
from app.sessions import autopass, history, lobby, service, table_view, work
from app.sessions import chat as table_chat
from app.sessions.errors import Conflict
from app.sessions.maintenance import engine_warning
from app.sessions.replay import MatchCache
from app.sessions.views import answered_json
from app.sessions.work import MatchWork

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
    match = await work.open_table(db, user, request, body.game, body.players, body.options, body.mode,
                                  body.clock.model_dump(exclude_none=True) if body.clock else None,
                                  spectator_chat=body.spectator_chat, private=body.private, name=body.name,
                                  seat=body.seat)
    return CreateMatchOut(match_id=match.id, invite_url=invite_url(request, match.id))


async def summaries(db: AsyncSession, request: Request, user: User | None, mine: bool) -> list[MatchSummary]:
    return [MatchSummary(**asdict(m), url=invite_url(request, m.match_id))
            for m in await lobby.summaries(db, user, mine)]


@router.get("/matches", response_model=list[MatchSummary],
            summary="Open and running tables (private ones only to their players), or ?mine=1")
async def list_matches(request: Request, mine: bool = Query(False), db: AsyncSession = Depends(get_db),
                       user: User | None = Depends(optional_user)) -> list[MatchSummary]:
    return await summaries(db, request, user, mine)


async def match_out(db: AsyncSession, cache: MatchCache, match: Match, user: service.Player | None) -> MatchOut:
    read = await table_view.read_table(db, cache, match, user)
    return MatchOut(
        match_id=match.id, game=match.game, mode=match.mode, you=read.you,
        seats=[{"seat": s.seat, "label": s.label, "roles": s.roles, "player": read.names.get(s.user_id),
                "bot": s.bot, "waiting": s.seat in (match.waiting_on or [])} for s in read.seats],
        clocks=read.clocks, engine_warning=engine_warning(match), autopass=shown_autopass(cache, match, read.mine),
        **(read.message or {}))


def shown_autopass(cache: MatchCache, match: Match, seat: MatchSeat | None) -> str | None:
    loaded = cache.peek(match.id)
    return autopass.shown(get_game(match.game), loaded.state if loaded else None, seat)


@router.get("/matches/{match_id}", response_model=MatchOut, responses=ERRORS,
            summary="A match as the caller's seat sees it (the public view for spectators)")
async def get_match(match_id: str, db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache),
                    user: User | None = Depends(optional_user)) -> MatchOut:
    match = await service.get_match(db, match_id)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/join", response_model=MatchOut, responses=ERRORS, summary="Take a seat")
async def join(match_id: str, body: JoinIn | None = None, user: User = Depends(require_user),
               db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache),
               tables: MatchWork = Depends(get_work)) -> MatchOut:
    match = await work.take_seat(tables, db, user, match_id, body.seat if body else None)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/bots", response_model=MatchOut, responses=ERRORS,
             summary="Fill an empty seat with a bot")
async def add_bot(match_id: str, body: BotIn, user: User = Depends(require_user),
                  db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache),
                  tables: MatchWork = Depends(get_work)) -> MatchOut:
    match = await work.seat_bot(tables, db, user, match_id, body.seat, body.bot)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/start", response_model=MatchOut, responses=ERRORS, summary="Start a full table")
async def start(match_id: str, user: User = Depends(require_user), db: AsyncSession = Depends(get_db),
                cache: MatchCache = Depends(get_cache), tables: MatchWork = Depends(get_work)) -> MatchOut:
    match = await work.start(tables, db, user, match_id)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/actions", response_model=ActionOut,
             responses={**ERRORS, 409: {"description": "stale seq: {error, seq, view, pending} to resync"}},
             summary="Answer a pending decision")
async def act(match_id: str, body: ActionIn, user: SignedIn = Depends(require_signed_in),
              db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache),
              tables: MatchWork = Depends(get_work)) -> Response:
    try:
        done = await work.submit(tables, db, user, match_id, body.seq, body.decision, body.picked(), body.key)
    except Conflict as exc:  # a stale seq above all: the body lets the client resync
        current = await match_out(db, cache, await service.get_match(db, match_id), user)
        return JSONResponse(status_code=409, content={
            "error": exc.error, "seq": current.seq, "view": current.view,
            "pending": [p.model_dump() for p in current.pending]})
    return Response(await answered(db, cache, done), media_type="application/json")


async def answered(db: AsyncSession, cache: MatchCache, done: service.Submitted) -> bytes:
    """``ActionOut`` as the answering seat sees the state at its answer's seq, encoded once per
    (seq, seat) with what that seat's sockets are sent."""
    loaded = cache.peek(done.match_id)
    if loaded is None or loaded.seq != done.seq:  # a retried key, or the table moved on meanwhile
        match = done.match if isinstance(done.match, Match) else await service.get_match(db, done.match_id)
        loaded = await cache.load(db, match, upto=done.seq)
    return answered_json(loaded, done.seat, done.match.status, done.applied)


@router.get("/matches/{match_id}/log", response_model=list[LogLine], responses=ERRORS,
            summary="The public event log")
async def public_log(match_id: str, db: AsyncSession = Depends(get_db)) -> list[LogLine]:
    return [LogLine(seq=seq, text=text, msg=msg) for seq, text, msg in await history.public_log(db, match_id)]


@router.get("/matches/{match_id}/chat", responses=ERRORS, summary="The table's chat")
async def chat(match_id: str, db: AsyncSession = Depends(get_db),
               user: User | None = Depends(optional_user)) -> list[dict[str, object]]:
    lines = await table_chat.readable_lines(db, user, match_id, 500)
    # marked as seats are (player_names): a guest may borrow a name an account does not hold
    return [{"id": line.id, "name": f"{line.name} (guest)" if line.is_guest else line.name, "text": line.text,
             "at": line.at.isoformat()} for line in lines]


@router.post("/matches/{match_id}/chat", responses=ERRORS, summary="Say something at the table")
async def say(match_id: str, body: ChatIn, user: User = Depends(require_user), db: AsyncSession = Depends(get_db),
              tables: MatchWork = Depends(get_work)) -> dict[str, bool]:
    await work.say(tables, db, user, match_id, body.text)
    return {"ok": True}
