"""A live table page stays exactly what a fresh load would show (issue 9, acceptance): four seats
of Quartermaster General answer at random through the JSON API (seeded), one seat's page is open
in Chromium and follows by its socket alone (frames carry only what changed, new log lines
alone); after every stretch of moves, at a game's end (then on at a new table), and after 200
moves in all, the page's table equals the table of the same page loaded afresh.

Normalised before comparing: whitespace between tags, the classes htmx adds while swapping
(``htmx-*``), style attributes (the server renders none: the CSP forbids them; the page's
zoom script sets one), and the marks the page's own script puts on what a push changed or
what the player is doing (MARKS: the last move's highlight, a ticked card, the zoom), the
order of attributes, the enlarged card shown under the pointer, and the seq a kept decision form was
made at. Nothing else is ignored."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.browser.conftest import live_table
from tests.conftest import Player, new_table

pytestmark = pytest.mark.browser

MOVES = 200
CHECK_EVERY = 40
SEED = 9

# classes warroom.js sets in the browser (never in a server render)
MARKS = ("changed", "vp-changed", "picked", "picks-ready", "zoomed", "side-closed", "qmg-pointed")

NORMALISED = """
() => {
  const marks = new Set(MARKS_JSON);
  const table = document.querySelector('.table').cloneNode(true);
  // the enlarged card under the pointer: the page's own overlay, filled by its script on hover
  table.querySelectorAll('#card-preview').forEach(el => el.remove());
  // a form kept as it is while its question stands (hx-preserve): the seq it was made at stays,
  // and the server takes an answer made at it while the decision is pending
  table.querySelectorAll('form[hx-preserve] input[name=seq]').forEach(el => el.removeAttribute('value'));
  table.querySelectorAll('*').forEach(el => {
    el.removeAttribute('style');
    [...el.classList].filter(c => c.startsWith('htmx-') || marks.has(c)).forEach(c => el.classList.remove(c));
    if (el.getAttribute('class') === '') el.removeAttribute('class');
    // attribute order means nothing (a script that hides and shows an element reorders them)
    const attrs = [...el.attributes].map(a => [a.name, a.value]).sort();
    attrs.forEach(([name]) => el.removeAttribute(name));
    attrs.forEach(([name, value]) => el.setAttribute(name, value));
  });
  return table.outerHTML.replace(/>\\s+</g, '><').replace(/\\s+/g, ' ');
}
""".replace("MARKS_JSON", json.dumps(MARKS))


def random_move(players: list[Player], match_id: str, rng: random.Random) -> bool:
    """A seat with a required decision answers it at random; False once nobody has one."""
    order = players[:]
    rng.shuffle(order)
    for p in order:
        m = p.match(match_id)
        if m["status"] != "active":
            return False
        required = [d for d in m["pending"] if not d["optional"]]
        if not required:
            continue
        d = rng.choice(required)
        ids = [c["id"] for c in d["choices"]]
        picked = rng.sample(ids, rng.randint(max(d["min"], 1), max(d["min"], min(d["max"], len(ids))))) \
            if d["max"] > 1 else [rng.choice(ids)]
        r = p.post(f"/api/matches/{match_id}/actions", {"seq": m["seq"], "decision": d["decision"], "choices": picked})
        # 409: another seat's answer took the decision first; 400 "finished": a seat's auto-pass ended the game
        assert r.status_code in (200, 409) or (r.status_code == 400 and "finished" in r.text), r.text
        return True
    return False


def settle(page: Any, seq: int) -> None:
    page.wait_for_function("s => Number(document.querySelector('#status').dataset.seq) >= s", arg=seq,
                           timeout=15_000)
    page.wait_for_timeout(300)  # the frame that brought the seq has been swapped and settled


def new_qmg_table(server: Any, players: list[Player]) -> str:
    match_id = new_table(players[0], players=4, game="qmg")
    for p in players[1:]:
        assert p.post(f"/api/matches/{match_id}/join").status_code == 200
    assert players[0].post(f"/api/matches/{match_id}/start").status_code == 200
    return match_id


def open_live(page: Any, url: str) -> None:
    page.goto(url)
    live_table(page)


def pages_of(browser: Any, server: Any, player: Player) -> tuple[Any, Any, Any]:
    """A browser signed in as ``player`` (its cookies) with two pages: the live one and the fresh one."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    context.add_cookies([{"name": k, "value": v, "url": server.url} for k, v in player.http.cookies.items()])
    return context, context.new_page(), context.new_page()


def compare(live: Any, fresh: Any, url: str, seq: int, moves: int) -> None:
    settle(live, seq)
    open_live(fresh, url)
    # what the live page fetches once shown (the end summary) is in before comparing
    live.wait_for_function("() => !document.querySelector('.table [hx-trigger=\"load\"]')", timeout=15_000)
    got, want = live.evaluate(NORMALISED), fresh.evaluate(NORMALISED)
    if got != want:
        at = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want)))
        raise AssertionError(f"after {moves} moves (seq {seq}) the live page differs from a fresh load at {at}:\n"
                             f"live:  {got[max(0, at - 300):at + 300]}\nfresh: {want[max(0, at - 300):at + 300]}")


def test_after_200_random_moves_the_live_page_equals_a_fresh_load(server: Any, browser: Any) -> None:
    rng = random.Random(SEED)
    players = [Player(server.url, f"Dom {n}") for n in range(4)]
    match_id = new_qmg_table(server, players)
    context, live, fresh = pages_of(browser, server, players[0])
    url = f"{server.url}/matches/{match_id}"
    try:
        open_live(live, url)
        moves = 0
        while moves < MOVES:
            if not random_move(players, match_id, rng):
                # the game is over: the end as the live page shows it, then on at a new table
                compare(live, fresh, url, players[0].match(match_id)["seq"], moves)
                match_id = new_qmg_table(server, players)
                url = f"{server.url}/matches/{match_id}"
                open_live(live, url)
                continue
            moves += 1
            if moves % CHECK_EVERY == 0 or moves == MOVES:
                compare(live, fresh, url, players[0].match(match_id)["seq"], moves)
    except Exception:
        print(server.log()[-4000:])
        raise
    finally:
        context.close()


CLICKED_MOVES = 40


def test_moves_clicked_on_the_page_leave_it_equal_to_a_fresh_load(server: Any, browser: Any) -> None:
    """The same with the page's own seat answering by clicking: its htmx posts reply with the
    fragments that changed (or nothing, when its socket was first), and a reply older than the
    socket's newest frame is dropped, so the page never ends up behind."""
    from tests.browser.test_qmg_playthrough import answer_first_choice

    rng = random.Random(SEED + 1)
    players = [Player(server.url, f"Clicker {n}") for n in range(4)]
    match_id = new_qmg_table(server, players)
    context, live, fresh = pages_of(browser, server, players[0])
    url = f"{server.url}/matches/{match_id}"
    clicked = 0
    try:
        open_live(live, url)
        for moves in range(1, CLICKED_MOVES + 1):
            m = players[0].match(match_id)
            if m["status"] != "active":
                break
            if any(not d["optional"] for d in m["pending"]):
                settle(live, m["seq"])
                answer_first_choice(live)
                clicked += 1
                live.wait_for_function("s => Number(document.querySelector('#status').dataset.seq) > s",
                                       arg=m["seq"], timeout=15_000)
            elif not random_move(players[1:], match_id, rng):
                live.wait_for_timeout(100)
            if moves % 10 == 0:
                compare(live, fresh, url, players[0].match(match_id)["seq"], moves)
        assert clicked >= 5, f"the page's seat answered only {clicked} times"
    except Exception:
        print(server.log()[-4000:])
        raise
    finally:
        context.close()
