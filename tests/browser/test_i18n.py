"""Polish and English pages: game terms, the switch, no raw key shown; the "(N)" of matches waiting on you."""

from __future__ import annotations

import html
import os
import re
import string
from typing import Any

import httpx
import pytest

from app.i18n import CATALOGUE, LANGS, choose_lang, negotiate, term, terms_in
from tests.browser.test_pages import csrf_of
from tests.conftest import new_table
from tests.test_table_life import play_out

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
T_CALL = re.compile(r"""\bt\(\s*["']([a-z0-9_]+)["']""")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


# --------------------------------------------------------------------------- the catalogue
# completeness of the UI catalogue (every message the code uses, both languages, plural forms,
# placeholders) is checked from the extracted ids in tests/test_i18n.py


def test_game_term_catalogues_cover_both_languages() -> None:
    from app.games.qmg import GAME as QMG
    from tests.fixtures.cardgame import GAME as CARDGAME

    for game in (QMG, CARDGAME):  # the catalogue comes with the game object (GamePackage), not a file
        terms = game.package.catalogue.terms
        assert terms["en"], game.id
        assert set(terms["en"]) <= set(terms["pl"]), f"{game.id}: {set(terms['en']) - set(terms['pl'])}"


def test_quartermaster_general_uses_the_polish_rulebooks_names() -> None:
    polish = {"build_army": "Sformuj armię!", "build_navy": "Sformuj flotę!", "land_battle": "Bitwa lądowa!",
              "sea_battle": "Bitwa morska!", "event": "Wydarzenie!", "response": "Reakcja!",
              "economic_warfare": "Wojna ekonomiczna!", "status": "Status!", "germany": "Niemcy",
              "uk": "Wielka Brytania", "japan": "Japonia", "ussr": "ZSRR", "italy": "Włochy", "usa": "USA"}
    for key, name in polish.items():
        assert term("qmg", key, "pl") == name
    assert term("qmg", "Land Battle", "en") == "Land Battle!"
    assert term("qmg", "no such term", "pl") == "no such term"
    assert terms_in("qmg", "Player 2: United Kingdom, USSR, USA", "pl") == "Gracz 2: Wielka Brytania, ZSRR, USA"
    assert terms_in("qmg", "Player 2: United Kingdom", "en") == "Player 2: United Kingdom"


def test_language_choice_order_session_then_account_then_browser() -> None:
    assert negotiate("pl-PL,pl;q=0.9,en;q=0.8") == "pl"
    assert negotiate("en-GB,en;q=0.9,pl;q=0.8") == "en"
    assert negotiate("de-DE, pl;q=0.5") == "pl"
    assert negotiate("de-DE") == negotiate("") == negotiate(None) == "en"
    assert negotiate("pl;q=abc, en") == "en"
    assert choose_lang("en", "pl", "pl") == "en"
    assert choose_lang(None, "pl", "en") == "pl"
    assert choose_lang("xx", None, "pl") == "pl"


# --------------------------------------------------------------------------- pages in both languages
def visible_text(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def assert_no_raw_key(page: str, where: str) -> None:
    text = visible_text(page)
    raw = {key for key in CATALOGUE["en"] if "_" in key and re.search(rf"(?<![\w-]){key}(?![\w-])", text)}
    assert not raw, f"{where} shows raw catalogue keys: {raw}"


def test_no_page_shows_a_raw_key_in_either_language(server: Any, make_player: Any) -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    open_id = new_table(alice)
    done_id = new_table(alice)
    bob.post(f"/api/matches/{done_id}/join")
    alice.post(f"/api/matches/{done_id}/start")
    active_id = new_table(bob)
    alice.post(f"/api/matches/{active_id}/join")
    bob.post(f"/api/matches/{active_id}/start")
    play_out([alice, bob], done_id)
    paths = ["/", f"/matches/{open_id}", f"/matches/{active_id}", f"/matches/{done_id}",
             f"/matches/{done_id}/history?seq=3", f"/matches/{active_id}/history", "/matches/nope"]
    for lang in LANGS:
        for who in (alice, None):
            with httpx.Client(base_url=server.url, timeout=10, headers={"Accept-Language": lang}) as web:
                if who is not None:
                    web.cookies = who.http.cookies
                    web.post("/lang", data={"lang": lang, "csrf": csrf_of(who)})
                for path in paths:
                    r = web.get(path)
                    assert r.status_code in (200, 403, 404), (path, r.status_code)
                    assert f'<html lang="{lang}"' in r.text or "history" in path, (path, lang)
                    assert_no_raw_key(r.text, f"{path} ({lang}, {'alice' if who else 'guest'})")


def test_accept_language_sets_the_default_and_the_switch_is_remembered_on_the_account(server: Any) -> None:
    with httpx.Client(base_url=server.url, timeout=10, headers={"Accept-Language": "pl-PL,pl;q=0.9"}) as web:
        page = web.get("/").text
        assert '<html lang="pl"' in page and "Graj jako gość" in page
        token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
        assert web.post("/lang", data={"lang": "en", "next": "/"}).status_code == 403
        assert web.post("/lang", data={"lang": "de", "csrf": token}).status_code == 303
        assert "lang: must be one of en, pl" in web.get("/").text
        r = web.post("/lang", data={"lang": "en", "csrf": token, "next": "//evil.example/"})
        assert r.status_code == 303 and r.headers["location"] == "/"
        assert "Play as a guest" in web.get("/").text
        r = web.post("/register", data={"name": "Zofia", "password": "dlugie haslo", "csrf": token})
        assert r.status_code == 303 and "Signed in as Zofia" in web.get("/").text  # the choice survives signing in
        token = csrf_of_page(web)
        web.post("/lang", data={"lang": "pl", "csrf": token})
        assert "Zalogowano jako Zofia" in web.get("/").text
    with httpx.Client(base_url=server.url, timeout=10, headers={"Accept-Language": "en"}) as web:
        token = csrf_of_page(web)
        web.post("/login", data={"name": "zofia", "password": "dlugie haslo", "csrf": token})
        assert "Zalogowano jako Zofia" in web.get("/").text, "the account remembers its language"


def csrf_of_page(web: httpx.Client) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', web.get("/").text).group(1)


def test_title_and_badge_count_the_matches_waiting_on_you(server: Any, make_player: Any) -> None:
    alice, bob = make_player("Alice"), make_player("Bob")
    assert "<title>Warroom</title>" in alice.get("/").text
    for _ in range(2):
        match_id = new_table(alice)
        bob.post(f"/api/matches/{match_id}/join")
        alice.post(f"/api/matches/{match_id}/start")
    lobby = alice.get("/").text
    assert "<title>(2) Warroom</title>" in lobby and 'data-count="2"' in lobby and 'id="lobby-moves"' in lobby
    assert re.search(r"<title>\(2\) [^<]*· Warroom</title>", alice.get(f"/matches/{match_id}").text)
    alice.act(match_id, "bid:p1:round1", "1")
    assert "<title>(1) Warroom</title>" in alice.get("/").text


# --------------------------------------------------------------------------- in a real browser
@pytest.mark.browser
def test_the_header_switch_turns_the_pages_polish_and_back(server: Any, browser: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    expect.set_options(timeout=5_000)
    ctx = browser.new_context(locale="en-GB")
    page = ctx.new_page()
    try:
        page.goto(f"{server.url}/")
        expect(page.locator("form[action='/guest'] h2")).to_have_text("Play as a guest")
        page.locator(".lang-switch button[value=pl]").click()
        expect(page.locator("form[action='/guest'] h2")).to_have_text("Graj jako gość")
        expect(page.locator("html")).to_have_attribute("lang", "pl")
        page.locator("form[action='/guest'] input[name=name]").fill("Ewa")
        page.locator("form[action='/guest'] button").click()
        expect(page.locator(".topbar .who")).to_contain_text("Zalogowano jako Ewa")
        expect(page.locator("#games")).to_contain_text("Utwórz stół")
        page.locator("form.new-table[data-game=cardgame] button", has_text="Utwórz stół").click()
        page.wait_for_url(re.compile(r"/matches/[\w-]+$"))
        expect(page.locator("#seats h2")).to_have_text("Miejsca")
        page.locator(".lang-switch button[value=en]").click()
        expect(page.locator("#seats h2")).to_have_text("Seats")
    finally:
        ctx.close()
    polish = browser.new_context(locale="pl-PL")  # Accept-Language: pl-PL
    try:
        page = polish.new_page()
        page.goto(f"{server.url}/")
        expect(page.locator("form[action='/guest'] h2")).to_have_text("Graj jako gość")
    finally:
        polish.close()


@pytest.mark.browser
def test_the_title_count_follows_the_table_live(server: Any, make_player: Any, browser: Any) -> None:  # noqa: F811
    from playwright.sync_api import expect

    expect.set_options(timeout=5_000)
    alice, bob = make_player("Alice"), make_player("Bob")
    match_id = new_table(alice)
    bob.post(f"/api/matches/{match_id}/join")
    alice.post(f"/api/matches/{match_id}/start")
    ctx = browser.new_context()
    ctx.add_cookies([{"name": k, "value": v, "url": server.url} for k, v in alice.http.cookies.items()])
    page = ctx.new_page()
    try:
        page.goto(f"{server.url}/matches/{match_id}")
        expect(page).to_have_title(re.compile(r"^\(1\) "))
        expect(page.locator("#moves-waiting")).to_have_text("Your move: 1")
        page.locator("#decisions form.decision[data-decision='bid:p1:round1'] button", has_text="Bid 1").click()
        expect(page).to_have_title(re.compile(r"^(?!\()"))
        expect(page.locator("#moves-waiting")).to_be_hidden()
        bob.act(match_id, "bid:p2:round1", "2")  # the bids are revealed and Alice's turn begins: pushed, no reload
        expect(page).to_have_title(re.compile(r"^\(1\) "))
        expect(page.locator("#moves-waiting")).to_be_visible()
    finally:
        ctx.close()
