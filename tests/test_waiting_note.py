"""What the table waits for (issue 9, flow): the game's note in the JSON message and on the page,
in English and Polish, the same public sentence for players and spectators."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import Server, new_table


def test_the_waiting_note_is_in_the_message_and_on_the_page_in_both_languages(server: Server,
                                                                              make_player: Any) -> None:
    host = make_player("Hana")
    match_id = new_table(host, 2, game="qmg")
    assert host.post(f"/api/matches/{match_id}/bots", {"seat": "p2"}).status_code == 200
    assert host.match(match_id)["waiting_note"] is None, "nothing is awaited before the start"
    assert host.post(f"/api/matches/{match_id}/start").status_code == 200

    note = {"id": "wait_setup_discard", "params": {"country": "germany"}}
    assert host.match(match_id)["waiting_note"] == note
    with httpx.Client(base_url=server.url, timeout=10) as spectator:
        assert spectator.get(f"/api/matches/{match_id}").json()["waiting_note"] == note
        page = spectator.get(f"/matches/{match_id}", headers={"Accept-Language": "en"}).text
        assert '<span class="waiting-note" id="waiting-note">Germany discards for setup</span>' in page
        page = spectator.get(f"/matches/{match_id}", headers={"Accept-Language": "pl"}).text
        assert "Niemcy odrzucają karty na start gry" in page and "Germany discards" not in page
    page = host.get(f"/matches/{match_id}").text
    # one's own move: the prompt bar asks the question itself, no note about waiting on oneself
    assert 'data-my-turn="1"' in page and 'id="waiting-note"' not in page


def test_a_game_without_notes_shows_none(server: Server, make_player: Any) -> None:
    host, guest = make_player("Hana"), make_player("Gosia")
    match_id = new_table(host, 2)
    assert guest.post(f"/api/matches/{match_id}/join").status_code == 200
    assert host.post(f"/api/matches/{match_id}/start").status_code == 200
    assert host.match(match_id)["waiting_note"] is None
    assert 'id="waiting-note"' not in host.get(f"/matches/{match_id}").text
