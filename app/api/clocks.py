"""Timeouts and vacations: skip or replace a seat whose clock ran out, reclaim it, pause one's clocks."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import get_cache, get_db, get_work, require_user
from app.api.matches import ERRORS, match_out
from app.api.schemas import MatchOut
from app.models import User
from app.sessions import clocks, work
from app.sessions.replay import MatchCache
from app.sessions.work import MatchWork

router = APIRouter(prefix="/api", tags=["clocks"])


class TimeoutIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: str = Field(min_length=1, max_length=40, description="the seat whose clock ran out")


class VacationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")  # days only: when it starts is the server's business
    days: int = Field(ge=1, le=366)


class VacationOut(BaseModel):
    on_vacation_until: str | None
    year: int
    days_used: int
    days_left: int
    allowance: int


@router.post("/matches/{match_id}/timeouts/skip", response_model=MatchOut, responses=ERRORS,
             summary="A bot answers the pending decisions of a seat whose clock ran out, this once")
async def skip(match_id: str, body: TimeoutIn, user: User = Depends(require_user), db: AsyncSession = Depends(get_db),
               cache: MatchCache = Depends(get_cache), tables: MatchWork = Depends(get_work)) -> MatchOut:
    match = await work.skip(tables, db, user, match_id, body.seat)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/timeouts/handover", response_model=MatchOut, responses=ERRORS,
             summary="A bot plays a seat whose clock ran out until its player reclaims it")
async def handover(match_id: str, body: TimeoutIn, user: User = Depends(require_user),
                   db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache),
                   tables: MatchWork = Depends(get_work)) -> MatchOut:
    match = await work.handover(tables, db, user, match_id, body.seat)
    return await match_out(db, cache, match, user)


@router.post("/matches/{match_id}/reclaim", response_model=MatchOut, responses=ERRORS,
             summary="Take back your seat from the bot it was handed to")
async def reclaim(match_id: str, user: User = Depends(require_user), db: AsyncSession = Depends(get_db),
                  cache: MatchCache = Depends(get_cache), tables: MatchWork = Depends(get_work)) -> MatchOut:
    match = await work.reclaim(tables, db, user, match_id)
    return await match_out(db, cache, match, user)


@router.get("/me/vacation", response_model=VacationOut, responses=ERRORS, summary="Your vacation allowance")
async def vacation(user: User = Depends(require_user), db: AsyncSession = Depends(get_db)) -> VacationOut:
    return VacationOut(**await clocks.vacation_status(db, user))


@router.post("/me/vacation", response_model=VacationOut, responses=ERRORS,
             summary="Pause all your clocks for some days (counted against this year's allowance)")
async def start_vacation(body: VacationIn, user: User = Depends(require_user),
                         db: AsyncSession = Depends(get_db)) -> VacationOut:
    return VacationOut(**await clocks.start_vacation(db, user, body.days))


@router.post("/me/vacation/end", response_model=VacationOut, responses=ERRORS, summary="End your vacation early")
async def end_vacation(user: User = Depends(require_user), db: AsyncSession = Depends(get_db)) -> VacationOut:
    return VacationOut(**await clocks.end_vacation(db, user))
