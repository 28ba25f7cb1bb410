"""A game's rules at hand: its rules reference (/games/<game>/rules) and card list
(/games/<game>/cards), in the page's language, from the game's package (``GamePackage.rules``)."""

from __future__ import annotations

import functools
import os
import re
from itertools import groupby

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from markupsafe import Markup
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import get_db, optional_user
from app.api.errors import ApiError
from app.api.page_kit import base_context, page_lang
from app.api.templating import templates
from app.games.registry import get as get_game
from app.i18n import DEFAULT_LANG, current_lang
from app.models import User

router = APIRouter(include_in_schema=False, dependencies=[Depends(page_lang)])

SECTION = re.compile(r'<section id="([A-Za-z0-9_-]+)">\s*<h2>(.*?)</h2>', re.S)


@functools.cache
def fragment(directory: str, lang: str) -> tuple[Markup, tuple[tuple[str, Markup], ...]]:
    """A rules fragment (the game's own file: trusted HTML) and its (anchor, title) sections;
    English where the language has none."""
    path = os.path.join(directory, f"{lang}.html")
    if not os.path.exists(path):
        path = os.path.join(directory, f"{DEFAULT_LANG}.html")
    with open(path, encoding="utf-8") as handle:
        html = handle.read()
    return Markup(html), tuple((anchor, Markup(title)) for anchor, title in SECTION.findall(html))


def reference_of(game_id: str):  # noqa: ANN201 - (game, its RulesReference)
    game = get_game(game_id)
    if game is None or game.package.rules is None:
        raise ApiError(404, f"game '{game_id}' has no rules reference here")
    return game, game.package.rules


@router.get("/games/{game_id}/rules", response_class=HTMLResponse)
async def rules_page(game_id: str, request: Request, db: AsyncSession = Depends(get_db),
                     user: User | None = Depends(optional_user)) -> Response:
    game, reference = reference_of(game_id)
    body, sections = fragment(reference.directory, current_lang())
    ctx = await base_context(request, db, user)
    ctx.update(game_id=game.id, game_title=game.title, body=body, sections=sections,
               has_cards=reference.cards is not None)
    return templates.TemplateResponse(request, "rules.html", ctx)


@router.get("/games/{game_id}/cards", response_class=HTMLResponse)
async def cards_page(game_id: str, request: Request, db: AsyncSession = Depends(get_db),
                     user: User | None = Depends(optional_user)) -> Response:
    game, reference = reference_of(game_id)
    if reference.cards is None:
        raise ApiError(404, f"game '{game_id}' has no card list")
    entries = reference.cards(current_lang())
    ctx = await base_context(request, db, user)
    ctx.update(game_id=game.id, game_title=game.title,
               groups=[(name, list(cards)) for name, cards in groupby(entries, key=lambda e: e.group)])
    return templates.TemplateResponse(request, "rules_cards.html", ctx)
