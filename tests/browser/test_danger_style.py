"""Destructive actions (Resign, Abandon, Kick) look apart from Start and Confirm: a red outline,
and a confirm step whose filled red button is the one that acts (issue 9, flow)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import live_table, sign_in_as_guest

pytestmark = pytest.mark.browser

RED = "rgb(185, 28, 28)"


def test_resign_abandon_and_kick_are_red_outlines_with_a_confirm_step(server: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(f"{server.url}/")
        sign_in_as_guest(page, "Hosta")
        r = page.request.post(f"{server.url}/api/matches",
                              data={"game": "cardgame", "players": 2, "options": {}, "mode": "live"})
        assert r.ok, r.text()
        match_id = r.json()["match_id"]
        assert page.request.post(f"{server.url}/api/matches/{match_id}/bots", data={"seat": "p2"}).ok
        page.goto(f"{server.url}/matches/{match_id}")
        live_table(page)  # the socket's first frame would close a confirm opened before it

        expect(page.locator("#start-match")).not_to_have_css("background-color", "rgba(0, 0, 0, 0)")
        for summary in (page.locator("#abandon > summary"), page.locator(".kick-confirm > summary")):
            # a push may replace the panel under a plain evaluate: the expectations retry
            expect(summary).to_have_css("border-top-color", RED)
            expect(summary).to_have_css("border-top-width", "2px")
            expect(summary).to_have_css("color", RED)
            expect(summary).to_have_css("background-color", "rgba(0, 0, 0, 0)")  # an outline, not filled

        kick = page.locator(".kick-confirm")
        expect(kick.locator("button.danger")).to_be_hidden()  # nothing happens on the first click
        kick.locator("summary").click()
        confirm = kick.locator("button.danger")
        expect(confirm).to_be_visible()
        expect(confirm).to_have_css("background-color", RED)
        expect(kick.locator("form")).to_contain_text("Free this seat?")

        assert page.request.post(f"{server.url}/api/matches/{match_id}/start").ok
        page.reload()
        live_table(page)
        resign = page.locator("#resign > summary")
        expect(resign).to_be_visible()
        expect(resign).to_have_css("border-top-color", RED)
        resign.click()
        expect(page.locator("#resign-yes")).to_be_visible()
        expect(page.locator("#resign-yes")).to_have_css("background-color", RED)
    finally:
        context.close()
