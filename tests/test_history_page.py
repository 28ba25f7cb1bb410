"""Issue 9, history: the past board full size on a page of its own (/matches/<id>/replay), a
scrubber by round, by turn and by step with the log line of each step, another seat's hand
labelled as theirs, and today's access rules (players while it runs, everyone once over)."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest

from tests.conftest import Player


@pytest.fixture(scope="module")
def finished(server: Any) -> tuple[Player, Player, str]:
    """A three-seat QMG game whose two human players resign at once: bots play it to the end."""
    axel, alma = Player(server.url, "Axel"), Player(server.url, "Alma")
    match_id = axel.post("/api/matches", {"game": "qmg", "players": 3, "seat": "p1"}).json()["match_id"]
    alma.post(f"/api/matches/{match_id}/join", {"seat": "p2"})
    axel.post(f"/api/matches/{match_id}/bots", {"seat": "p3"})
    axel.post(f"/api/matches/{match_id}/start")
    for player in (axel, alma):
        assert player.post(f"/api/matches/{match_id}/resign").status_code == 200
    deadline = time.monotonic() + 600
    while axel.match(match_id)["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.5)
    return axel, alma, match_id


def test_the_scrubber_jumps_to_a_round_and_shows_the_step_line(finished: tuple[Player, Player, str]) -> None:
    axel, _alma, match_id = finished
    last = axel.match(match_id)["seq"]
    page = axel.get(f"/matches/{match_id}/replay").text
    assert f'data-seq="{last}"' in page and 'id="replay-board"' in page and "<svg" in page
    rounds = dict(re.findall(r'<a href="/matches/[\w-]+/replay\?seq=(\d+)[^"]*" data-round="(\d+)"', page))
    by_round = {int(r): int(seq) for seq, r in rounds.items()}
    assert sorted(by_round)[:3] == [1, 2, 3]
    at = by_round[3]
    page = axel.get(f"/matches/{match_id}/replay?seq={at}").text
    step = re.search(r'id="replay-step"[^>]*>(.*?)</p>', page, re.S).group(1)
    assert "Round 3: Germany" in step
    assert re.search(r'data-round="3" aria-current="step"', page)
    assert f'<option value="{at}" selected>Round 3: Germany' in page  # the turn list knows where we are
    assert f'href="/matches/{match_id}/replay?seq={at + 1}' in page and f'replay?seq={at - 1}' in page
    polish = axel.http.get(f"/matches/{match_id}/replay?seq={at}", headers={"Accept-Language": "pl"})
    assert "Runda" in polish.text


def test_another_seats_hand_is_labelled_as_theirs(finished: tuple[Player, Player, str]) -> None:
    axel, alma, match_id = finished
    seq = by_turn_start(axel, match_id)
    own = axel.get(f"/matches/{match_id}/replay?seq={seq}").text
    theirs = axel.get(f"/matches/{match_id}/replay?seq={seq}&seat=p2").text
    assert "your hand" in own and "Alma (guest)&#39;s hand" not in own
    assert "your hand" not in theirs and "Alma (guest)&#39;s hand" in theirs
    alma_hand = alma.get(f"/api/matches/{match_id}/at/{seq}").json()["view"]["hand"]
    assert alma_hand and all(card["id"] in theirs for card in alma_hand)
    panel = axel.get(f"/matches/{match_id}/history?seq={seq}&seat=p2").text  # the side panel says it too
    assert "Alma (guest)&#39;s hand" in panel and f'href="/matches/{match_id}/replay?seq={seq}&amp;seat=p2"' in panel


def by_turn_start(player: Player, match_id: str) -> int:
    page = player.get(f"/matches/{match_id}/replay").text
    return int(re.findall(r'replay\?seq=(\d+)[^"]*" data-round="2"', page)[0])


def test_who_may_look_back_is_the_tables_rule(server: Any, finished: tuple[Player, Player, str]) -> None:
    axel, _alma, done = finished
    with httpx.Client(base_url=server.url, timeout=10) as guest:
        assert guest.get(f"/matches/{done}/replay?seq=5").status_code == 200  # over: everyone may look
        r = guest.get(f"/matches/{done}/replay?seq=5&seat=p1")
        assert r.status_code == 403 and "only the match&#39;s players" in r.text

    ida, ivo = Player(server.url, "Ida"), Player(server.url, "Ivo")
    running = ida.post("/api/matches", {"game": "qmg", "players": 2}).json()["match_id"]
    ivo.post(f"/api/matches/{running}/join")
    ida.post(f"/api/matches/{running}/start")
    with httpx.Client(base_url=server.url, timeout=10) as guest:
        r = guest.get(f"/matches/{running}/replay")
        assert r.status_code == 403 and "Only the match&#39;s players" in r.text
    mine = ida.get(f"/matches/{running}/replay").text
    ivo_hand = ivo.match(running)["view"]["hand"]
    assert ivo_hand and not [c["id"] for c in ivo_hand if f'data-card="{c["id"]}"' in mine]
    assert ida.get(f"/matches/{running}/replay?seat=p2").status_code == 403
    assert ida.get(f"/matches/{running}/replay?seq=abc").status_code == 422
    assert ida.get(f"/matches/{running}/replay?seq=99999").status_code == 404
    assert ida.get("/matches/nope/replay").status_code == 404
    open_table = ida.post("/api/matches", {"game": "qmg", "players": 2}).json()["match_id"]
    r = ida.get(f"/matches/{open_table}/replay")
    assert r.status_code == 400 and "never started" in r.text
