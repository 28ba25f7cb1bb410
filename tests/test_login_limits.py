"""Guessing passwords: failed logins are limited per address and per account (429 with
Retry-After and the wait in the message), and argon2 runs off the event loop.

Addresses are told apart by X-Forwarded-For, which uvicorn honours from 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.conftest import Server

LIMITS = {"WARROOM_LOGIN_ADDRESS_BURST": "8", "WARROOM_LOGIN_ADDRESS_PER_MINUTE": "1",
          "WARROOM_LOGIN_ACCOUNT_BURST": "5", "WARROOM_LOGIN_ACCOUNT_PER_MINUTE": "1"}


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    srv = Server(database_url, extra_env=LIMITS).start()
    yield srv
    srv.stop()


def log_in(server: Server, name: str, password: str, address: str) -> httpx.Response:
    return httpx.post(f"{server.url}/api/login", json={"name": name, "password": password},
                      headers={"X-Forwarded-For": address}, timeout=30)


def register(server: Server, name: str, password: str) -> None:
    r = httpx.post(f"{server.url}/api/register", json={"name": name, "password": password}, timeout=30)
    assert r.status_code == 200, r.text


def test_wrong_passwords_from_one_address_meet_a_429_that_says_when(server: Server) -> None:
    statuses = [log_in(server, f"nobody{i}", "not the password", "10.0.0.1").status_code for i in range(8)]
    assert statuses == [401] * 8
    r = log_in(server, "nobody9", "not the password", "10.0.0.1")
    assert r.status_code == 429
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert "login attempts from this address" in r.json()["error"]
    assert f"try again in {r.headers['Retry-After']} s" in r.json()["error"]
    assert log_in(server, "nobody9", "not the password", "10.0.0.2").status_code == 401  # another address


def test_a_flooded_account_still_admits_its_owner_from_a_known_address(server: Server) -> None:
    """Our call: an account under attack refuses every address it has not been signed in from
    (on this worker) until its budget refills; its owner, from an address they used before, gets in."""
    register(server, "Agnieszka", "poppy field morning")
    assert log_in(server, "Agnieszka", "poppy field morning", "10.5.0.1").status_code == 200
    guesses = [log_in(server, "agnieszka", f"guess number {i}", f"10.6.0.{i}").status_code for i in range(6)]
    assert guesses[:4] == [401] * 4 and guesses[-1] == 429
    r = log_in(server, "Agnieszka", "poppy field morning", "10.7.0.1")
    assert r.status_code == 429 and "for this account" in r.json()["error"], "a new address waits like the attacker"
    assert log_in(server, "Agnieszka", "poppy field morning", "10.5.0.1").status_code == 200


def test_the_login_form_shows_the_wait_too(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=30, headers={"X-Forwarded-For": "10.8.0.1"}) as web:
        import re

        for i in range(9):
            token = re.search(r'name="csrf" value="([^"]+)"', web.get("/").text).group(1)
            web.post("/login", data={"name": f"ghost{i}", "password": "wrong password", "csrf": token})
        assert "Too many sign-in attempts: try again in" in web.get("/").text
