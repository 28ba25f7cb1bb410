"""The pages' Jinja2 environment: filters for game views, and a game's own board template and assets."""

from __future__ import annotations

import importlib
import os
from typing import Any

import jinja2
from fastapi.templating import Jinja2Templates

from app.games.registry import installed
from app.i18n import LANG_NAMES, LANGS, current_lang, t, term, terms_in

APP_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE_DIR = os.path.join(APP_DIR, "templates")
GAMES_DIR = os.path.join(APP_DIR, "games")


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


# a game's own board may bring a stylesheet and a script beside its board.html: served as files,
# linked from the table page's head, because the Content-Security-Policy allows nothing inline
BOARD_ASSETS = {"board.css": ("css", "text/css"), "board.js": ("js", "text/javascript")}


def board_asset_path(game_id: str, name: str) -> str | None:
    if game_id not in installed() or name not in BOARD_ASSETS:  # never a path built from anything else
        return None
    path = os.path.join(GAMES_DIR, game_id, "templates", name)
    return path if os.path.isfile(path) else None


def board_assets(game_id: str) -> list[tuple[str, str]]:
    """("css" | "js", url) for each asset this game's board has."""
    return [(kind, f"/games/{game_id}/{name}") for name, (kind, _type) in BOARD_ASSETS.items()
            if board_asset_path(game_id, name)]


def make_templates() -> Jinja2Templates:
    loader = jinja2.ChoiceLoader([
        jinja2.FileSystemLoader(TEMPLATE_DIR),
        # a game's own board: "games/<game>/templates/board.html"
        jinja2.PrefixLoader({"games": jinja2.FileSystemLoader(GAMES_DIR)}),
    ])
    env = jinja2.Environment(loader=loader, autoescape=True, trim_blocks=True, lstrip_blocks=True)
    env.globals["t"] = t
    env.filters["pretty"] = pretty
    env.filters["show"] = show
    env.filters["term"] = term_filter
    env.filters["terms"] = terms_filter
    env.globals["current_lang"] = current_lang
    env.globals["langs"] = [(code, LANG_NAMES[code]) for code in LANGS]
    env.globals["board_assets"] = board_assets
    return Jinja2Templates(env=env)


templates = make_templates()


def board_template(game_id: str) -> str | None:
    if os.path.exists(os.path.join(GAMES_DIR, game_id, "templates", "board.html")):
        return f"games/{game_id}/templates/board.html"
    return None


def board_extras(game_id: str, view: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """Extra context for a game's own board template, from its optional pure module
    ``app/games/<game>/page.py``: ``board_context(view, seat) -> dict`` (e.g. map geometry).
    It gets only this seat's view, so it cannot show more than the view does."""
    if not view or not os.path.exists(os.path.join(GAMES_DIR, game_id, "page.py")):
        return {}
    return dict(importlib.import_module(f"app.games.{game_id}.page").board_context(view, seat))
