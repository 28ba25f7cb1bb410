"""Replays on request are bounded: the upload's size, and the moves a user may have replayed
(issue 7, item 6). A server with tight limits (64 KB, 100 moves per 10 minutes)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import Player, Server, new_table
from tests.fixtures.cardgame import GAME
from tests.replay_helpers import undo_heavy_export

LIMIT = 64 * 1024
BUDGET = 100


@pytest.fixture(scope="module")
def tight(database_url: str) -> Iterator[Server]:
    srv = Server(database_url, extra_env={"WARROOM_VERIFY_MAX_BYTES": str(LIMIT),
                                          "WARROOM_REPLAY_BUDGET": str(BUDGET)}).start()
    yield srv
    srv.stop()


def padded(size: int) -> dict[str, Any]:
    """A valid export grown past ``size`` bytes by a field the server ignores."""
    export = undo_heavy_export(GAME, bytes(32), moves=5, pairs=0, options={"target": "100"})
    return {**export, "padding": "x" * size}


def csrf_of(player: Player) -> str:
    return str(player.get("/api/me").json()["csrf_token"])


def test_an_announced_oversize_body_is_refused_before_it_is_sent(tight: Server) -> None:
    """Only the headers go out: the 413 comes back without one byte of the body read."""
    with socket.create_connection(("127.0.0.1", tight.port), timeout=10) as conn:
        conn.sendall(f"POST /api/replays/verify HTTP/1.1\r\nHost: 127.0.0.1:{tight.port}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 50000000\r\n\r\n".encode())
        reply = b""
        while b"64 KB" not in reply and (chunk := conn.recv(65536)):
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 413"), reply
    assert b"64 KB" in reply


def test_oversize_verify_bodies_get_413_however_they_arrive(tight: Server) -> None:
    vera = Player(tight.url, "Vera")
    r = vera.post("/api/replays/verify", padded(LIMIT))
    assert r.status_code == 413 and "over the limit of 64 KB" in r.json()["error"], r.text

    raw = json.dumps(padded(LIMIT)).encode()
    chunks = (raw[i:i + 8192] for i in range(0, len(raw), 8192))  # no Content-Length: streamed
    r = vera.http.post("/api/replays/verify", content=chunks, headers={"content-type": "application/json"})
    assert r.status_code == 413, r.text

    r = vera.http.post("/replays/verify", data={"csrf": csrf_of(vera)},
                       files={"export": ("m.json", json.dumps(padded(LIMIT)), "application/json")})
    assert r.status_code == 413 and "the file is over 64 KB" in r.text, r.text

    r = vera.post("/api/replays/verify", padded(LIMIT // 2))
    assert r.status_code == 200 and r.json()["ok"] is True, "under the limit it replays as ever"


def test_verifications_spend_a_budget_of_replayed_moves(tight: Server) -> None:
    export = undo_heavy_export(GAME, bytes(32), moves=40, pairs=0, options={"target": "100"})
    assert len(export["actions"]) == 40
    wendy = Player(tight.url, "Wendy")
    for _ in range(2):
        r = wendy.post("/api/replays/verify", export)
        assert r.status_code == 200 and r.json()["ok"] is True, r.text
    r = wendy.post("/api/replays/verify", export)
    assert r.status_code == 429 and "too many replayed moves" in r.json()["error"], r.text
    assert int(r.headers["retry-after"]) > 0
    r = wendy.http.post("/replays/verify", data={"csrf": csrf_of(wendy)},
                        files={"export": ("m.json", json.dumps(export), "application/json")})
    assert r.status_code == 429 and "too many replayed moves" in r.text, "the page upload spends the same budget"
    r = Player(tight.url, "Xena").post("/api/replays/verify", export)
    assert r.status_code == 200, "the budget is each player's own"


def test_anonymous_exports_spend_their_address_budget(tight: Server) -> None:
    """An export replays the log (for its public-view hashes), so it costs like a verification."""
    host, guest = Player(tight.url, "Host"), Player(tight.url, "Guest")
    match_id = new_table(host, options={"target": "100"})
    guest.post(f"/api/matches/{match_id}/join")
    assert host.post(f"/api/matches/{match_id}/start").status_code == 200
    while host.match(match_id)["seq"] < 25:
        for p in (host, guest):
            m = p.match(match_id)
            if m["pending"]:
                d = m["pending"][0]
                p.act(match_id, d["decision"], d["choices"][0]["id"], seq=m["seq"])
    statuses = []
    with httpx.Client(base_url=tight.url, timeout=10) as anonymous:
        for _ in range(BUDGET // 25 + 1):
            statuses.append(anonymous.get(f"/api/matches/{match_id}/export").status_code)
    assert statuses[0] == 200 and statuses[-1] == 429, statuses
    assert host.get(f"/api/matches/{match_id}/export").status_code == 200, "signed-in players spend their own"
