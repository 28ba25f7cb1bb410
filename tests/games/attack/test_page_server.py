"""Attack! on a real server: the rules reference and the card list in both languages, and the table
page of a started match for each seat and a spectator, in English and Polish, with no catalogue
lookup falling back and no other seat's Economics card (id or name) in the HTML."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from app.games.attack.pack import pack
from app.i18n import MISSES_ENV
from tests.conftest import Player, Server

G = "attack"
CARD_ID = re.compile(r"\bec-\d{3}\b")


@pytest.fixture(scope="module")
def misses_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("attack-i18n") / "misses.tsv"


@pytest.fixture(scope="module")
def attack_server(database_url: str, misses_file: Path) -> Iterator[Server]:
    srv = Server(database_url, extra_env={MISSES_ENV: str(misses_file)}).start()
    yield srv
    srv.stop()


def get(server: Server, path: str, lang: str, player: Player | None = None) -> httpx.Response:
    headers = {"Accept-Language": lang}
    if player is not None:
        return player.http.get(path, headers=headers)
    with httpx.Client(base_url=server.url, timeout=10, headers=headers) as web:
        return web.get(path)


def test_the_rules_reference_has_its_sections_in_english_and_polish(attack_server: Server) -> None:
    anchors = {}
    for lang, words in (("en", ("Land battles", "Control of the seas", "sea lane", "most regions")),
                        ("pl", ("Bitwy lądowe", "Kontrola nad morzami", "szlak morski", "najwięcej regionów"))):
        r = get(attack_server, f"/games/{G}/rules", lang)
        assert r.status_code == 200 and f'<html lang="{lang}"' in r.text
        for w in words:
            assert w in r.text, (lang, w)
        anchors[lang] = re.findall(r'<section id="([\w-]+)">', r.text)
    assert anchors["en"] == anchors["pl"] and "naval-battles" in anchors["en"]


def test_the_card_list_names_every_economics_card_and_the_navy_cards(attack_server: Server) -> None:
    econ = pack().econ
    for lang in ("en", "pl"):
        r = get(attack_server, f"/games/{G}/cards", lang)
        assert r.status_code == 200
        listed = re.findall(r'<dt id="card-([\w-]+)">', r.text)
        assert sorted(k for k in listed if k.startswith("ec-")) == sorted(econ)
        assert {"navy-DD", "navy-SS", "navy-BB", "navy-CV"} <= set(listed)
    polish = get(attack_server, f"/games/{G}/cards", "pl").text
    some = next(c for c in econ.values() if c.name_pl != c.name)
    assert some.name_pl in polish and "lotniskowiec" in polish and "Karty Floty" in polish


def test_the_table_page_shows_each_seat_its_own_cards_only_in_both_languages(attack_server: Server,
                                                                             misses_file: Path) -> None:
    alice, bob = Player(attack_server.url, "Alice"), Player(attack_server.url, "Bob")
    try:
        r = alice.post("/api/matches", {"game": G, "players": 2, "mode": "live"})
        assert r.status_code == 200, r.text
        match_id = r.json()["match_id"]
        assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
        assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
        mine = {"Alice": set(alice.match(match_id)["view"]["hand"]), "Bob": set(bob.match(match_id)["view"]["hand"])}
        assert len(mine["Alice"]) == len(mine["Bob"]) == 4 and not mine["Alice"] & mine["Bob"]
        regions = len(pack().map.regions)
        for lang in ("en", "pl"):
            for who, player in (("Alice", alice), ("Bob", bob), ("spectator", None)):
                page = get(attack_server, f"/matches/{match_id}", lang, player)
                assert page.status_code == 200, (who, lang)
                assert 'class="at-map' in page.text and page.text.count('<g class="at-region ') == regions
                others = set().union(*(ids for name, ids in mine.items() if name != who))
                shown = set(CARD_ID.findall(page.text))
                assert not shown & others, f"{who} ({lang}) sees {sorted(shown & others)}"
                for c in others:
                    card = pack().econ[c]
                    assert card.name not in page.text and card.name_pl not in page.text, (who, lang, c)
                if who != "spectator":
                    assert mine[who] <= shown, f"{who} does not see their own hand"
            page = get(attack_server, f"/matches/{match_id}", lang, alice)
            assert ("Runda" if lang == "pl" else "Round") in page.text
        # a few claims, then the past boards: the history panel and the replay page draw the same map
        for _ in range(4):
            for player in (alice, bob):
                m = player.match(match_id)
                if m["pending"]:
                    d = m["pending"][0]
                    r = player.post(f"/api/matches/{match_id}/actions",
                                    {"seq": m["seq"], "decision": d["decision"], "choices": [d["choices"][0]["id"]]})
                    assert r.status_code == 200, r.text
        for lang in ("en", "pl"):
            for who, player in (("Alice", alice), ("Bob", bob)):
                others = set().union(*(ids for name, ids in mine.items() if name != who))
                for path in (f"/matches/{match_id}/history?seq=2", f"/matches/{match_id}/replay?seq=2"):
                    page = get(attack_server, path, lang, player)
                    assert page.status_code == 200 and 'class="at-map' in page.text, (who, path, page.status_code)
                    assert not set(CARD_ID.findall(page.text)) & others, (who, path)
    finally:
        alice.http.close()
        bob.http.close()
    rows = misses_file.read_text(encoding="utf-8").splitlines() if misses_file.exists() else []
    assert rows == [], rows[:10]
