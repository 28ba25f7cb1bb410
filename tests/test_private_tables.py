"""Private tables and players-only chat (issue 7, item 10): a private table is listed only
to its host and seated players (everyone else needs the invite link), and a table whose
host did not let spectators chat keeps its chat from them on every channel."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
import websockets

from tests.conftest import Player, Server


def listed(client: Player | httpx.Client, match_id: str, mine: bool = False) -> bool:
    r = client.get("/api/matches?mine=1" if mine else "/api/matches")
    assert r.status_code == 200, r.text
    return match_id in {m["match_id"] for m in r.json()}


def create(host: Player, **extra: Any) -> str:
    r = host.post("/api/matches", {"game": "cardgame", "players": 2, **extra})
    assert r.status_code == 200, r.text
    return str(r.json()["match_id"])


def test_a_private_table_is_listed_only_to_its_players_and_joined_by_link(server: Server, make_player: Any) -> None:
    host, friend, stranger = make_player("Host"), make_player("Friend"), make_player("Stranger")
    hidden, public = create(host, private=True), create(host)
    with httpx.Client(base_url=server.url) as anonymous:
        assert not listed(anonymous, hidden) and listed(anonymous, public)
    for outsider in (stranger, friend):
        assert not listed(outsider, hidden) and listed(outsider, public)
        assert hidden not in outsider.get("/").text
    assert listed(host, hidden) and listed(host, hidden, mine=True)
    assert hidden in host.get("/").text
    # the invite link is the way in: the page, the match and a seat
    assert friend.get(f"/matches/{hidden}").status_code == 200
    assert friend.post(f"/api/matches/{hidden}/join").status_code == 200
    assert listed(friend, hidden) and listed(friend, hidden, mine=True)
    assert hidden in friend.get("/").text
    assert host.post(f"/api/matches/{hidden}/start").status_code == 200
    assert not listed(stranger, hidden)  # running, still unlisted to others
    assert hidden not in stranger.get("/").text
    assert stranger.get(f"/api/matches/{hidden}").status_code == 200  # a spectator with the link


def test_the_lobby_form_makes_a_private_table(server: Server, make_player: Any) -> None:
    host, stranger = make_player("FormHost"), make_player("Passerby")
    token = host.get("/api/me").json()["csrf_token"]
    form = {"csrf": token, "game": "cardgame", "players": "2", "mode": "live"}
    r = host.http.post("/tables", data={**form, "private": "on"})
    assert r.status_code == 303, r.text
    hidden = r.headers["location"].rsplit("/", 1)[1]
    shown = host.http.post("/tables", data=form).headers["location"].rsplit("/", 1)[1]
    assert 'name="private"' in host.get("/").text
    assert not listed(stranger, hidden) and listed(stranger, shown)
    assert listed(host, hidden)


def chatty_table(make_player: Any, spectator_chat: bool) -> tuple[Player, Player, Player, str]:
    host, guest, watcher = make_player("Talk"), make_player("Back"), make_player("Watch")
    match_id = create(host, spectator_chat=spectator_chat)
    assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
    assert host.post(f"/api/matches/{match_id}/start").status_code == 200
    assert host.post(f"/api/matches/{match_id}/chat", {"text": "our secret plan"}).status_code == 200
    return host, guest, watcher, match_id


def test_players_only_chat_is_unreadable_to_spectators(server: Server, make_player: Any) -> None:
    host, guest, watcher, match_id = chatty_table(make_player, spectator_chat=False)
    for player in (host, guest):
        r = player.get(f"/api/matches/{match_id}/chat")
        assert r.status_code == 200 and [m["text"] for m in r.json()] == ["our secret plan"]
        assert "our secret plan" in player.get(f"/matches/{match_id}").text
    with httpx.Client(base_url=server.url) as anonymous:
        for reader in (watcher, anonymous):
            r = reader.get(f"/api/matches/{match_id}/chat")
            assert r.status_code == 403, r.text
            assert "only the players chat at this table" in r.json()["error"]
            page = reader.get(f"/matches/{match_id}").text
            assert "our secret plan" not in page and "Only the players chat" in page
    # a refused post from the page does not answer with the lines either
    token = watcher.get("/api/me").json()["csrf_token"]
    r = watcher.http.post(f"/matches/{match_id}/chat", data={"text": "let me in"},
                          headers={"HX-Request": "true", "X-CSRF-Token": token})
    assert r.status_code == 403 and "our secret plan" not in r.text


def test_spectators_read_the_chat_where_the_host_allows(server: Server, make_player: Any) -> None:
    _host, _guest, watcher, match_id = chatty_table(make_player, spectator_chat=True)
    r = watcher.get(f"/api/matches/{match_id}/chat")
    assert r.status_code == 200 and [m["text"] for m in r.json()] == ["our secret plan"]
    assert "our secret plan" in watcher.get(f"/matches/{match_id}").text


async def first_panels(server: Server, match_id: str, cookie: str) -> str:
    async with websockets.connect(f"{server.ws_url}/matches/{match_id}/live",
                                  additional_headers={"Cookie": cookie}) as ws:
        return str(await asyncio.wait_for(ws.recv(), 10))


@pytest.mark.asyncio
async def test_the_page_socket_keeps_players_only_chat_from_spectators(server: Server, make_player: Any) -> None:
    host, _guest, watcher, match_id = chatty_table(make_player, spectator_chat=False)
    assert "our secret plan" in await first_panels(server, match_id, host.cookie)
    spectator_panels = await first_panels(server, match_id, watcher.cookie)
    assert 'id="chat-lines"' in spectator_panels and "our secret plan" not in spectator_panels
