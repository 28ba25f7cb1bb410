"""Auto-pass (issue 9, flow): the server answers a seat's reaction window with its pass, as that
seat's own logged answer, by the seat's setting: never ask unless a usable card is held (the
default), always ask, or pass everything until the end of this round.

Played with Skirmish where blocks follow suit (tests/fixtures/cardgame_autopass.py), so windows
with nothing but "decline" come often; QMG's own auto-pass is tests/games/qmg/test_qmg_flow.py."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.test_pages import csrf_of
from tests.conftest import FIXTURE_GAMES, Player, Server, new_table
from tests.fixtures.cardgame import card_value

GAME = "skirmish_autopass"


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[Server]:
    srv = Server(database_url,
                 extra_env={"WARROOM_EXTRA_GAMES": f"{FIXTURE_GAMES},tests.fixtures.cardgame_autopass:GAME"}).start()
    yield srv
    srv.stop()


def table(make_player: Any) -> tuple[Player, Player, str]:
    alice, bob = make_player("Alice"), make_player("Bob")
    match_id = new_table(alice, 2, options={"target": "100"}, game=GAME)
    assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    return alice, bob, match_id


def required(m: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in m["pending"] if not d["optional"]]


def idle_window(d: dict[str, Any]) -> bool:
    return d["kind"] == "react" and [c["id"] for c in d["choices"]] == ["decline"]


def answer(d: dict[str, Any]) -> str:
    """Play the highest card (so that reactions come), keep, bid 0, decline a block."""
    ids = [c["id"] for c in d["choices"]]
    if d["kind"] == "play":
        cards = [c for c in ids if c != "pass"]
        return max(cards, key=card_value) if cards else "pass"
    if d["kind"] == "react":
        return "decline"
    return {"bid": "0", "roll": "roll", "order": "keep"}.get(d["kind"], ids[0])


def wait_gone(player: Player, match_id: str, decision: str, timeout: float = 10) -> dict[str, Any]:
    """The window is answered for the seat without it doing anything (the bot driver's pass)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = player.match(match_id)
        if all(d["decision"] != decision for d in m["pending"]):
            return m
        time.sleep(0.02)
    raise AssertionError(f"{decision} was never passed for {player.name}")


def play(players: list[Player], match_id: str, stop: Any = None, on_window: Any = None,
         limit: int = 2000) -> dict[str, Any]:
    """Answer every decision put to ``players`` until the match is over or ``stop(player, m, d)``
    says so; ``on_window(player, m, d)`` handles a reaction window (default: wait for the pass
    of an idle one, decline one with a usable card)."""
    m: dict[str, Any] = {}
    for _ in range(limit):
        moved = False
        for p in players:
            m = p.match(match_id)
            if m["status"] != "active":
                return m
            for d in required(m):
                if stop is not None and stop(p, m, d):
                    return m
                if d["kind"] == "react" and on_window is not None and on_window(p, m, d):
                    moved = True
                    break
                if idle_window(d):
                    wait_gone(p, match_id, d["decision"])
                else:
                    r = p.act(match_id, d["decision"], answer(d), seq=m["seq"])
                    assert r.status_code in (200, 409), r.text  # 409: the other seat moved first
                moved = True
                break
        if not moved:
            time.sleep(0.02)
    raise AssertionError("the match did not finish")


def auto_rows(player: Player, match_id: str) -> list[dict[str, Any]]:
    """The log rows the server answered for ``player``'s seat (the export shows one's own)."""
    export = player.get(f"/api/matches/{match_id}/export").json()
    you = player.match(match_id)["you"]
    return [a for a in export["actions"] if a["seat"] == you and (a["payload"] or {}).get("auto")]


def set_mode(player: Player, match_id: str, mode: str) -> dict[str, Any]:
    r = player.post(f"/api/matches/{match_id}/autopass", {"mode": mode})
    assert r.status_code == 200, r.text
    return r.json()


def test_by_default_an_idle_window_is_passed_at_once_and_a_usable_card_is_asked(server: Server,
                                                                              make_player: Any) -> None:
    alice, bob, match_id = table(make_player)
    assert alice.match(match_id)["autopass"] == "idle" == bob.match(match_id)["autopass"]
    asked: list[dict[str, Any]] = []

    def on_window(p: Player, m: dict[str, Any], d: dict[str, Any]) -> bool:
        # an idle one may still be seen before its pass lands: play() waits for the pass
        if not idle_window(d):
            asked.append(d)
        return False

    final = play([alice, bob], match_id, on_window=on_window)
    assert final["status"] == "finished"
    passed = auto_rows(alice, match_id) + auto_rows(bob, match_id)
    assert passed, "no window was passed for a seat"
    assert all(a["payload"]["choices"] == ["decline"] and a["payload"]["decision"].startswith("react:")
               for a in passed)
    assert asked and all("block" in [c["id"] for c in d["choices"]] for d in asked), \
        "a seat holding a usable card is asked"

    # the passes replay exactly: the finished match's export verifies, state hash by state hash
    export = alice.get(f"/api/matches/{match_id}/export").json()
    assert sum(1 for a in export["actions"] if a["payload"].get("auto")) == len(passed)
    r = alice.post("/api/replays/verify", export)
    assert r.status_code == 200 and r.json()["ok"] is True, r.text


def test_always_ask_keeps_an_idle_window_for_the_seat(server: Server, make_player: Any) -> None:
    alice, bob, match_id = table(make_player)
    for p in (alice, bob):
        assert set_mode(p, match_id, "ask")["autopass"] == "ask"
    answered: list[dict[str, Any]] = []

    def on_window(p: Player, m: dict[str, Any], d: dict[str, Any]) -> bool:
        if idle_window(d):
            # still there for the seat to answer itself: nothing passed it
            r = p.act(match_id, d["decision"], "decline", seq=m["seq"])
            assert r.status_code == 200, r.text
            answered.append(d)
            return True
        return False

    play([alice, bob], match_id, stop=lambda p, m, d: len(answered) >= 2, on_window=on_window)
    assert len(answered) >= 2
    assert auto_rows(alice, match_id) == [] and auto_rows(bob, match_id) == []


def test_pass_this_round_passes_even_a_usable_card_until_the_round_changes(server: Server,
                                                                          make_player: Any) -> None:
    alice, bob, match_id = table(make_player)
    held: dict[str, Any] = {}

    def usable_window(p: Player, m: dict[str, Any], d: dict[str, Any]) -> bool:
        if d["kind"] == "react" and not idle_window(d):
            held.update(player=p, m=m, d=d)
            return True
        return False

    m = play([alice, bob], match_id, stop=usable_window)
    assert held, "no window with a usable card came"
    reactor: Player = held["player"]
    window, round_now = held["d"], held["m"]["view"]["round"]

    # through the page's form (htmx), as a player sets it at the table
    r = reactor.http.post(f"/matches/{match_id}/autopass", data={"csrf": csrf_of(reactor), "mode": "round"},
                          headers={"HX-Request": "true"})
    assert r.status_code == 200 and 'id="autopass-mode"' in r.text, r.text
    m = wait_gone(reactor, match_id, window["decision"])
    assert m["autopass"] == ("round" if m["view"]["round"] == round_now else "idle"), \
        "the setting holds for the round it was chosen in, and lapses into the default after it"
    passed = auto_rows(reactor, match_id)
    assert [a["payload"]["decision"] for a in passed] == [window["decision"]], \
        "the window with a usable card was passed for the seat"

    # every window of the seat in that round passes; once the round changes, the default is back
    def next_round(p: Player, m: dict[str, Any], d: dict[str, Any]) -> bool:
        if m["view"]["round"] == round_now and p is reactor:
            assert d["kind"] != "react", "a window came to the seat in the round it passes"
        return bool(m["view"]["round"] > round_now)

    m = play([alice, bob], match_id, stop=next_round)
    assert m["status"] != "active" or reactor.match(match_id)["autopass"] == "idle"


def test_the_setting_refuses_bad_input_and_spectators(server: Server, make_player: Any) -> None:
    alice, _bob, match_id = table(make_player)
    r = alice.post(f"/api/matches/{match_id}/autopass", {"mode": "sometimes"})
    assert r.status_code == 422
    r = alice.post(f"/api/matches/{match_id}/autopass", {"mode": "ask", "extra": 1})
    assert r.status_code == 422
    watcher = make_player("Watcher")
    assert watcher.post(f"/api/matches/{match_id}/autopass", {"mode": "ask"}).status_code == 403
    assert watcher.match(match_id)["autopass"] is None
    r = watcher.http.post(f"/matches/{match_id}/autopass", data={"csrf": csrf_of(watcher), "mode": "x"},
                          headers={"HX-Request": "true"})
    assert 400 <= r.status_code < 500
    # a game without reactions to pass has no setting
    host, guest = make_player("Host"), make_player("Guest")
    plain = new_table(host, 2)
    assert guest.post(f"/api/matches/{plain}/join").status_code == 200
    assert host.post(f"/api/matches/{plain}/start").status_code == 200
    assert host.match(plain)["autopass"] is None
    assert host.post(f"/api/matches/{plain}/autopass", {"mode": "ask"}).status_code == 400
