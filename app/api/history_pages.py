"""History pages: step through a match move by move, and check an exported replay.

Past views come from app.sessions.history.view_at, filtered exactly like live views."""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import UploadFile

from app.api import table as api_table
from app.api.auth import csrf_token
from app.api.boards import view_sections
from app.api.body_limit import BodyTooLarge, describe_size
from app.api.deps import get_cache, get_db, optional_user
from app.api.errors import status_of
from app.api.page_kit import (
    base_context,
    checked_form,
    first_error,
    flash_only,
    page_error,
    page_lang,
    refused,
    whole_number,
)
from app.api.templating import board_extras, board_template, describe, player_filter, templates
from app.games.registry import installed
from app.i18n import t, term, terms_in, tn
from app.models import Match, User
from app.sessions import history, service, table_view
from app.sessions.errors import DomainError
from app.sessions.replay import MatchCache

log = logging.getLogger("warroom.pages")
router = APIRouter(include_in_schema=False, dependencies=[Depends(page_lang)])


def history_board(ctx: dict[str, Any]) -> Markup | None:
    """The game's own board drawn from a past view; None (the generic facts) if it cannot be."""
    if not ctx.get("board_template"):
        return None
    try:
        return Markup(templates.get_template(ctx["board_template"]).render(**ctx))
    except Exception:  # a board written for live play may need more than a past view holds
        log.warning("board template of %s cannot draw a past view", ctx.get("game_id"), exc_info=True)
        return None


async def past_context(request: Request, db: AsyncSession, cache: MatchCache, match: Match, user: User | None,
                       seq: str, seat: str) -> dict[str, Any]:
    """The context of one past step (history.view_at, filtered like a live view), shared by the
    side panel and the full-size page. Raises DomainError for a bad seq or seat."""
    at = whole_number(seq, "seq") if seq else match.seq
    past = await history.view_at(db, cache, match, user, at, seat or None)
    rows = await service.seat_rows(db, match.id)
    you = service.seat_of(rows, user)
    view = past["view"]
    labels = {r.seat: r.label for r in rows}
    names = await table_view.player_names(db, rows)
    hand, private_keys, not_public = view_sections(match.game, view)  # as the game declares them
    ctx: dict[str, Any] = {
        "match_id": match.id, "game_id": match.game, "status": match.status, "csrf": csrf_token(request),
        "seq": past["seq"], "last_seq": past["last_seq"], "seat": past["seat"], "you": you,
        # a past view is only looked at: nothing in it can be answered
        "view": view, "pending": [], "hand": hand, "hand_decision": None, "hand_choices": set(),
        "log": past["log"][-40:], "board_template": board_template(match.game),
        "board_ctx": board_extras(match.game, view, past["seat"]),
        "public": describe(view, not_public, labels),
        "private": describe({k: view[k] for k in sorted(private_keys)}, set(), labels),
        "seat_choices": [(r.seat, r.label) for r in rows] if you and match.status == "finished" else [],
        "history_open": True, "has_history": True,
        "seats": [{"seat": r.seat, "label": r.label, "player": names.get(r.user_id), "bot": r.bot,
                   "you": r.seat == you, "waiting": False} for r in rows],
        "step_lines": [line for line in past["log"] if line["seq"] == past["seq"]],
    }
    ctx["seat_label"] = labels.get(past["seat"] or "")
    viewed = next((r for r in rows if r.seat == past["seat"]), None)
    ctx["hand_title"] = hand_title(match.game, viewed, you, names)
    # a game's own board names the hands it draws: another seat's are not "your hand"
    ctx["viewed_hand_of"] = (t("their_hand", seat=holder_name(match.game, viewed, names))
                             if viewed is not None and viewed.seat != you else None)
    ctx["board_html"] = history_board(ctx)
    return ctx


def hand_title(game_id: str, viewed: Any, you: str | None, names: dict[int | None, str]) -> str:
    """Whose hand a past view shows: "Your hand", or another seat's by its countries and player
    ("Germany's hand (Bob)"): a player looking from another seat must not read it as theirs."""
    if viewed is None or viewed.seat == you:
        return t("your_hand")
    whose = ", ".join(term(game_id, r) for r in viewed.roles or []) or terms_in(game_id, viewed.label)
    return t("hand_of", whose=whose, seat=holder_name(game_id, viewed, names))


def holder_name(game_id: str, viewed: Any, names: dict[int | None, str]) -> str:
    """Who holds a seat: its player's name, else its label ("Player 2")."""
    name = names.get(viewed.user_id)
    return player_filter(name) if name else terms_in(game_id, viewed.label.partition(":")[0])


@router.get("/matches/{match_id}/history", response_class=HTMLResponse)
async def history_panel(match_id: str, request: Request, seq: str = "", seat: str = "",
                        db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache),
                        user: User | None = Depends(optional_user)) -> Response:
    """The table as it stood after ``seq`` (GET /api/matches/{id}/at/{seq}, rendered): a
    fragment that replaces the history panel; the buttons and slider ask for the next one."""
    match = await table_view.find_match(db, match_id)
    if match is None:
        return flash_only(t("not_found"), 404)
    try:
        ctx = await past_context(request, db, cache, match, user, seq, seat)
    except DomainError as exc:
        return flash_only(page_error(exc), status_of(exc))
    html = templates.get_template("history.html").render(**ctx)
    return HTMLResponse(html)


@router.get("/matches/{match_id}/replay", response_class=HTMLResponse)
async def replay_page(match_id: str, request: Request, seq: str = "", seat: str = "",
                      db: AsyncSession = Depends(get_db), cache: MatchCache = Depends(get_cache),
                      user: User | None = Depends(optional_user)) -> Response:
    """The past board full size, a page of its own: a scrubber by round, by turn and by step,
    the log line(s) of the step shown with it. Who may look is the table's rule
    (table_view.history_allowed); the view is filtered exactly like a live one."""
    match = await table_view.find_match(db, match_id)
    base = await base_context(request, db, user)
    if match is None:
        return error_page(request, base, t("not_found"), 404)
    you = service.seat_of(await service.seat_rows(db, match_id), user)
    if match.status not in ("active", "finished"):  # never started (open, abandoned): no past to show
        return error_page(request, base, t("replay_none_yet"), 400)
    if not table_view.history_allowed(match, you):
        return error_page(request, base, t("replay_not_allowed"), 403)
    try:
        ctx = await past_context(request, db, cache, match, user, seq, seat)
    except DomainError as exc:
        return error_page(request, base, page_error(exc), status_of(exc))
    game = installed().get(match.game)
    marks = await history.turn_marks(db, match_id)
    rounds: dict[int, int] = {}
    for mark in marks:
        rounds.setdefault(mark.round, mark.seq)
    here = max((m for m in marks if m.seq <= ctx["seq"]), key=lambda m: m.seq, default=None)
    ctx.update(base)
    ctx.update(game_title=game.title if game else match.game, table_name=match.name or "",
               marks=marks, rounds=sorted(rounds.items()), here=here, log=ctx["log"])
    return templates.TemplateResponse(request, "history_page.html", ctx)


def error_page(request: Request, ctx: dict[str, Any], message: str, status: int) -> Response:
    return templates.TemplateResponse(request, "page_error.html", {**ctx, "message": message}, status_code=status)


@router.get("/matches/{match_id}/summary", response_class=HTMLResponse)
async def summary(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                  user: User | None = Depends(optional_user)) -> Response:
    """The end-of-game summary: a fragment for the table (htmx), a page of its own otherwise.
    Public facts only (winners, scores, the public log's figures): anyone may read it."""
    match = await table_view.find_match(db, match_id)
    fragment = request.headers.get("hx-request") == "true"
    # a fragment leaves the session's flash to the page around it
    base = {} if fragment else await base_context(request, db, user)
    if match is None:
        return flash_only(t("not_found"), 404) if fragment else error_page(request, base, t("not_found"), 404)
    try:
        end = await history.end_summary(db, match)
    except DomainError as exc:
        if fragment:
            return flash_only(page_error(exc), status_of(exc))
        return error_page(request, base, page_error(exc), status_of(exc))
    game = installed().get(match.game)
    ctx = {**base, "match_id": match_id, "game_id": match.game, "end": end, "status": match.status,
           "game_title": game.title if game else match.game, "table_name": match.name or ""}
    if fragment:
        return HTMLResponse(templates.get_template("_end_summary_body.html").render(**ctx))
    return templates.TemplateResponse(request, "summary_page.html", ctx)


@router.get("/matches/{match_id}/history/closed", response_class=HTMLResponse)
async def history_closed(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                         user: User | None = Depends(optional_user)) -> Response:
    match = await table_view.find_match(db, match_id)
    if match is None:
        return flash_only(t("not_found"), 404)
    you = service.seat_of(await service.seat_rows(db, match_id), user)
    html = templates.get_template("history_closed.html").render(
        match_id=match_id, seq=match.seq, status=match.status, csrf=csrf_token(request),
        has_history=table_view.history_allowed(match, you))
    return HTMLResponse(html)


def verify_reply(message: str, ok: bool | None = None, divergent: int | None = None, status: int = 200) -> Response:
    html = templates.get_template("verify_result.html").render(message=message, ok=ok, divergent=divergent)
    return HTMLResponse(html, status_code=status)


@router.post("/replays/verify", response_class=HTMLResponse)
async def verify_form(request: Request, user: User | None = Depends(optional_user)) -> Response:
    """Upload an export: POST /api/replays/verify's check, its answer rendered in the page.
    The upload's size is bounded by app.api.body_limit before any of it is read."""
    if user is None:  # refused before the upload is read
        return verify_reply(t("verify_sign_in"), status=401)
    try:
        form = await checked_form(request)
    except BodyTooLarge as exc:
        return verify_reply(t("verify_too_large", size=describe_size(exc.limit)), status=413)
    if form is None:
        return refused()
    upload = form.get("export")
    if not isinstance(upload, UploadFile):
        return verify_reply(t("verify_choose_file"), status=422)
    raw = await upload.read()
    try:
        body = history.MatchExport.model_validate(json.loads(raw))
    except ValueError as exc:  # bad JSON or a ValidationError (both are ValueErrors)
        detail = first_error(exc) if isinstance(exc, ValidationError) else "not JSON"
        return verify_reply(t("verify_bad_file", detail=detail), status=422)
    try:
        result = await api_table.verify_export(body, user.id)
    except DomainError as exc:
        return verify_reply(page_error(exc), status=status_of(exc))
    if result.ok:
        return verify_reply(tn("verify_ok", result.actions), ok=True)
    message = t("verify_diverges", seq=result.first_divergent_seq)
    if result.error:
        message += f" ({result.error})"
    return verify_reply(message, ok=False, divergent=result.first_divergent_seq)
