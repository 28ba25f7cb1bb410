"""The settings page: turn notifications and vacations through page forms, checked
against the JSON API (GET /api/me/notifications, /api/me/vacation) and the outbox table.
Every form carries the session's CSRF token; a refused or invalid post changes nothing.
Time stands still at T0 (a fake-now file), so vacation dates are known."""

from __future__ import annotations

import html
import re
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from app.i18n import CATALOGUE, LANGS
from tests.browser.conftest import sign_in_as_guest
from tests.browser.test_i18n import assert_no_raw_key
from tests.conftest import Player, Server
from tests.replay_helpers import conninfo

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
HOOK = "http://127.0.0.1:9/hook"  # loopback, port "discard": no test reaches the network
SCREENSHOT = "/tmp/warroom-settings.png"
POSTS = ("/settings/notifications", "/settings/notifications/test", "/settings/vacation", "/settings/vacation/end")


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    now = Path(tempfile.mkdtemp(prefix="wr-now-")) / "now"
    now.write_text(T0.isoformat())
    # loopback webhooks are refused when saved unless allowed (tests/test_notifications.py checks the refusal)
    srv = Server(database_url, extra_env={"WARROOM_FAKE_NOW_FILE": str(now), "WARROOM_VACATION_DAYS": "21",
                                          "WARROOM_WEBHOOK_ALLOW_PRIVATE": "1"}).start()
    yield srv
    srv.stop()


def token(p: Player) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', p.get("/settings").text)
    assert found, "the settings forms carry the session's CSRF token"
    return found.group(1)


def post_page(p: Player, path: str, data: dict[str, str]) -> str:
    """Post a settings form as the page does; the /settings page it comes back to."""
    r = p.http.post(path, data={**data, "csrf": token(p)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/settings", (r.status_code, r.text)
    return p.get("/settings").text


def post(p: Player, path: str, data: dict[str, str]) -> str:
    """The flash shown after posting a settings form."""
    return flash(post_page(p, path, data))


def flash(page: str) -> str:
    found = re.search(r'<div id="flash"[^>]*>(.*?)</div>', page, re.S)
    assert found
    return html.unescape(found.group(1)).strip()


def prefs(p: Player) -> dict[str, Any]:
    r = p.get("/api/me/notifications")
    assert r.status_code == 200, r.text
    return dict(r.json())


def input_value(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page)
    assert found, name
    return html.unescape(found.group(1))


def test_the_header_links_to_settings_and_strangers_are_asked_to_sign_in(server: Server) -> None:
    alice = Player(server.url, "Alice")
    assert 'href="/settings"' in alice.get("/").text
    with httpx.Client(base_url=server.url, timeout=10) as stranger:
        assert 'href="/settings"' not in stranger.get("/").text
        page = stranger.get("/settings")
        assert page.status_code == 200
        assert 'action="/guest"' in page.text and 'name="next" value="/settings"' in page.text
        assert 'action="/settings/notifications"' not in page.text
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert csrf
        r = stranger.post("/settings/notifications", data={"csrf": csrf.group(1), "email": "a@example.org"},
                          follow_redirects=False)
        assert r.status_code == 303
        assert flash(stranger.get("/settings").text) == CATALOGUE["en"]["sign_in_first"]


def test_every_settings_form_needs_the_sessions_csrf_token(server: Server) -> None:
    alice, bob = Player(server.url, "Alice"), Player(server.url, "Bob")
    post(alice, "/settings/notifications", {"email": "alice@example.org"})
    for path in POSTS:
        for bad in ({}, {"csrf": "forged"}, {"csrf": token(bob)}):
            r = alice.http.post(path, data={"email": "evil@example.org", "days": "3", **bad},
                                follow_redirects=False)
            assert r.status_code == 403, (path, bad, r.status_code)
            assert CATALOGUE["en"]["csrf_refused"] in html.unescape(r.text)
    assert prefs(alice)["email"] == "alice@example.org"
    assert alice.get("/api/me/vacation").json()["on_vacation_until"] is None
    assert count_tests(server.database_url, alice.id) == 0


def test_notifications_are_saved_read_back_and_cleared(server: Server) -> None:
    alice = Player(server.url, "Alice")
    assert prefs(alice) == {"email": None, "webhook_url": None, "digest_hours": None}
    assert CATALOGUE["en"]["notify_off"] in alice.get("/settings").text

    message = post(alice, "/settings/notifications",
                   {"email": " alice@example.org ", "webhook_url": HOOK, "digest_hours": "6"})
    assert message == CATALOGUE["en"]["notify_saved"]
    assert prefs(alice) == {"email": "alice@example.org", "webhook_url": HOOK, "digest_hours": 6}
    page = alice.get("/settings").text
    assert input_value(page, "email") == "alice@example.org"
    assert input_value(page, "webhook_url") == HOOK
    assert input_value(page, "digest_hours") == "6"
    assert "Notifications go to: email, webhook" in page

    post(alice, "/settings/notifications", {"email": "", "webhook_url": "", "digest_hours": ""})
    assert prefs(alice) == {"email": None, "webhook_url": None, "digest_hours": None}


@pytest.mark.parametrize(("data", "field", "rule"), [
    ({"email": "not-an-address"}, "email", "name@example.org"),
    ({"webhook_url": "ftp://example.org/x"}, "webhook_url", "http"),
    ({"digest_hours": "soon"}, "digest_hours", "whole number"),
    ({"digest_hours": "500"}, "digest_hours", "168"),
    ({"digest_hours": "0"}, "digest_hours", "1"),
])
def test_a_bad_field_is_named_and_nothing_changes(server: Server, data: dict[str, str], field: str,
                                                  rule: str) -> None:
    alice = Player(server.url, "Alice")
    post(alice, "/settings/notifications", {"email": "alice@example.org", "digest_hours": "2"})
    page = post_page(alice, "/settings/notifications", {"email": "alice@example.org", **data})
    message = flash(page)
    assert message.startswith(f"{field}:") and rule in message, message
    assert input_value(page, field) == data[field], "what was typed is shown again, once"
    assert prefs(alice) == {"email": "alice@example.org", "webhook_url": None, "digest_hours": 2}
    page = alice.get("/settings").text
    assert flash(page) == "" and input_value(page, "digest_hours") == "2", "then the saved values"


def count_tests(database_url: str, user_id: int) -> int:
    with psycopg.connect(conninfo(database_url)) as conn:
        row = conn.execute("SELECT count(*) FROM notification_outbox WHERE user_id = %s AND kind = 'test'",
                           (user_id,)).fetchone()
    assert row is not None
    return int(row[0])


def test_the_test_button_queues_one_message_per_channel(server: Server) -> None:
    alice = Player(server.url, "Alice")
    assert post(alice, "/settings/notifications/test", {}) == CATALOGUE["en"]["notify_test_none"]
    assert count_tests(server.database_url, alice.id) == 0

    post(alice, "/settings/notifications", {"email": "alice@example.org"})
    message = post(alice, "/settings/notifications/test", {})
    assert message.startswith("Test message queued for: email."), message
    assert count_tests(server.database_url, alice.id) == 1

    post(alice, "/settings/notifications", {"email": "alice@example.org", "webhook_url": HOOK})
    assert "email, webhook" in post(alice, "/settings/notifications/test", {})
    assert count_tests(server.database_url, alice.id) == 3


def vacation_facts(page: str) -> tuple[int, int, int]:
    def fact(name: str) -> int:
        found = re.search(rf'id="vacation-{name}">(\d+)<', page)
        assert found, name
        return int(found.group(1))

    return fact("allowance"), fact("used"), fact("left")


def test_a_vacation_is_started_and_ended_from_the_page(server: Server) -> None:
    alice = Player(server.url, "Alice")
    page = alice.get("/settings").text
    assert vacation_facts(page) == (21, 0, 21)
    assert 'action="/settings/vacation"' in page and 'action="/settings/vacation/end"' not in page

    for bad, rule in (("0", "days:"), ("abc", "days:"), ("", "days:"), ("22", "allowance of 21")):
        message = post(alice, "/settings/vacation", {"days": bad})
        assert rule in message, (bad, message)
    assert alice.get("/api/me/vacation").json()["days_used"] == 0

    message = post(alice, "/settings/vacation", {"days": "3"})
    assert message == "Vacation started: your clocks are paused until 2026-03-04 12:00 UTC."
    assert alice.get("/api/me/vacation").json()["on_vacation_until"] == "2026-03-04T12:00:00+00:00"
    page = alice.get("/settings").text
    assert "You are on vacation until 2026-03-04 12:00 UTC." in page
    assert vacation_facts(page) == (21, 3, 18)
    assert 'action="/settings/vacation/end"' in page and 'action="/settings/vacation"' not in page
    assert "already on vacation" in post(alice, "/settings/vacation", {"days": "2"})

    assert post(alice, "/settings/vacation/end", {}) == CATALOGUE["en"]["vacation_ended"]
    status = alice.get("/api/me/vacation").json()
    assert status["on_vacation_until"] is None and status["days_used"] == 1, "only the begun day is charged"
    assert vacation_facts(alice.get("/settings").text) == (21, 1, 20)
    assert post(alice, "/settings/vacation/end", {}) == "you are not on vacation"


def test_the_page_shows_no_raw_key_in_either_language(server: Server) -> None:
    alice = Player(server.url, "Alice")
    post(alice, "/settings/notifications", {"email": "alice@example.org"})
    post(alice, "/settings/vacation", {"days": "2"})
    for lang in LANGS:
        alice.http.post("/lang", data={"lang": lang, "csrf": token(alice), "next": "/settings"})
        page = alice.get("/settings").text
        assert f'<html lang="{lang}">' in page
        assert CATALOGUE[lang]["vacation_title"] in page and CATALOGUE[lang]["notify_title"] in page
        assert_no_raw_key(page, f"/settings ({lang})")
    with httpx.Client(base_url=server.url, timeout=10, headers={"Accept-Language": "pl"}) as stranger:
        assert_no_raw_key(stranger.get("/settings").text, "/settings (signed out)")


@pytest.mark.browser
def test_the_settings_page_in_polish_in_a_browser(server: Server, browser: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    expect.set_options(timeout=5_000)
    context = browser.new_context(locale="pl-PL", viewport={"width": 900, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{server.url}/settings")
        expect(page.locator("html")).to_have_attribute("lang", "pl")
        sign_in_as_guest(page, "Ola")
        page.wait_for_url(f"{server.url}/settings")
        expect(page.locator("#settings-link")).to_have_text("Ustawienia")
        expect(page.locator("main h1")).to_have_text("Ustawienia")
        expect(page.locator("#notifications h2")).to_have_text("Powiadomienia o ruchu")
        expect(page.locator("#vacation h2")).to_have_text("Urlop")

        form = page.locator("#notify-form")
        form.locator("input[name=email]").fill("ola@example.org")
        form.locator("input[name=digest_hours]").fill("12")
        form.locator("button").click()
        expect(page.locator("#flash")).to_have_text("Zapisano ustawienia powiadomień.")
        expect(page.locator("#notify-test")).to_contain_text("Powiadomienia trafiają na: e-mail")

        page.locator("#notify-test button").click()
        expect(page.locator("#flash")).to_contain_text("Wiadomość testowa czeka na wysłanie: e-mail")

        page.locator("#vacation-start input[name=days]").fill("2")
        page.locator("#vacation-start button").click()
        expect(page.locator("#vacation-now")).to_contain_text("Jesteś na urlopie do 2026-03-03 12:00 UTC")
        page.screenshot(path=SCREENSHOT, full_page=True)
        page.locator("#vacation-end button").click()
        expect(page.locator("#flash")).to_have_text("Urlop zakończony: Twoje zegary znów biegną.")
        expect(page.locator("#vacation-left")).to_have_text("20")
    finally:
        context.close()
