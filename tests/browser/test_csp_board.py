"""The QMG board under the strict Content-Security-Policy: its stylesheet and script come as
files, the tug-of-war marker is drawn without a style attribute, a map space answers from the
keyboard, and nothing is refused.

Its own module, so its table is the first on its server: with WARROOM_TEST_SEED that deal is
always the same one, in which the human seat soon has a space to pick on the map."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from tests.browser.conftest import sign_in_as_guest
from tests.browser.test_csp import refusals, watched_page

pytestmark = pytest.mark.browser

# one look at the page, then one answer: a push landing between two Playwright calls could
# otherwise turn a map decision into a click on its button in Decisions
ANSWER_UNLESS_MAP = """() => {
  if (document.querySelector(".qmg-targets .space.target")) return "map";
  // a Build Army or Land Battle card from the hand first: it asks for a space on the map next
  const cards = [...document.querySelectorAll("#hand button[name=choice]")];
  const button = cards.find(b => b.value.startsWith("play:") && /Build Army|Land Battle/.test(b.textContent))
    || cards[0] || document.querySelector("#decisions form.decision button[name=choice]");
  if (button) { button.click(); return "button " + button.value; }
  const form = document.querySelector("#decisions form.decision");
  if (!form) return "none";
  const least = parseInt(form.querySelector("legend").textContent.match(/\\d+/)[0], 10);
  form.querySelectorAll("input[type=checkbox]").forEach((box, i) => { box.checked = i < least; });
  const buttons = form.querySelectorAll("button");
  buttons[buttons.length - 1].click();
  return "boxes";
}"""


def moved_on(page: Any, seq: int) -> bool:
    from playwright.sync_api import Error

    try:
        page.wait_for_function("s => Number(document.querySelector('#status').dataset.seq) > s", arg=seq,
                               timeout=5_000)
        return True
    except Error:
        return False


def test_the_qmg_board_is_styled_and_answers_from_the_keyboard(server: Any, browser: Any) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)
    console: list[str] = []
    ctx, page = watched_page(browser, console)
    try:
        page.goto(f"{server.url}/")
        sign_in_as_guest(page, "Quinn")
        form = page.locator("form.new-table[data-game=qmg]")
        form.locator("select[name=players]").select_option("3")
        form.locator("button", has_text="Create table").click()
        page.wait_for_url(re.compile(r"/matches/[\w-]+$"))
        table = page.url
        for _ in range(2):
            page.locator("#seats form[action$='/bot'] button").first.click()
            page.wait_for_url(table)
        page.locator("#start-match").click()
        expect(page.locator(".qmg-map")).to_be_visible()
        # board.css came from /games/qmg/board.css (no inline <style>); the marker is drawn without style=
        assert page.evaluate("getComputedStyle(document.querySelector('.qmg-tug')).width") == "150px"
        assert page.locator(".qmg-tug .qmg-tug-mark").count() == 1

        target = page.locator(".qmg-targets .space.target")
        deadline = time.monotonic() + 60
        answered: list[str] = []
        while time.monotonic() < deadline:
            seq = int(page.locator("#status").get_attribute("data-seq") or 0)
            answered.append(page.evaluate(ANSWER_UNLESS_MAP))
            if answered[-1] == "map":
                break
            if answered[-1] == "none" or not moved_on(page, seq):
                page.wait_for_timeout(100)  # the bots are moving
        moves = [a for a in answered if a != "none"]
        assert target.count(), f"no map decision came up after {moves}: {page.locator('#status').inner_text()}"
        seq = int(page.locator("#status").get_attribute("data-seq") or 0)
        space = target.first
        one_answer = space.get_attribute("hx-post") is not None
        space.focus()
        page.keyboard.press("Enter")  # board.js: a click (htmx answers it) or a pointer at the answers
        if one_answer:
            assert moved_on(page, seq), "Enter on a space with one answer answers it"
        else:
            expect(page.locator("#decisions button.qmg-pointed").first).to_be_visible()
        assert refusals(page, console) == []
    finally:
        ctx.close()
