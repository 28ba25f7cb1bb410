"""Scale out: two app processes (separate `python -m app serve`, separate ports) over one
PostgreSQL, every client of a match sees every update whichever process it is connected to and
whichever process took the move (LISTEN/NOTIFY), directly and through the proxy configuration
of docker-compose.yml (deploy/nginx.conf.template, sticky by match id)."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import ROOT, Player, Server, free_port, new_table
from tests.live_client import LiveSeat

TEMPLATE = ROOT / "deploy" / "nginx.conf.template"
MOVES = 6
# a card game played to 100 points: no match can end within MOVES answers, whatever its dealt cards
LONG_GAME = {"target": "100"}


@pytest.fixture(scope="module")
def two_processes(database_url: str) -> Iterator[tuple[Server, Server]]:
    # the safety-net poll pushed far out: only NOTIFY can carry a move to the other process in time;
    # WARROOM_APP_PROCESSES: each process sizes its pool knowing there are two
    env = {"WARROOM_LIVE_POLL_SECONDS": "600", "WARROOM_APP_PROCESSES": "2"}
    first, second = Server(database_url, extra_env=env).start(), Server(database_url, extra_env=env).start()
    yield first, second
    first.stop()
    second.stop()


class Client:
    """One player's signed-in session, usable against any of the processes (or the proxy):
    the cookie is signed with the shared key and the session lives in the database."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def at(self, base_url: str) -> httpx.Client:
        return httpx.Client(base_url=base_url, cookies=self.player.http.cookies, timeout=10)


def pid_of(server: Server) -> str:
    assert server.process is not None
    return str(server.process.pid)  # one worker: uvicorn serves in the process it started


async def open_seats(seats: list[tuple[str, str, str | None]]) -> list[LiveSeat]:
    opened = []
    for ws_url, match_id, cookie in seats:
        seat = LiveSeat(ws_url, match_id, cookie)
        await seat.__aenter__()
        opened.append(seat)
    return opened


async def play_across(match_id: str, movers: list[tuple[Player, httpx.Client]], sockets: list[LiveSeat],
                      moves: int = MOVES) -> list[int]:
    """Make ``moves`` moves, each posted through the next client in turn (so through every process
    or route), and wait until every socket has it; return the seqs made."""
    made: list[int] = []
    for n in range(moves):
        posted = False
        for k in range(len(movers)):  # the next client whose player has a decision posts it
            player, http = movers[(n + k) % len(movers)]
            view = http.get(f"/api/matches/{match_id}").json()
            if view["status"] != "active":
                return made
            if view["pending"]:
                decision = view["pending"][0]
                r = http.post(f"/api/matches/{match_id}/actions",
                              json={"seq": view["seq"], "decision": decision["decision"],
                                    "choice": decision["choices"][0]["id"]})
                assert r.status_code == 200, (player.name, r.text)
                made.append(int(r.json()["seq"]))
                posted = True
                break
        assert posted, "nobody could move"
        await asyncio.gather(*(s.wait_seq(made[-1], timeout=5) for s in sockets))
    return made


def every_socket_saw(sockets: list[LiveSeat], seqs: list[int]) -> None:
    for socket in sockets:
        seen = {seq for seq, _frame in socket.frames}
        assert set(seqs) <= seen, (socket.worker, sorted(seen), seqs)


# --------------------------------------------------------------------------- two processes, direct
@pytest.mark.asyncio
async def test_every_client_of_either_process_sees_every_move_made_on_either(two_processes):
    a, b = two_processes
    alice, bob = Player(a.url, "Alma"), Player(b.url, "Boris")  # signed up on different processes
    match_id = new_table(alice, options=LONG_GAME)
    assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    sockets = await open_seats([(srv.ws_url, match_id, cookie) for srv in (a, b)
                                for cookie in (alice.cookie, bob.cookie, None)])
    try:
        assert {s.worker for s in sockets} == {pid_of(a), pid_of(b)}
        alice_at, bob_at = Client(alice), Client(bob)
        movers = [(alice, alice_at.at(a.url)), (bob, bob_at.at(a.url)), (alice, alice_at.at(b.url)),
                  (bob, bob_at.at(b.url))]
        seqs = await play_across(match_id, movers, sockets)
        assert len(seqs) == MOVES
        every_socket_saw(sockets, seqs)
    finally:
        for s in sockets:
            await s.__aexit__()


# --------------------------------------------------------------------------- through the proxy
def nginx_binary() -> str | None:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if found is None and os.environ.get("WARROOM_REQUIRE_NGINX") == "1":  # CI installs it: never skip there
        pytest.fail("nginx is required (WARROOM_REQUIRE_NGINX=1): bash scripts/ensure_nginx.sh")
    return found


def rendered(servers: list[Server], port: int) -> str:
    """The template as the nginx image's envsubst renders it, with these processes as upstreams."""
    text = TEMPLATE.read_text()
    upstreams = " ".join(f"server 127.0.0.1:{srv.port};" for srv in servers)
    for name, value in (("WARROOM_UPSTREAM_SERVERS", upstreams), ("WARROOM_PROXY_PORT", f"127.0.0.1:{port}")):
        assert "${" + name + "}" in text
        text = text.replace("${" + name + "}", value)
    assert "${WARROOM_" not in text, "a template variable the test does not render"
    return text


@pytest.fixture(scope="module")
def proxy(two_processes: tuple[Server, Server]) -> Iterator[str]:
    binary = nginx_binary()
    if binary is None:
        pytest.skip("nginx is not installed (bash scripts/ensure_nginx.sh)")
    folder = Path(tempfile.mkdtemp(prefix="wr-nginx-"))
    port = free_port()
    (folder / "warroom.conf").write_text(rendered(list(two_processes), port))
    temp = " ".join(f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                          "scgi"))
    # the frame the nginx image puts around conf.d/*.conf, with every path in the test's folder
    (folder / "nginx.conf").write_text(
        f"daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        f"events {{ worker_connections 1024; }}\n"
        f"http {{ access_log {folder / 'access.log'}; {temp}\n include {folder / 'warroom.conf'};\n}}\n")
    checked = subprocess.run([binary, "-t", "-c", str(folder / "nginx.conf"), "-p", str(folder)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    process = subprocess.Popen([binary, "-c", str(folder / "nginx.conf"), "-p", str(folder)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/games", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    else:
        process.kill()
        raise AssertionError((folder / "error.log").read_text(errors="replace"))
    yield url
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(10)
    shutil.rmtree(folder, ignore_errors=True)


async def proxied_match(proxy_url: str, n: int) -> tuple[str, Player, Player, str]:
    """A table made through the proxy, and the process its sockets are routed to."""
    host, guest = Player(proxy_url, f"Hana{n}"), Player(proxy_url, f"Gosia{n}")
    match_id = new_table(host, options=LONG_GAME)
    assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
    assert host.post(f"/api/matches/{match_id}/start").status_code == 200
    ws_url = "ws" + proxy_url[4:]
    probe = (await open_seats([(ws_url, match_id, None)]))[0]
    await probe.__aexit__()
    assert probe.worker is not None
    return match_id, host, guest, probe.worker


@pytest.mark.asyncio
async def test_through_the_proxy_a_match_sticks_to_one_process_and_every_client_sees_every_move(
        two_processes, proxy):
    a, b = two_processes
    by_pid = {pid_of(a): a, pid_of(b): b}
    ws_proxy = "ws" + proxy[4:]
    # tables until one is routed to each process: the hash spreads matches over both
    routed: dict[str, tuple[str, Player, Player]] = {}
    for n in range(24):
        match_id, host, guest, pid = await proxied_match(proxy, n)
        routed.setdefault(pid, (match_id, host, guest))
        if len(routed) == 2:
            break
    assert set(routed) == set(by_pid), f"the proxy sent every match to one process: {routed}"
    for pid, (match_id, host, guest) in routed.items():
        other = b if by_pid[pid] is a else a
        # every client through the proxy (all on the match's process), plus one straight to the other process
        through = [(ws_proxy, match_id, cookie) for cookie in (host.cookie, guest.cookie, None, host.cookie)]
        sockets = await open_seats([*through, (other.ws_url, match_id, guest.cookie)])
        try:
            assert {s.worker for s in sockets[:-1]} == {pid}, "a match's sockets were split by the proxy"
            assert sockets[-1].worker == pid_of(other)
            movers = [(host, host.http), (guest, guest.http), (host, Client(host).at(other.url)),
                      (guest, Client(guest).at(other.url))]
            seqs = await play_across(match_id, movers, sockets)
            assert len(seqs) == MOVES
            every_socket_saw(sockets, seqs)
        finally:
            for s in sockets:
                await s.__aexit__()


def test_the_proxy_serves_pages_and_static_files_from_any_process(proxy: str) -> None:
    lobby = httpx.get(f"{proxy}/", headers={"Accept": "text/html"}, timeout=10)
    assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
    assert httpx.get(f"{proxy}/api/matches", timeout=10).status_code == 200
