"""A game is one package: its board, board assets, page extras, catalogue and view sections come
with the game object (GamePackage), so a game installed from outside app/games gets its board,
and the generic panels read only what the game declares, never view keys by name."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import httpx
import pytest

from app.games.protocol import GamePackage, GameRules
from app.games.qmg import GAME as QMG
from tests.conftest import FIXTURE_GAMES, Player, Server, new_table
from tests.fixtures.cardgame import GAME as CARDGAME

SECTIONS_GAME = "tests.fixtures.cardgame_sections:GAME"


@pytest.fixture(scope="module")
def two_fixtures(database_url: str) -> Iterator[Server]:
    """A server with Skirmish and the same game under other view keys, both from tests/fixtures."""
    srv = Server(database_url, extra_env={"WARROOM_EXTRA_GAMES": f"{FIXTURE_GAMES},{SECTIONS_GAME}"}).start()
    yield srv
    srv.stop()


def started(srv: Server, game: str, lang: str = "en") -> tuple[Player, Player, str]:
    alice, bob = Player(srv.url, "Alice"), Player(srv.url, "Bob")
    for p in (alice, bob):
        p.http.headers["Accept-Language"] = lang
    match_id = new_table(alice, game=game)
    assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    return alice, bob, match_id


def section(page: str, panel: str) -> str:
    found = re.search(rf'<section id="{panel}".*?</section>', page, flags=re.S)
    assert found, f"no #{panel} panel"
    return found.group(0)


def test_every_game_is_a_package() -> None:
    for game in (QMG, CARDGAME):
        assert isinstance(game, GameRules) and isinstance(game.package, GamePackage)
        assert game.package.board is not None and game.package.sections.hand == "hand"
    assert QMG.package.board.assets == ("board.css", "board.js")
    assert QMG.package.data_dir and QMG.package.data_dir.endswith("data")


def test_a_game_from_outside_app_games_renders_its_own_board(two_fixtures: Server) -> None:
    alice, bob, match_id = started(two_fixtures, "cardgame")
    alice.act(match_id, "bid:p1:round1", "2")
    bob.act(match_id, "bid:p2:round1", "0")
    page = alice.get(f"/matches/{match_id}").text
    board = section(page, "board")
    # the fixture's own template (tests/fixtures/cardgame_board/board.html) with its page extras
    assert 'data-board="cardgame"' in board and 'class="skirmish-scores"' in board
    assert re.search(r'<tr data-seat="p1"[^>]*>\s*<th>Player 1</th><td class="score">1</td>', board), board
    assert "data-zoomable" not in board, "own_zoom from the board's context: no generic zoom frame"
    # its stylesheet, linked from the head and served from the fixture's directory
    assert '/games/cardgame/board.css' in page
    css = alice.get("/games/cardgame/board.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert ".skirmish-board" in css.text
    for unlisted in ("/games/cardgame/board.js", "/games/cardgame/board.html", "/games/cardgame/cardgame.yaml",
                     "/games/cardgame/..%2Fcardgame.py", "/games/nope/board.css"):
        assert alice.get(unlisted).status_code == 404, unlisted
    assert alice.get("/games/qmg/board.js").status_code == 200


def test_the_fixture_board_and_log_read_polish_through_its_catalogue(two_fixtures: Server) -> None:
    alice, bob, match_id = started(two_fixtures, "cardgame", lang="pl")
    alice.act(match_id, "bid:p1:round1", "2")
    page = html.unescape(alice.get(f"/matches/{match_id}").text)
    assert "<th>Gracz 1</th>" in section(page, "board")
    log = section(page, "log")
    assert "Twoja oferta: 2" in log and "złożył" not in log  # Alice reads her own, fuller line
    assert "Gracz 1 złożył(a) ofertę" in html.unescape(bob.get(f"/matches/{match_id}").text)
    decisions = section(html.unescape(bob.get(f"/matches/{match_id}").text), "decisions")
    assert "Runda 1: zakryta licytacja" in decisions and "Licytuj 0" in decisions and "Bid" not in decisions


def test_the_generic_panels_read_only_the_declared_view_sections(two_fixtures: Server) -> None:
    alice, bob, match_id = started(two_fixtures, "skirmish_sections")
    view = alice.match(match_id)["view"]
    assert "cards_held" in view and "hand" not in view and "headquarters" in view
    alice.act(match_id, "bid:p1:round1", "1")
    page = html.unescape(alice.get(f"/matches/{match_id}").text)
    hand = section(page, "hand")
    # the declared hand is the hand panel's cards; the declared private keys are "only you see this"
    assert len(re.findall(r'class="card" data-card="card-c\d\d"', hand)) == len(view["cards_held"])
    assert "Only you see this" in hand and "Sealed bid" in hand and "Headquarters" in hand
    board = section(page, "board")  # no board of its own: the public facts, without the private ones
    assert "Deck size" in board
    for private in ("Cards held", "Sealed bid", "Headquarters"):
        assert private not in board, private
    with httpx.Client(base_url=two_fixtures.url, timeout=10) as spectator:
        watched = html.unescape(spectator.get(f"/matches/{match_id}").text)
    assert "Sealed bid" not in watched and "Headquarters" not in watched


def test_table_events_and_the_outcome_read_polish_too(two_fixtures: Server) -> None:
    alice, bob, match_id = started(two_fixtures, "cardgame", lang="pl")
    alice.act(match_id, "bid:p1:round1", "1")
    assert alice.post(f"/api/matches/{match_id}/undo", {"seq": alice.match(match_id)["seq"]}).status_code == 200
    assert alice.post(f"/api/matches/{match_id}/resign").status_code == 200
    page = html.unescape(bob.get(f"/matches/{match_id}").text)
    assert "Gracz 1 cofa ruch" in section(page, "log") and "Gracz 1 poddaje się" in section(page, "log")
    assert re.search(r'<span class="outcome">Gracz 1 poddaje się</span>', section(page, "status"))
    log = bob.get(f"/api/matches/{match_id}/log").json()  # the API keeps English, and says which catalogue
    assert {"seq": log[-1]["seq"], "text": "Player 1 resigns",
            "msg": {"id": "log_resigns", "params": {"seat": "Player 1"}, "ui": True}} == log[-1]


def test_a_qmg_table_reads_polish_on_the_page(two_fixtures: Server) -> None:
    alice = Player(two_fixtures.url, "Ala")
    alice.http.headers["Accept-Language"] = "pl"
    lobby = html.unescape(alice.get("/").text)
    assert "Realokacja zasobów (zasada opcjonalna)" in lobby and "Punkty do zwycięstwa" in lobby
    match_id = new_table(alice, game="qmg")
    assert alice.post(f"/api/matches/{match_id}/bots", {"seat": "p2"}).status_code == 200
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    page = html.unescape(alice.get(f"/matches/{match_id}").text)
    prompt = "Niemcy: wybierz 3 z 10 kart początkowych do odrzucenia"
    assert prompt in section(page, "decisions")
    board = section(page, "board")  # the board's own words come from the game's catalogue too
    assert '<span class="qmg-k">Runda</span>' in board and "Odrzucanie kart początkowych" in board
    assert "<dt>Ręka</dt>" in page and "Armies left" not in page and "twoja ręka" in page
    assert "opening cards" not in page
    seat = section(page, "seats")
    assert "Gracz 1: Niemcy, Japonia, Włochy" in seat
