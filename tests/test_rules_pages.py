"""Issue 9, rules at hand: each game's rules reference and card list, in English and Polish,
with anchors the table links to (GamePackage.rules)."""

from __future__ import annotations

import re
from typing import Any

import httpx

from app.api.templating import cards_url, rules_url
from app.games.qmg import GAME as QMG
from app.games.qmg.data import card_pack
from app.games.qmg.data import catalogue as copies
from tests.conftest import new_table


def get(server: Any, path: str, lang: str) -> httpx.Response:
    with httpx.Client(base_url=server.url, timeout=10, headers={"Accept-Language": lang}) as web:
        return web.get(path)


def test_the_qmg_rules_reference_has_its_sections_in_english_and_polish(server: Any) -> None:
    anchors = {}
    for lang, words in (("en", ("Supply", "Dominance phase", "Straits", "a tie goes to the Axis")),
                        ("pl", ("Zaopatrzenie", "Faza dominacji", "Cieśniny", "remis wygrywa Oś"))):
        r = get(server, "/games/qmg/rules", lang)
        assert r.status_code == 200 and f'<html lang="{lang}"' in r.text
        for w in words:
            assert w in r.text, (lang, w)
        anchors[lang] = re.findall(r'<section id="([\w-]+)">', r.text)
        nav = r.text[r.text.index('<nav class="toc"'):r.text.index("</nav>")]
        toc = re.findall(r'<li><a href="#([\w-]+)">', nav)
        assert toc == anchors[lang]
        assert 'href="/games/qmg/cards"' in r.text
    assert anchors["en"] == anchors["pl"]  # a link to #supply lands in either language
    assert {"supply", "battle", "build", "dominance", "straits", "victory", "reactions", "reallocation"} <= set(
        anchors["en"])


def test_the_qmg_card_list_names_every_card_of_the_data_pack_in_both_languages(server: Any) -> None:
    pack = card_pack()
    keys = [b.id for c in pack.countries.values() for b in c.basic_cards] + [
        k.id for c in pack.countries.values() for k in c.cards]
    for lang, blitz, country in (("en", "Blitzkrieg", "Germany"), ("pl", "Blitzkrieg", "Niemcy")):
        r = get(server, "/games/qmg/cards", lang)
        assert r.status_code == 200
        listed = re.findall(r'<dt id="card-([\w-]+)">', r.text)
        assert sorted(listed) == sorted(keys) and len(listed) == 143
        assert blitz in r.text and f"<h2>{country}</h2>" in r.text
    english = get(server, "/games/qmg/cards", "en").text
    blitz = next(iid for iid, d in copies().items() if d.key == "ger_blitzkrieg")
    entry = english[english.index('<dt id="card-ger_blitzkrieg">'):]
    assert f'<span id="card-{blitz}"></span></dt>' in entry[:entry.index("</dt>") + 5]
    assert len(re.findall(r'<span id="card-[a-z]+-\d\d"></span>', english)) == 220  # every copy a view names
    assert "Sformuj armię!" in get(server, "/games/qmg/cards", "pl").text
    assert "Wojna ekonomiczna!" in get(server, "/games/qmg/cards", "pl").text


def test_the_fixture_game_ships_a_short_reference_and_unknown_games_get_a_404(server: Any) -> None:
    r = get(server, "/games/cardgame/rules", "pl")
    assert r.status_code == 200 and "Zakryta licytacja" in r.text and '<section id="block">' in r.text
    r = get(server, "/games/cardgame/cards", "en")
    assert r.status_code == 200 and 'id="card-card-c07"' in r.text and "Scores 7 when played." in r.text
    assert get(server, "/games/nope/rules", "en").status_code == 404
    assert get(server, "/games/nope/cards", "en").status_code == 404
    assert get(server, "/games/qmg/board.css", "en").status_code == 200  # the board's assets still served


def test_the_table_and_the_lobby_link_to_the_rules(server: Any, make_player: Any) -> None:
    host = make_player("Rula")
    r = host.post("/api/matches", {"game": "qmg", "players": 2})
    table = host.get(f"/matches/{r.json()['match_id']}").text
    assert 'id="rules-link" href="/games/qmg/rules"' in table
    assert 'href="/games/cardgame/rules"' in host.get(f"/matches/{new_table(host)}").text.replace(
        'id="rules-link" ', "")
    assert 'class="rules-link" href="/games/qmg/rules"' in host.get("/").text


def test_rules_url_and_cards_url_point_at_anchors() -> None:
    assert QMG.package.rules is not None
    assert rules_url("qmg", "supply") == "/games/qmg/rules#supply"
    assert rules_url("qmg") == "/games/qmg/rules"
    assert cards_url("qmg", "ger_blitzkrieg") == "/games/qmg/cards#card-ger_blitzkrieg"
    assert rules_url("nope") is None and cards_url("nope", "x") is None


def test_the_first_to_fight_rules_and_card_list_read_in_both_languages(server: Any) -> None:
    from app.games.first_to_fight.pack import pack

    data = pack()
    anchors = {}
    for lang, words in (("en", ("Orders Phase", "Ending Phase", "Underground", "occupied")),
                        ("pl", ("Faza Rozkazów", "Faza Zakończenia", "Konspiracja", "pod Okupacją"))):
        r = get(server, "/games/first_to_fight/rules", lang)
        assert r.status_code == 200 and f'<html lang="{lang}"' in r.text
        for w in words:
            assert w in r.text, (lang, w)
        anchors[lang] = re.findall(r'<section id="([\w-]+)">', r.text)
        cards = get(server, "/games/first_to_fight/cards", lang)
        listed = re.findall(r'<dt id="card-([\w-]+)">', cards.text)
        assert sorted(listed) == sorted([*data.soldiers, *data.events, "missions-1", "missions-2"])
        assert not [m for m in data.missions.values() if m.title in cards.text or m.title_pl in cards.text]
    assert anchors["en"] == anchors["pl"]
    assert {"orders", "ending", "missions", "losses", "scoring"} <= set(anchors["en"])


def test_the_autarcha_rules_and_card_list_read_in_both_languages(server: Any) -> None:
    from app.games.autarcha.pack import TERRAINS, pack

    data = pack()
    anchors = {}
    for lang, words in (("en", ("Five moves", "Behind the lid", "Defence", "war status")),
                        ("pl", ("pięciu ruchów", "za zasłoną", "Obrony", "stanie wojny"))):
        r = get(server, "/games/autarcha/rules", lang)
        assert r.status_code == 200 and f'<html lang="{lang}"' in r.text
        for w in words:
            assert w.lower() in r.text.lower(), (lang, w)
        anchors[lang] = re.findall(r'<section id="([\w-]+)">', r.text)
        cards = get(server, "/games/autarcha/cards", lang)
        listed = re.findall(r'<dt id="card-([\w-]+)">', cards.text)
        assert sorted(listed) == sorted([*data.troops, *(f"tso-{t}" for t in TERRAINS if t in data.defence)])
    assert anchors["en"] == anchors["pl"]
    assert {"turn", "facing", "attacks", "mines", "gold", "scenarios", "table"} <= set(anchors["en"])
