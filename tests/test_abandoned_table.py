"""An abandoned table keeps its address: every page, socket and JSON endpoint of it answers
without a 500 (issue 9). The cause was that an abandoned table was treated as one that had
started: the page drew the game's board from the empty view of a match that never began (QMG's
board template needs a running game's context), the history and export walked a log that never
was, and the sockets loaded a state for it. ``app.models.started`` now says it once."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
import websockets

from tests.conftest import Player, Server, new_table

GAMES = ("qmg", "cardgame")


def abandoned(make_player: Any, game: str) -> tuple[Player, Player, str]:
    host, guest = make_player("Host"), make_player("Guest")
    match_id = new_table(host, 2, game=game)
    assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
    assert host.post(f"/api/matches/{match_id}/abandon").status_code == 200
    assert host.match(match_id)["status"] == "abandoned"
    return host, guest, match_id


def urls(match_id: str) -> list[str]:
    return [f"/matches/{match_id}", f"/matches/{match_id}/history", f"/matches/{match_id}/history?seq=0",
            f"/matches/{match_id}/history/closed", f"/api/matches/{match_id}", f"/api/matches/{match_id}/log",
            f"/api/matches/{match_id}/chat", f"/api/matches/{match_id}/at/0", f"/api/matches/{match_id}/at/1",
            f"/api/matches/{match_id}/export", "/", "/api/matches"]


@pytest.mark.parametrize("game", GAMES)
def test_every_url_of_an_abandoned_table_answers_without_a_server_error(server: Server, make_player: Any,
                                                                       game: str) -> None:
    host, guest, match_id = abandoned(make_player, game)
    with httpx.Client(base_url=server.url, timeout=10) as anonymous:
        for who, client in (("host", host.http), ("guest", guest.http), ("anonymous", anonymous)):
            for url in urls(match_id):
                r = client.get(url)
                assert r.status_code < 500, f"{who} GET {url}: {r.status_code}\n{r.text[:300]}"
            page = client.get(f"/matches/{match_id}")
            assert page.status_code == 200 and "status-abandoned" in page.text
            assert 'id="board" class="panel board hidden"' in page.text, "a table that never started has no board"
    assert "Traceback" not in server.log()


@pytest.mark.parametrize("game", GAMES)
def test_an_abandoned_table_has_no_history_nor_export_nor_state(server: Server, make_player: Any, game: str) -> None:
    host, _guest, match_id = abandoned(make_player, game)
    for url in (f"/api/matches/{match_id}/at/0", f"/api/matches/{match_id}/export"):
        r = host.get(url)
        assert r.status_code == 400 and "never started" in r.text, r.text
    message = host.match(match_id)
    assert message["view"] == {} and message["pending"] == [] and message["log"] == [], \
        "no hand is dealt at a table that never started"


async def first_frame(url: str, cookie: str | None) -> str:
    headers = {"Cookie": cookie} if cookie else {}
    async with websockets.connect(url, additional_headers=headers) as ws:
        return str(await asyncio.wait_for(ws.recv(), 10))


@pytest.mark.asyncio
@pytest.mark.parametrize("game", GAMES)
async def test_both_sockets_of_an_abandoned_table_send_its_panels(server: Server, make_player: Any,
                                                                  game: str) -> None:
    host, _guest, match_id = abandoned(make_player, game)
    for cookie in (host.cookie, None):
        panels = await first_frame(f"{server.ws_url}/matches/{match_id}/live", cookie)
        assert "status-abandoned" in panels
        message = await first_frame(f"{server.ws_url}/api/matches/{match_id}/ws", cookie)
        assert '"status":"abandoned"' in message and '"view":{}' in message
