"""U+0000 in any string a request carries (JSON body, page form, query, path, socket path)
is a 422 naming the field, never a 500: PostgreSQL refuses NUL in text."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import websockets.sync.client
from websockets.exceptions import InvalidStatus

from tests.conftest import Player, new_table

NUL = "\x00"


@pytest.fixture(scope="module")
def table(server: Any) -> tuple[Player, str]:
    host, guest = Player(server.url, "Nora"), Player(server.url, "Nils")
    match_id = new_table(host)
    assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
    assert host.post(f"/api/matches/{match_id}/start").status_code == 200
    return host, match_id


def action(key: str) -> dict[str, Any]:
    return {"seq": 0, "decision": "bid:p1:round1", "choice": "1", "key": key}


# (method, path — {id} is the table's match —, JSON body, the field the error must name)
JSON_CASES = [
    ("POST", "/api/guests", {"name": f"Ni{NUL}na"}, "name"),
    ("POST", "/api/register", {"name": "Nadia", "password": f"long enough{NUL}"}, "password"),
    ("POST", "/api/register", {"name": f"Nad{NUL}ia", "password": "long enough"}, "name"),
    ("POST", "/api/login", {"name": f"Nora{NUL}", "password": "whatever"}, "name"),
    ("POST", "/api/matches/{id}/chat", {"text": f"hello{NUL}"}, "text"),
    ("POST", "/api/matches/{id}/actions", action(f"key-{NUL}"), "key"),
    ("PUT", "/api/me/notifications", {"email": f"nora{NUL}@example.org"}, "email"),
    ("PUT", "/api/me/notifications", {"webhook_url": f"https://hooks.example.org/{NUL}"}, "webhook_url"),
    ("POST", "/api/matches", {"game": "cardgame", "players": 2, "options": {f"x{NUL}": 1}}, "options.x"),
    ("POST", "/api/matches/{id}/kick", {"seat": f"p2{NUL}"}, "seat"),
]
URL_CASES = [
    ("/api/matches/%00", "path"),
    ("/matches/%00", "path"),
    ("/api/matches/{id}/at/0?seat=%00", "seat"),
    ("/matches/{id}/history?seat=p1%00", "seat"),
]


def refused_naming(r: httpx.Response, field: str) -> None:
    assert r.status_code == 422, (r.status_code, r.text)
    error = r.json()["error"]
    assert error.startswith(f"{field}") and "NUL" in error, error


@pytest.mark.parametrize(("method", "path", "body", "field"), JSON_CASES)
def test_nul_in_a_json_body_is_422_naming_the_field(table, method, path, body, field):
    host, match_id = table
    r = host.http.request(method, path.format(id=match_id), json=body)
    refused_naming(r, field)
    assert host.match(match_id)["seq"] == 0, "nothing was applied"


@pytest.mark.parametrize(("path", "field"), URL_CASES)
def test_nul_in_a_path_or_query_is_422(table, server, path, field):
    _host, match_id = table
    with httpx.Client(base_url=server.url) as anonymous:
        refused_naming(anonymous.get(path.format(id=match_id)), field)


@pytest.mark.parametrize("multipart", [False, True])
def test_nul_in_a_page_form_is_422_naming_the_field(table, server, multipart):
    _host, match_id = table
    with httpx.Client(base_url=server.url) as visitor:
        fields = {"csrf": csrf_of(visitor), "name": f"Nell{NUL}"}
        if multipart:
            r = visitor.post("/guest", files={k: (None, v) for k, v in fields.items()})
        else:
            r = visitor.post("/guest", data=fields)
        refused_naming(r, "name")
        assert visitor.get("/api/me").status_code == 401, "no guest was made"


def csrf_of(client: httpx.Client) -> str:
    page = client.get("/").text
    marker = 'name="csrf" value="'
    return page.split(marker, 1)[1].split('"', 1)[0]


def test_nul_in_a_socket_path_is_refused_at_the_handshake(server):
    with pytest.raises(InvalidStatus) as refused:
        websockets.sync.client.connect(f"{server.ws_url}/api/matches/%00/ws")
    assert refused.value.response.status_code == 403


def test_the_server_is_still_healthy(table):
    host, match_id = table
    assert host.act(match_id, "bid:p1:round1", "1", seq=0).status_code == 200
