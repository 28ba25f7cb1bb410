"""The QMG board template, rendered from real views: every seat and a spectator, fresh and mid-game.

No server: the page layer's Jinja environment renders the game's board template (found through
``GAME.package.board``) with the context ``table_context`` gives it. What a seat must not see (``GAME.secrets``) never
appears in its HTML.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from app.api.templating import board_extras, board_template, templates
from app.games.protocol import Seat
from app.games.qmg import GAME
from app.games.qmg.data import map_pack
from app.games.qmg.page import space_of_choice
from app.games.qmg.state import GameState
from app.sessions.views import decision_payload

CSRF = "csrf-token-123"
CARD_ID = re.compile(r"\b(?:ger|uk|jpn|ussr|ita|usa)-\d\d\b")  # card instance ids, e.g. "ger-07"


def new_game(players: int, seed: int) -> tuple[list[Seat], GameState]:
    seats = GAME.roles(players, {})
    return seats, GAME.setup({}, seats, random.Random(seed))


def advance(state: GameState, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        pending = GAME.pending(state)
        if not pending:
            return
        d = pending[0]
        GAME.apply(state, d.seat, GAME.bot(state, d, rng), rng)


def render(seats: list[Seat], state: GameState, seat: str | None, seq: int = 7, live: bool = True) -> str:
    """The board as the table page includes it; ``live=False`` is a past view (nothing pending)."""
    view = GAME.view(state, seat)
    pending = [decision_payload(d) for d in GAME.pending(state) if d.seat == seat] if live else []
    ctx: dict[str, Any] = {
        "view": view, "board_ctx": board_extras("qmg", view, seat), "match_id": "m-1", "csrf": CSRF, "seq": seq,
        "pending": pending,
        "seats": [{"seat": s.id, "label": s.label, "player": f"Name {s.id}", "bot": None} for s in seats],
    }
    return templates.env.get_template(board_template("qmg")).render(**ctx)


def assert_no_secrets(html: str, state: GameState, seat: str | None) -> None:
    hidden = GAME.secrets(state, seat) if seat else set().union(*(GAME.secrets(state, s) for s in state.seats.values()))
    if seat is None:  # a spectator sees no hand at all
        hidden |= {i for cs in state.countries.values() for i in cs.hand + cs.responses}
    shown = set(CARD_ID.findall(html))
    leaked = sorted(hidden & shown)
    assert not leaked, f"{seat or 'spectator'}'s board shows hidden cards {leaked[:5]}"


@pytest.mark.parametrize("players", [2, 3, 6])
def test_a_fresh_game_renders_for_every_seat_and_a_spectator(players: int) -> None:
    seats, state = new_game(players, seed=players)
    for seat in [s.id for s in seats] + [None]:
        html = render(seats, state, seat)
        for space in map_pack().spaces:
            assert f'data-space="{space.id}"' in html
        assert html.count('class="unit army') == 6  # one army in each capital
        assert 'class="qmg-round-no">1<' in html
        assert_no_secrets(html, state, seat)
        mine = state.countries_of(seat) if seat else []
        for c in mine:
            for iid in state.countries[c].hand:
                assert f'data-card="{iid}"' in html  # one's own hand is on the board
        if seat is None:
            assert 'class="qmg-hand"' not in html


def test_mid_game_boards_show_only_what_each_seat_may_see() -> None:
    seats, state = new_game(3, seed=11)
    for chunk in range(8):
        advance(state, 25, seed=100 + chunk)
        for seat in [s.id for s in seats] + [None]:
            assert_no_secrets(render(seats, state, seat), state, seat)


def decision_state(kind: str, seed: int = 3) -> tuple[list[Seat], GameState]:
    seats, state = new_game(3, seed=seed)
    rng = random.Random(seed + 1)
    for _ in range(3000):
        d = GAME.pending(state)[0]
        if d.kind == kind:
            return seats, state
        GAME.apply(state, d.seat, GAME.bot(state, d, rng), rng)
    raise AssertionError(f"no {kind} decision came up")


@pytest.mark.parametrize("kind", ["build", "battle", "deploy"])
def test_legal_map_targets_post_the_answer_like_the_decision_buttons(kind: str) -> None:
    seats, state = decision_state(kind)
    d = GAME.pending(state)[0]
    html = render(seats, state, d.seat, seq=42)
    ids = {s.id for s in map_pack().spaces}
    by_space: dict[str, list[str]] = {}
    for ch in d.choices:
        space = space_of_choice(ch.id, ids)
        if space:
            by_space.setdefault(space, []).append(ch.id)
    assert by_space, "the decision names no space"
    form = re.search(r'<form class="qmg-map-form".*?</form>', html, re.S)
    assert form, "the map is not inside an answer form"
    head = form.group(0)[:600]
    for name, value in (("csrf", CSRF), ("seq", "42"), ("decision", d.id)):
        assert f'name="{name}" value="{value}"' in head
    for space, choices in by_space.items():
        tag = re.search(rf'<g class="space [^"]*target[^"]*"\s+id="space-{space}"[^>]*>', html)
        assert tag, f"{space} is not highlighted"
        if len(choices) == 1:
            assert 'hx-post="/matches/m-1/answer"' in tag.group(0)
            assert f'{{&#34;choice&#34;: &#34;{choices[0]}&#34;}}' in tag.group(0) or \
                f'"choice": "{choices[0]}"' in tag.group(0)
    # the other seats see the same map with nothing to click
    for other in {s.id for s in seats} - {d.seat}:
        assert 'space land target' not in render(seats, state, other)
        assert 'space sea target' not in render(seats, state, other)


def test_a_past_view_offers_nothing_to_click() -> None:
    seats, state = decision_state("build")
    d = GAME.pending(state)[0]
    html = render(seats, state, d.seat, live=False)
    assert 'hx-post="' not in html and "<form" not in html and 'name="choice"' not in html


def test_the_action_phase_puts_play_and_discard_on_the_cards_in_hand() -> None:
    seats, state = decision_state("action")
    d = GAME.pending(state)[0]
    html = render(seats, state, d.seat)
    # the cards' buttons answer through one small form (form="qmg-hand-form"), so each country's
    # cards can be pushed on their own
    hand_form = re.search(r'<form class="qmg-hand-form"[^>]*id="qmg-hand-form".*?</form>', html, re.S)
    assert hand_form and f'name="decision" value="{d.id}"' in hand_form.group(0)
    for ch in d.choices:
        if ch.id.startswith(("play:", "discard:")):
            assert re.search(rf'<button class="qmg-card-[a-z ]+" type="submit" form="qmg-hand-form" name="choice" '
                             rf'value="{ch.id}"', html), ch.id


def test_a_game_without_a_page_module_gets_no_extras() -> None:
    assert board_extras("no_such_game", {"x": 1}, "p1") == {}
    assert board_extras("qmg", {}, None) == {}
