"""What every server-rendered page shares: its language, the header's context, CSRF-checked
forms, redirects with a flash, and refusals in the page's words."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import TypeAdapter, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import FormData
from starlette.requests import HTTPConnection

from app.api.auth import csrf_token
from app.api.errors import ApiError
from app.api.guards import check_form_token
from app.api.nul_guard import nul_in_pairs, refusal
from app.api.templating import templates
from app.games import registry as games_registry
from app.i18n import DEFAULT_LANG, N_, choose_lang, current_lang, note_missing, t, tn, use_lang
from app.models import User
from app.sessions import accounts, lobby
from app.sessions.errors import DomainError
from app.sessions.limits import TooMany


async def page_lang(conn: HTTPConnection) -> str:
    """Serve this request in its language (async: a threadpool would lose the context var)."""
    return use_lang(choose_lang(conn.session.get("lang"), None, conn.headers.get("accept-language")))


async def base_context(request: Request, db: AsyncSession, user: User | None) -> dict[str, Any]:
    return {"user": user, "csrf": csrf_token(request), "flash": request.session.pop("flash", None),
            "moves_waiting": await lobby.moves_waiting(db, user), "here": request.url.path}


def html_url(url: str) -> str:
    """A socket's url_for names ws://; the invite link is the page's http(s):// address."""
    if url.startswith("ws"):
        return "http" + url[2:]
    return url


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
        raise ApiError(422, f"{where}: must be a whole number from {low} to {high}").said(
            "err_whole_number", field=where, low=low, high=high)
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


# a form field's label on its page, for a refusal naming the field (English keeps the field's name)
FIELD_LABELS = {"players": N_("players"), "clock": N_("clock"), "digest_hours": N_("notify_digest")}


def page_error(exc: DomainError, game_id: str | None = None) -> str:
    """A refusal in the page's language: an English page shows the API's own words (they name the
    ids a player or a script sent); another language its UI message (``said``), its game's message
    (the rules' own refusal), an account refusal; else the API's words (a miss)."""
    if isinstance(exc, accounts.AccountRefused):
        return t(exc.key, **exc.args_for_page)
    if isinstance(exc, TooMany) and exc.page_key:
        return tn(exc.page_key, exc.retry_after)
    if current_lang() == DEFAULT_LANG:
        return exc.error
    game_id = game_id or exc.game_id
    if exc.game_msg is not None and game_id:
        text = games_registry.package(game_id).catalogue.text(exc.game_msg, current_lang())
        if text:
            return text
    if exc.ui_key:
        params = dict(exc.ui_params)
        if "field" in params:  # the form's own label, not its field's name
            label = FIELD_LABELS.get(str(params["field"]).split(".")[0])
            params["field"] = t(label) if label else params["field"]
        return t(exc.ui_key, **params)
    if current_lang() != DEFAULT_LANG:
        note_missing("refusal without a message id", current_lang(), exc.error)
    return exc.error
