"""A game's own board on the table page, and its sentences in the page's language: everything
comes from the game's package (``GameRules.package``: its board directory, template, assets,
page extras and catalogue), never from a path under app/games, so a game installed from
anywhere (``WARROOM_EXTRA_GAMES``) brings its board."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import Any

import jinja2

from app.api.assets import versioned
from app.games import registry as games_registry
from app.i18n import DEFAULT_LANG, current_lang, note_missing, t, terms_in


def game_text(game_id: str, msg_id: str, **params: Any) -> str:
    """``{{ game_text("qmg", "board_round") }}``: a board's own words, from its game's catalogue,
    in the page's language."""
    text = games_registry.package(game_id).catalogue.text({"id": msg_id, "params": params}, current_lang())
    if text is None:
        note_missing("game message", current_lang(), msg_id)
    return text or msg_id


@jinja2.pass_context
def say(ctx: Any, item: Any, field: str = "text") -> str:
    """``{{ say(line) }}``, ``{{ say(d, "prompt") }}``, ``{{ say(c, "label") }}``,
    ``{{ say(outcome, "summary") }}``: a log line, a prompt, a choice or an outcome in the page's
    language, through the game's catalogue (its message id); a line logged before the game had
    one keeps its English words, game terms translated."""
    game_id = str(ctx.get("game_id") or "")
    if not isinstance(item, dict):
        return str(item)
    msg = item.get(f"{field}_msg") if f"{field}_msg" in item else item.get("msg")  # prompt_msg, summary_msg
    if isinstance(msg, dict) and msg.get("ui"):  # a table event (a take-back, a resignation): the UI's words
        params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
        return t(str(msg.get("id")), **{k: terms_in(game_id, v) for k, v in params.items()})
    if isinstance(msg, dict):
        text = games_registry.package(game_id).catalogue.text(msg, current_lang())
        if text is not None:
            return text
    text = terms_in(game_id, item.get(field, ""))
    if current_lang() != DEFAULT_LANG and text and not _all_terms(game_id, text):
        note_missing("text without a message id", current_lang(), str(text))
    return text


def _all_terms(game_id: str, text: str) -> bool:
    """Whether a text without a message id reads as the language's own terms only (a card's
    label "Włochy: Sformuj armię!", a name both languages share such as "Blitzkrieg")."""
    names = games_registry.package(game_id).catalogue.terms.get(current_lang())
    if not names:
        return False
    known = _term_values(id(names), names)
    return all(part in known for part in re.split(r"[:,]\s+", text.strip()) if part)


_values: dict[int, tuple[dict[str, str], frozenset[str]]] = {}  # the table kept: its id is never reused


def _term_values(key: int, names: dict[str, str]) -> frozenset[str]:
    if key not in _values:
        _values[key] = (names, frozenset(names.values()))
    return _values[key][1]


def key_name(game_id: str, key: Any) -> str:
    """A view's key as a column or fact heading: the game's message "key_<key>" in the page's
    language, else the key made readable (a miss, outside English)."""
    catalogue = games_registry.package(game_id).catalogue if game_id else None
    if catalogue is not None and f"key_{key}" in catalogue.messages["en"]:
        return catalogue.text({"id": f"key_{key}", "params": {}}, current_lang()) or str(key)
    if current_lang() != DEFAULT_LANG:
        note_missing("view key", current_lang(), str(key))
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]



# a game's own board may bring stylesheets and scripts (GamePackage.board.assets): served as files,
# linked from the table page's head, because the Content-Security-Policy allows nothing inline
BOARD_ASSETS = {".css": ("css", "text/css"), ".js": ("js", "text/javascript")}


def asset_kind(name: str) -> tuple[str, str] | None:
    return BOARD_ASSETS.get(os.path.splitext(name)[1])


def board_asset_path(game_id: str, name: str) -> str | None:
    board = games_registry.package(game_id).board
    if board is None or name not in board.assets or asset_kind(name) is None:  # only a name the game lists
        return None
    path = os.path.join(board.directory, name)
    return path if os.path.isfile(path) else None


def board_assets(game_id: str) -> list[tuple[str, str]]:
    """("css" | "js", url) for each asset this game's board has."""
    return [(kind[0], versioned(f"/games/{game_id}/{name}", path)) for name in board_names(game_id)
            if (kind := asset_kind(name)) and (path := board_asset_path(game_id, name))]


def board_names(game_id: str) -> tuple[str, ...]:
    board = games_registry.package(game_id).board
    return board.assets if board is not None else ()


class BoardLoader(jinja2.BaseLoader):
    """``games/<game>/<template>``: a game's board template, from the directory its package names."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        _, game_id, name = (template.split("/", 2) + ["", ""])[:3]
        board = games_registry.package(game_id).board if template.startswith("games/") else None
        if board is None or name != board.template:
            raise jinja2.TemplateNotFound(template)
        return jinja2.FileSystemLoader(board.directory).get_source(environment, name)



def board_template(game_id: str) -> str | None:
    board = games_registry.package(game_id).board
    return f"games/{game_id}/{board.template}" if board is not None else None


def board_extras(game_id: str, view: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """Extra context for a game's own board template (``GamePackage.board.context``, e.g. map
    geometry). It gets only this seat's view, so it cannot show more than the view does."""
    board = games_registry.package(game_id).board
    if not view or board is None or board.context is None:
        return {}
    return dict(board.context(view, seat))


def view_sections(game_id: str, view: dict[str, Any]) -> tuple[list[dict[str, Any]], set[str], set[str]]:
    """What the generic panels show of a view, as the game declares it (``GamePackage.sections``):
    (the hand's {id, label} cards, the private keys, every key the public facts leave out)."""
    sections = games_registry.package(game_id).sections
    held = view.get(sections.hand) if sections.hand else None
    hand = [c for c in held if isinstance(c, dict) and "id" in c and "label" in c] if isinstance(held, list) else []
    private = {k for k in sections.private if k in view}
    return hand, private, {k for k in (sections.hand, sections.seats, *sections.internal) if k} | private


def seat_facts(game_id: str, view: dict[str, Any]) -> list[Any]:
    """The view's per-seat facts (columns of the seats table), where the game declares them."""
    key = games_registry.package(game_id).sections.seats
    facts = view.get(key) if key else None
    return facts if isinstance(facts, list) else []
