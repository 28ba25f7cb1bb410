"""The ASGI application: routers, middleware, error shapes, and the live machinery."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware

from app import db as database
from app import notifications
from app.api import auth, clocks, history_pages, live, matches, me, pages, settings_pages, table
from app.api.assets import VersionedStatic
from app.api.body_limit import BodyLimit
from app.api.errors import Overload, error_response
from app.api.guards import OriginGuard
from app.api.nul_guard import NulGuard
from app.api.security_headers import SecurityHeaders
from app.api.session_check import SessionCheck
from app.config import ConfigError, PoolSettings, load_settings, pool_settings, worker_count
from app.sessions import replay_jobs
from app.sessions.bots import BotDriver
from app.sessions.errors import DomainError
from app.sessions.live import Hub
from app.sessions.replay import MatchCache
from app.sessions.signins import SessionChecks, check_seconds

log = logging.getLogger("warroom")
STATIC = os.path.join(os.path.dirname(__file__), "static")


def database_url() -> str:
    """The configured database, or (run directly under uvicorn) a private embedded one."""
    settings = load_settings()
    if settings.database_url:
        return settings.database_url
    url = database.start_embedded(settings.data_dir)
    database.upgrade_schema(url)
    os.environ["DATABASE_URL"] = url
    return url


async def pool_plan(url: str, settings: PoolSettings) -> database.PoolPlan:
    """The plan ``python -m app serve`` made for its workers, or (uvicorn run directly) one made here."""
    if planned := os.environ.get("WARROOM_POOL_PLAN"):
        return database.PoolPlan.decoded(planned)
    workers = worker_count()
    return database.plan_pool(await database.connection_limits_async(url), settings.processes(workers),
                              spare=settings.spare, pool=settings.pool, overflow=settings.overflow, workers=workers)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    url = database_url()
    try:
        settings = pool_settings()
        plan = await pool_plan(url, settings)
    except ConfigError as exc:
        log.error("warroom: refusing to start: %s", exc)
        raise
    engine = database.make_engine(url, pool_size=plan.pool_size, max_overflow=plan.max_overflow,
                                  pool_timeout=settings.timeout)
    app.state.sessions = database.make_sessionmaker(engine)
    app.state.session_checks = SessionChecks(app.state.sessions, ttl=check_seconds())
    app.state.cache = MatchCache()
    app.state.hub = Hub(app.state.sessions, app.state.cache, database.asyncpg_dsn(url),
                        poll_seconds=float(os.environ.get("WARROOM_LIVE_POLL_SECONDS", "3")))
    app.state.bots = BotDriver(app.state.sessions, app.state.cache)
    app.state.hub.on_commit.append(app.state.bots.kick_if_known)
    app.state.hub.start()
    await app.state.bots.resume_all()
    app.state.notifier = notifications.start(app.state.sessions, app.state.hub)
    try:
        yield
    finally:
        await app.state.notifier.stop()
        replay_jobs.pool.close()
        await app.state.hub.stop()
        await engine.dispose()


def field_error(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = [str(x) for x in err.get("loc", ()) if x not in ("body", "query", "path")]
        where = ".".join(loc) or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def create_app() -> FastAPI:
    settings = load_settings()
    app = FastAPI(title="Warroom", version="0.1.0", lifespan=lifespan,
                  description="Play WW2 strategy board games together: live or play-by-web.")
    # first added is innermost: cross-site requests are refused before any body is read, and an
    # oversize body before the NUL check reads it
    app.add_middleware(NulGuard)
    upload = replay_jobs.verify_max_bytes()
    app.add_middleware(BodyLimit, limits={"/api/replays/verify": upload, "/replays/verify": upload})
    app.add_middleware(SessionCheck)  # needs the cookie SessionMiddleware decoded
    app.add_middleware(OriginGuard)
    app.add_middleware(SessionMiddleware, secret_key=settings.secret_key, session_cookie="warroom_session",
                       same_site="lax", https_only=os.environ.get("WARROOM_HTTPS") == "1",
                       max_age=60 * 60 * 24 * 30)
    # a database overloaded or restarting answers 503 wherever it shows, even in the session check
    app.add_middleware(Overload)
    app.add_middleware(SecurityHeaders)  # outermost: the guards' own refusals carry the headers too

    @app.exception_handler(DomainError)
    async def refusal(_request: Request, exc: DomainError) -> JSONResponse:
        return error_response(exc)  # the one mapping from a refusal's kind to its HTTP answer

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"error": field_error(exc)})

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse(status_code=exc.status_code, content={"error": str(exc.detail)})

    app.include_router(auth.router)
    app.include_router(matches.router)
    app.include_router(table.router)
    app.include_router(clocks.router)
    app.include_router(live.router)
    app.include_router(me.router)
    app.include_router(pages.router)
    app.include_router(history_pages.router)
    app.include_router(settings_pages.router)
    app.mount("/static", VersionedStatic(directory=STATIC), name="static")
    return app


app = create_app()
