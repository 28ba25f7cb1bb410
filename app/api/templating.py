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
    key_name,
    say,
    seat_facts,
    view_sections,
)
from app.games import registry as games_registry
from app.i18n import LANG_NAMES, LANGS, N_, current_lang, t, term, terms_in, tn
from app.models import started

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


@jinja2.pass_context
def pretty_filter(ctx: Any, key: Any) -> str:
    """``{{ key|pretty }}``: a view's key as a heading, in the game's words where it has them."""
    return key_name(str(ctx.get("game_id") or ""), key)


@jinja2.pass_context
def fact_filter(ctx: Any, value: Any) -> str:
    """``{{ value|fact }}``: a shown fact (a term id such as "axis", or a text holding terms such
    as "Japan, Italy") in the page's language."""
    game_id = str(ctx.get("game_id") or "")
    if isinstance(value, list):  # a list of term ids ("germany", "japan"): each in the page's language
        return ", ".join(fact_filter(ctx, v) for v in value) or show(value)
    if not isinstance(value, str):
        value = show(value)
    return terms_in(game_id, term(game_id, value)) if game_id else str(value)


GUEST_MARK = " (guest)"


def player_filter(name: Any) -> str:
    """``{{ s.player|player }}``: a player's name, a guest's marked in the page's language (the
    sessions mark it in English, the API's words)."""
    text = str(name)
    if text.endswith(GUEST_MARK):
        return f"{text[: -len(GUEST_MARK)]} {t('guest_suffix')}"
    return text


BOT_KINDS = {"rules": N_("bot_kind_rules")}  # the bots a game may offer (GamePackage.bots)


def bot_filter(kind: Any) -> str:
    """``{{ s.bot|bot }}``: a bot's seat, its kind in the page's words ("bot (rules)")."""
    key = BOT_KINDS.get(str(kind))
    return t("bot", name=t(key) if key else str(kind))


def dom_id(text: str) -> str:
    """An element id for a decision id: letters, digits and dashes only (htmx finds preserved
    elements by a CSS selector), plus a digest so that two ids never map to one."""
    return re.sub(r"[^A-Za-z0-9_-]", "-", text)[:40] + "-" + hashlib.sha1(text.encode()).hexdigest()[:8]


def rules_url(game: str, anchor: str | None = None) -> str | None:
    """``{{ rules_url(game_id, "supply") }}``: the game's rules reference (at a section); None
    when the game ships none (docs/protocol.md, ``rules``)."""
    installed_game = games_registry.get(game)
    if installed_game is None or installed_game.package.rules is None:
        return None
    return f"/games/{game}/rules" + (f"#{anchor}" if anchor else "")


def cards_url(game: str, key: str | None = None) -> str | None:
    """``{{ cards_url(game_id, card_key) }}``: a card's entry in the game's card list."""
    installed_game = games_registry.get(game)
    if installed_game is None or installed_game.package.rules is None or installed_game.package.rules.cards is None:
        return None
    return f"/games/{game}/cards" + (f"#card-{key}" if key else "")


def make_templates() -> Jinja2Templates:
    loader = jinja2.ChoiceLoader([
        jinja2.FileSystemLoader(TEMPLATE_DIR),
        BoardLoader(),  # a game's own board: "games/<game>/<template>", wherever the game lives
    ])
    env = jinja2.Environment(loader=loader, autoescape=True, trim_blocks=True, lstrip_blocks=True)
    env.globals["t"] = t
    env.globals["tn"] = tn
    env.globals["started"] = started  # the board, hand and log exist only once play began
    env.filters["pretty"] = pretty_filter
    env.filters["fact"] = fact_filter
    env.filters["player"] = player_filter
    env.filters["bot"] = bot_filter
    env.filters["dom_id"] = dom_id
    env.filters["show"] = show
    env.filters["term"] = term_filter
    env.filters["terms"] = terms_filter
    env.globals["say"] = say
    env.globals["game_text"] = game_text
    env.globals["current_lang"] = current_lang
    env.globals["langs"] = [(code, LANG_NAMES[code]) for code in LANGS]
    env.globals["board_assets"] = board_assets
    env.globals["rules_url"] = rules_url
    env.globals["cards_url"] = cards_url
    env.globals["static_url"] = static_url
    return Jinja2Templates(env=env)


templates = make_templates()
