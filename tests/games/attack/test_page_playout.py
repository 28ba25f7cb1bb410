"""The Attack! board drawn all through seeded games played by random answers (900 answers each:
setup, then moves, land battles and their neutral commanders, naval line-ups, builds, trades): for every seat and a
spectator, every few answers, the board renders (in English and Polish by turns) and holds no
Economics card another seat hides (its id or either name), and a naval line laid face down shows no
ship to anyone else while the other line is still being chosen."""

from __future__ import annotations

import random

import pytest

from app.games.attack import GAME
from app.games.attack.state import GameState
from app.games.protocol import Action, action_rng, random_bot
from tests.games.attack.test_page import render

EVERY = 11  # answers between two looks at the boards
STEPS = 900


def hidden_text(state: GameState, seat: str | None) -> set[str]:
    seats = [seat] if seat else list(state.seats)
    return {s for who in seats for s in GAME.secrets(state, who) if isinstance(s, str)}


def laid_lines(html: str) -> list[str]:
    """The lines shown while one side still chooses: each side's ships as the page names them."""
    if 'class="at-lines waiting"' not in html:
        return []
    part = html[html.index('class="at-lines waiting"'):]
    return part[:part.index("</div>\n  </div>")].split('class="at-line"')[1:]


@pytest.mark.parametrize(("players", "seed"), [(2, 7), (3, 11), (4, 5)])
def test_the_board_draws_every_state_of_a_random_game_without_a_secret(players: int, seed: int) -> None:
    seats = GAME.roles(players, {})
    state = GAME.setup({"end": "elimination"}, seats, random.Random(seed))
    rng = random.Random(seed)
    looks = 0
    for step in range(STEPS):
        if state.outcome is not None:
            break
        pending = GAME.pending(state)
        if not pending:
            break
        d = rng.choice(pending)
        action = random_bot(d, rng)
        GAME.apply(state, d.seat, Action(decision=action.decision, choices=action.choices),
                   action_rng(seed.to_bytes(4, "big"), step))
        if step % EVERY:
            continue
        lang = "pl" if (step // EVERY) % 2 else "en"
        for seat in [*state.seats, None]:
            html = render(state, seat, lang)
            leaked = sorted(s for s in hidden_text(state, seat) if s in html)
            assert not leaked, f"step {step}: {seat or 'a spectator'} sees {leaked[:3]}"
            looks += 1
            for line in laid_lines(html):
                if f'data-seat="{seat}"' not in line:
                    assert "data-ship" not in line, f"step {step}: {seat} sees a line laid face down"
    assert looks > 150
