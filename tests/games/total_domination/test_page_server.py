"""Total Domination on a real server: the rules reference and the card list in both languages, and
the table page of a started match for each seat and a spectator, in English and Polish, with no
catalogue lookup falling back and no other seat's hidden card in the HTML."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.games.total_domination import pack as td_pack
from app.i18n import MISSES_ENV
from tests.conftest import Player, Server

G = "total_domination"
CARD_ID = re.compile(r"\btd-\d\d\b")


@pytest.fixture(scope="module")
def misses_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("td-i18n") / "misses.tsv"


@pytest.fixture(scope="module")
def td_server(database_url: str, misses_file: Path) -> Iterator[Server]:
    srv = Server(database_url, extra_env={MISSES_ENV: str(misses_file)}).start()
    yield srv
    srv.stop()


def get(server: Server, path: str, lang: str, player: Player | None = None) -> httpx.Response:
    headers = {"Accept-Language": lang}
    if player is not None:
        return player.http.get(path, headers=headers)
    with httpx.Client(base_url=server.url, timeout=10, headers=headers) as web:
        return web.get(path)


def test_the_rules_reference_has_its_sections_in_english_and_polish(td_server: Server) -> None:
    anchors = {}
    for lang, words in (("en", ("Action Phase", "Operation Points", "sea lane", "the Axis wins")),
                        ("pl", ("Faza Akcji", "Punkty Operacyjne", "szlak morski", "wygrywa Oś"))):
        r = get(td_server, f"/games/{G}/rules", lang)
        assert r.status_code == 200 and f'<html lang="{lang}"' in r.text
        for w in words:
            assert w in r.text, (lang, w)
        anchors[lang] = re.findall(r'<section id="([\w-]+)">', r.text)
        assert f'href="/games/{G}/cards"' in r.text
    assert anchors["en"] == anchors["pl"] and "usa-china" in anchors["en"]


def test_the_card_list_names_every_card_of_the_pack_in_both_languages(td_server: Server) -> None:
    cards = td_pack.pack().cards
    for lang in ("en", "pl"):
        r = get(td_server, f"/games/{G}/cards", lang)
        assert r.status_code == 200
        listed = re.findall(r'<dt id="card-([\w-]+)">', r.text)
        assert sorted(listed) == sorted(cards) and len(listed) == 60
    polish = get(td_server, f"/games/{G}/cards", "pl").text
    some = next(c for c in cards.values() if c.name_pl != c.name)
    assert some.name_pl in polish and "Talia USA" in polish and "PO" in polish


def hand_ids(player: Player, match_id: str) -> set[str]:
    """The cards only this player may see: its hands, and in the draft its packets and picks."""
    view = player.match(match_id)["view"]
    draft = view.get("draft") or {}
    held = [*(view.get("hands") or {}).values(), *(draft.get("packets") or {}).values(),
            *(draft.get("picks") or {}).values()]
    return {c for cards in held for c in cards}


def test_the_table_page_shows_each_seat_its_own_cards_only_in_both_languages(td_server: Server,
                                                                             misses_file: Path) -> None:
    alice, bob = Player(td_server.url, "Alice"), Player(td_server.url, "Bob")
    try:
        r = alice.post("/api/matches", {"game": G, "players": 2, "mode": "live"})
        assert r.status_code == 200, r.text
        match_id = r.json()["match_id"]
        assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
        assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
        mine = {"Alice": hand_ids(alice, match_id), "Bob": hand_ids(bob, match_id)}
        assert mine["Alice"] and mine["Bob"] and not mine["Alice"] & mine["Bob"]
        for lang in ("en", "pl"):
            for who, player in (("Alice", alice), ("Bob", bob), ("spectator", None)):
                page = get(td_server, f"/matches/{match_id}", lang, player)
                assert page.status_code == 200, (who, lang)
                assert 'class="td-map' in page.text and page.text.count('class="td-space ') == 49
                shown = set(CARD_ID.findall(page.text))
                others = set().union(*(ids for name, ids in mine.items() if name != who))
                assert not shown & others, f"{who} ({lang}) sees {sorted(shown & others)}"
                if who != "spectator":
                    assert mine[who] <= shown, f"{who} does not see their own hand"
                    for c in mine[who]:  # each card as printed, its event in the page's language
                        card = td_pack.card(c)
                        assert html.escape(card.text_pl if lang == "pl" else card.text, quote=True) in page.text
            assert ("Faza" if lang == "pl" else "Phase") in get(td_server, f"/matches/{match_id}", lang, alice).text
        # a pick each, then the past boards: the history panel and the replay page draw the same board
        for player in (alice, bob):
            if not player.match(match_id)["pending"]:
                continue
            d = player.match(match_id)["pending"][0]
            picks = [c["id"] for c in d["choices"]][:d["min"]]
            r = player.post(f"/api/matches/{match_id}/actions",
                            {"seq": player.match(match_id)["seq"], "decision": d["decision"], "choices": picks})
            assert r.status_code == 200, r.text
        for lang in ("en", "pl"):
            for who, player in (("Alice", alice), ("Bob", bob)):
                others = set().union(*(ids for name, ids in mine.items() if name != who))
                for path in (f"/matches/{match_id}/history?seq=1", f"/matches/{match_id}/replay?seq=1"):
                    page = get(td_server, path, lang, player)
                    assert page.status_code == 200 and 'class="td-map' in page.text, (who, path, page.status_code)
                    assert not set(CARD_ID.findall(page.text)) & others, (who, path)
    finally:
        alice.http.close()
        bob.http.close()
    rows = misses_file.read_text(encoding="utf-8").splitlines() if misses_file.exists() else []
    assert rows == [], rows[:10]


def test_a_finished_match_shows_each_years_totals_and_each_powers_vp(td_server: Server) -> None:
    from tests.test_table_start_end import wait_finished

    axel, alma = Player(td_server.url, "Axel"), Player(td_server.url, "Alma")
    try:
        match_id = axel.post("/api/matches", {"game": G, "players": 4, "seat": "p1"}).json()["match_id"]
        assert alma.post(f"/api/matches/{match_id}/join", {"seat": "p2"}).status_code == 200
        for seat in ("p3", "p4"):
            assert axel.post(f"/api/matches/{match_id}/bots", {"seat": seat}).status_code == 200
        assert axel.post(f"/api/matches/{match_id}/start").status_code == 200
        for player in (axel, alma):  # Germany and the UK resign: the bots play the game out
            assert player.post(f"/api/matches/{match_id}/resign").status_code == 200
        wait_finished(axel, [match_id], seconds=120)
        for lang, side in (("en", "Axis"), ("pl", "Oś")):
            page = axel.http.get(f"/matches/{match_id}/summary",
                                 headers={"HX-Request": "true", "Accept-Language": lang})
            assert page.status_code == 200 and 'id="end-summary"' in page.text
            years = re.findall(r'<th scope="col" class="num">(\d+)</th>', page.text)
            assert years[0] == "1939" and years == [str(y) for y in range(1939, int(years[-1]) + 1)]
            assert re.findall(r'<tr data-role="(\w+)">', page.text) == ["germany", "uk", "japan", "ussr"]
            assert side in page.text
    finally:
        axel.http.close()
        alma.http.close()
