"""The pages' Jinja2 environment: filters for game views; a game's own board comes from its package
(app/api/boards.py)."""

from __future__ import annotations

import hashlib
import os
import re
from typing import Any

import jinja2
from fastapi.templating import Jinja2Templates

from app.api.assets import versioned
from app.api.boards import (  # noqa: F401  (board_* re-exported for the pages)
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
from app.i18n import LANG_NAMES, LANGS, current_lang, t, term, terms_in, tn

APP_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE_DIR = os.path.join(APP_DIR, "templates")
STATIC_DIR = os.path.join(APP_DIR, "static")


def static_url(name: str) -> str:
    """``{{ static_url("warroom.css") }}``: the file's URL under its content hash."""
    return versioned(f"/static/{name}", os.path.join(STATIC_DIR, name))


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


def dom_id(text: str) -> str:
    """An element id for a decision id: letters, digits and dashes only (htmx finds preserved
    elements by a CSS selector), plus a digest so that two ids never map to one."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", text)[:40] + "-" + hashlib.sha1(text.encode()).hexdigest()[:8]


def make_templates() -> Jinja2Templates:
    loader = jinja2.ChoiceLoader([
        jinja2.FileSystemLoader(TEMPLATE_DIR),
        BoardLoader(),  # a game's own board: "games/<game>/<template>", wherever the game lives
    ])
    env = jinja2.Environment(loader=loader, autoescape=True, trim_blocks=True, lstrip_blocks=True)
    env.globals["t"] = t
    env.globals["tn"] = tn
    env.filters["pretty"] = pretty
    env.filters["dom_id"] = dom_id
    env.filters["show"] = show
    env.filters["term"] = term_filter
    env.filters["terms"] = terms_filter
    env.globals["say"] = say
    env.globals["game_text"] = game_text
    env.globals["current_lang"] = current_lang
    env.globals["langs"] = [(code, LANG_NAMES[code]) for code in LANGS]
    env.globals["board_assets"] = board_assets
    env.globals["static_url"] = static_url
    return Jinja2Templates(env=env)


templates = make_templates()
