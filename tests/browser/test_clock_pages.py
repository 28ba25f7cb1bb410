"""Clocks on the table page: a timed table made from the lobby form shows each seat's
bank; when one runs out, the other player skips it or hands it to a bot, and the
player reclaims the seat — all through page forms. Time moves by a fake-now file."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import Player, Server

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def server(timed_server: Server) -> Server:
    return timed_server


def csrf(p: Player, path: str = "/") -> str:
    match = re.search(r'name="csrf" value="([^"]+)"', p.get(path).text)
    assert match, "every page form carries the session's CSRF token"
    return match.group(1)


def form(p: Player, path: str, data: dict[str, str], token: str):
    return p.http.post(path, data={**data, "csrf": token}, follow_redirects=False)


def test_a_timed_table_from_the_lobby_runs_out_and_is_handled_by_forms(server, now_file):
    now_file.write_text(T0.isoformat())
    alice, bob = Player(server.url, "Alice"), Player(server.url, "Bob")
    token = csrf(alice)
    r = form(alice, "/tables", {"game": "cardgame", "players": "2", "opt_target": "100", "mode": "live",
                                "timed": "on", "clock_minutes": "5", "clock_increment": "10"}, token)
    assert r.status_code in (302, 303), r.text
    match_id = r.headers["location"].rsplit("/", 1)[-1]
    bob.post(f"/api/matches/{match_id}/join")
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    assert alice.match(match_id)["clocks"]["p1"]["remaining_ms"] == 5 * 60 * 1000
    assert "⏱ 5:00" in alice.get(f"/matches/{match_id}").text

    m = bob.match(match_id)  # both bid at once: Bob bids, Alice lets her clock run out
    bob.act(match_id, m["pending"][0]["decision"], "0", seq=m["seq"])
    now_file.write_text((T0 + timedelta(minutes=6)).isoformat())
    page = bob.get(f"/matches/{match_id}").text
    assert "out of time" in page and "/timeouts/skip" in page and "/timeouts/handover" in page
    assert "/timeouts/skip" not in alice.get(f"/matches/{match_id}").text, "no one skips themselves"

    seq = bob.match(match_id)["seq"]
    r = form(bob, f"/matches/{match_id}/timeouts/skip", {"seat": "p1"}, csrf(bob, f"/matches/{match_id}"))
    assert r.status_code in (302, 303)
    for _ in range(200):
        if bob.match(match_id)["seq"] > seq:
            break
    assert bob.match(match_id)["seq"] > seq, "a bot answered Alice's bid once"
    assert next(s for s in bob.match(match_id)["seats"] if s["seat"] == "p1")["bot"] is None

    r = form(bob, f"/matches/{match_id}/timeouts/handover", {"seat": "p1"}, csrf(bob, f"/matches/{match_id}"))
    assert r.status_code in (302, 303)
    assert next(s for s in alice.match(match_id)["seats"] if s["seat"] == "p1")["bot"] == "rules"
    page = alice.get(f"/matches/{match_id}").text
    assert "/reclaim" in page
    r = form(alice, f"/matches/{match_id}/reclaim", {}, csrf(alice, f"/matches/{match_id}"))
    assert r.status_code in (302, 303)
    assert next(s for s in alice.match(match_id)["seats"] if s["seat"] == "p1")["bot"] is None


def test_a_bad_clock_in_the_form_names_the_field(server, now_file):
    alice = Player(server.url, "Carla")
    token = csrf(alice)
    r = form(alice, "/tables", {"game": "cardgame", "players": "2", "mode": "live", "timed": "on",
                                "clock_minutes": "x", "clock_increment": "10"}, token)
    assert r.status_code in (302, 303)
    assert "clock.initial_seconds" in alice.get("/").text
