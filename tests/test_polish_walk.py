"""Issue 9 §6: every string a player sees is in the page's language.

A full seeded Quartermaster General match (four human seats answering at random, plus the
fixture card game) is played through a real server whose every page is asked for in Polish:
the lobby and its create form, the table as each seat, as a spectator and signed out, the
answer form's refusals, the history at many steps, the settings, the end of the game. Two
checks, each naming what it saw and where:

- the server records every catalogue lookup that falls back to English or to its key (the
  ``WARROOM_I18N_MISSES`` hook of app/i18n.py and app/games/catalogue.py): none may happen;
- the visible text of each page (tags, scripts and styles stripped; title, aria-label,
  placeholder and alt kept) holds no English-only word: a word of the English catalogues, card
  texts and space names that no Polish catalogue uses.

The same walk in English finds no Polish word (no letter with a Polish diacritic, no word only
the Polish catalogues use) and no raw message id."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from app.games.qmg.data import catalogue as cards
from app.games.qmg.data import map_pack
from app.games.qmg.text import catalogue as qmg_catalogue
from app.i18n import MISSES_ENV, translations
from tests.conftest import Player, Server
from tests.fixtures.cardgame import GAME as CARDGAME

SEED = 9
WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
POLISH_LETTERS = re.compile(r"[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]")
# an id is not a word: a card id ("card-c07", "ger-12"), a token or a decision id ("bid:p2:1:2")
IDENTIFIER = re.compile(r"\b[a-z]+-[a-z]*\d+\b|\b[a-z_]+(?::\w+)+")
MESSAGE_ID = re.compile(r"\b[a-z]+(?:_[a-z0-9]+){1,}\b")
# our players' names, the brand and the game's own title (the Polish edition keeps it), and the
# names both languages share in the rulebooks although no catalogue happens to spell them in both
NAMES = {"ala", "bartek", "celina", "darek", "edek", "warroom", "quartermaster", "general", "total", "domination",
         "attack", "first", "fight"}
# words the Polish pages may share with the English ones, each checked by hand: proper names the
# Polish cards keep (Blitzkrieg, Mare Nostrum, B-24 Liberator...), words Polish has too (status,
# front, ocean, transport, start, link, test...) and technical ones (JSON, URL, IPv6, NAT). Any
# other word of the English catalogues on a Polish page is an untranslated string.
SHARED = {
    "afrika", "australia", "banzai", "blitzkrieg", "bot", "cassino", "dauntless", "decima", "flottiglia", "front",
    "guadalcanal", "harbor", "impero", "ipv", "italiano", "iwo", "jima", "json", "kamikaze", "king", "korps",
    "lease", "ledo", "lend", "leningrad", "liberator", "link", "linlithgow", "local", "loopback", "mackenzie",
    "magic", "mao", "marauder", "mare", "marina", "mas", "mongolia", "monte", "multicast", "nat", "nostrum", "ocean",
    "patton", "pearl", "plus", "port", "radar", "raf", "regia", "rosie", "sbd", "smuts", "start", "status",
    "superfortress", "test", "tito", "transport", "truk", "url", "usa", "warroom", "webhook", "zero",
    "seq",  # the form field a crafted answer lacks, named as the API names it
}
FLASH = re.compile(r'<div id="flash"[^>]*>.*?</div>', re.S)
KEPT_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")


# --------------------------------------------------------------------------- vocabularies
def _words(*texts: Any) -> set[str]:
    out: set[str] = set()
    for text in texts:
        if isinstance(text, dict):
            out |= _words(*text.values())
        elif isinstance(text, (list, tuple, set)):
            out |= _words(*text)
        elif isinstance(text, str):
            out |= {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}
    return out


def ui_texts(lang: str) -> list[str]:
    catalog = getattr(translations(lang), "_catalog", {})
    return [v for k, v in catalog.items() if k and isinstance(v, str)]  # "" is the .po file's header


def vocabulary(lang: str) -> set[str]:
    """Every word the catalogues of one language use: UI, QMG (messages, terms, cards, spaces),
    the fixture game."""
    qmg = qmg_catalogue()
    words = _words(ui_texts(lang), qmg.messages[lang], qmg.terms[lang], CARDGAME.package.catalogue.messages[lang],
                   CARDGAME.package.catalogue.terms[lang])
    for card in cards().values():
        words |= _words(card.name_en, card.summary) if lang == "en" else _words(card.name_pl, card.summary_pl)
    for space in map_pack().spaces:
        words |= _words(space.name_en if lang == "en" else (space.name_pl or ""))
    return words


@pytest.fixture(scope="module")
def vocab() -> dict[str, set[str]]:
    english, polish = vocabulary("en"), vocabulary("pl")
    return {"en-only": english - SHARED - NAMES, "pl-only": polish - english - NAMES}


# --------------------------------------------------------------------------- visible text
class Visible(HTMLParser):
    """The text a reader sees (or hears: titles and labels), one chunk per text node or attribute."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self.hidden += 1
        for name, value in attrs:
            if name in KEPT_ATTRIBUTES and value and value.strip():
                self.chunks.append(value.strip())
            if tag == "input" and name == "value" and value and ("type", "submit") in attrs:
                self.chunks.append(value.strip())

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.chunks.append(" ".join(data.split()))


def visible(html: str) -> list[str]:
    parser = Visible()
    parser.feed(html)
    return parser.chunks


@dataclass
class Walk:
    lang: str
    vocab: dict[str, set[str]]
    found: dict[str, set[str]] = field(default_factory=dict)  # offending text -> where it was seen
    pages: int = 0

    def check(self, where: str, html: str) -> None:
        self.pages += 1
        # an English page shows a refusal in the API's own words, which name the ids sent
        refusals = {c for m in FLASH.finditer(html) for c in visible(m.group(0))}
        for chunk in visible(html):
            for problem in self.problems(chunk, ids=chunk not in refusals):
                self.found.setdefault(f"{problem} in «{chunk[:160]}»", set()).add(where)

    def problems(self, chunk: str, ids: bool = True) -> Iterator[str]:
        chunk = IDENTIFIER.sub(" ", chunk)
        words = {w.lower() for w in WORD.findall(chunk)}
        if self.lang == "pl":
            for word in sorted(words & self.vocab["en-only"]):
                yield f"English word '{word}'"
        else:
            if POLISH_LETTERS.search(chunk):
                yield "Polish letters"
            for word in sorted(words & self.vocab["pl-only"]):
                yield f"Polish word '{word}'"
            for msg_id in MESSAGE_ID.findall(chunk) if ids else ():
                yield f"message id '{msg_id}'"

    def report(self, misses: list[str]) -> str:
        lines = [f"{len(self.found)} untranslated strings on {self.pages} pages ({self.lang}):"]
        for problem, where in sorted(self.found.items()):
            lines.append(f"  {problem}  — seen on {', '.join(sorted(where)[:3])}"
                         + (f" and {len(where) - 3} more" if len(where) > 3 else ""))
        if misses:
            lines.append(f"{len(misses)} catalogue lookups fell back (what, lang, key):")
            lines += [f"  {m}" for m in misses]
        return "\n".join(lines)


# --------------------------------------------------------------------------- the server
@pytest.fixture(scope="module")
def misses_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("i18n") / "misses.tsv"


@pytest.fixture(scope="module")
def walk_server(database_url: str, misses_file: Path) -> Iterator[Server]:
    srv = Server(database_url, extra_env={MISSES_ENV: str(misses_file)}).start()
    yield srv
    srv.stop()


def misses(path: Path, lang: str) -> list[str]:
    if not path.exists():
        return []
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines() if line]
    # a lookup in English that finds the key missing everywhere counts in every language
    return sorted({"\t".join(r) for r in rows if len(r) == 3 and r[1] in (lang, "en")})


class Browser:
    """A browser asking for one language (Accept-Language), as a new visitor's does."""

    def __init__(self, base_url: str, lang: str) -> None:
        self.name = "visitor"
        self.http = httpx.Client(base_url=base_url, timeout=10, headers={"Accept-Language": accept(lang)})

    def page(self, walk: Walk, where: str, path: str) -> str:
        r = self.http.get(path)
        assert r.status_code < 500, f"{where}: {path} gave {r.status_code}"
        walk.check(where, r.text)
        return r.text

    def form(self, walk: Walk, where: str, path: str, data: dict[str, Any]) -> None:
        """Post a page form (htmx-style: the refusal comes back as a flash) and check the reply."""
        csrf = re.search(r'name="csrf" value="([^"]+)"', self.http.get("/").text)
        assert csrf, "no CSRF token on the lobby"
        r = self.http.post(path, data={"csrf": csrf.group(1), **data}, headers={"HX-Request": "true"})
        assert r.status_code < 500, f"{where}: {path} gave {r.status_code}"
        walk.check(where, r.text)
        if r.status_code in (302, 303):
            self.page(walk, where + " (after the redirect)", r.headers["location"])


class Guest(Player, Browser):
    """A guest playing in that browser."""

    def __init__(self, base_url: str, name: str, lang: str) -> None:
        Player.__init__(self, base_url, name)
        self.http.headers["Accept-Language"] = accept(lang)


def accept(lang: str) -> str:
    return f"{lang},en;q=0.5" if lang != "en" else "en"


class PageSocket(threading.Thread):
    """The table page's live socket in that browser's language: every push it gets, kept to be read
    like a page (the panels it re-renders carry the same words)."""

    def __init__(self, server: Server, match_id: str, browser: Browser) -> None:
        super().__init__(daemon=True)
        headers = {"Accept-Language": browser.http.headers["Accept-Language"]}
        if browser.http.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in browser.http.cookies.items())
        self.url, self.headers = f"{server.ws_url}/matches/{match_id}/live", headers
        self.frames: list[str] = []
        self.done = threading.Event()
        self.ready = threading.Event()

    def run(self) -> None:
        with connect(self.url, additional_headers=self.headers, max_size=None) as ws:
            self.ready.set()
            while not self.done.is_set():
                try:
                    self.frames.append(str(ws.recv(timeout=0.2)))
                except TimeoutError:
                    continue

    def check(self, walk: Walk, where: str) -> None:
        self.done.set()
        self.join(10)
        assert self.frames, f"{where}: the page socket got no push"
        for n, frame in enumerate(self.frames):
            walk.check(f"{where}, push {n + 1}", frame)


def answer(player: Guest, match_id: str, decision: dict[str, Any], seq: int, rng: random.Random) -> None:
    ids = [c["id"] for c in decision["choices"]]
    low, high = decision["min"], min(decision["max"], len(ids))
    picked = rng.sample(ids, rng.randint(low, high)) if high > 1 or low != 1 else [rng.choice(ids)]
    body = {"seq": seq, "decision": decision["decision"], "choices": picked}
    r = player.post(f"/api/matches/{match_id}/actions", body)
    # 400 only when the match ended under us (a bot or an auto-pass answered the last question first)
    ended = r.status_code == 400 and player.match(match_id)["status"] == "finished"
    assert r.status_code in (200, 409) or ended, r.text


def play(walk: Walk, players: list[Guest], match_id: str, rng: random.Random, limit: int, every: int = 1) -> int:
    """Answer at random until the match ends; the table page of each seat that has a question is
    read before it answers (its prompt and choices), and each answer's log lines with it (before
    every ``every``-th answer only: the English walk looks for stray Polish, not for gaps)."""
    by_seat = {p.match(match_id)["you"]: p for p in players}
    host = players[0]
    moves = 0
    for _ in range(limit):
        m = host.match(match_id)
        if m["status"] != "active":
            return moves
        waiting = [s for s in m["waiting_on"] if s in by_seat] or list(by_seat)
        for seat in waiting:
            p = by_seat[seat]
            mine = p.match(match_id)
            if mine["pending"]:
                if moves % every == 0:
                    p.page(walk, f"table as {seat} at seq {mine['seq']}", f"/matches/{match_id}")
                answer(p, match_id, mine["pending"][0], mine["seq"], rng)
                moves += 1
                break
    raise AssertionError(f"the match did not end in {limit} rounds of answers")


def walk_everything(server: Server, lang: str, vocab: dict[str, set[str]], game: str, players: int,
                    options: dict[str, Any], limit: int, bots: int = 0) -> Walk:
    """The whole walk in ``lang``: ``players`` seats, the last ``bots`` of them played by the server's bot."""
    walk = Walk(lang, vocab)
    rng = random.Random(SEED)
    names = ["Ala", "Bartek", "Celina", "Darek", "Edek"][:players - bots]
    guests = [Guest(server.url, f"{n}{lang}", lang) for n in names]
    watcher = Guest(server.url, f"Edek{lang}", lang)
    signed_out = Browser(server.url, lang)  # no guest account: the page a visitor first sees
    host = guests[0]
    try:
        r = host.post("/api/matches", {"game": game, "players": players, "options": options, "mode": "live"})
        assert r.status_code == 200, r.text
        match_id = r.json()["match_id"]
        host.page(walk, "lobby with an open table", "/")
        host.page(walk, "open table as the host", f"/matches/{match_id}")
        signed_out.page(walk, "open table signed out", f"/matches/{match_id}")
        signed_out.page(walk, "lobby signed out", "/")
        for g in guests[1:]:
            assert g.post(f"/api/matches/{match_id}/join").status_code == 200
        for n in range(players - bots + 1, players + 1):
            assert host.post(f"/api/matches/{match_id}/bots", {"seat": f"p{n}"}).status_code == 200
        guests[1].page(walk, "open table as a seated guest", f"/matches/{match_id}")
        watcher.form(walk, "a spectator starting the table", f"/matches/{match_id}/start", {})
        host.form(walk, "a table for too many players", "/tables", {"game": game, "players": "99", "mode": "live"})
        host.form(walk, "a table with a bad player count", "/tables", {"game": game, "players": "x", "mode": "live"})
        assert host.post(f"/api/matches/{match_id}/start").status_code == 200
        watcher.form(walk, "joining a started table", f"/matches/{match_id}/join", {})
        host.page(walk, "lobby during the match", "/")
        watcher.page(walk, "table as a spectator", f"/matches/{match_id}")

        # refusals the table shows: a stale answer, an answer to no question, a bad choice
        m = host.match(match_id)
        host.form(walk, "answer with a stale seq", f"/matches/{match_id}/answer",
                  {"seq": str(max(m["seq"] - 1, 0)), "decision": "nope", "choice": "x"})
        host.form(walk, "answer to no pending decision", f"/matches/{match_id}/answer",
                  {"seq": str(m["seq"]), "decision": "nope", "choice": "x"})
        watcher.form(walk, "a spectator answering", f"/matches/{match_id}/answer",
                     {"seq": str(m["seq"]), "decision": "nope", "choice": "x"})
        if m["pending"]:
            host.form(walk, "answer with an unknown choice", f"/matches/{match_id}/answer",
                      {"seq": str(m["seq"]), "decision": m["pending"][0]["decision"], "choice": "x9"})
        host.form(walk, "undo with nothing to take back", f"/matches/{match_id}/undo", {"seq": str(m["seq"])})

        sockets = [(f"live pushes to {guests[1].name}", PageSocket(server, match_id, guests[1])),
                   ("live pushes to a spectator", PageSocket(server, match_id, watcher))]
        for _, socket in sockets:
            socket.start()
            assert socket.ready.wait(10), "the page socket did not open"
        moves = play(walk, guests, match_id, rng, limit, every=1 if lang == "pl" else 4)
        for where, socket in sockets:
            socket.check(walk, where)
        assert moves > 5

        final = host.match(match_id)
        assert final["status"] == "finished", final["status"]
        for g in guests:
            g.page(walk, f"the end as {g.name}", f"/matches/{match_id}")
        watcher.page(walk, "the end as a spectator", f"/matches/{match_id}")
        signed_out.page(walk, "the end signed out", f"/matches/{match_id}")
        host.page(walk, "lobby after the match", "/")
        host.page(walk, "settings", "/settings")
        signed_out.page(walk, "settings signed out", "/settings")
        host.page(walk, "a table that does not exist", "/matches/no-such-table")
        last = final["seq"]
        for seq in sorted({1, 2, 3, *range(5, last + 1, max(1, last // 40)), last}):
            host.page(walk, f"history at {seq}", f"/matches/{match_id}/history?seq={seq}")
        for g in guests[1:]:
            g.page(walk, f"history at {last // 2} as {g.name}", f"/matches/{match_id}/history?seq={last // 2}")
        seat_of_other = guests[1].match(match_id)["you"]
        host.page(walk, "history as another seat", f"/matches/{match_id}/history?seq={last // 2}&seat={seat_of_other}")
        host.page(walk, "history closed", f"/matches/{match_id}/history/closed")
        host.form(walk, "verify a bad replay", "/replays/verify", {"export": "{}"})
    finally:
        for g in (*guests, watcher, signed_out):
            g.http.close()
    return walk


WALKS = pytest.mark.parametrize(("game", "players", "bots", "options", "limit"), [
    ("qmg", 4, 0, {"reallocation": True}, 3000),
    (CARDGAME.id, 3, 1, {"target": "100", "anytime": True}, 600),
], ids=["qmg-4p", "skirmish-3p-with-a-bot"])


@WALKS
def test_the_polish_walk_finds_no_untranslated_string(walk_server: Server, misses_file: Path,
                                                      vocab: dict[str, set[str]], game: str, players: int, bots: int,
                                                      options: dict[str, Any], limit: int) -> None:
    walk = walk_everything(walk_server, "pl", vocab, game, players, options, limit, bots)
    missed = misses(misses_file, "pl")
    if walk.found or missed:
        pytest.fail(walk.report(missed), pytrace=False)


@WALKS
def test_the_english_walk_finds_no_polish_fragment_or_message_id(walk_server: Server, misses_file: Path,
                                                                 vocab: dict[str, set[str]], game: str, players: int,
                                                                 bots: int, options: dict[str, Any],
                                                                 limit: int) -> None:
    walk = walk_everything(walk_server, "en", vocab, game, players, options, limit, bots)
    missed = [m for m in misses(misses_file, "en") if m.split("\t")[1] == "en"]
    if walk.found or missed:
        pytest.fail(walk.report(missed), pytrace=False)
