"""Issue 9, start: in Chromium the create form's seat list follows the table size chosen, and the
host sits where they chose."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import sign_in_as_guest

pytestmark = pytest.mark.browser


def test_the_seat_list_follows_the_table_size_and_the_host_sits_there(server: Any, browser: Any) -> None:
    ctx = browser.new_context(viewport={"width": 1440, "height": 900})
    page = ctx.new_page()
    try:
        page.goto(f"{server.url}/")
        sign_in_as_guest(page, "Hedy")
        form = page.locator("form.new-table[data-game=qmg]")
        expect(form.locator("input[name=name]")).to_have_value("Hedy's game")
        seat = form.locator("select[name=seat]")
        expect(seat).to_have_value("2:p1")
        expect(seat.locator("optgroup:not([hidden])")).to_have_count(1)
        form.locator("select[name=players]").select_option("4")
        expect(seat).to_have_value("4:p1")  # a size's own first seat
        expect(seat.locator("optgroup[data-players='4']")).not_to_have_attribute("hidden", "")
        expect(seat.locator("optgroup[data-players='2']")).to_have_attribute("hidden", "")
        seat.select_option("4:p4")
        form.locator("input[name=name]").fill("Eastern front")
        form.locator("button", has_text="Create table").click()
        page.wait_for_url(re.compile(r"/matches/[\w-]+$"))
        expect(page.locator("#seats")).to_contain_text("USSR")
        row = page.locator("#seats tr", has_text="Hedy")
        expect(row).to_contain_text("Player 4")
        page.goto(f"{server.url}/")
        expect(page.locator("#mine")).to_contain_text("Eastern front")
    finally:
        ctx.close()
