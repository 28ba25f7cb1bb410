"""Lean page pushes (issue 9, item 7): the hub reads the table once per push, renders once per
key (seat, language, user flags) and sends each page socket only the fragments that changed;
the htmx posts reply with their own page's changed fragments; static files are cached for a year.

The hub tests run a hub in this process against the server's database (no listener: pushes
are made by hand), with page sockets as plain subscribers reading their queues."""

from __future__ import annotations

import asyncio
import random
import re
import statistics
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import event

from app.api.table_pages import TablePage
from app.db import asyncpg_dsn, make_engine, make_sessionmaker
from app.models import User
from app.sessions.fragments import split
from app.sessions.live import Hub, Subscriber
from app.sessions.replay import MatchCache
from tests.conftest import Player, Server, new_table


class Counted:
    def __init__(self) -> None:
        self.queries = 0


@pytest.fixture
async def hub(database_url: str) -> AsyncIterator[tuple[Hub, Counted]]:
    engine = make_engine(database_url, pool_size=2)
    counted = Counted()

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def count(*_args: Any) -> None:
        counted.queries += 1

    yield Hub(make_sessionmaker(engine), MatchCache(), asyncpg_dsn(database_url)), counted
    await engine.dispose()


async def page_of(hub: Hub, match_id: str, player: Player | None, csrf: str = "token-1",
                  lang: str = "en") -> Subscriber:
    async with hub.sessions() as db:
        user = await db.get(User, player.id) if player else None
    sub = Subscriber(match_id=match_id, user_id=user.id if user else None,
                     page=TablePage(user, lang, csrf, f"http://test/matches/{match_id}"))
    await hub.subscribe(sub)
    return sub


def drain(sub: Subscriber) -> list[str]:
    out = []
    while not sub.queue.empty():
        text = sub.queue.get_nowait()
        assert text is not None
        out.append(text)
    return out


def qmg_table(server: Server, name: str) -> tuple[Player, Player, str]:
    alice, bob = Player(server.url, f"{name} A"), Player(server.url, f"{name} B")
    match_id = new_table(alice, game="qmg")
    assert bob.post(f"/api/matches/{match_id}/join").status_code == 200
    assert alice.post(f"/api/matches/{match_id}/start").status_code == 200
    return alice, bob, match_id


def move(players: list[Player], match_id: str) -> None:
    """Someone who has a required decision answers it with its first choices."""
    for p in players:
        m = p.match(match_id)
        required = [d for d in m["pending"] if not d["optional"]]
        if required:
            d = required[0]
            choices = [c["id"] for c in d["choices"]][:max(1, d["min"])]
            r = p.post(f"/api/matches/{match_id}/actions",
                       {"seq": m["seq"], "decision": d["decision"], "choices": choices})
            assert r.status_code == 200, r.text
            return
    raise AssertionError("nobody had a move")


@pytest.mark.asyncio
async def test_a_push_with_nothing_new_sends_nothing(server: Server, hub: tuple[Hub, Counted]) -> None:
    h, _ = hub
    alice, _bob, match_id = qmg_table(server, "Quiet")
    sub = await page_of(h, match_id, alice)
    first = drain(sub)
    # everything the page shows live: the status, the prompt and the board's live parts (QMG's map
    # geometry is drawn once by the page and never pushed)
    assert len(first) == 1 and all(f'id="{part}"' in first[0] for part in ("status", "prompt", "qmg-vp"))
    await h.push_now(match_id)
    await h.push_now(match_id)
    assert drain(sub) == []


@pytest.mark.asyncio
async def test_a_move_sends_only_what_changed(server: Server, hub: tuple[Hub, Counted]) -> None:
    h, _ = hub
    alice, bob, match_id = qmg_table(server, "Lean")
    move([alice, bob], match_id)  # the log has a line: from now on only lines come
    sub = await page_of(h, match_id, alice)
    full = drain(sub)[0]
    for _ in range(3):
        move([alice, bob], match_id)
        await h.push_now(match_id)
        frame = "".join(drain(sub))
        assert frame.startswith(f"<!--seq:{alice.match(match_id)['seq']}-->")
        assert full and 'id="chat-lines"' not in frame  # the chat did not change
        # the log's new lines alone, never the whole log again
        assert 'id="log"' not in frame and 'hx-swap-oob="afterbegin:#log-lines"' in frame


@pytest.mark.asyncio
async def test_sockets_of_one_key_share_a_render_and_get_the_same_bytes(server: Server,
                                                                       hub: tuple[Hub, Counted]) -> None:
    h, _ = hub
    alice, bob, match_id = qmg_table(server, "Twins")
    watcher = Player(server.url, "Twins watcher")
    tabs = [await page_of(h, match_id, alice) for _ in range(2)]
    others = [await page_of(h, match_id, bob), await page_of(h, match_id, watcher),
              await page_of(h, match_id, alice, lang="pl")]
    for sub in tabs + others:
        drain(sub)
    for _ in range(4):
        move([alice, bob], match_id)
        renders = h.stats.renders
        await h.push_now(match_id)
        assert h.stats.renders - renders == 4  # alice (twice: one render), alice in Polish, bob, the watcher
        a, b = drain(tabs[0]), drain(tabs[1])
        assert a and a == b
        assert drain(others[2]) != a  # the same seat in another language: its own render


@pytest.mark.asyncio
async def test_no_database_query_per_socket(server: Server, hub: tuple[Hub, Counted]) -> None:
    h, counted = hub
    alice, bob, match_id = qmg_table(server, "Crowd")
    watchers = [Player(server.url, f"Crowd watcher {n}") for n in range(6)]
    subs = [await page_of(h, match_id, alice), await page_of(h, match_id, bob)]
    move([alice, bob], match_id)
    before = counted.queries
    await h.push_now(match_id)
    few = counted.queries - before
    subs += [await page_of(h, match_id, w) for w in watchers]
    subs += [await page_of(h, match_id, alice) for _ in range(3)]
    for sub in subs:
        drain(sub)
    move([alice, bob], match_id)
    before = counted.queries
    await h.push_now(match_id)
    assert counted.queries - before == few, "a push reads the table once, however many sockets watch"
    assert all(drain(sub) for sub in subs)


def random_move(players: list[Player], match_id: str, rng: random.Random) -> bool:
    """A seat with a required decision answers it at random (seeded); False once nobody has one."""
    order = players[:]
    rng.shuffle(order)
    for p in order:
        m = p.match(match_id)
        if m["status"] != "active":
            return False
        required = [d for d in m["pending"] if not d["optional"]]
        if required:
            d = rng.choice(required)
            ids = [c["id"] for c in d["choices"]]
            picked = rng.sample(ids, max(d["min"], 1)) if d["max"] > 1 else [rng.choice(ids)]
            r = p.post(f"/api/matches/{match_id}/actions",
                       {"seq": m["seq"], "decision": d["decision"], "choices": picked})
            assert r.status_code == 200, r.text
            return True
    return False


LEAN_BYTES = 2048  # issue 10: the page socket's median update
LEAN_MOVES = 60


@pytest.mark.asyncio
async def test_the_median_page_push_of_a_seeded_game_stays_under_2_kb(server: Server,
                                                                      hub: tuple[Hub, Counted]) -> None:
    """What a browser at a QMG table receives per move (four seats and a spectator, random legal
    answers, seeded): byte counts, not timings. A push that grows back (a fragment sent whole
    again for a seq, a class or a count on its root) fails here before it reaches a benchmark."""
    h, _ = hub
    rng = random.Random(10)
    players = [Player(server.url, f"Lean seat {n}") for n in range(4)]
    watcher = Player(server.url, "Lean watcher")
    match_id = new_table(players[0], players=4, game="qmg")
    for p in players[1:]:
        assert p.post(f"/api/matches/{match_id}/join").status_code == 200
    assert players[0].post(f"/api/matches/{match_id}/start").status_code == 200
    subs = [await page_of(h, match_id, p) for p in players + [watcher]]
    for sub in subs:
        drain(sub)  # the first frame: everything
    sizes: list[int] = []
    for _ in range(LEAN_MOVES):
        if not random_move(players, match_id, rng):
            break
        await h.push_now(match_id)
        sizes += [len(frame.encode()) for sub in subs for frame in drain(sub)]
    assert len(sizes) >= LEAN_MOVES * len(subs) // 2
    median = statistics.median(sizes)
    assert median <= LEAN_BYTES, f"the median page push is {median:,.0f} B (limit {LEAN_BYTES:,} B)"


def csrf_of(p: Player) -> str:
    return str(p.get("/api/me").json()["csrf_token"])


def top_ids(html: str) -> set[str]:
    return {f.id or "" for f in split(re.sub(r"^<!--seq:\d+-->", "", html)).fragments}


def answer_form(p: Player, match_id: str, token: str, bad: bool = False) -> tuple[int, httpx.Response]:
    m = p.match(match_id)
    d = next(d for d in m["pending"] if not d["optional"])
    choices = ["no-such-card"] if bad else [c["id"] for c in d["choices"]][:max(1, d["min"])]
    return m["seq"], p.http.post(f"/matches/{match_id}/answer", headers={"HX-Request": "true", "X-CSRF-Token": token},
                                 data={"seq": m["seq"], "decision": d["decision"], "choices": choices})


@pytest.mark.asyncio
async def test_the_movers_post_replies_with_its_own_changed_fragments(server: Server) -> None:
    alice, bob, match_id = qmg_table(server, "Poster")
    token = csrf_of(alice)
    async with websockets.connect(f"{server.ws_url}/matches/{match_id}/live",
                                  additional_headers={"Cookie": alice.cookie}) as ws:
        full = str(await asyncio.wait_for(ws.recv(), 10))
        assert token in full  # the page's own token in its forms
        _, refused = answer_form(alice, match_id, token, bad=True)
        assert refused.status_code in (400, 422), refused.text
        assert top_ids(refused.text) == {"flash"}  # the refusal alone
        seq, r = answer_form(alice, match_id, token)
        assert r.status_code == 200, r.text
        assert int(r.headers["X-Warroom-Seq"]) == seq + 1
        pushed = str(await asyncio.wait_for(ws.recv(), 10))
        assert pushed.startswith(f"<!--seq:{seq + 1}-->")
        # what changed for this page and no more (nothing at all when its socket was first)
        assert "flash" in top_ids(r.text) and top_ids(r.text) - {"flash"} <= top_ids(pushed)
        assert 'id="chat-lines"' not in r.text and len(r.text) < len(full)
    # a page with no socket here: everything, at the answer's seq
    seq, r = answer_form(bob, match_id, csrf_of(bob))
    assert r.status_code == 200 and int(r.headers["X-Warroom-Seq"]) == seq + 1
    # (QMG's board in parts: its live layers, never its drawn map; the decisions live in the prompt bar)
    assert {"status", "prompt", "qmg-vp", "log", "chat-lines", "flash"} <= top_ids(r.text)


@pytest.mark.asyncio
async def test_a_resync_sends_everything_again(server: Server) -> None:
    alice, bob, match_id = qmg_table(server, "Resync")
    async with websockets.connect(f"{server.ws_url}/matches/{match_id}/live",
                                  additional_headers={"Cookie": alice.cookie}) as ws:
        first = str(await asyncio.wait_for(ws.recv(), 10))
        move([alice, bob], match_id)
        lean = str(await asyncio.wait_for(ws.recv(), 10))
        assert "chat-lines" in top_ids(first) and "chat-lines" not in top_ids(lean)
        await ws.send('{"seq": -1}')
        again = str(await asyncio.wait_for(ws.recv(), 10))
        assert top_ids(again) == top_ids(first)


def test_static_files_are_cached_for_a_year_under_their_hash(server: Server) -> None:
    alice, _bob, match_id = qmg_table(server, "Cache")
    page = alice.get(f"/matches/{match_id}").text
    urls = re.findall(r'(?:href|src)="(/(?:static|games)/[^"?]+\?v=[0-9a-f]+)"', page)
    assert {u.split("?")[0] for u in urls} >= {"/static/warroom.css", "/static/warroom.js",
                                                "/games/qmg/board.css", "/games/qmg/board.js"}
    for url in urls:
        r = httpx.get(server.url + url)
        assert r.status_code == 200 and r.headers["cache-control"] == "public, max-age=31536000, immutable", url
        bare = httpx.get(server.url + url.split("?")[0])
        assert bare.headers["cache-control"] == "no-cache", url  # no hash: asked again each time
    assert httpx.get(f"{server.url}/static/warroom.css?v=0000").headers["cache-control"] == "no-cache"
