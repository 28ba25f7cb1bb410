"""One Chromium per browser-test module: Debian's, driven by Playwright."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
# the closed network here: no background fetches, no first-run, no sandbox as root
ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def sign_in_as_guest(page: Any, name: str) -> None:
    form = page.locator("form[action='/guest']")
    form.locator("input[name=name]").fill(name)
    form.locator("button").click()


def create_table(page: Any, base: str, game: str, players: int, host: str = "Alice") -> str:
    """``host`` signs in as a guest and opens a table of ``game`` for ``players`` from the lobby: its URL."""
    from playwright.sync_api import expect

    page.goto(f"{base}/")
    sign_in_as_guest(page, host)
    expect(page.locator(".topbar .who")).to_contain_text(host)
    form = page.locator(f"form.new-table[data-game={game}]")
    form.locator("select[name=players]").select_option(str(players))
    form.locator("button", has_text="Create table").click()
    page.wait_for_url(re.compile(r"/matches/[\w-]+$"))
    return str(page.url)


def join_by_invite(host_page: Any, page: Any, name: str) -> str:
    """``name`` opens the host's invite link, signs in as a guest and takes a seat: the match id."""
    from playwright.sync_api import expect

    invite = host_page.locator("#invite-link").input_value()
    page.goto(invite)
    sign_in_as_guest(page, name)
    expect(page.locator(".topbar .who")).to_contain_text(name)
    page.wait_for_url(invite)
    page.locator("#join-table").click()
    page.wait_for_url(invite)
    expect(host_page.locator("#seats")).to_contain_text(name)
    return str(invite.rsplit("/", 1)[1])


def live_table(page: Any, settle_ms: int = 300) -> None:
    """Wait until the table page has taken in its socket's first frame (everything, again) and
    what that frame asks to load once shown (the end summary): the page no longer changes by
    itself, so a test may measure or compare it."""
    page.wait_for_function("() => Number(document.body.dataset.liveFrames || 0) >= 1", timeout=15_000)
    page.wait_for_timeout(settle_ms)  # the frame's swap has settled
    page.wait_for_function("() => !document.querySelector('.table [hx-trigger=\"load\"]')", timeout=15_000)
