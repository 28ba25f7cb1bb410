"""Server-rendered pages (Jinja2 + htmx): the lobby, the table, and the table's live socket.

Every page form carries the session's CSRF token (hidden field ``csrf``; htmx also sends
it as ``X-CSRF-Token`` from ``hx-headers`` on <body>) and every POST here checks it.
Plain forms (sign-in, create, join, bots, start) answer with a redirect; htmx posts
(answers, chat) answer with out-of-band fragments. The table's panels are rendered from
``seat_view`` / ``pending_for`` / ``log_lines`` only, the same per-seat filtering the JSON
API and its socket use, never from the raw state.

Every page is served in the request's language (``use_lang``: the switch remembered in the
session, the account's choice, the browser's Accept-Language), and every page names how
many matches wait on the signed-in user ("(N)" in the title, a badge in the header).
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import Any

import jinja2
from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import TypeAdapter, ValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData
from starlette.requests import HTTPConnection

from app.api import clocks as api_clocks
from app.api import matches as api_matches
from app.api import table as api_table
from app.api.auth import client_address, csrf_token, forget_session, session_id, sign_in, signed_in_uid
from app.api.boards import (
    BoardLoader,
    asset_kind,
    board_asset_path,
    board_assets,
    board_extras,
    board_template,
    game_text,
    say,
    seat_facts,
    view_sections,
)
from app.api.deps import current_user, get_cache, get_db, optional_user
from app.api.guards import check_form_token
from app.api.live import serve_socket
from app.api.nul_guard import nul_in_pairs, refusal
from app.api.schemas import ChatIn, ClockIn, GuestIn, LoginIn, RegisterIn
from app.games.registry import installed
from app.i18n import LANG_NAMES, LANGS, choose_lang, current_lang, t, term, terms_in, tn, use_lang
from app.models import Action as ActionRow
from app.models import ChatMessage, Match, MatchSeat, User
from app.sessions import accounts, floods, service
from app.sessions.clocks import clock_states
from app.sessions.errors import ApiError
from app.sessions.limits import TooMany
from app.sessions.maintenance import engine_warning
from app.sessions.replay import MatchCache, undoable_move

APP_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE_DIR = os.path.join(APP_DIR, "templates")
CHAT_LINES = 100
UNDO_LOOKBACK = 64  # log rows searched for the caller's newest standing move


async def page_lang(conn: HTTPConnection) -> str:
    """Serve this request in its language (async: a threadpool would lose the context var)."""
    return use_lang(choose_lang(conn.session.get("lang"), None, conn.headers.get("accept-language")))


router = APIRouter(include_in_schema=False, dependencies=[Depends(page_lang)])


# --------------------------------------------------------------------------- templating
def pretty(key: Any) -> str:
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def is_card(value: Any) -> bool:
    return isinstance(value, dict) and "id" in value and "label" in value


def show(value: Any, names: dict[str, str] | None = None) -> str:
    """A readable one-line rendering of a JSON value from a view; seat ids read as seat labels."""
    names = names or {}
    if value is None:
        return "—"
    if isinstance(value, bool):
        return t("yes") if value else t("no")
    if isinstance(value, dict):
        if "label" in value:
            return str(value["label"])
        return ", ".join(f"{names.get(k) or pretty(k)}: {show(v, names)}" for k, v in value.items()) or "—"
    if isinstance(value, list):
        return ", ".join(show(v, names) for v in value) or "—"
    return names.get(value, str(value)) if isinstance(value, str) else str(value)


def describe(view: dict[str, Any], skip: set[str], names: dict[str, str]) -> list[tuple[str, str, Any]]:
    """(key, "cards" | "text", value) for each entry of a view: lists of {id,label} are cards."""
    out = []
    for key, value in view.items():
        if key in skip:
            continue
        if isinstance(value, list) and value and all(is_card(v) for v in value):
            out.append((key, "cards", value))
        else:
            out.append((key, "text", show(value, names)))
    return out


@jinja2.pass_context
def term_filter(ctx: Any, value: Any, game: str | None = None) -> str:
    """``{{ "build_army"|term }}``: a game term in the page's language (the rulebook's name)."""
    return term(game or str(ctx.get("game_id") or ""), value)


@jinja2.pass_context
def terms_filter(ctx: Any, value: Any, game: str | None = None) -> str:
    """``{{ seat.label|terms }}``: every known game term inside a longer text."""
    return terms_in(game or str(ctx.get("game_id") or ""), value)


def make_templates() -> Jinja2Templates:
    loader = jinja2.ChoiceLoader([
        jinja2.FileSystemLoader(TEMPLATE_DIR),
        BoardLoader(),  # a game's own board: "games/<game>/<template>", wherever the game lives
    ])
    env = jinja2.Environment(loader=loader, autoescape=True, trim_blocks=True, lstrip_blocks=True)
    env.globals["t"] = t
    env.globals["tn"] = tn
    env.filters["pretty"] = pretty
    env.filters["show"] = show
    env.filters["term"] = term_filter
    env.filters["terms"] = terms_filter
    env.globals["say"] = say
    env.globals["game_text"] = game_text
    env.globals["current_lang"] = current_lang
    env.globals["langs"] = [(code, LANG_NAMES[code]) for code in LANGS]
    env.globals["board_assets"] = board_assets
    return Jinja2Templates(env=env)


templates = make_templates()


async def moves_waiting(db: AsyncSession, user: User | None) -> int:
    """How many running matches wait on this user's own (not bot-played) seat."""
    if user is None:
        return 0
    rows = (await db.execute(select(Match.waiting_on, MatchSeat.seat)
                             .join(MatchSeat, MatchSeat.match_id == Match.id)
                             .where(MatchSeat.user_id == user.id, MatchSeat.bot.is_(None),
                                    Match.status == "active"))).all()
    return sum(1 for waiting, seat in rows if seat in (waiting or []))


async def base_context(request: Request, db: AsyncSession, user: User | None) -> dict[str, Any]:
    return {"user": user, "csrf": csrf_token(request), "flash": request.session.pop("flash", None),
            "moves_waiting": await moves_waiting(db, user), "here": request.url.path}


def html_url(url: str) -> str:
    """A socket's url_for names ws://; the invite link is the page's http(s):// address."""
    if url.startswith("ws"):
        return "http" + url[2:]
    return url


@router.get("/games/{game_id}/{name}")
async def board_asset(game_id: str, name: str) -> Response:
    path = board_asset_path(game_id, name)
    kind = asset_kind(name)
    if path is None or kind is None:
        raise ApiError(404, f"no board asset '{name}' for game '{game_id}'")
    return FileResponse(path, media_type=kind[1])


# --------------------------------------------------------------------------- CSRF + forms
async def checked_form(request: Request) -> FormData | None:
    """The posted form, or None when it lacks this session's CSRF token; a 422 naming the
    field when one holds NUL (no page form reaches the database without passing here)."""
    form = await request.form()
    token = request.headers.get("x-csrf-token") or form.get("csrf")
    if not check_form_token(request, token if isinstance(token, str) else None):
        return None
    if (name := nul_in_pairs(form.multi_items())) is not None:
        raise ApiError(422, refusal(name))
    return form


def flash_only(message: str, status: int) -> HTMLResponse:
    """Only the message, out of band: ``HX-Reswap: none`` keeps htmx from emptying the target."""
    html = templates.get_template("flash_oob.html").render(flash=message)
    return HTMLResponse(html, status_code=status, headers={"HX-Reswap": "none"})


def refused() -> HTMLResponse:
    return flash_only(t("csrf_refused"), 403)


def field(form: FormData, name: str, default: str = "") -> str:
    value = form.get(name, default)
    return value.strip() if isinstance(value, str) else default


INT32_MAX = 2**31 - 1
_INTEGER = TypeAdapter(int)


def whole_number(text: str, where: str, low: int = 0, high: int = INT32_MAX) -> int:
    """A form or query field holding a whole number from ``low`` to ``high``, parsed by Pydantic
    like the JSON API's fields (``str.isdigit`` passes "²" and "٣", which ``int`` then refuses
    or reads as 3; a 5,000-digit string is over ``int``'s limit): else a 422 naming the field."""
    try:
        number = _INTEGER.validate_python(text)
    except ValidationError:
        number = None
    if number is None or not low <= number <= high:
        raise ApiError(422, f"{where}: must be a whole number from {low} to {high}")
    return number


def local_path(target: str) -> str:
    """Only ever redirect within this site (no open redirects)."""
    if target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/"


def redirect(target: str) -> RedirectResponse:
    return RedirectResponse(local_path(target), status_code=303)


def back_with(request: Request, target: str, message: str | None) -> RedirectResponse:
    if message:
        request.session["flash"] = message
    return redirect(target)


# the account rules' own refusals (app.sessions.names / passwords), each a catalogue entry
TRANSLATED_ERRORS = {"name_invisible", "name_marks", "password_common", "password_has_name"}


def first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(x) for x in err.get("loc", ())) or "form"
    kind = str(err.get("type"))
    if kind in TRANSLATED_ERRORS:
        return t(kind, **(err.get("ctx") or {}))
    if where == "name":
        return t("bad_name")
    if where == "password" and err.get("type") == "string_too_short":
        return t("bad_password")
    return f"{where}: {err.get('msg', 'invalid')}"


# --------------------------------------------------------------------------- lobby
@router.get("/", response_class=HTMLResponse)
async def lobby_page(request: Request, db: AsyncSession = Depends(get_db),
                     user: User | None = Depends(optional_user)) -> Response:
    ctx = await base_context(request, db, user)
    if user is not None:
        games = installed()
        everything = await api_matches.summaries(db, request, user, mine=False)
        ctx.update(
            games=list(games.values()),
            open_tables=[m for m in everything if m.status == "open"],
            in_play=[m for m in everything if m.status == "active" and m.you is None],
            mine=await api_matches.summaries(db, request, user, mine=True),
        )
    return templates.TemplateResponse(request, "lobby.html", ctx)


def page_error(exc: ApiError) -> str:
    """An account refusal in the page's language (other refusals keep the API's words)."""
    if isinstance(exc, accounts.AccountRefused):
        return t(exc.key, **exc.args_for_page)
    if isinstance(exc, TooMany) and exc.page_key:
        return tn(exc.page_key, exc.retry_after)
    return exc.error


async def signed_in(request: Request, make: Callable[[AsyncSession], Awaitable[accounts.SignIn]],
                    next_url: str) -> Response:
    async with request.app.state.sessions() as db:
        try:
            signed = await make(db)
        except ApiError as exc:
            return back_with(request, next_url, page_error(exc))
    async with request.app.state.sessions() as db:  # what notifications speak until the account picks a language
        await accounts.remember_language(db, signed.user, current_lang())
    lang = request.session.get("lang")
    sign_in(request, signed)  # a fresh session: the account's language, else the one just used
    if (signed.user.locale or lang) in LANGS:
        request.session["lang"] = signed.user.locale or lang
    return redirect(next_url)


@router.post("/lang")
async def language_form(request: Request, db: AsyncSession = Depends(get_db),
                        user: User | None = Depends(optional_user)) -> Response:
    """The header's PL/EN switch: remembered in the session and, signed in, on the account."""
    form = await checked_form(request)
    if form is None:
        return refused()
    lang = field(form, "lang")
    next_url = local_path(field(form, "next", "/"))
    if lang not in LANGS:
        return back_with(request, next_url, f"lang: must be one of {', '.join(LANGS)}")
    request.session["lang"] = lang
    if user is not None:
        async with db.begin():
            row = await db.get(User, user.id)
            if row is not None:
                row.locale = lang
    return redirect(next_url)


async def account_form(request: Request, parse: Callable[[FormData], Any],
                       act: Callable[[AsyncSession, Any], Awaitable[accounts.SignIn]]) -> Response:
    """Guest, register and log-in forms: check the token, validate with the API's own
    model, then sign in and go back where the visitor came from."""
    form = await checked_form(request)
    if form is None:
        return refused()
    next_url = local_path(field(form, "next", "/"))
    try:
        body = parse(form)
    except ValidationError as exc:
        return back_with(request, next_url, first_error(exc))
    return await signed_in(request, lambda db: act(db, body), next_url)


def password(form: FormData) -> str:
    return str(form.get("password", ""))


@router.post("/guest")
async def guest_form(request: Request) -> Response:
    async def new_guest(db: AsyncSession, body: GuestIn) -> Any:
        floods.admit_guest(request)
        return await accounts.create_guest(db, body.name, session_id(request))

    return await account_form(request, lambda f: GuestIn(name=field(f, "name")), new_guest)


@router.post("/register")
async def register_form(request: Request) -> Response:
    """A signed-in guest who registers becomes the account in place, seats and all."""
    return await account_form(request, lambda f: RegisterIn(name=field(f, "name"), password=password(f)),
                              lambda db, body: accounts.register(db, body.name, body.password,
                                                                 signed_in_uid(request), session_id(request)))


@router.post("/login")
async def login_form(request: Request) -> Response:
    return await account_form(request, lambda f: LoginIn(name=field(f, "name"), password=password(f)),
                              lambda db, body: accounts.log_in(db, body.name, body.password,
                                                               client_address(request), session_id(request)))


@router.post("/logout")
async def logout_form(request: Request) -> Response:
    if await checked_form(request) is None:
        return refused()
    async with request.app.state.sessions() as db:
        await accounts.log_out(db, session_id(request))
    forget_session(request)
    lang = request.session.get("lang")
    request.session.clear()
    if lang in LANGS:
        request.session["lang"] = lang
    return redirect("/")


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
        return back_with(request, "/", f"game: '{field(form, 'game')}' is not installed here")
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
        clock = pace_from_form(form, mode)
        async with db.begin():
            await floods.admit_table(db, user, request)
            match = await service.create_match(db, user, game.id, count, options, mode, clock)
            match.spectator_chat = form.get("spectator_chat") in ("on", "true", "1")
            match.private = form.get("private") in ("on", "true", "1")
            await service.join(db, user, match.id, None)
    except ApiError as exc:
        return back_with(request, "/", exc.error)
    return redirect(f"/matches/{match.id}")


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


# --------------------------------------------------------------------------- the table
async def last_move_undoable(db: AsyncSession, match_id: str, seat: str) -> bool:
    """Whether the caller has a move it may take back now (the server checks again on undo):
    the newest moves of the log, less the ones undone, judged by the undo rule itself."""
    rows = list(reversed((await db.execute(select(ActionRow.seq, ActionRow.seat, ActionRow.payload)
                                           .where(ActionRow.match_id == match_id)
                                           .order_by(ActionRow.seq.desc()).limit(UNDO_LOOKBACK))).all()))
    undone = {int(r.payload["undo"]) for r in rows if "undo" in r.payload}
    standing = [r for r in rows if "undo" not in r.payload and r.seq not in undone]
    return undoable_move(standing, seat) is not None


def history_allowed(match: Match, you: str | None) -> bool:
    """Players step through their own seat while it runs; everyone once it is over."""
    return match.status == "finished" or (match.status == "active" and you is not None)


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
                        csrf: str, message: dict[str, Any] | None = None,
                        message_seat: str | None = None) -> dict[str, Any]:
    """Everything the table's panels show, for this user's seat only. ``message`` is the
    message for ``message_seat`` when the live hub already built it (the page socket)."""
    rows = await service.seat_rows(db, match.id)
    you = service.seat_of(rows, user)
    mine = next((r for r in rows if r.seat == you), None)
    names = await api_matches.player_names(db, rows)
    game = installed().get(match.game)
    waiting = set(match.waiting_on or []) if match.status == "active" else set()
    view: dict[str, Any] = {}
    pending: list[dict[str, Any]] = []
    log: list[dict[str, Any]] = []
    seq = match.seq
    if match.status not in ("open", "abandoned"):
        if message is None or message_seat != you:  # the seat changed since the hub looked
            message = await api_matches.read_message(db, cache, match, you)
        seq, view, pending, log = message["seq"], message["view"], message["pending"], message["log"]
    by_seat = {s["id"]: s for s in seat_facts(match.game, view) if isinstance(s, dict) and "id" in s}
    columns: list[str] = []
    for entry in by_seat.values():
        columns += [k for k in entry if k not in ("id", "label") and k not in columns]
    clocks = await clock_states(db, match, rows, service.utcnow()) if match.status == "active" else {}
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
        "mode": match.mode, "status": match.status, "seq": seq, "you": you, "signed_in": user is not None,
        "host": user is not None and match.created_by == user.id, "invite": invite, "csrf": csrf,
        "seats": seats, "columns": columns,
        "waiting_labels": [r.label for r in rows if r.seat in waiting],
        "outcome": match.outcome, "view": view, "pending": pending, "log": log,
        "my_turn": any(not d.get("optional") for d in pending),  # any-time decisions make no turn
        "hand": hand, "hand_decision": hand_decision,
        "hand_choices": {c["id"] for c in hand_decision["choices"]} if hand_decision else set(),
        "private": describe({k: view[k] for k in sorted(private_keys)}, set(), labels),
        "public": describe(view, not_public, labels),
        "board_template": board_template(match.game),
        "board_ctx": extras, "hand_on_board": bool(extras.get("hand_on_board")),
        "chat": await chat_lines(db, match, you),
        "can_chat": user is not None and (you is not None or match.spectator_chat),
        "can_undo": playing and you is not None and await last_move_undoable(db, match.id, you),
        "can_resign": playing,
        "can_reclaim": match.status == "active" and mine is not None and bool(mine.bot) and not mine.resigned,
        "has_history": history_allowed(match, you),
        "moves_waiting": await moves_waiting(db, user),
        "engine_warning": engine_warning(match),
    }


async def chat_lines(db: AsyncSession, match: Match, you: str | None) -> list[dict[str, Any]] | None:
    """The newest lines of the table's chat, or None when the table keeps it to the players."""
    if not api_matches.chat_open_to(match, you):
        return None
    rows = (await db.execute(select(ChatMessage.id, User.name, User.is_guest, ChatMessage.text)
                             .join(User, User.id == ChatMessage.user_id)
                             .where(ChatMessage.match_id == match.id)
                             .order_by(ChatMessage.id.desc()).limit(CHAT_LINES))).all()
    # a guest may borrow any free name: the mark tells them from the account holders
    return [{"id": i, "name": f"{n} {t('guest_suffix')}" if guest else n, "text": txt}
            for i, n, guest, txt in reversed(rows)]


def render_panels(ctx: dict[str, Any], flash: str | None = None, with_flash: bool = False) -> str:
    return templates.get_template("panels_oob.html").render(**ctx, flash=flash, with_flash=with_flash)


async def fresh_match(db: AsyncSession, match_id: str) -> Match:
    match = await db.get(Match, match_id, populate_existing=True)
    if match is None:
        raise ApiError(404, t("not_found"))
    return match


@router.get("/matches/{match_id}", response_class=HTMLResponse, name="table_page")
async def table_page(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                     cache: MatchCache = Depends(get_cache), user: User | None = Depends(optional_user)) -> Response:
    ctx = await base_context(request, db, user)
    match = await db.get(Match, match_id)
    if match is None:
        return templates.TemplateResponse(request, "missing.html", ctx, status_code=404)
    ctx.update(await table_context(db, cache, match, user, csrf=ctx["csrf"],
                                   invite=str(request.url_for("table_page", match_id=match_id))))
    return templates.TemplateResponse(request, "table.html", ctx)


@router.websocket("/matches/{match_id}/live")
async def table_socket(websocket: WebSocket, match_id: str) -> None:
    """The table page's live feed: the panels as htmx out-of-band fragments after every commit."""
    app = websocket.app
    async with app.state.sessions() as db:
        user = await current_user(websocket, db)
    csrf = str(websocket.session.get("csrf") or "")
    lang = choose_lang(websocket.session.get("lang"), None, websocket.headers.get("accept-language"))
    invite = html_url(str(websocket.url_for("table_page", match_id=match_id)))

    async def render(message: dict[str, Any] | None, match: Match, seat: str | None) -> str:
        use_lang(lang)  # the hub renders every socket in turn: each in its own page's language
        # the hub read the seat table for this push: ``message`` is for the user's seat now
        async with app.state.sessions() as db:
            ctx = await table_context(db, app.state.cache, match, user, invite=invite, csrf=csrf, message=message,
                                      message_seat=seat)
        return render_panels(ctx)

    await serve_socket(websocket, match_id, render=render)


async def seat_action(request: Request, match_id: str, user: User | None, do: Any) -> Response:
    """Join / add a bot / start / kick / abandon: a plain form post, then back to the table."""
    target = f"/matches/{match_id}"
    form = await checked_form(request)
    if form is None:
        return refused()
    if user is None:
        return back_with(request, target, t("sign_in_to_join"))
    try:
        await do(form)
    except ApiError as exc:
        return back_with(request, target, exc.error)
    return redirect(target)


@router.post("/matches/{match_id}/join")
async def join_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                    user: User | None = Depends(optional_user)) -> Response:
    async def do(form: FormData) -> None:
        async with db.begin():
            await service.join(db, user, match_id, field(form, "seat") or None)
            await service.notify(db, await service.get_match(db, match_id))

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/timeouts/{what}")
async def timeout_form(match_id: str, what: str, request: Request, db: AsyncSession = Depends(get_db),
                       cache: MatchCache = Depends(get_cache), user: User | None = Depends(optional_user)) -> Response:
    """The others' answer to a seat whose clock ran out: skip it once, or hand it to a bot."""
    async def do(form: FormData) -> None:
        if what == "skip":
            await api_clocks.skip_and_wake(request, db, cache, user, match_id, field(form, "seat"))
        elif what == "handover":
            await api_clocks.handover_and_wake(request, db, user, match_id, field(form, "seat"))
        else:
            raise ApiError(404, f"no timeout action '{what}'")

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/reclaim")
async def reclaim_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                       user: User | None = Depends(optional_user)) -> Response:
    async def do(_form: FormData) -> None:
        await api_clocks.reclaim_seat(db, user, match_id)

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/bot")
async def bot_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                   user: User | None = Depends(optional_user)) -> Response:
    async def do(form: FormData) -> None:
        async with db.begin():
            await service.add_bot(db, user, match_id, field(form, "seat"), field(form, "bot", "rules"))
            await service.notify(db, await service.get_match(db, match_id))

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/start")
async def start_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                     cache: MatchCache = Depends(get_cache), user: User | None = Depends(optional_user)) -> Response:
    async def do(_form: FormData) -> None:
        await api_matches.start_and_wake(request, db, cache, user, match_id)

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/kick")
async def kick_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                    user: User | None = Depends(optional_user)) -> Response:
    async def do(form: FormData) -> None:
        await api_table.kick_seat(db, user, match_id, field(form, "seat"))

    return await seat_action(request, match_id, user, do)


@router.post("/matches/{match_id}/abandon")
async def abandon_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                       user: User | None = Depends(optional_user)) -> Response:
    async def do(_form: FormData) -> None:
        await api_table.abandon_table(db, user, match_id)

    return await seat_action(request, match_id, user, do)


async def table_reply(request: Request, db: AsyncSession, cache: MatchCache, user: User | None, match_id: str,
                      status: int, flash: str) -> Response:
    """After an htmx post at the table: the panels (and any error) as out-of-band fragments;
    after a plain form post: back to the table, the error in the flash."""
    if request.headers.get("hx-request") != "true":
        return back_with(request, f"/matches/{match_id}", flash or None)
    try:
        match = await fresh_match(db, match_id)
    except ApiError as exc:
        return flash_only(exc.error, exc.status)
    ctx = await table_context(db, cache, match, user, csrf=csrf_token(request),
                              invite=str(request.url_for("table_page", match_id=match_id)))
    return HTMLResponse(render_panels(ctx, flash, with_flash=True), status_code=status)


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
    except ApiError as exc:
        status = exc.status
        flash = t("stale", detail=exc.error) if exc.status == 409 else exc.error
    return await table_reply(request, db, cache, user, match_id, status, flash)


def form_seq(form: FormData) -> int:
    text = field(form, "seq")
    if not text:
        raise ApiError(422, "seq: the form did not say which state it was made against")
    return whole_number(text, "seq")


@router.post("/matches/{match_id}/answer")
async def answer_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                      cache: MatchCache = Depends(get_cache), user: User | None = Depends(optional_user)) -> Response:
    """Answer a pending decision, exactly as POST /api/matches/{id}/actions does."""
    async def act(form: FormData, player: User) -> None:
        choices = [field(form, "choice")] if "choice" in form else [str(c) for c in form.getlist("choices")]
        await api_matches.submit_and_wake(request, db, cache, player, match_id, form_seq(form),
                                          field(form, "decision"), choices, None)

    return await table_post(request, db, cache, user, match_id, "sign_in_to_join", act)


@router.post("/matches/{match_id}/undo")
async def undo_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                    cache: MatchCache = Depends(get_cache), user: User | None = Depends(optional_user)) -> Response:
    """Take back one's own last move, exactly as POST /api/matches/{id}/undo does."""
    async def act(form: FormData, player: User) -> None:
        await api_table.undo_and_wake(request, db, cache, player, match_id, form_seq(form))

    return await table_post(request, db, cache, user, match_id, "sign_in_first", act)


@router.post("/matches/{match_id}/resign")
async def resign_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                      cache: MatchCache = Depends(get_cache), user: User | None = Depends(optional_user)) -> Response:
    async def act(_form: FormData, player: User) -> None:
        await api_table.resign_and_wake(request, db, cache, player, match_id)

    return await table_post(request, db, cache, user, match_id, "sign_in_first", act)


@router.post("/matches/{match_id}/chat")
async def chat_form(match_id: str, request: Request, db: AsyncSession = Depends(get_db),
                    user: User | None = Depends(optional_user)) -> Response:
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
        await api_matches.say(match_id, body, user, db)
    except ApiError as exc:
        status, flash = exc.status, exc.error
    if request.headers.get("hx-request") != "true":
        return back_with(request, f"/matches/{match_id}", flash or None)
    match = await db.get(Match, match_id)
    chat = None
    if match is not None:
        chat = await chat_lines(db, match, service.seat_of(await service.seat_rows(db, match_id), user))
    html = templates.get_template("chat_oob.html").render(chat=chat, flash=flash)
    return HTMLResponse(html, status_code=status)
