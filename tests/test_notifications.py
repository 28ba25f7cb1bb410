"""Turn notifications for play-by-web, end to end: real server processes, a real SMTP sink
(aiosmtpd) and a real webhook receiver on loopback, the outbox surviving kill -9."""

from __future__ import annotations

import email
import html
import json
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psycopg
import pytest
from aiosmtpd.controller import Controller
from websockets.sync.client import connect as ws_connect

from tests.conftest import Player, Server, create_database, free_port
from tests.replay_helpers import conninfo

PUBLIC = "https://warroom.example"
FAST = {"WARROOM_NOTIFY_POLL_SECONDS": "0.1", "WARROOM_NOTIFY_DELAY_SECONDS": "0.8",
        "WARROOM_PRESENCE_SECONDS": "0.2", "WARROOM_NOTIFY_RETRY_SECONDS": "0.3",
        "WARROOM_WEBHOOK_ALLOW_PRIVATE": "1", "WARROOM_PUBLIC_URL": PUBLIC}


# --- the outside world: a mail server and a chat webhook, both real, both on loopback ----------
@dataclass
class Mail:
    to: list[str]
    subject: str
    body: str


class SmtpSink:
    def __init__(self) -> None:
        self.mails: list[Mail] = []
        self.controller = Controller(self, hostname="127.0.0.1", port=free_port())

    async def handle_DATA(self, _server: Any, _session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        parsed = email.message_from_bytes(envelope.original_content or envelope.content)
        body = parsed.get_payload(decode=True).decode()
        self.mails.append(Mail(list(envelope.rcpt_tos), str(parsed["Subject"]), body))
        return "250 OK"

    def to(self, address: str) -> list[Mail]:
        return [m for m in self.mails if address in m.to]


@dataclass
class Hooks:
    received: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (path, JSON) answered 2xx
    failures: dict[str, int] = field(default_factory=dict)  # path -> how many more requests get a 500
    refused: list[str] = field(default_factory=list)
    base: str = ""

    def at(self, path: str) -> list[dict[str, Any]]:
        return [body for p, body in self.received if p == path]


def webhook_receiver(hooks: Hooks) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if hooks.failures.get(self.path, 0) > 0:
                hooks.failures[self.path] -= 1
                hooks.refused.append(self.path)
                self.send_response(500)
            else:
                hooks.received.append((self.path, body))
                self.send_response(204)
            self.end_headers()

        def log_message(self, *_args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpSink]:
    sink = SmtpSink()
    sink.controller.start()
    yield sink
    sink.controller.stop()


@pytest.fixture(scope="module")
def hooks() -> Iterator[Hooks]:
    found = Hooks()
    httpd = webhook_receiver(found)
    found.base = f"http://127.0.0.1:{httpd.server_address[1]}"
    yield found
    httpd.shutdown()


def smtp_env(sink: SmtpSink) -> dict[str, str]:
    return {"WARROOM_SMTP_HOST": "127.0.0.1", "WARROOM_SMTP_PORT": str(sink.controller.port),
            "WARROOM_SMTP_FROM": "warroom@example.org"}


@pytest.fixture(scope="module")
def notifying(database_url: str, smtp: SmtpSink) -> Iterator[Server]:
    """Two worker processes: both send, so claiming rows safely is exercised every time."""
    srv = Server(database_url, workers=2, extra_env={**FAST, **smtp_env(smtp)}).start()
    yield srv
    srv.stop()


# --- helpers ----------------------------------------------------------------------------------
def wait_until(check: Callable[[], bool], timeout: float = 10, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def opt_in(player: Player, hooks: Hooks | None, digest_hours: int | None = None, mail: bool = True) -> None:
    body = {"email": f"{player.name.lower()}@example.org" if mail else None,
            "webhook_url": f"{hooks.base}/hook/{player.name.lower()}" if hooks else None,
            "digest_hours": digest_hours}
    r = player.http.put("/api/me/notifications", json=body)
    assert r.status_code == 200, r.text


def async_table(host: Player, guest: Player, start: bool = True) -> str:
    r = host.post("/api/matches", {"game": "cardgame", "players": 2, "options": {"target": "7"}, "mode": "async"})
    assert r.status_code == 200, r.text
    match_id = str(r.json()["match_id"])
    assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
    if start:
        assert host.post(f"/api/matches/{match_id}/start").status_code == 200
    return match_id


def step(by_seat: dict[str, Player], match_id: str, seat: str | None = None) -> set[str]:
    """One move by ``seat`` (default: the first seat waited on), as quietly as the game
    allows (bid 0, keep, pass, decline). Returns the seats that began to wait."""
    before = next(iter(by_seat.values())).match(match_id)
    assert before["status"] == "active", "the test game ended too early"
    mover = by_seat[seat or before["waiting_on"][0]]
    mine = mover.match(match_id)
    decision = mine["pending"][0]
    ids = [c["id"] for c in decision["choices"]]
    choice = next((c for c in ("0", "keep", "pass", "decline", "roll") if c in ids), ids[0])
    r = mover.act(match_id, decision["decision"], choice, seq=mine["seq"])
    assert r.status_code == 200, r.text
    after = mover.match(match_id)
    return set(after["waiting_on"]) - set(before["waiting_on"])


def turn_mails(sink: SmtpSink, player: Player, match_id: str) -> list[Mail]:
    return [m for m in sink.to(f"{player.name.lower()}@example.org") if match_id in m.body]


def turn_hooks(hooks: Hooks, player: Player, match_id: str) -> list[dict[str, Any]]:
    return [b for b in hooks.at(f"/hook/{player.name.lower()}") if match_id in b["content"]]


# --- the tests --------------------------------------------------------------------------------
def test_one_email_and_one_webhook_per_turn_change(notifying: Server, smtp: SmtpSink, hooks: Hooks) -> None:
    alice, bob = Player(notifying.url, "Alice"), Player(notifying.url, "Bob")
    opt_in(alice, hooks)
    opt_in(bob, hooks)
    match_id = async_table(alice, bob)
    by_seat = {"p1": alice, "p2": bob}
    expected = {"p1": 1, "p2": 1}  # the opening sealed bid waits on both seats

    def delivered(seat: str) -> tuple[int, int]:
        p = by_seat[seat]
        return len(turn_mails(smtp, p, match_id)), len(turn_hooks(hooks, p, match_id))

    for _ in range(12):
        wait_until(lambda: all(delivered(s) == (n, n) for s, n in expected.items()), what=f"turns {expected}")
        for seat in step(by_seat, match_id):
            expected[seat] += 1
    wait_until(lambda: all(delivered(s) == (n, n) for s, n in expected.items()), what=f"turns {expected}")
    time.sleep(1.5)  # anything extra would have gone out by now
    assert {s: delivered(s) for s in expected} == {s: (n, n) for s, n in expected.items()}
    assert sum(expected.values()) >= 6, "several turns changed hands"

    mail = turn_mails(smtp, bob, match_id)[0]
    assert mail.subject == f"Your move: Skirmish (test fixture) (table {match_id})"
    assert f"{PUBLIC}/matches/{match_id}" in mail.body and "Player 2" in mail.body
    hook = turn_hooks(hooks, bob, match_id)[0]
    assert hook["content"] == hook["text"] and f"{PUBLIC}/matches/{match_id}" in hook["content"]


def test_live_tables_are_not_notified(notifying: Server, smtp: SmtpSink, hooks: Hooks) -> None:
    kim, lou = Player(notifying.url, "Kim"), Player(notifying.url, "Lou")
    opt_in(kim, hooks)
    opt_in(lou, hooks)
    r = kim.post("/api/matches", {"game": "cardgame", "players": 2, "options": {}, "mode": "live"})
    match_id = r.json()["match_id"]
    lou.post(f"/api/matches/{match_id}/join")
    assert kim.post(f"/api/matches/{match_id}/start").status_code == 200
    time.sleep(1.5)
    assert not turn_mails(smtp, kim, match_id) and not turn_hooks(hooks, lou, match_id)


def test_no_notification_while_the_player_is_looking(notifying: Server, smtp: SmtpSink, hooks: Hooks) -> None:
    carol, dave = Player(notifying.url, "Carol"), Player(notifying.url, "Dave")
    opt_in(carol, hooks)
    opt_in(dave, hooks)
    match_id = async_table(carol, dave, start=False)
    by_seat = {"p1": carol, "p2": dave}
    with ws_connect(f"{notifying.ws_url}/api/matches/{match_id}/ws",
                    additional_headers={"Cookie": dave.cookie}) as socket:
        socket.recv(timeout=5)  # subscribed
        assert carol.post(f"/api/matches/{match_id}/start").status_code == 200  # both seats must bid
        wait_until(lambda: len(turn_mails(smtp, carol, match_id)) == 1, what="Carol's turn")
        time.sleep(1.2)
        assert not turn_mails(smtp, dave, match_id) and not turn_hooks(hooks, dave, match_id), \
            "Dave has the table open: he sees it is his move"
        # play on until Dave's seat waits again, his socket still open
        step(by_seat, match_id, "p1")
        while "p2" not in step(by_seat, match_id):
            pass
        time.sleep(1.5)
        assert not turn_mails(smtp, dave, match_id) and not turn_hooks(hooks, dave, match_id)
    # he closes the page without moving: he has seen that turn, so it stays untold
    time.sleep(1.5)
    assert not turn_mails(smtp, dave, match_id)
    # his next turn, with the page closed, is told as usual
    while "p2" not in step(by_seat, match_id):
        pass
    wait_until(lambda: len(turn_mails(smtp, dave, match_id)) == 1 and len(turn_hooks(hooks, dave, match_id)) == 1,
               what="Dave's turn with the page closed")


def test_the_test_button_sends_through_each_channel(notifying: Server, smtp: SmtpSink, hooks: Hooks) -> None:
    erin = Player(notifying.url, "Erin")
    assert erin.post("/api/me/notifications/test").status_code == 400, "nothing configured yet"
    opt_in(erin, hooks)
    r = erin.post("/api/me/notifications/test")
    assert r.status_code == 200 and sorted(r.json()["queued"]) == ["email", "webhook"]
    wait_until(lambda: smtp.to("erin@example.org") and hooks.at("/hook/erin"), what="the test messages")
    time.sleep(0.5)
    assert [m.subject for m in smtp.to("erin@example.org")] == ["Warroom test notification"]
    assert len(hooks.at("/hook/erin")) == 1 and "test" in hooks.at("/hook/erin")[0]["content"]
    # webhook only: the test goes where it is configured, nowhere else
    erin.http.put("/api/me/notifications", json={"webhook_url": f"{hooks.base}/hook/erin"})
    assert erin.post("/api/me/notifications/test").json()["queued"] == ["webhook"]
    wait_until(lambda: len(hooks.at("/hook/erin")) == 2, what="the second test message")
    assert len(smtp.to("erin@example.org")) == 1


def test_messages_speak_the_language_the_account_last_signed_in_with(notifying: Server, smtp: SmtpSink,
                                                                     hooks: Hooks) -> None:
    zosia = Player(notifying.url, "Zosia")
    zosia.http.headers["Accept-Language"] = "pl-PL,pl;q=0.9"
    assert zosia.post("/api/register", {"name": "Zosia", "password": "dlugie haslo 1"}).status_code == 200
    opt_in(zosia, hooks)
    assert zosia.post("/api/me/notifications/test").status_code == 200
    wait_until(lambda: smtp.to("zosia@example.org") and hooks.at("/hook/zosia"), what="the Polish test messages")
    assert [m.subject for m in smtp.to("zosia@example.org")] == ["Warroom: powiadomienie testowe"]
    assert hooks.at("/hook/zosia")[0]["content"].startswith("To jest test: powiadomienia Warroom")
    tom = Player(notifying.url, "Tom")  # named no language: English
    opt_in(tom, None)
    assert tom.post("/api/me/notifications/test").status_code == 200
    wait_until(lambda: smtp.to("tom@example.org"), what="the English test message")
    assert [m.subject for m in smtp.to("tom@example.org")] == ["Warroom test notification"]


def test_a_failing_webhook_is_retried_with_backoff(notifying: Server, hooks: Hooks) -> None:
    ivy = Player(notifying.url, "Ivy")
    opt_in(ivy, hooks, mail=False)
    hooks.failures["/hook/ivy"] = 2
    assert ivy.post("/api/me/notifications/test").status_code == 200
    wait_until(lambda: len(hooks.at("/hook/ivy")) == 1, what="the retried webhook")
    assert hooks.refused.count("/hook/ivy") == 2
    time.sleep(1)
    assert len(hooks.at("/hook/ivy")) == 1
    assert "retrying" in notifying.log() and "HTTP Error 500" in notifying.log()
    assert ivy.get("/api/me").status_code == 200, "the server is fine"


def test_a_message_interrupted_mid_send_is_never_sent_again(notifying: Server, database_url: str,
                                                            hooks: Hooks) -> None:
    """A row left ``sending`` by a crash may or may not have arrived: it is written off."""
    jay = Player(notifying.url, "Jay")
    opt_in(jay, hooks, mail=False)
    with psycopg.connect(conninfo(database_url)) as conn:
        row_id = conn.execute(
            "INSERT INTO notification_outbox (dedupe_key, user_id, channel, kind, status, attempts, due_at, "
            "created_at, claimed_at, detail) VALUES ('test:crashed', %s, 'webhook', 'test', 'sending', 1, "
            "now() - interval '10 minutes', now() - interval '10 minutes', now() - interval '10 minutes', '{}') "
            "RETURNING id", (jay.id,)).fetchone()[0]

    def status() -> str:
        with psycopg.connect(conninfo(database_url)) as conn:
            return str(conn.execute("SELECT status FROM notification_outbox WHERE id = %s", (row_id,)).fetchone()[0])

    wait_until(lambda: status() == "failed", what="the interrupted row written off")
    # the worker logs right after its commit: the line may land a moment after the status
    wait_until(lambda: "interrupted while sending" in notifying.log(), what="the write-off logged")
    assert not hooks.at("/hook/jay")


@pytest.mark.parametrize(("body", "field"), [
    ({"email": "not-an-address"}, "email"),
    ({"email": "a@b"}, "email"),
    ({"webhook_url": "ftp://example.org/hook"}, "webhook_url"),
    ({"webhook_url": "javascript:alert(1)"}, "webhook_url"),
    ({"webhook_url": "https://"}, "webhook_url"),
    ({"digest_hours": 0}, "digest_hours"),
    ({"digest_hours": 169}, "digest_hours"),
    ({"digest_hours": "12"}, "digest_hours"),
    ({"digest_hours": True}, "digest_hours"),
    ({"email": "x@example.org", "sms": "123"}, "sms"),
])
def test_bad_settings_are_refused_naming_the_field(notifying: Server, body: dict[str, Any], field: str) -> None:
    gus = Player(notifying.url, "Gus")
    good = {"email": "gus@example.org", "webhook_url": "https://discord.example/api/webhooks/1/x", "digest_hours": 6}
    assert gus.http.put("/api/me/notifications", json=good).status_code == 200
    r = gus.http.put("/api/me/notifications", json=body)
    assert r.status_code == 422 and r.json()["error"].startswith(field), r.text
    assert gus.get("/api/me/notifications").json() == good, "a refused change changes nothing"


def test_registered_users_and_guests_opt_in_and_out(notifying: Server) -> None:
    reg = Player(notifying.url, "Guest-first")
    r = reg.post("/api/register", {"name": "Hanna", "password": "correct horse battery"})
    assert r.status_code == 200 and not r.json()["guest"]
    assert reg.get("/api/me/notifications").json() == {"email": None, "webhook_url": None, "digest_hours": None}
    r = reg.http.put("/api/me/notifications", json={"email": " hanna@example.org ", "webhook_url": "",
                                                    "digest_hours": None})
    assert r.json() == {"email": "hanna@example.org", "webhook_url": None, "digest_hours": None}
    r = reg.http.put("/api/me/notifications", json={})
    assert r.json() == {"email": None, "webhook_url": None, "digest_hours": None}, "an empty body opts out"
    anonymous = Player(notifying.url, "Anon")
    anonymous.post("/api/logout")
    assert anonymous.get("/api/me/notifications").status_code == 401
    assert anonymous.http.put("/api/me/notifications", json={}).status_code == 401


# --- restarts, digests and the log: servers (and databases) of their own, so that the module's
# --- server, whose worker would happily send these messages too, stays out of the way
@pytest.fixture
def own_db(pg: Any, request: pytest.FixtureRequest) -> str:
    return create_database(pg, f"notify_{request.node.name[5:30].lower()}_{int(time.time() * 1000) % 10**6}")


def outbox(database_url: str, match_id: str) -> list[tuple[str, str]]:
    with psycopg.connect(conninfo(database_url)) as conn:
        return conn.execute("SELECT channel, status FROM notification_outbox WHERE match_id = %s ORDER BY id",
                            (match_id,)).fetchall()


def test_the_outbox_survives_kill_9_and_never_sends_twice(own_db: str, smtp: SmtpSink, hooks: Hooks) -> None:
    database_url = own_db
    port = free_port()
    env = {**FAST, **smtp_env(smtp), "WARROOM_NOTIFY_DELAY_SECONDS": "3"}
    srv = Server(database_url, extra_env=env, port=port).start()
    try:
        finn, gail = Player(srv.url, "Finn"), Player(srv.url, "Gail")
        opt_in(finn, hooks)
        opt_in(gail, hooks)
        match_id = async_table(finn, gail)
        srv.kill()  # the turn is committed, its messages not yet due
        assert outbox(database_url, match_id) == [("email", "pending"), ("webhook", "pending")] * 2
        assert not turn_mails(smtp, finn, match_id)

        srv = Server(database_url, extra_env=env, port=port).start()
        wait_until(lambda: len(turn_mails(smtp, finn, match_id)) == 1 and len(turn_mails(smtp, gail, match_id)) == 1
                   and len(turn_hooks(hooks, finn, match_id)) == 1 and len(turn_hooks(hooks, gail, match_id)) == 1,
                   what="the turn told after the restart")
        srv.kill()
        srv = Server(database_url, extra_env=env, port=port).start()
        time.sleep(2)
        for p in (finn, gail):
            assert len(turn_mails(smtp, p, match_id)) == 1 and len(turn_hooks(hooks, p, match_id)) == 1
        # "sending" only if a kill caught a message between leaving and being marked: never resent
        assert {status for _, status in outbox(database_url, match_id)} <= {"sent", "sending"}
    finally:
        srv.stop()


def test_digest_at_most_every_n_hours(own_db: str, smtp: SmtpSink, tmp_path: Path) -> None:
    database_url = own_db
    shift = tmp_path / "clock-shift"
    shift.write_text("0")
    srv = Server(database_url, extra_env={**FAST, **smtp_env(smtp), "WARROOM_CLOCK_SHIFT_FILE": str(shift)}).start()
    try:
        hal, ida = Player(srv.url, "Hal"), Player(srv.url, "Ida")
        opt_in(hal, None, digest_hours=2)  # Ida wants nothing
        inbox = lambda: smtp.to("hal@example.org")  # noqa: E731
        first = async_table(hal, ida)
        wait_until(lambda: len(inbox()) == 1, what="the first turn, told at once")
        assert inbox()[0].subject.startswith("Your move: ") and first in inbox()[0].body

        second, third = async_table(hal, ida), async_table(hal, ida)
        time.sleep(2)
        assert len(inbox()) == 1, "within two hours of the last email, turns wait for the digest"

        shift.write_text(str(2 * 3600 + 60))
        wait_until(lambda: len(inbox()) == 2, what="the digest")
        digest = inbox()[1]
        assert digest.subject == "Your move in 2 matches"
        assert second in digest.body and third in digest.body and first not in digest.body
        time.sleep(1)
        assert len(inbox()) == 2

        # a new turn an hour later waits for the window too, then goes out on its own
        shift.write_text(str(3 * 3600 + 60))
        by_seat = {"p1": hal, "p2": ida}
        step(by_seat, first, "p1")
        assert "p1" in step(by_seat, first, "p2"), "round 1 opens with Hal's turn"
        time.sleep(2)
        assert len(inbox()) == 2
        shift.write_text(str(4 * 3600 + 120))
        wait_until(lambda: len(inbox()) == 3, what="the held turn")
        assert inbox()[2].subject.startswith("Your move: ") and first in inbox()[2].body
        def sent() -> int:
            with psycopg.connect(conninfo(database_url)) as conn:
                row = conn.execute("SELECT count(*) FROM notification_outbox o JOIN users u ON u.id = o.user_id "
                                   "WHERE u.name = 'Hal' AND o.status = 'sent'").fetchone()
            return int(row[0]) if row else 0

        # the mail server has the email before its rows are marked sent
        wait_until(lambda: sent() == 4, what="four turns marked sent: three emails")
    finally:
        srv.stop()


def test_without_smtp_the_email_is_written_to_the_server_log(own_db: str) -> None:
    database_url = own_db
    srv = Server(database_url, extra_env=FAST).start()
    try:
        jo, kai = Player(srv.url, "Jo"), Player(srv.url, "Kai")
        opt_in(jo, None)
        assert jo.post("/api/me/notifications/test").status_code == 200
        wait_until(lambda: "Warroom test notification" in srv.log(), what="the test message in the log")
        match_id = async_table(jo, kai)
        wait_until(lambda: f"Your move: Skirmish (test fixture) (table {match_id})" in srv.log(),
                   what="the turn email in the log")
        assert "to=jo@example.org" in srv.log()
        # the log line is written first, then the row is marked sent
        wait_until(lambda: outbox(database_url, match_id) == [("email", "sent")], what="the email marked sent")
    finally:
        srv.stop()


# --- webhook URLs go to public hosts only: a server without WARROOM_WEBHOOK_ALLOW_PRIVATE -------
STRICT = {k: v for k, v in FAST.items() if k != "WARROOM_WEBHOOK_ALLOW_PRIVATE"}
GOOD = {"email": "pat@example.org", "webhook_url": "https://93.184.216.34/hook", "digest_hours": None}


@pytest.fixture(scope="module")
def strict(pg: Any) -> Iterator[Server]:
    """A database of its own: this worker would refuse the loopback webhooks of the others."""
    srv = Server(create_database(pg, f"notify_strict_{uuid.uuid4().hex[:6]}"), extra_env=STRICT).start()
    yield srv
    srv.stop()


@pytest.mark.parametrize(("url", "why"), [
    ("http://127.0.0.1/hook", "127.0.0.1 is a loopback address"),
    ("http://169.254.169.254/", "169.254.169.254 is a link-local address"),
    ("http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1 is an IPv6 form of 127.0.0.1, a loopback address"),
    ("http://[64:ff9b::7f00:1]/", "64:ff9b::7f00:1 is an IPv6 form of 127.0.0.1, a loopback address"),
    ("http://[2002:7f00:1::]/", "2002:7f00:1:: is an IPv6 form of 127.0.0.1, a loopback address"),
    ("https://10.1.2.3:8443/x", "10.1.2.3 is a private address"),
    ("http://localhost:8000/hook", "localhost resolves to (127.0.0.1|::1), a loopback address"),
])
def test_a_webhook_to_a_non_public_host_is_refused_when_saved(strict: Server, url: str, why: str) -> None:
    pat = Player(strict.url, "Pat")
    assert pat.http.put("/api/me/notifications", json=GOOD).status_code == 200
    r = pat.http.put("/api/me/notifications", json={"email": "pat@example.org", "webhook_url": url})
    assert r.status_code == 422, r.text
    assert re.fullmatch(f"webhook_url: {why}; webhooks go to public hosts only", r.json()["error"]), r.json()
    assert pat.get("/api/me/notifications").json() == GOOD, "a refused change changes nothing"


def settings_flash(player: Player, data: dict[str, str]) -> str:
    """Post the settings page's notification form; the flash on the page it comes back to."""
    found = re.search(r'name="csrf" value="([^"]+)"', player.get("/settings").text)
    assert found
    r = player.http.post("/settings/notifications", data={**data, "csrf": found.group(1)}, follow_redirects=False)
    assert r.status_code == 303, r.text
    shown = re.search(r'<div id="flash"[^>]*>(.*?)</div>', player.get("/settings").text, re.S)
    assert shown
    return html.unescape(shown.group(1)).strip()


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "webhook_url: 169.254.169.254 is a link-local address; webhooks go to public hosts only"),
    ("pl", "webhook_url: 169.254.169.254 to adres lokalny łącza (link-local); "
           "webhooki trafiają tylko do publicznych hostów"),
])
def test_the_settings_page_refuses_a_non_public_webhook_too(strict: Server, lang: str, expected: str) -> None:
    ola = Player(strict.url, "Ola")
    ola.http.headers["Accept-Language"] = lang
    assert settings_flash(ola, {"email": "", "webhook_url": "http://169.254.169.254/latest/meta-data/",
                                "digest_hours": ""}) == expected
    assert ola.get("/api/me/notifications").json()["webhook_url"] is None
    assert settings_flash(ola, {"email": "", "webhook_url": GOOD["webhook_url"], "digest_hours": ""}) != expected
    assert ola.get("/api/me/notifications").json()["webhook_url"] == GOOD["webhook_url"]


# --- deliveries run side by side: one hanging webhook holds up nobody else ----------------------
@dataclass
class HangingHook:
    entered: threading.Event = field(default_factory=threading.Event)  # the slow webhook has a request
    release: threading.Event = field(default_factory=threading.Event)  # ... and may now answer it
    fast: list[float] = field(default_factory=list)  # when the fast webhook got its requests
    slow: list[float] = field(default_factory=list)  # when the slow webhook got its requests


def hanging_receiver(hook: HangingHook) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers["Content-Length"]))
            if self.path == "/slow":
                hook.slow.append(time.monotonic())
                hook.entered.set()
                hook.release.wait(30)
            else:
                hook.fast.append(time.monotonic())
            try:
                self.send_response(204)
                self.end_headers()
            except OSError:
                pass  # the sender gave up on this one long ago

        def log_message(self, *_args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def test_a_hanging_webhook_does_not_delay_other_users(own_db: str) -> None:
    hook = HangingHook()
    httpd = hanging_receiver(hook)
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    # one process: its worker alone serves both users
    srv = Server(own_db, extra_env={**FAST, "WARROOM_NOTIFY_TIMEOUT": "3"}).start()
    try:
        slow, quick = Player(srv.url, "Slow"), Player(srv.url, "Quick")
        for player, path in ((slow, "/slow"), (quick, "/fast")):
            assert player.http.put("/api/me/notifications", json={"webhook_url": base + path}).status_code == 200
        assert slow.post("/api/me/notifications/test").status_code == 200
        wait_until(hook.entered.is_set, what="the slow webhook's request")

        asked = time.monotonic()
        assert quick.post("/api/me/notifications/test").status_code == 200
        wait_until(lambda: bool(hook.fast), timeout=2, what="the fast webhook, while the slow one hangs")
        assert hook.fast[0] - asked < 2 and not hook.release.is_set()
        assert status_of(own_db, slow.id) == "sending", "the slow one is still in flight"

        # the hanging request is given up at WARROOM_NOTIFY_TIMEOUT, and retried as any failure is
        wait_until(lambda: "no answer within 3 s" in srv.log(), timeout=6, what="the slow webhook given up")
        hook.release.set()
        wait_until(lambda: status_of(own_db, slow.id) == "sent", what="the slow webhook's retry")
    finally:
        hook.release.set()
        srv.stop()
        httpd.shutdown()


def test_deliveries_in_flight_are_bounded_by_the_concurrency(own_db: str) -> None:
    """One slot: the hanging webhook holds it, so the next user waits until the send timeout
    frees it (and then no longer)."""
    hook = HangingHook()
    httpd = hanging_receiver(hook)
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    srv = Server(own_db, extra_env={**FAST, "WARROOM_NOTIFY_CONCURRENCY": "1", "WARROOM_NOTIFY_TIMEOUT": "2",
                                    "WARROOM_NOTIFY_RETRY_SECONDS": "30"}).start()
    try:
        slow, quick = Player(srv.url, "Slow"), Player(srv.url, "Quick")
        for player, path in ((slow, "/slow"), (quick, "/fast")):
            assert player.http.put("/api/me/notifications", json={"webhook_url": base + path}).status_code == 200
        assert slow.post("/api/me/notifications/test").status_code == 200
        wait_until(hook.entered.is_set, what="the slow webhook's request")
        assert quick.post("/api/me/notifications/test").status_code == 200
        wait_until(lambda: bool(hook.fast), timeout=15, what="the fast webhook, once the slot is free")
        # both stamps come from the receiver itself: the fast request cannot arrive before the
        # 2 s send timeout freed the one slot the slow request held
        assert hook.fast[0] - hook.slow[0] > 1.5, "it waited for the one slot, until the 2 s send timeout"
        assert status_of(own_db, slow.id) == "pending", "the hanging one was given up, to be retried"
    finally:
        hook.release.set()
        srv.stop()
        httpd.shutdown()


def status_of(database_url: str, user_id: int) -> str:
    with psycopg.connect(conninfo(database_url)) as conn:
        row = conn.execute("SELECT status FROM notification_outbox WHERE user_id = %s ORDER BY id DESC LIMIT 1",
                           (user_id,)).fetchone()
    assert row is not None
    return str(row[0])
