"""The lobby page and its form to open a table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api import matches as api_matches
from app.api.deps import get_db, optional_user
from app.api.errors import ApiError
from app.api.page_kit import (
    back_with,
    base_context,
    checked_form,
    field,
    page_error,
    page_lang,
    redirect,
    refused,
    whole_number,
)
from app.api.schemas import ClockIn
from app.api.templating import (
    templates,
)
from app.games.protocol import GameRules, Illegal, Seat
from app.games.registry import installed
from app.i18n import t
from app.models import User
from app.sessions import work
from app.sessions.errors import DomainError, Invalid

router = APIRouter(include_in_schema=False, dependencies=[Depends(page_lang)])


@router.get("/", response_class=HTMLResponse)
async def lobby_page(request: Request, db: AsyncSession = Depends(get_db),
                     user: User | None = Depends(optional_user)) -> Response:
    ctx = await base_context(request, db, user)
    if user is not None:
        games = installed()
        everything = await api_matches.summaries(db, request, user, mine=False)
        ctx.update(
            games=list(games.values()), seat_options=seat_options,
            open_tables=[m for m in everything if m.status == "open"],
            in_play=[m for m in everything if m.status == "active" and m.you is None],
            mine=await api_matches.summaries(db, request, user, mine=True),
        )
    return templates.TemplateResponse(request, "lobby.html", ctx)


@router.post("/tables")
async def create_table(request: Request, db: AsyncSession = Depends(get_db),
                       user: User | None = Depends(optional_user)) -> Response:
    form = await checked_form(request)
    if form is None:
        return refused()
    if user is None:
        return back_with(request, "/", t("sign_in_to_join"))
    game = installed().get(field(form, "game"))
    if game is None:
        return back_with(request, "/", t("err_game_not_installed"))
    players = field(form, "players", str(game.min_players))
    options: dict[str, Any] = {}
    for spec in game.options:
        if spec.kind == "bool":
            options[spec.id] = form.get(f"opt_{spec.id}") in ("on", "true", "1")
        else:
            options[spec.id] = field(form, f"opt_{spec.id}", str(spec.default))
    mode = "async" if field(form, "mode") == "async" else "live"
    try:
        count = whole_number(players, "players")
        seat = seat_from_form(field(form, "seat"), count)
        clock = pace_from_form(form, mode)
        match = await work.open_table(db, user, request, game.id, count, options, mode, clock,
                                      spectator_chat=form.get("spectator_chat") in ("on", "true", "1"),
                                      private=form.get("private") in ("on", "true", "1"),
                                      name=given_name(field(form, "name"), user), seat=seat)
    except DomainError as exc:
        return back_with(request, "/", page_error(exc))
    return redirect(f"/matches/{match.id}")


def given_name(name: str | None, user: User) -> str | None:
    """The name typed into the create form; the suggested one left as it was is no name of the
    table's own, so each reader sees it in their language ("Ada's game", "Gra: Ada")."""
    if name is not None and " ".join(name.split()) == t("table_default_name", name=user.name):
        return None
    return name


def seat_options(game: GameRules) -> list[tuple[int, list[Seat]]]:
    """The seats of each table size, for the create form's "your seat" choice."""
    out = []
    for n in range(game.min_players, game.max_players + 1):
        try:
            out.append((n, game.roles(n, {o.id: o.default for o in game.options})))
        except Illegal:  # a size the game turns down with its default options
            continue
    return out


def seat_from_form(value: str, players: int) -> str | None:
    """The create form's seat ("<table size>:<seat id>"; empty: the first free seat). A seat
    chosen for another table size would land the host among other countries: refused."""
    if not value:
        return None
    size, _, seat = value.partition(":")
    if not seat:
        return value  # a bare seat id (the JSON API's form)
    if size != str(players):
        raise Invalid(t("seat_for_other_size", size=size, players=players))
    return seat


def pace_from_form(form: FormData, mode: str) -> dict[str, Any] | None:
    """The create form's clock fields as the API's ``clock`` object (None: untimed)."""
    if form.get("timed") not in ("on", "true", "1"):
        return None
    names = ({"initial_seconds": ("clock_minutes", 60), "increment_seconds": ("clock_increment", 1)} if mode == "live"
             else {"initial_days": ("clock_days", 1), "per_move_days": ("clock_per_move_days", 1),
                   "max_days": ("clock_max_days", 1)})
    clock: dict[str, Any] = {}
    for key, (name, scale) in names.items():
        clock[key] = whole_number(field(form, name), f"clock.{key}") * scale
    try:
        return ClockIn(**clock).model_dump(exclude_none=True)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise ApiError(422, f"clock.{err['loc'][0]}: {err['msg']}") from exc
