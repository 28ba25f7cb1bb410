"""Server-rendered pages (Jinja2 + htmx): the lobby, the table, and the table's live socket.

Every page form carries the session's CSRF token (hidden field ``csrf``; htmx also sends
it as ``X-CSRF-Token`` from ``hx-headers`` on <body>) and every POST checks it.
Plain forms (sign-in, create, join, bots, start) answer with a redirect; htmx posts
(answers, chat) answer with out-of-band fragments. The table's panels are rendered from
``seat_view`` / ``pending_for`` / ``log_lines`` only, the same per-seat filtering the JSON
API and its socket use, never from the raw state.

Every page is served in the request's language (``use_lang``: the switch remembered in the
session, the account's choice, the browser's Accept-Language), and every page names how
many matches wait on the signed-in user ("(N)" in the title, a badge in the header).

One module per page: ``lobby_pages``, ``account_pages``, ``table_pages``, ``seat_pages``
(with ``history_pages`` and ``settings_pages`` beside them); what they share is in
``page_kit`` (forms, redirects, the header) and ``templating`` (the Jinja2 environment).
"""

from __future__ import annotations

from fastapi import APIRouter

from app.api import account_pages, lobby_pages, rules_pages, seat_pages, table_pages

router = APIRouter(include_in_schema=False)
for _page in (lobby_pages, account_pages, rules_pages, table_pages, seat_pages):  # rules before /games/<game>/<asset>
    router.include_router(_page.router)
