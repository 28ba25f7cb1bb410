"""Issue 9, start and end: a table's name, the host's choice of seat, the join offer of the
lobby, the labelled create form; the end-of-game summary of a bot game played to the end (names,
VP per round, cards played) in which a player who resigned is never among the winners."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx

from tests.conftest import Player, new_table


def csrf_of(player: Player) -> str:
    return str(player.get("/api/me").json()["csrf_token"])


def create(player: Player, **form: str) -> httpx.Response:
    return player.http.post("/tables", data={"csrf": csrf_of(player), "mode": "live", **form})


def test_a_table_is_named_after_its_host_unless_named_and_the_lobby_lists_it_by_name(server: Any,
                                                                                     make_player: Any) -> None:
    ada, ben = make_player("Ada"), make_player("Ben")
    plain = new_table(ada)
    r = create(ada, game="cardgame", players="3", name="  Friday   night  skirmish ")
    assert r.status_code == 303, r.text
    named = r.headers["location"].rsplit("/", 1)[1]
    tables = {m["match_id"]: m for m in ben.get("/api/matches").json()}
    assert tables[plain]["name"] == "Ada's game"
    assert tables[named]["name"] == "Friday night skirmish"
    lobby = ben.get("/").text
    assert "Friday night skirmish" in lobby and "Ada&#39;s game" in lobby
    assert f"Table {named}" not in lobby
    row = re.search(r"Friday night skirmish</a>\s*<span class=\"muted\">([^<]*)</span>", lobby)
    assert row and "Skirmish (test fixture) · 1/3 seated · Live" in row.group(1)

    polish = httpx.Client(base_url=server.url, timeout=10, headers={"Accept-Language": "pl"})
    try:
        polish.post("/api/guests", json={"name": "Ola"})
        token = polish.get("/api/me").json()["csrf_token"]
        r = polish.post("/tables", data={"csrf": token, "game": "cardgame", "players": "2", "name": ""})
        assert r.status_code == 303
        assert "Gra: Ola" in polish.get("/").text  # the default name in the host's language
        # the create form's suggestion ("Ada's game") sent as it was is no name of the table's own:
        # a Polish reader sees it in Polish
        r = create(ada, game="cardgame", players="2", name="Ada's game")
        suggested = r.headers["location"].rsplit("/", 1)[1]
        assert {m["match_id"]: m for m in ben.get("/api/matches").json()}[suggested]["name"] == "Ada's game"
        assert "Gra: Ada" in polish.get(f"/matches/{suggested}").text
    finally:
        polish.close()

    assert create(ada, game="cardgame", players="2", name="x" * 61).status_code == 303  # back with the reason
    assert "at most 60 characters" in ada.get("/").text
    r = ada.post("/api/matches", {"game": "cardgame", "players": 2, "name": "y" * 61})
    assert r.status_code == 422
    r = ada.post("/api/matches", {"game": "cardgame", "players": 2, "name": "bell\x07game"})
    assert r.status_code == 422 and "control characters" in r.text
    r = ada.post("/api/matches", {"game": "cardgame", "players": 2, "name": "two\tlines\nhere"})
    assert r.status_code == 200
    assert {m["name"] for m in ben.get("/api/matches").json()} >= {"two lines here"}


def test_the_host_chooses_a_seat_and_the_lobby_offers_each_free_seat(server: Any, make_player: Any) -> None:
    host, guest = make_player("Hal"), make_player("Gus")
    r = create(host, game="qmg", players="3", seat="3:p3")
    assert r.status_code == 303
    match_id = r.headers["location"].rsplit("/", 1)[1]
    assert host.match(match_id)["you"] == "p3"  # Japan and Italy, not Player 1

    lobby = guest.get("/").text
    offer = lobby[lobby.index(f'action="/matches/{match_id}/join"'):]
    seats = re.findall(r'name="seat" value="(p\d)"', offer[:3000])
    assert seats[:2] == ["p1", "p2"] and "p3" not in seats[:2]
    assert "Join as Player 1: Germany" in offer
    r = guest.http.post(f"/matches/{match_id}/join", data={"csrf": csrf_of(guest), "seat": "p2"})
    assert r.status_code == 303
    assert guest.match(match_id)["you"] == "p2"

    r = host.post("/api/matches", {"game": "qmg", "players": 2, "seat": "p2"})
    assert r.status_code == 200 and host.match(r.json()["match_id"])["you"] == "p2"
    r = create(host, game="qmg", players="2", seat="3:p3")  # a seat of another table size
    assert r.status_code == 303 and "/tables" not in r.headers["location"]
    assert "the seat you chose is for a table of 3, not of 2" in host.get("/").text
    r = host.post("/api/matches", {"game": "qmg", "players": 2, "seat": "p9"})
    assert r.status_code == 422 and "no seat 'p9'" in r.text


def test_the_create_form_labels_every_field(server: Any, make_player: Any) -> None:
    page = make_player("Lena").get("/").text
    form = page[page.index('data-game="qmg"'):]
    form = form[:form.index("</form>")]
    for field in ("name", "players", "seat", "clock-minutes", "clock-increment", "clock-days", "clock-per-move",
                  "clock-max"):
        ident = f"new-qmg-{field}"
        assert f'id="{ident}"' in form and f'for="{ident}"' in form, field
    for words in ("Table name", "Your seat", "Minutes per player", "Seconds added per move", "Days added per move",
                  "Play by web: move when you have time"):
        assert words in form, words
    assert '<optgroup label="3 players" data-players="3">' in form
    assert 'value="3:p3">Player 3: Japan, Italy<' in form
    assert '/static/lobby.js' in page and '/static/pages.css' in page


def wait_finished(player: Player, match_ids: list[str], seconds: float = 600) -> None:
    deadline = time.monotonic() + seconds
    left = set(match_ids)
    while left and time.monotonic() < deadline:
        left = {m for m in left if player.match(m)["status"] != "finished"}
        time.sleep(0.5)
    assert not left, f"bot games still running: {left}"


def test_a_bot_game_ends_with_a_summary_and_a_resigned_player_never_wins(server: Any, make_player: Any) -> None:
    # Three seats; the Axis player of Germany and the Allied player resign at once and bots play
    # the game out: whichever team wins, a resigned player sat on the winning side.
    axel, alma = make_player("Axel"), make_player("Alma")
    r = axel.post("/api/matches", {"game": "qmg", "players": 3, "seat": "p1", "name": "Resigners' cup"})
    match_id = r.json()["match_id"]
    assert alma.post(f"/api/matches/{match_id}/join", {"seat": "p2"}).status_code == 200
    assert axel.post(f"/api/matches/{match_id}/bots", {"seat": "p3"}).status_code == 200
    assert axel.post(f"/api/matches/{match_id}/start").status_code == 200
    for player in (axel, alma):
        assert player.post(f"/api/matches/{match_id}/resign").status_code == 200
    wait_finished(axel, [match_id])

    outcome = axel.match(match_id)["outcome"]
    axis_won = outcome["summary_msg"]["params"]["team"] == "axis"
    assert outcome["winners"] == (["p3"] if axis_won else [])
    assert outcome["resigned"] == (["p1"] if axis_won else ["p2"])
    export = axel.get(f"/api/matches/{match_id}/export").json()
    assert export["outcome"]["winners"] == outcome["winners"]

    table = axel.get(f"/matches/{match_id}").text
    assert f'hx-get="/matches/{match_id}/summary"' in table  # the summary loads in the status area
    summary = axel.http.get(f"/matches/{match_id}/summary", headers={"HX-Request": "true"}).text
    assert 'id="end-summary"' in summary and "<html" not in summary
    winners = re.search(r'id="end-winners">(.*?)</p>', summary, re.S).group(1)
    assert "Axel" not in winners and "Alma" not in winners
    if axis_won:
        assert "bot (rules)</strong> (Japan, Italy)" in winners
    else:
        assert "no player is credited with the win" in winners
    assert summary.count('class="badge resigned"') == 2
    rounds = re.findall(r"<th scope=\"col\" class=\"num\">(\d+)</th>", summary)
    assert rounds[:2] == ["1", "2"] and rounds[-1] == str(outcome["summary_msg"]["params"]["round"])
    vp = axel.match(match_id)["view"]["vp"]
    for side in ("axis", "allies"):
        row = re.search(rf'<tr data-side="{side}">(.*?)</tr>', summary, re.S).group(1)
        assert re.findall(r'<td class="num">(-?\d+)</td>', row)[-1] == str(vp[side])
    cells = r'<tr data-role="(\w+)"><td>[^<]+</td><td class="num">(-?\d+)</td><td class="num">(\d+)</td></tr>'
    rows = re.findall(cells, summary)
    assert [c for c, _, _ in rows] == ["germany", "uk", "japan", "ussr", "italy", "usa"]
    axis = sum(int(v) for c, v, _ in rows if c in ("germany", "japan", "italy"))
    assert (axis, sum(int(v) for _, v, _ in rows) - axis) == (vp["axis"], vp["allies"])  # every VP has its country
    played = {c: 0 for c, _, _ in rows}
    for line in axel.get(f"/api/matches/{match_id}/log").json():
        if (line["msg"] or {}).get("id", "").startswith("plays_"):
            played[line["msg"]["params"]["country"]] += 1
    assert {c: int(n) for c, _, n in rows} == played and sum(played.values()) > len(rounds)
    assert f'href="/matches/{match_id}/replay?seq=0"' in summary
    page = axel.get(f"/matches/{match_id}/summary").text  # without htmx: a page of its own
    assert "<html" in page and 'id="end-summary"' in page and "Resigners&#39; cup" in page


def test_the_summary_waits_for_the_end(server: Any, make_player: Any) -> None:
    ann, bo = make_player("Ann"), make_player("Bo")
    match_id = new_table(ann)
    assert 'id="end-summary"' not in ann.get(f"/matches/{match_id}").text
    r = ann.http.get(f"/matches/{match_id}/summary", headers={"HX-Request": "true"})
    assert r.status_code == 400 and "its summary comes when it is over" in r.text
    assert ann.get("/matches/nope/summary").status_code == 404
    bo.post(f"/api/matches/{match_id}/join")
    ann.post(f"/api/matches/{match_id}/start")
    assert ann.post(f"/api/matches/{match_id}/resign").status_code == 200  # two seats: the other one wins
    end = ann.get(f"/matches/{match_id}/summary").text
    winners = re.search(r'id="end-winners">(.*?)</p>', end, re.S).group(1)
    assert "Bo (guest)" in winners and "Ann" not in winners
    assert 'class="badge resigned"' in end
