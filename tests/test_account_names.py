"""Names and passwords at the door: hidden characters refused, look-alikes of registered
names reserved, guests marked wherever names appear, common passwords and the name refused,
and concurrent registrations of one name answered 409, never 500."""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Iterator

import httpx
import pytest

from app.i18n import CATALOGUE
from tests.conftest import Server, new_table

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
FLASH = re.compile(r'id="flash"[^>]*>([^<]*)<')


def flash(page: str) -> str:
    return html.unescape(FLASH.search(page).group(1))
SNEAKY = ["Ad\u202emin", "Ola\u200b", "\u2066Ola\u2069", "O\u200ela", "\ufeffOla", "O\x00la", "Ola\x1b[31m",
          "Z\u0301\u0302\u0303\u0304", "\u0301\u0301\u0301a", "Ola\u2028x", "Ola\u00ad"]


@pytest.mark.parametrize("name", SNEAKY, ids=lambda name: name.encode("unicode_escape").decode())
def test_hidden_characters_in_names_are_422_naming_the_field(server: Server, name: str) -> None:
    for path, body in (("/api/guests", {"name": name}),
                       ("/api/register", {"name": name, "password": "a decent passphrase"}),
                       ("/api/login", {"name": name, "password": "a decent passphrase"})):
        r = httpx.post(f"{server.url}{path}", json=body, timeout=10)
        assert r.status_code == 422, (path, name, r.text)
        assert r.json()["error"].startswith("name:"), r.text


def test_names_are_normalised_before_they_are_stored(server: Server) -> None:
    r = httpx.post(f"{server.url}/api/guests", json={"name": "  Ｋａｓｉａ \u00a0 Nowak "}, timeout=10)
    assert r.status_code == 200 and r.json()["name"] == "Kasia Nowak"


def test_a_guest_may_not_borrow_a_registered_name_or_its_look_alike(server: Server) -> None:
    assert httpx.post(f"{server.url}/api/register", json={"name": "Magdalena", "password": "velvet harbour"},
                      timeout=10).status_code == 200
    for look_alike in ("Magdalena", "magdalena", "MAGDALENA ", "Маgdalena", "Magda1ena", "Mágdalena", "Magdalena."):
        r = httpx.post(f"{server.url}/api/guests", json={"name": look_alike}, timeout=10)
        assert r.status_code == 422, (look_alike, r.text)
        assert r.json()["error"].startswith("name:") and "registered" in r.json()["error"]
        r = httpx.post(f"{server.url}/api/register", json={"name": look_alike, "password": "another passphrase"},
                       timeout=10)
        assert r.status_code == 409, (look_alike, r.text)
    assert httpx.post(f"{server.url}/api/guests", json={"name": "Magda"}, timeout=10).status_code == 200


def test_the_guest_form_says_why_in_the_pages_language(server: Server) -> None:
    httpx.post(f"{server.url}/api/register", json={"name": "Bronisław", "password": "quiet meadow lark"}, timeout=10)
    with httpx.Client(base_url=server.url, timeout=10, headers={"Accept-Language": "pl"}) as web:
        token = CSRF.search(web.get("/").text).group(1)
        assert web.post("/guest", data={"name": "bronisław", "csrf": token}).status_code == 303
        page = web.get("/").text
        assert flash(page) == CATALOGUE["pl"]["name_reserved"].format(name="bronisław")
        web.post("/guest", data={"name": "Ola\u200b", "csrf": CSRF.search(page).group(1)})
        assert flash(web.get("/").text) == CATALOGUE["pl"]["name_invisible"].format(code="U+200B")


def test_chat_marks_guests_in_the_api_and_on_the_page(server: Server, make_player) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as member:
        member.post("/api/register", json={"name": "Stefan", "password": "granite orchard"})
        host = make_player("Wojtek")
        match_id = new_table(host)
        member.post(f"/api/matches/{match_id}/join", json={})
        assert host.post(f"/api/matches/{match_id}/chat", {"text": "hello"}).status_code == 200
        assert member.post(f"/api/matches/{match_id}/chat", json={"text": "hi"}).status_code == 200
        names = [line["name"] for line in host.get(f"/api/matches/{match_id}/chat").json()]
        assert names == ["Wojtek (guest)", "Stefan"]
        page = member.get(f"/matches/{match_id}").text
        chat = page[page.index('id="chat-lines"'):]
        assert "<b>Wojtek (guest):</b> hello" in chat and "<b>Stefan:</b> hi" in chat


# --------------------------------------------------------------------------- passwords
@pytest.mark.parametrize(("name", "password", "rule"), [
    ("Ryszard", "12345678", "common"), ("Ryszard", "password", "common"), ("Ryszard", "Qwerty123", "common"),
    ("Ryszard", "Ryszard!", "name"), ("Ryszard", "RYSZARD1", "name"), ("Ryszard", "my ryszard pass", "name"),
    ("Ryszard", "short", "at least 8"),
])
def test_guessable_passwords_are_422_naming_password(server: Server, name: str, password: str, rule: str) -> None:
    r = httpx.post(f"{server.url}/api/register", json={"name": name, "password": password}, timeout=10)
    assert r.status_code == 422, r.text
    assert r.json()["error"].startswith("password:") and rule in r.json()["error"], r.text


def test_the_register_form_names_the_password_rule(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as web:
        token = CSRF.search(web.get("/").text).group(1)
        assert web.post("/register", data={"name": "Halina", "password": "iloveyou", "csrf": token}).status_code == 303
        assert flash(web.get("/").text) == CATALOGUE["en"]["password_common"]
        assert web.get("/api/me").status_code == 401


# --------------------------------------------------------------------------- races
@pytest.fixture(scope="module")
def two_workers(database_url: str) -> Iterator[Server]:
    """Two processes: registrations really run side by side."""
    srv = Server(database_url, workers=2).start()
    yield srv
    srv.stop()


@pytest.mark.parametrize("attempt", range(3))
def test_concurrent_registrations_of_one_name_give_one_200_and_409s(two_workers: Server, attempt: int) -> None:
    start = threading.Barrier(12)
    statuses: list[int] = []

    def register(i: int) -> None:
        with httpx.Client(base_url=two_workers.url, timeout=30) as c:
            start.wait()
            statuses.append(c.post("/api/register", json={"name": f"Racer{attempt}" if i % 2 else f"racer{attempt}",
                                                          "password": f"fast horse number {i}"}).status_code)

    threads = [threading.Thread(target=register, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200] + [409] * 11, statuses
