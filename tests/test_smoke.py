from __future__ import annotations

from tests.conftest import new_table


def test_two_guests_play_a_move(make_player):
    alice, bob = make_player("Alice"), make_player("Bob")
    match_id = new_table(alice)
    assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
    r = alice.post(f"/api/matches/{match_id}/start")
    assert r.status_code == 200, r.text
    state = alice.match(match_id)
    assert state["status"] == "active"
    assert state["you"] == "p1"
    print(state)
