"""Guests, registration, login and logout; the session cookie is signed and HttpOnly."""

from __future__ import annotations

import httpx


def test_register_login_logout_cycle(server):
    with httpx.Client(base_url=server.url) as c:
        r = c.post("/api/register", json={"name": "Marta", "password": "correct horse"})
        assert r.status_code == 200 and r.json()["guest"] is False
        cookie = r.headers["set-cookie"]
        assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
        assert c.get("/api/me").json()["name"] == "Marta"
        assert c.post("/api/logout").status_code == 200
        assert c.get("/api/me").status_code == 401
        assert c.post("/api/login", json={"name": "marta", "password": "correct horse"}).status_code == 200
        assert c.get("/api/me").json()["name"] == "Marta"


def test_passwords_are_stored_as_argon2_hashes(server, database_url):
    import psycopg

    from tests.replay_helpers import conninfo

    with httpx.Client(base_url=server.url) as c:
        c.post("/api/register", json={"name": "Hashed", "password": "my secret words"})
    with psycopg.connect(conninfo(database_url)) as conn:
        (stored,) = conn.execute("SELECT password_hash FROM users WHERE login = 'hashed'").fetchone()
    assert stored.startswith("$argon2") and "my secret words" not in stored


def test_a_guest_keeps_a_nickname_and_is_marked_guest(server):
    with httpx.Client(base_url=server.url) as c:
        r = c.post("/api/guests", json={"name": "Wanderer"})
        assert r.json()["guest"] is True and r.json()["csrf_token"]
        assert c.get("/api/me").json()["name"] == "Wanderer"


def test_a_tampered_cookie_signs_nobody_in(server):
    with httpx.Client(base_url=server.url) as c:
        c.post("/api/guests", json={"name": "Honest"})
        value = c.cookies["warroom_session"]
        c.cookies.clear()
        c.cookies.set("warroom_session", value[:-3] + ("AAA" if not value.endswith("AAA") else "BBB"))
        assert c.get("/api/me").status_code == 401
