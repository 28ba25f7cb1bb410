"""Whole numbers typed into page forms and queries are parsed like the JSON API's (Pydantic):
"²", "٣" (which ``str.isdigit`` passes) and a 5,000-digit number are a 422 naming the field,
never a 500 and never misread."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import Player, new_table

NOT_NUMBERS = ["²", "٣", "9" * 5000, "-1", "1e3", ""]
HX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def table(server: Any) -> tuple[Player, str]:
    host, guest = Player(server.url, "Dora"), Player(server.url, "Dina")
    match_id = new_table(host)
    assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
    assert host.post(f"/api/matches/{match_id}/start").status_code == 200
    return host, match_id


def token(player: Player) -> str:
    return str(player.get("/api/me").json()["csrf_token"])


def flash_after(player: Player, r: httpx.Response) -> str:
    """A plain form post answers with a redirect; the error is flashed on the next page."""
    assert r.status_code == 303, r.text
    return player.get(r.headers["location"]).text


@pytest.mark.parametrize("seq", [s for s in NOT_NUMBERS if s])
def test_history_seq_must_be_a_whole_number(table, server, seq):
    _host, match_id = table
    with httpx.Client(base_url=server.url) as anonymous:
        r = anonymous.get(f"/matches/{match_id}/history", params={"seq": seq})
    assert r.status_code == 422, r.text
    assert "seq: must be a whole number" in r.text


@pytest.mark.parametrize("path", ["answer", "undo"])
@pytest.mark.parametrize("seq", NOT_NUMBERS)
def test_answer_and_undo_seq_must_be_a_whole_number(table, path, seq):
    host, match_id = table
    form = {"csrf": token(host), "seq": seq, "decision": "bid:p1", "choice": "1"}
    r = host.http.post(f"/matches/{match_id}/{path}", data=form, headers=HX)
    assert r.status_code == 422, r.text
    assert "seq:" in r.text
    assert host.match(match_id)["seq"] == 0, "nothing was applied"


@pytest.mark.parametrize("players", ["²", "٣", "9" * 5000])
def test_new_table_players_must_be_a_whole_number(table, players):
    host, _match_id = table
    before = len(host.get("/api/matches?mine=1").json())
    r = host.http.post("/tables", data={"csrf": token(host), "game": "cardgame", "players": players})
    assert "players: must be a whole number" in flash_after(host, r)
    assert len(host.get("/api/matches?mine=1").json()) == before


@pytest.mark.parametrize("minutes", ["²", "٣", "9" * 5000])
def test_new_table_clock_minutes_must_be_a_whole_number(table, minutes):
    host, _match_id = table
    before = len(host.get("/api/matches?mine=1").json())
    form = {"csrf": token(host), "game": "cardgame", "players": "2", "mode": "live", "timed": "on",
            "clock_minutes": minutes, "clock_increment": "10"}
    r = host.http.post("/tables", data=form)
    assert "clock.initial_seconds: must be a whole number" in flash_after(host, r)
    assert len(host.get("/api/matches?mine=1").json()) == before


@pytest.mark.parametrize("hours", ["²", "٣", "9" * 5000])
def test_digest_hours_must_be_a_whole_number(table, hours):
    host, _match_id = table
    r = host.http.post("/settings/notifications", data={"csrf": token(host), "digest_hours": hours})
    assert "digest_hours: must be a whole number" in flash_after(host, r)
    assert host.get("/api/me/notifications").json()["digest_hours"] is None, "'٣' is not read as 3"
