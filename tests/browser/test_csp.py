"""The pages work under their strict Content-Security-Policy, and nothing on them is refused by it:
the lobby's forms, the live socket, the chat box (the QMG board: test_csp_board.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import sign_in_as_guest
from tests.conftest import Player

pytestmark = pytest.mark.browser

# every refusal the page could see: CSP violation events, the console's "Refused to ...", and
# htmx declining to eval (hx-on, trigger filters) because base.html turned eval off
WATCH = """
window.__refused = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__refused.push("csp " + e.violatedDirective + " " + (e.blockedURI || "inline") + " "
                        + e.sourceFile + ":" + e.lineNumber);
});
document.addEventListener("htmx:evalDisallowedError", function () { window.__refused.push("htmx eval"); });
"""


def watched_page(browser: Any, refused: list[str]) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.add_init_script(WATCH)
    page = ctx.new_page()
    page.on("console", lambda msg: refused.append(msg.text) if "Refused to" in msg.text
            or "Content Security Policy" in msg.text else None)
    return ctx, page


def refusals(page: Any, console: list[str]) -> list[str]:
    return [*page.evaluate("window.__refused"), *console]


def test_a_table_plays_live_with_nothing_refused(server: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=5_000)
    console: list[str] = []
    ctx, page = watched_page(browser, console)
    try:
        page.goto(f"{server.url}/")
        sign_in_as_guest(page, "Cleo")
        form = page.locator("form.new-table[data-game=cardgame]")
        form.locator("select[name=players]").select_option("2")
        form.locator("button", has_text="Create table").click()
        page.wait_for_url(re.compile(r"/matches/[\w-]+$"))
        match_id = page.url.rsplit("/", 1)[1]
        assert "default-src 'self'" in page.request.get(page.url).headers["content-security-policy"]

        guest = Player(server.url, "Cyd")
        assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
        expect(page.locator("#seats")).to_contain_text("Cyd")  # pushed over the socket: connect-src allows it
        page.locator("#start-match").click()
        expect(page.locator("#status")).to_contain_text("in play")
        assert guest.act(match_id, "bid:p2:round1", "1").status_code == 200
        expect(page.locator("#log")).to_contain_text("Player 2 has bid")

        chat = page.locator("form.chat-form input[name=text]")
        chat.fill("good luck")
        chat.press("Enter")
        expect(page.locator("#chat")).to_contain_text("good luck")
        expect(chat).to_have_value("")  # warroom.js empties it (it was an inline hx-on before)
        assert page.evaluate("getComputedStyle(document.getElementById('settings-link')).color") == \
            page.evaluate("getComputedStyle(document.querySelector('.topbar')).color")
        assert refusals(page, console) == []
        # and the watch does see a refusal when there is one
        page.evaluate("document.body.insertAdjacentHTML('beforeend', '<i style=\"color: red\"></i>')")
        page.wait_for_function("window.__refused.length > 0")
    finally:
        ctx.close()
