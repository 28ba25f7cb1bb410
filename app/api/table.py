"""Table life and history: undo, resign, abandon, kick, auto-pass, past views, export and verify."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import SignedIn, get_cache, get_db, get_work, optional_user, require_signed_in, require_user
from app.api.matches import ERRORS, match_out
from app.api.schemas import ErrorOut, MatchOut
from app.models import User
from app.sessions import history, replay_jobs, service, work
from app.sessions.replay import MatchCache
from app.sessions.work import MatchWork

router = APIRouter(prefix="/api", tags=["table life"])
REPLAY_ERRORS = {**ERRORS, **{code: {"model": ErrorOut} for code in (413, 429, 503)}}


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seq: int = Field(ge=0, le=2**31 - 1, description="the seq the client last saw")


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: str = Field(min_length=1, max_length=40)


class AutopassIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["idle", "ask", "round"] = Field(
        description="idle: never ask me unless I hold a usable card (the default); ask: always ask me; "
                    "round: pass everything until the end of this round")


class VerifyOut(BaseModel):
    ok: bool
    first_divergent_seq: int | None
    actions: int
    engine_version: str
    export_engine_version: str
    error: str | None = None


@router.post("/matches/{match_id}/undo", response_model=MatchOut, responses=ERRORS,
             summary="Take back your own last move, where the rules allow")
async def undo(match_id: str, body: UndoIn, user: User = Depends(require_user), db: AsyncSession = Depends(get_db),
               cache: MatchCache = Depends(get_cache), tables: MatchWork = Depends(get_work)) -> MatchOut:
    match = await work.undo(tables, db, user, match_id, body.seq)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/autopass", response_model=MatchOut, responses=ERRORS,
             summary="Your seat's auto-pass setting for reaction windows (games that ask reactions)")
async def set_autopass(match_id: str, body: AutopassIn, user: User = Depends(require_user),
                       db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache),
                       tables: MatchWork = Depends(get_work)) -> MatchOut:
    match = await work.set_autopass(tables, db, user, match_id, body.mode)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/resign", response_model=MatchOut, responses=ERRORS, summary="Resign")
async def resign(match_id: str, user: User = Depends(require_user), db: AsyncSession = Depends(get_db),
                 cache: MatchCache = Depends(get_cache), tables: MatchWork = Depends(get_work)) -> MatchOut:
    match = await work.resign(tables, db, user, match_id)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/abandon", response_model=MatchOut, responses=ERRORS,
             summary="Abandon a table that has not started")
async def abandon(match_id: str, user: User = Depends(require_user), db: AsyncSession = Depends(get_db),
                  cache: MatchCache = Depends(get_cache), tables: MatchWork = Depends(get_work)) -> MatchOut:
    match = await work.abandon(tables, db, user, match_id)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/kick", response_model=MatchOut, responses=ERRORS,
             summary="Free a seat before the start (a player who never showed, or a bot)")
async def kick(match_id: str, body: SeatIn, user: User = Depends(require_user), db: AsyncSession = Depends(get_db),
               cache: MatchCache = Depends(get_cache), tables: MatchWork = Depends(get_work)) -> MatchOut:
    match = await work.free_seat(tables, db, user, match_id, body.seat)
    return await match_out(db, cache, match, user)


@router.get("/matches/{match_id}/at/{seq}", responses=ERRORS,
            summary="The table after a past seq, filtered like a live view")
async def at(match_id: str, seq: int, seat: str | None = Query(None, max_length=40),
             db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache),
             user: User | None = Depends(optional_user)) -> dict[str, Any]:
    match = await service.get_match(db, match_id)
    return await history.view_at(db, cache, match, user, seq, seat)


@router.get("/matches/{match_id}/export", responses=REPLAY_ERRORS,
            summary="The match as JSON: every action with its public-view hash; once it is over, "
                    "the seed and the full-state hashes too")
async def export(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                 user: User | None = Depends(optional_user)) -> dict[str, Any]:
    match = await service.get_match(db, match_id)
    # the public-view hashes are replayed from the log: a replay, spent from the same budget
    replay_jobs.charge(replayer_key(request, user.id if user else None), match.seq)
    return await history.export(db, match, user)


def replayer_key(request: Request, user_id: int | None) -> str:
    if user_id is not None:
        return f"user:{user_id}"
    return f"addr:{request.client.host if request.client else '?'}"


async def verify_export(body: history.MatchExport, user_id: int) -> VerifyOut:
    """The one way an export is verified (JSON API and page upload): check it, spend the
    user's replay budget, then replay it in a worker process."""
    job = history.verify_job(body)
    replay_jobs.charge(f"user:{user_id}", len(job.moves))
    result = await replay_jobs.pool.run(history.check_replay, job)
    return VerifyOut(**result, export_engine_version=body.engine_version)


@router.post("/replays/verify", response_model=VerifyOut, responses=REPLAY_ERRORS,
             summary="Replay an export and check the hashes recorded with every seq (signed in; "
                     "the body is limited in size and replays in moves per user)")
async def verify(body: history.MatchExport, user: SignedIn = Depends(require_signed_in)) -> VerifyOut:
    return await verify_export(body, user.id)
