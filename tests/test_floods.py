"""Floods (issue 7, item 9): tables, guests, sockets and chat lines are limited per player
and per address, and each refusal is a 429 (or socket close 4429) naming what was limited.

One server with tiny limits. Every test comes from its own address: the server trusts
X-Forwarded-For from loopback (uvicorn's FORWARDED_ALLOW_IPS default), as it would from a
proxy in front of it, so the address limits of one test never touch another's."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from tests.conftest import Player, Server, new_table

LIMITS = {
    "WARROOM_GUESTS_PER_ADDRESS_HOUR": "5",
    "WARROOM_TABLES_PER_USER_HOUR": "5",
    "WARROOM_TABLES_PER_ADDRESS_HOUR": "8",
    "WARROOM_OPEN_TABLES_PER_USER": "2",
    "WARROOM_SOCKETS_PER_USER": "3",
    "WARROOM_SOCKETS_PER_ADDRESS": "2",
    "WARROOM_CHAT_PER_TABLE_MINUTE": "3",
    "WARROOM_CHAT_PER_USER_MINUTE": "5",
}


@pytest.fixture(scope="module")
def tight(database_url: str) -> Iterator[Server]:
    srv = Server(database_url, extra_env=LIMITS).start()
    yield srv
    srv.stop()


class Visitor(Player):
    """A guest whose every request comes from ``address`` (as a proxy in front would say)."""

    def __init__(self, base_url: str, name: str, address: str) -> None:
        self.name = name
        self.address = address
        self.http = httpx.Client(base_url=base_url, timeout=10, headers={"X-Forwarded-For": address})
        r = self.http.post("/api/guests", json={"name": name})
        assert r.status_code == 200, r.text
        self.id = r.json()["id"]


def refused(r: httpx.Response, what: str) -> None:
    assert r.status_code == 429, r.text
    assert what in r.json()["error"], r.text


def abandon(host: Player, match_id: str) -> None:
    assert host.post(f"/api/matches/{match_id}/abandon").status_code == 200


# --------------------------------------------------------------------------- guests
def test_guests_per_address(tight: Server) -> None:
    for n in range(5):
        Visitor(tight.url, f"G{n}", "198.51.100.1")
    with httpx.Client(base_url=tight.url, headers={"X-Forwarded-For": "198.51.100.1"}) as flood:
        r = flood.post("/api/guests", json={"name": "G5"})
        refused(r, "too many guests created from this address")
        assert int(r.headers["retry-after"]) > 0
        # the page form shares the budget: back to the lobby with the refusal in the flash
        token = re.search(r'name="csrf" value="([^"]+)"', flood.get("/").text).group(1)
        r = flood.post("/guest", data={"csrf": token, "name": "G6", "next": "/"})
        assert r.status_code == 303
        assert "too many guests created from this address" in flood.get("/").text
        assert flood.get("/api/me").status_code == 401
    Visitor(tight.url, "Elsewhere", "198.51.100.2")  # another address still gets its guests


# --------------------------------------------------------------------------- tables
def test_tables_per_player(tight: Server) -> None:
    host = Visitor(tight.url, "Busy", "198.51.100.10")
    for _ in range(2):  # 4 made, then a 5th, each abandoned: never more than 2 open at once
        made = [new_table(host), new_table(host)]
        for match_id in made:
            abandon(host, match_id)
    abandon(host, new_table(host))
    r = host.post("/api/matches", {"game": "cardgame", "players": 2})
    refused(r, "too many tables created by this player")
    assert int(r.headers["retry-after"]) > 0
    neighbour = Visitor(tight.url, "Neighbour", "198.51.100.10")  # same address, own budget
    abandon(neighbour, new_table(neighbour))


def test_tables_per_address(tight: Server) -> None:
    hosts = [Visitor(tight.url, f"Club{n}", "198.51.100.20") for n in range(5)]
    for host in hosts[:4]:
        for _ in range(2):
            abandon(host, new_table(host))
    refused(hosts[4].post("/api/matches", {"game": "cardgame", "players": 2}),
            "too many tables created from this address")
    away = Visitor(tight.url, "Away", "198.51.100.21")
    abandon(away, new_table(away))


def test_open_tables_per_player(tight: Server) -> None:
    host = Visitor(tight.url, "Hoarder", "198.51.100.30")
    first, _second = new_table(host), new_table(host)
    r = host.post("/api/matches", {"game": "cardgame", "players": 2})
    refused(r, "too many open tables")
    assert "at most 2" in r.json()["error"]
    # the lobby's form says the same
    token = host.get("/api/me").json()["csrf_token"]
    r = host.http.post("/tables", data={"csrf": token, "game": "cardgame", "players": "2", "mode": "live"})
    assert r.status_code == 303
    assert "too many open tables" in host.get("/").text
    other = Visitor(tight.url, "Other", "198.51.100.30")
    other_table = new_table(other)
    # a table that starts no longer counts as open
    assert other.post(f"/api/matches/{first}/join").status_code == 200
    assert host.post(f"/api/matches/{first}/start").status_code == 200
    abandon(other, other_table)
    guest = Visitor(tight.url, "Guest", "198.51.100.31")
    third = new_table(host)
    assert guest.post(f"/api/matches/{third}/join").status_code == 200


# --------------------------------------------------------------------------- sockets
async def open_socket(srv: Server, path: str, cookie: str | None, address: str) -> Any:
    headers = {"X-Forwarded-For": address}
    if cookie:
        headers["Cookie"] = cookie
    ws = await websockets.connect(f"{srv.ws_url}{path}", additional_headers=headers, max_size=None)
    await asyncio.wait_for(ws.recv(), 10)  # the full message first: the socket is admitted
    return ws


async def refused_socket(srv: Server, path: str, cookie: str | None, address: str, what: str) -> None:
    headers = {"X-Forwarded-For": address}
    if cookie:
        headers["Cookie"] = cookie
    async with websockets.connect(f"{srv.ws_url}{path}", additional_headers=headers) as ws:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4429
    assert what in closed.value.rcvd.reason


@pytest.mark.asyncio
async def test_open_sockets_per_player(tight: Server) -> None:
    alice = Visitor(tight.url, "Tabs", "198.51.100.40")
    bob = Visitor(tight.url, "Calm", "198.51.100.40")
    match_id = new_table(alice)
    json_ws, page_ws = f"/api/matches/{match_id}/ws", f"/matches/{match_id}/live"
    held = [await open_socket(tight, json_ws, alice.cookie, alice.address) for _ in range(2)]
    held.append(await open_socket(tight, page_ws, alice.cookie, alice.address))  # page sockets count too
    try:
        await refused_socket(tight, json_ws, alice.cookie, alice.address, "too many open sockets for this player")
        await refused_socket(tight, page_ws, alice.cookie, alice.address, "too many open sockets for this player")
        # another player at the same address is not affected
        theirs = [await open_socket(tight, json_ws, bob.cookie, bob.address) for _ in range(3)]
        for ws in theirs:
            await ws.close()
        # closing one frees its place
        await held.pop().close()
        held.append(await reopened(tight, json_ws, alice.cookie, alice.address))
    finally:
        for ws in held:
            await ws.close()


async def reopened(srv: Server, path: str, cookie: str | None, address: str) -> Any:
    """The server notices a close a moment after the client sends it."""
    for _ in range(50):
        try:
            return await open_socket(srv, path, cookie, address)
        except websockets.ConnectionClosed:
            await asyncio.sleep(0.1)
    raise AssertionError("the closed socket never freed its place")


@pytest.mark.asyncio
async def test_open_sockets_per_anonymous_address(tight: Server) -> None:
    host = Visitor(tight.url, "Watched", "198.51.100.50")
    path = f"/api/matches/{new_table(host)}/ws"
    held = [await open_socket(tight, path, None, "198.51.100.51") for _ in range(2)]
    try:
        await refused_socket(tight, path, None, "198.51.100.51", "anonymous visitors at this address")
        held.append(await open_socket(tight, path, None, "198.51.100.52"))
        held.append(await open_socket(tight, path, host.cookie, "198.51.100.51"))  # signed in: a player's own cap
    finally:
        for ws in held:
            await ws.close()


# --------------------------------------------------------------------------- chat
def test_chat_lines_per_table_and_per_player(tight: Server) -> None:
    talker = Visitor(tight.url, "Talker", "198.51.100.60")
    quiet = Visitor(tight.url, "Quiet", "198.51.100.61")
    tables = [new_table(talker), new_table(talker)]
    for match_id in tables:
        assert quiet.post(f"/api/matches/{match_id}/join").status_code == 200
    first, second = tables
    for n in range(3):
        assert talker.post(f"/api/matches/{first}/chat", {"text": f"line {n}"}).status_code == 200
    r = talker.post(f"/api/matches/{first}/chat", {"text": "one more"})
    refused(r, "too many chat lines from you at this table")
    assert int(r.headers["retry-after"]) > 0
    # the table page's chat form is held to the same budget
    token = talker.get("/api/me").json()["csrf_token"]
    r = talker.http.post(f"/matches/{first}/chat", data={"text": "via the page"},
                         headers={"HX-Request": "true", "X-CSRF-Token": token})
    assert r.status_code == 429 and "too many chat lines from you at this table" in r.text
    assert quiet.post(f"/api/matches/{first}/chat", {"text": "I can still talk"}).status_code == 200
    for n in range(2):  # 5 in all across tables
        assert talker.post(f"/api/matches/{second}/chat", {"text": f"elsewhere {n}"}).status_code == 200
    r = talker.post(f"/api/matches/{second}/chat", {"text": "and more"})
    refused(r, "too many chat lines from you:")
    lines = [m["text"] for m in quiet.get(f"/api/matches/{first}/chat").json()]
    assert lines == ["line 0", "line 1", "line 2", "I can still talk"]
