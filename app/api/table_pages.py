"""The table page, its live socket, and its htmx posts (answer, undo, resign, chat).

The panels are rendered from ``seat_view`` / ``pending_for`` / ``log_lines`` only, the same
per-seat filtering the JSON API and its socket use, never from the raw state."""

from __future__ import annotations

import re
import secrets
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, Response
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData

from app.api.assets import cache_control
from app.api.auth import csrf_token
from app.api.deps import current_user, get_cache, get_db, get_work, optional_user
from app.api.errors import ApiError, status_of
from app.api.live import serve_socket
from app.api.page_kit import (
    back_with,
    base_context,
    checked_form,
    field,
    first_error,
    flash_only,
    html_url,
    page_error,
    page_lang,
    refused,
    whole_number,
)
from app.api.schemas import ChatIn
from app.api.templating import (
    GUEST_MARK,
    asset_kind,
    board_asset_path,
    board_extras,
    board_template,
    describe,
    seat_facts,
    templates,
    view_sections,
)
from app.games.registry import installed
from app.i18n import choose_lang, current_lang, t, tn, use_lang
from app.models import Match, User
from app.sessions import autopass, service, table_view, work
from app.sessions.chat import ChatLine
from app.sessions.errors import DomainError
from app.sessions.fragments import diff, split
from app.sessions.live import Hub
from app.sessions.maintenance import engine_warning
from app.sessions.replay import MatchCache
from app.sessions.work import MatchWork

router = APIRouter(include_in_schema=False, dependencies=[Depends(page_lang)])


@router.get("/games/{game_id}/{name}")
async def board_asset(game_id: str, name: str, v: str | None = None) -> Response:
    path = board_asset_path(game_id, name)
    kind = asset_kind(name)
    if path is None or kind is None:
        raise ApiError(404, f"no board asset '{name}' for game '{game_id}'")
    return FileResponse(path, media_type=kind[1], headers={"Cache-Control": cache_control(path, v)})


def clock_text(clock: dict[str, Any] | None) -> str:
    """A seat's bank as players read it: 12:34 on a live clock, 2d 5h on a slow one."""
    if not clock:
        return ""
    seconds = max(0, int(clock["remaining_ms"]) // 1000)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    if days:
        return tn("clock_days", days) + " " + tn("clock_hours", hours)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


async def table_context(db: AsyncSession, cache: MatchCache, match: Match, user: User | None, *, invite: str,
                        csrf: str) -> dict[str, Any]:
    """Everything the table's panels show, for this user's seat only."""
    return page_context(await table_view.read_table_page(db, cache, match, user), user, invite=invite, csrf=csrf)


def page_context(read: table_view.TableRead, user: User | None, *, invite: str, csrf: str) -> dict[str, Any]:
    """The panels' context from one read of the table (the page's own, or the live hub's for
    every socket of a push): no database here."""
    match = read.match
    rows, you, mine, names, clocks = read.seats, read.you, read.mine, read.names, read.clocks
    game = installed().get(match.game)
    waiting = set(match.waiting_on or []) if match.status == "active" else set()
    view: dict[str, Any] = {}
    pending: list[dict[str, Any]] = []
    log: list[dict[str, Any]] = []
    seq = match.seq
    note = None
    if (message := read.message) is not None:
        seq, view, pending, log = message["seq"], message["view"], message["pending"], message["log"]
        note = message.get("waiting_note")
    # each line its own id, so a push can carry the new lines only (the message is shared: copies)
    log = [dict(line, key=key) for line, key in zip(log, line_keys(log), strict=True)]
    by_seat = {s["id"]: s for s in seat_facts(match.game, view) if isinstance(s, dict) and "id" in s}
    columns: list[str] = []
    for entry in by_seat.values():
        columns += [k for k in entry if k not in ("id", "label") and k not in columns]
    seats = [{"seat": r.seat, "label": r.label, "player": names.get(r.user_id), "bot": r.bot, "you": r.seat == you,
              "waiting": r.seat in waiting, "resigned": r.resigned, "taken": r.user_id is not None or r.bot,
              "clock": clock_text(clocks.get(r.seat)), "timed_out": bool(clocks.get(r.seat, {}).get("timed_out")),
              "vacation": (clocks.get(r.seat) or {}).get("on_vacation_until"),
              "extra": by_seat.get(r.seat, {})} for r in rows]
    labels = {r.seat: r.label for r in rows}
    hand, private_keys, not_public = view_sections(match.game, view)  # as the game declares them
    hand_decision = next((d for d in pending if d["min"] == 1 and d["max"] == 1
                          and any(c["id"] in {x["id"] for x in d["choices"]} for c in hand)), None)
    playing = match.status == "active" and mine is not None and not mine.bot
    extras = board_extras(match.game, view, you)  # a game's own board may show the hand itself
    return {
        "match_id": match.id, "game_id": match.game, "game_title": game.title if game else match.game,
        # a table without a name of its own goes by its host's, when the host sits at it
        "table_name": shown_name(match, names),
        "mode": match.mode, "status": match.status, "seq": seq, "you": you, "signed_in": user is not None,
        "host": user is not None and match.created_by == user.id, "invite": invite, "csrf": csrf,
        "seats": seats, "columns": columns,
        "waiting_labels": [r.label for r in rows if r.seat in waiting],
        "outcome": match.outcome, "view": view, "pending": pending, "log": log,
        "my_turn": any(not d.get("optional") for d in pending),  # any-time decisions make no turn
        "waiting_note": note,
        # as stored: a "this round" setting shows until the seat's next read after the round ends
        "autopass": autopass.shown(game, None, mine) if playing else None,
        "hand": hand, "hand_decision": hand_decision,
        "hand_choices": {c["id"] for c in hand_decision["choices"]} if hand_decision else set(),
        "private": describe({k: view[k] for k in sorted(private_keys)}, set(), labels),
        "public": describe(view, not_public, labels),
        "board_template": board_template(match.game),
        "board_ctx": extras, "hand_on_board": bool(extras.get("hand_on_board")),
        "chat": chat_lines(read.chat),
        "can_chat": user is not None and (you is not None or match.spectator_chat),
        "can_undo": read.can_undo,
        "can_resign": playing,
        "can_reclaim": match.status == "active" and mine is not None and bool(mine.bot) and not mine.resigned,
        "has_history": table_view.history_allowed(match, you),
        "moves_waiting": read.moves_waiting,
        "engine_warning": engine_warning(match),
    }


def shown_name(match: Match, names: dict[int | None, str]) -> str:
    """The table's name: its own, else its host's game when the host sits at it (names are the
    seated players'), else none (the page shows the game's title)."""
    host = names.get(match.created_by)
    return service.shown_table_name(match.name, host.removesuffix(GUEST_MARK) if host else None, "")


def line_keys(log: list[dict[str, Any]]) -> list[str]:
    """Each log line's id: its seq and its place among that seq's lines (a seq may log several)."""
    keys: list[str] = []
    n, seq = 0, None
    for line in log:
        n, seq = (n + 1 if line["seq"] == seq else 0), line["seq"]
        keys.append(f"{seq}-{n}")
    return keys


def chat_lines(lines: list[ChatLine] | None) -> list[dict[str, Any]] | None:
    """The chat as the page shows it, or None when the table keeps it to the players."""
    if lines is None:
        return None
    # a guest may borrow any free name: the mark tells them from the account holders
    return [{"id": line.id, "name": f"{line.name} {t('guest_suffix')}" if line.is_guest else line.name,
             "text": line.text} for line in lines]


def render_panels(ctx: dict[str, Any], flash: str | None = None, with_flash: bool = False) -> str:
    return templates.get_template("panels_oob.html").render(**ctx, flash=flash, with_flash=with_flash)


async def fresh_match(db: AsyncSession, match_id: str) -> Match:
    match = await table_view.find_match(db, match_id, fresh=True)
    if match is None:
        raise ApiError(404, t("not_found"))
    return match


@router.get("/matches/{match_id}", response_class=HTMLResponse, name="table_page")
async def table_page(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                     cache: MatchCache = Depends(get_cache), user: User | None = Depends(optional_user)) -> Response:
    ctx = await base_context(request, db, user)
    match = await table_view.find_match(db, match_id)
    if match is None:
        return templates.TemplateResponse(request, "missing.html", ctx, status_code=404)
    ctx.update(await table_context(db, cache, match, user, csrf=ctx["csrf"],
                                   invite=str(request.url_for("table_page", match_id=match_id))))
    return templates.TemplateResponse(request, "table.html", ctx)


# the page's CSRF token in a shared render: every socket's (or reply's) own goes in as it is sent,
# so one render serves every browser of a key; random, so no text a player writes can hold it
CSRF_SLOT = secrets.token_hex(16)
# the socket's htmx extension swaps every top-level element of a frame by its id: "true" is said
# for it (a post's reply, swapped by htmx itself, needs it written). Never in a player's text:
# their quotes are escaped.
OOB_TRUE = ' hx-swap-oob="true"'
SPACES = re.compile(r"\s{2,}")


def compact(html: str) -> str:
    """The render with each run of white space as one (a line break where it held one): the
    page shows it the same (nothing pushed is preformatted), a push is a quarter lighter."""
    return SPACES.sub(lambda m: "\n" if "\n" in m.group() else " ", html)


@dataclass
class TablePage:
    """One browser's table page, as the live hub and the htmx replies render it: its language,
    user, invite link and CSRF token; everything else comes from the table's read."""

    user: User | None
    lang: str
    csrf: str
    invite: str

    def key(self, read: table_view.TableRead) -> Hashable:
        """What the HTML depends on besides the table: equal keys, the very same HTML."""
        signed_in = self.user is not None
        host = self.user is not None and read.match.created_by == self.user.id
        return read.you, self.lang, signed_in, host, read.moves_waiting, self.invite

    def render(self, read: table_view.TableRead) -> str:
        use_lang(self.lang)  # the hub renders for every language in turn
        return compact(render_panels(page_context(read, self.user, invite=self.invite, csrf=CSRF_SLOT)))

    def own(self, text: str) -> str:
        return text.replace(CSRF_SLOT, self.csrf)

    def frame(self, text: str, seq: int) -> str:
        """A socket frame: the seq first, in a comment htmx ignores (warroom.js reads it, so
        that a post's reply older than the page never undoes a newer push)."""
        return f"<!--seq:{seq}-->" + self.own(text).replace(OOB_TRUE, "")


@router.websocket("/matches/{match_id}/live")
async def table_socket(websocket: WebSocket, match_id: str) -> None:
    """The table page's live feed: after every commit, the panels that changed for this page
    as htmx out-of-band fragments (rendered once per key by the hub, shared by its sockets)."""
    async with websocket.app.state.sessions() as db:
        user = await current_user(websocket, db)
    del db  # this frame lives as long as the socket: an idle socket need not hold a closed session
    csrf = str(websocket.session.get("csrf") or "")
    lang = choose_lang(websocket.session.get("lang"), None, websocket.headers.get("accept-language"))
    invite = html_url(str(websocket.url_for("table_page", match_id=match_id)))
    await serve_socket(websocket, match_id, page=TablePage(user, lang, csrf, invite))


async def table_reply(request: Request, db: AsyncSession, cache: MatchCache, user: User | None, match_id: str,
                      status: int, flash: str) -> Response:
    """After an htmx post at the table: the fragments of this page that changed (against what
    its socket was last sent; all of them when that is not known here), and the flash. A refusal
    gets the flash alone (the form stays as the player left it), but a stale one (409) the table
    as it is now too: the page was behind. After a plain form post: back to the table, the error
    in the flash."""
    if request.headers.get("hx-request") != "true":
        return back_with(request, f"/matches/{match_id}", flash or None)
    if status not in (200, 409) or user is None:
        return flash_only(flash, status)
    try:
        match = await fresh_match(db, match_id)
    except DomainError as exc:
        return flash_only(page_error(exc), status_of(exc))
    read = await table_view.read_table_page(db, cache, match, user)
    page = TablePage(user, current_lang(), csrf_token(request),
                     str(request.url_for("table_page", match_id=match_id)))
    rendered = split(page.render(read))
    hub: Hub = request.app.state.hub
    before = hub.page_sent(match_id, user.id, lambda other: getattr(other, "csrf", None) == page.csrf)
    flash_html = templates.get_template("flash_oob.html").render(flash=flash)
    seq = read.message["seq"] if read.message is not None else match.seq
    return HTMLResponse(page.own(diff(before, rendered, lines=False)) + flash_html, status_code=status,
                        headers={"X-Warroom-Seq": str(seq)})


async def table_post(request: Request, db: AsyncSession, cache: MatchCache, user: User | None, match_id: str,
                     sign_in_key: str, act: Callable[[FormData, User], Awaitable[Any]]) -> Response:
    """An htmx post from the table (answer, undo, resign): check the token and the user, act,
    then re-render the panels, with the refusal's own text when the rules said no."""
    form = await checked_form(request)
    if form is None:
        return refused()
    status, flash = 200, ""
    try:
        if user is None:
            raise ApiError(401, t(sign_in_key))
        await act(form, user)
    except DomainError as exc:
        status = status_of(exc)
        flash = t("stale", detail=page_error(exc)) if status_of(exc) == 409 else page_error(exc)
    return await table_reply(request, db, cache, user, match_id, status, flash)


def form_seq(form: FormData) -> int:
    text = field(form, "seq")
    if not text:
        raise ApiError(422, "seq: the form did not say which state it was made against").said("err_form_no_seq")
    return whole_number(text, "seq")


@router.post("/matches/{match_id}/answer")
async def answer_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                      cache: MatchCache = Depends(get_cache), tables: MatchWork = Depends(get_work),
                      user: User | None = Depends(optional_user)) -> Response:
    """Answer a pending decision, exactly as POST /api/matches/{id}/actions does."""
    async def act(form: FormData, player: User) -> None:
        choices = [field(form, "choice")] if "choice" in form else [str(c) for c in form.getlist("choices")]
        await work.submit(tables, db, player, match_id, form_seq(form), field(form, "decision"), choices, None)

    return await table_post(request, db, cache, user, match_id, "sign_in_to_join", act)


@router.post("/matches/{match_id}/undo")
async def undo_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                    cache: MatchCache = Depends(get_cache), tables: MatchWork = Depends(get_work),
                    user: User | None = Depends(optional_user)) -> Response:
    """Take back one's own last move, exactly as POST /api/matches/{id}/undo does."""
    async def act(form: FormData, player: User) -> None:
        await work.undo(tables, db, player, match_id, form_seq(form))

    return await table_post(request, db, cache, user, match_id, "sign_in_first", act)


@router.post("/matches/{match_id}/resign")
async def resign_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                      cache: MatchCache = Depends(get_cache), tables: MatchWork = Depends(get_work),
                      user: User | None = Depends(optional_user)) -> Response:
    async def act(_form: FormData, player: User) -> None:
        await work.resign(tables, db, player, match_id)

    return await table_post(request, db, cache, user, match_id, "sign_in_first", act)


@router.post("/matches/{match_id}/autopass")
async def autopass_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                        cache: MatchCache = Depends(get_cache), tables: MatchWork = Depends(get_work),
                        user: User | None = Depends(optional_user)) -> Response:
    """The seat's auto-pass setting, exactly as POST /api/matches/{id}/autopass sets it."""
    async def act(form: FormData, player: User) -> None:
        await work.set_autopass(tables, db, player, match_id, field(form, "mode"))

    return await table_post(request, db, cache, user, match_id, "sign_in_first", act)


@router.post("/matches/{match_id}/chat")
async def chat_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                    tables: MatchWork = Depends(get_work), user: User | None = Depends(optional_user)) -> Response:
    form = await checked_form(request)
    if form is None:
        return refused()
    status, flash = 200, ""
    try:
        if user is None:
            raise ApiError(401, t("sign_in_to_join"))
        try:
            body = ChatIn(text=field(form, "text"))
        except ValidationError as exc:
            raise ApiError(422, first_error(exc)) from exc
        await work.say(tables, db, user, match_id, body.text)
    except DomainError as exc:
        status, flash = status_of(exc), page_error(exc)
    if request.headers.get("hx-request") != "true":
        return back_with(request, f"/matches/{match_id}", flash or None)
    chat = chat_lines(await table_view.read_chat(db, match_id, user))
    html = templates.get_template("chat_oob.html").render(chat=chat, flash=flash)
    return HTMLResponse(html, status_code=status)
