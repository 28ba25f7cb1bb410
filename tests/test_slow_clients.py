"""Slow clients cannot hold connections: a request head must arrive within
WARROOM_HEADER_TIMEOUT, an idle kept-alive connection closes after WARROOM_KEEP_ALIVE_TIMEOUT."""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import Server

HEADER_TIMEOUT = 2.0
SLACK = 2.0  # the event loop's timer, the test's polling and a loaded machine
HEAD = b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nX-Drip: " + b"a" * 200


@pytest.fixture(scope="module")
def slow_server(database_url: str) -> Iterator[Server]:
    srv = Server(database_url, extra_env={"WARROOM_HEADER_TIMEOUT": str(HEADER_TIMEOUT),
                                          "WARROOM_KEEP_ALIVE_TIMEOUT": "2"}).start()
    yield srv
    srv.stop()


def connect(server: Server) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    sock.setblocking(False)
    return sock


def closed_by_server(sock: socket.socket) -> tuple[bool, bytes]:
    """(closed?, bytes the server sent) without blocking."""
    got = b""
    while select.select([sock], [], [], 0)[0]:
        try:
            chunk = sock.recv(4096)
        except (ConnectionResetError, BlockingIOError):
            return True, got
        if not chunk:
            return True, got
        got += chunk
    return False, got


def watch(socks: dict[str, socket.socket], drip: set[str], limit: float) -> dict[str, tuple[float, bytes]]:
    """Drip one head byte every 0.25 s into the ``drip`` sockets until the server closes each;
    when and with what each was closed (sockets still open after ``limit`` are left out)."""
    start, offsets = time.monotonic(), dict.fromkeys(drip, 0)
    closed: dict[str, tuple[float, bytes]] = {}
    received: dict[str, bytes] = dict.fromkeys(socks, b"")
    while len(closed) < len(socks) and time.monotonic() - start < limit:
        for name, sock in socks.items():
            if name in closed:
                continue
            if name in drip:
                try:
                    sock.send(HEAD[offsets[name]:offsets[name] + 1] or b"b")
                    offsets[name] += 1
                except (BrokenPipeError, ConnectionResetError, BlockingIOError):
                    pass
            done, got = closed_by_server(sock)
            received[name] += got
            if done:
                closed[name] = (time.monotonic() - start, received[name])
        time.sleep(0.25)
    return closed


@pytest.fixture
def sockets(slow_server: Server) -> Iterator[dict[str, socket.socket]]:
    socks = {f"idle{i}": connect(slow_server) for i in range(10)}
    socks |= {f"drip{i}": connect(slow_server) for i in range(20)}
    yield socks
    for sock in socks.values():
        sock.close()


def test_silent_and_dripping_connections_are_closed_within_the_header_timeout(slow_server, sockets):
    closed = watch(sockets, {n for n in sockets if n.startswith("drip")}, limit=HEADER_TIMEOUT + SLACK + 4)
    still_open = sorted(set(sockets) - set(closed))
    assert not still_open, f"still open after {HEADER_TIMEOUT + SLACK + 4:.0f} s: {still_open}"
    for name, (after, got) in closed.items():
        assert after <= HEADER_TIMEOUT + SLACK, (name, after)
        if name.startswith("drip"):
            assert got.startswith(b"HTTP/1.1 408"), (name, got[:40])
    r = httpx.get(f"{slow_server.url}/api/games", timeout=5)
    assert r.status_code == 200, "the server still answers everyone else"


def test_a_head_sent_in_pieces_within_the_deadline_is_served(slow_server):
    with socket.create_connection(("127.0.0.1", slow_server.port), timeout=5) as sock:
        for piece in (b"GET /api/games HTTP/1.1\r\n", b"Host: localhost\r\n", b"Connection: close\r\n\r\n"):
            sock.sendall(piece)
            time.sleep(HEADER_TIMEOUT / 4)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 200"), reply[:80]


def test_an_idle_kept_alive_connection_is_closed(slow_server):
    sock = connect(slow_server)
    try:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n\r\n")
        closed: dict[str, Any] = watch({"kept": sock}, set(), limit=2 + SLACK + 4)
        assert "kept" in closed and closed["kept"][1].startswith(b"HTTP/1.1 200")
        assert closed["kept"][0] <= 2 + SLACK
    finally:
        sock.close()
