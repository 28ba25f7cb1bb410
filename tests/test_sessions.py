"""Server-side sessions: logout, "log out everywhere" and a password change end a session
for every copy of its cookie; a guest who registers keeps its id and seats."""

from __future__ import annotations

import json
import re
import time
from base64 import b64encode
from collections.abc import Iterator
from contextlib import closing

import httpx
import pytest
from itsdangerous import TimestampSigner

from tests.conftest import Server, new_table

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def client(server: Server, cookies: httpx.Cookies | None = None) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=10, cookies=cookies)


def registered(server: Server, name: str, password: str) -> httpx.Client:
    c = client(server)
    r = c.post("/api/register", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return c


def copy_of(server: Server, original: httpx.Client) -> httpx.Client:
    """Another device holding a copy of the same cookie."""
    return client(server, cookies=httpx.Cookies({"warroom_session": original.cookies["warroom_session"]}))


def test_a_cookie_copied_before_logout_is_refused_after_it(server: Server, make_player) -> None:
    with closing(registered(server, "Lidia", "lilac river stones")) as owner, copy_of(server, owner) as thief:
        assert thief.get("/api/me").json()["name"] == "Lidia"
        host = make_player("Host")
        match_id = new_table(host)
        assert thief.post(f"/api/matches/{match_id}/join", json={}).status_code == 200
        assert owner.post("/api/logout").status_code == 200
        assert thief.get("/api/me").status_code == 401
        # the hot path (require_signed_in, no query of its own) refuses it as well
        r = thief.post(f"/api/matches/{match_id}/actions", json={"seq": 0, "decision": "bid:p2", "choice": "1"})
        assert r.status_code == 401
        assert "sign in" in thief.get(f"/matches/{match_id}").text.lower()  # the page sees a stranger


def test_a_guests_copied_cookie_dies_with_the_page_logout(server: Server, make_player) -> None:
    guest = make_player("Roamer")
    with client(server, cookies=httpx.Cookies({"warroom_session": guest.http.cookies["warroom_session"]})) as thief:
        assert thief.get("/api/me").status_code == 200
        token = guest.get("/api/me").json()["csrf_token"]
        assert guest.http.post("/logout", data={"csrf": token}).status_code == 303
        assert thief.get("/api/me").status_code == 401


def test_a_signed_cookie_without_a_live_session_signs_nobody_in(server: Server, make_player) -> None:
    """Before server-side sessions a cookie naming a uid was enough, for 30 days."""
    victim = make_player("Victim")
    value = TimestampSigner("test-secret").sign(b64encode(json.dumps({"uid": victim.id}).encode())).decode()
    with client(server, cookies=httpx.Cookies({"warroom_session": value})) as forged:
        assert forged.get("/api/me").status_code == 401
    stale = {"uid": victim.id, "sid": "made-up-session-id"}
    value = TimestampSigner("test-secret").sign(b64encode(json.dumps(stale).encode())).decode()
    with client(server, cookies=httpx.Cookies({"warroom_session": value})) as forged:
        assert forged.get("/api/me").status_code == 401


def test_log_out_everywhere_ends_every_session(server: Server) -> None:
    with closing(registered(server, "Ewa", "seven quiet owls")) as laptop, client(server) as phone:
        assert phone.post("/api/login", json={"name": "ewa", "password": "seven quiet owls"}).status_code == 200
        with copy_of(server, phone) as copy:
            r = laptop.post("/api/logout-everywhere")
            assert r.status_code == 200 and r.json()["revoked"] == 2
            for device in (laptop, phone, copy):
                assert device.get("/api/me").status_code == 401
        assert phone.post("/api/logout-everywhere").status_code == 401


def test_the_settings_page_button_logs_out_everywhere(server: Server) -> None:
    with closing(registered(server, "Bogna", "amber tram window")) as laptop, client(server) as phone:
        phone.post("/api/login", json={"name": "Bogna", "password": "amber tram window"})
        page = laptop.get("/settings").text
        assert 'action="/settings/logout-everywhere"' in page
        r = laptop.post("/settings/logout-everywhere", data={"csrf": CSRF.search(page).group(1)})
        assert r.status_code == 303
        assert laptop.get("/api/me").status_code == 401 and phone.get("/api/me").status_code == 401
        assert "Signed out everywhere" in laptop.get("/settings").text


def test_a_password_change_ends_the_other_sessions_only(server: Server) -> None:
    with closing(registered(server, "Kamil", "first long secret")) as here, client(server) as there:
        there.post("/api/login", json={"name": "kamil", "password": "first long secret"})
        r = here.post("/api/me/password", json={"old": "wrong guess at it", "new": "second long secret"})
        assert r.status_code == 403 and "old" in r.json()["error"]
        r = here.post("/api/me/password", json={"old": "first long secret", "new": "password123"})
        assert r.status_code == 422 and r.json()["error"].startswith("new:")
        r = here.post("/api/me/password", json={"old": "first long secret", "new": "second long secret"})
        assert r.status_code == 200 and r.json()["other_sessions_revoked"] == 1
        assert there.get("/api/me").status_code == 401
        assert here.get("/api/me").json()["name"] == "Kamil"
    with client(server) as again:
        assert again.post("/api/login", json={"name": "Kamil", "password": "first long secret"}).status_code == 401
        assert again.post("/api/login", json={"name": "Kamil", "password": "second long secret"}).status_code == 200


def test_a_guest_has_no_password_to_change(make_player) -> None:
    r = make_player("Nomad").post("/api/me/password", {"old": "anything at all", "new": "something else"})
    assert r.status_code == 403 and "register" in r.json()["error"]


# --------------------------------------------------------------------------- guest → account
def test_a_seated_guest_who_registers_keeps_its_id_and_seat(make_player) -> None:
    host, guest = make_player("Hostess"), make_player("Drifter")
    match_id = new_table(host)
    assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
    before = guest.match(match_id)
    assert before["you"] == "p2"
    r = guest.post("/api/register", {"name": "Teodor", "password": "plum tree harbour"})
    assert r.status_code == 200, r.text
    assert r.json()["id"] == guest.id and r.json()["guest"] is False
    after = guest.match(match_id)
    assert after["you"] == before["you"] == "p2"
    seat = next(s for s in after["seats"] if s["seat"] == "p2")
    assert seat["player"] == "Teodor"  # no "(guest)" any more
    assert host.match(match_id)["seats"][1]["player"] == "Teodor"
    mine = guest.get("/api/matches?mine=1").json()
    assert [m["match_id"] for m in mine] == [match_id]
    guest.post("/api/logout")
    assert guest.post("/api/login", {"name": "teodor", "password": "plum tree harbour"}).json()["id"] == guest.id


def test_the_register_form_upgrades_a_guest_in_place(make_player) -> None:
    host, guest = make_player("Hilda"), make_player("Passerby")
    match_id = new_table(host)
    guest.post(f"/api/matches/{match_id}/join")
    settings = guest.get("/settings").text
    assert 'id="guest-register"' in settings
    r = guest.http.post("/register", data={"name": "Wiktor", "password": "cedar lantern road",
                                           "csrf": CSRF.search(settings).group(1), "next": "/settings"})
    assert r.status_code == 303
    me = guest.get("/api/me").json()
    assert me["id"] == guest.id and me["guest"] is False and me["name"] == "Wiktor"
    assert guest.match(match_id)["you"] == "p2"


# --------------------------------------------------------------------------- several workers
@pytest.fixture(scope="module")
def two_workers(database_url: str) -> Iterator[Server]:
    srv = Server(database_url, workers=2, extra_env={"WARROOM_SESSION_CHECK_SECONDS": "1"}).start()
    yield srv
    srv.stop()


def test_other_workers_refuse_a_revoked_session_within_the_check_period(two_workers: Server) -> None:
    with closing(registered(two_workers, "Celina", "north wind kettle")) as owner, copy_of(two_workers, owner) as copy:
        for _ in range(10):  # both workers have now seen the session live
            assert copy.get("/api/me").status_code == 200
        owner.post("/api/logout")
        time.sleep(1.2)
        assert all(copy.get("/api/me").status_code == 401 for _ in range(10))
