"""The bot's doctrine (app/games/autarcha/bot.py) on small staged boards: fire first and at the HQ above
all, the front that can strike moves before the units behind and walks into range, the HQ keeps away
until its side has one fighting unit left and then leads the attack."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from app.games.autarcha import attacks, bot
from app.games.autarcha.bot import Bot
from app.games.autarcha.pack import use_pack
from app.games.autarcha.state import GameState
from app.games.protocol import Action
from tests.games.autarcha.move_kit import answer, pending, put, stage, start_turn

GROUND = ["." * 16] * 16


@pytest.fixture(autouse=True)
def _real_pack() -> Iterator[None]:
    yield
    use_pack(None)


def bot_answer(state: GameState, seed: int = 0) -> tuple[str, ...]:
    d = pending(state)
    action: Action = bot.choose(state, d, random.Random(seed))
    answer(state, *action.choices)
    return action.choices


def test_it_fires_at_the_enemy_hq_before_anything_else() -> None:
    s = stage(GROUND)
    put(s, "white", "PSZ", (0, 0), "N")
    shooter = put(s, "white", "PIE", (5, 8), "N")
    put(s, "white", "PC", (1, 14), "N")  # far from everything: nothing to fire at
    enemy_hq = put(s, "red", "PSZ", (7, 8), "S")
    enemy_inf = put(s, "red", "PIE", (7, 7), "S")
    assert {s.units[enemy_hq]["sq"], s.units[enemy_inf]["sq"]} <= set(attacks.in_range(s, shooter))
    start_turn(s)
    assert bot_answer(s) == (f"unit:{shooter}",)
    assert bot_answer(s)[0] in ("attack", "attack_move")
    assert pending(s).kind == "fire"
    assert bot_answer(s) == (s.units[enemy_hq]["sq"],)


def test_a_front_unit_that_can_walk_into_range_moves_first_and_ends_with_the_enemy_in_reach() -> None:
    s = stage(GROUND)
    put(s, "white", "PSZ", (0, 0), "N")
    front = put(s, "white", "PIE", (6, 8), "S")  # its back to the enemy: no shot from where it stands
    behind = put(s, "white", "PIE", (0, 15), "N")  # more than STRIKING_DISTANCE from any enemy
    foe = put(s, "red", "PIE", (10, 8), "S")
    put(s, "red", "PSZ", (15, 15), "S")
    assert s.units[foe]["sq"] not in attacks.in_range(s, front)
    start_turn(s)
    b = Bot(s, pending(s), random.Random(0))
    assert b.walk_and_fire(front) > 0 and b.walk_and_fire(behind) == 0
    assert bot_answer(s) == (f"unit:{front}",)
    assert bot_answer(s) == ("move_attack",)
    bot_answer(s)  # the walk
    assert s.units[foe]["sq"] in attacks.in_range(s, front)


def test_the_hq_keeps_away_while_its_army_fights_and_leads_the_attack_when_one_fighter_is_left() -> None:
    s = stage(GROUND)
    hq = put(s, "white", "PSZ", (2, 2), "N")
    fighters = [put(s, "white", "PIE", (0, col), "N") for col in (10, 12, 14)]
    put(s, "red", "PSZ", (15, 15), "S")
    put(s, "red", "PIE", (14, 15), "S")
    start_turn(s)
    rested = Bot(s, pending(s), random.Random(0))
    assert not rested.hq_attacks and rested._unit_score(hq) == 0.0  # far from every enemy: it stays
    for u in fighters[1:]:
        s.units[u]["sq"] = None  # two of the three are gone
    alone = Bot(s, pending(s), random.Random(0))
    assert alone.hq_attacks and alone._unit_score(hq) >= 10.0
