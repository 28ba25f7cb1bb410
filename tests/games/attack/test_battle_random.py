"""Seeded random land battles answered by the random bot: every battle ends, no unit appears or
vanishes, every half-round keeps the rules of §10.3, every log line renders in Polish, no view
shows a hidden card."""

from __future__ import annotations

import random

import orjson

from app.games.attack import GAME
from app.games.attack.battle import cap, casualties, dice_count, plus, total
from app.games.attack.pack import LAND_TYPES, pack
from app.games.attack.state import dump, load
from app.games.attack.text import catalogue
from app.games.protocol import random_bot
from tests.games.attack.battle_kit import fight, pending, table

BATTLES = 150


def _army(rng: random.Random, most: int) -> dict[str, int]:
    army: dict[str, int] = {}
    for _ in range(rng.randint(1, most)):
        t = rng.choice(LAND_TYPES)
        army[t] = army.get(t, 0) + 1
    return army


def _battle(seed: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(2, 4)
    neutral = rng.random() < 0.4
    defence = _army(rng, 12)
    owner = {"belarus": "p1", "poland": "p2", "russia": "p3", "ukraine": "p4"}
    owner = {r: s for r, s in owner.items() if int(s[1]) <= players}
    units = {r: {"INF": 1} for r in owner}
    if not neutral:
        owner["romania"] = "p2"
        units["romania"] = defence
    state = table(players=players, owner=owner, units=units, deck=sorted(pack().econ),
                  hands={s: [] for s in owner.values()})
    rng.shuffle(state.deck)
    for s in state.seats:
        state.hands[s] = [state.deck.pop() for _ in range(2)]
    attack = _army(rng, 14)
    events = fight(state, "romania", "p1", attack, rng)
    for _ in range(500):
        ds = pending(state)
        if not ds:
            break
        d = rng.choice(ds)
        state = load(orjson.loads(orjson.dumps(dump(state))))  # a reload at every question
        events += GAME.apply(state, d.seat, random_bot(d, rng), rng)
    else:
        raise AssertionError(f"seed {seed}: the battle did not end")
    b = state.battle
    assert b["over"], seed
    a_side, d_side = b["sides"]["A"], b["sides"]["D"]
    a_left, d_left = plus(a_side["engaged"], a_side["reserve"]), plus(d_side["engaged"], d_side["reserve"])
    assert plus(a_left, a_side["lost"]) == attack, seed
    if b["winner"] == "A":
        assert not d_left and state.owner["romania"] == "p1" and state.units["romania"] == a_left, seed
    else:
        assert not a_left, seed
        if neutral:
            assert "romania" not in state.owner and b["card"] in state.deck, seed
        else:
            assert state.owner["romania"] == "p2" and state.units["romania"] == d_left, seed
    if not neutral:
        assert plus(d_left, d_side["lost"]) == defence, seed
    for h in b["halves"]:
        foe = "D" if h["side"] == "A" else "A"
        assert 1 <= total(h["engaged"]) <= cap(h["round"]), (seed, h)
        assert len(h["dice"]) == dice_count(h["engaged"]), (seed, h)
        assert all(h["engaged"].get(t, 0) >= n for t, n in h["hits"].items()), (seed, h)
        foe_before = plus(h["after"][foe]["engaged"], h["casualties"])  # only my casualties change it
        assert h["casualties"] == casualties(sum(h["hits"].values()), foe_before), (seed, h)
    for e in events:
        for lang in ("en", "pl"):
            text = catalogue().text(e.msg, lang)
            assert text and "{" not in text, (seed, e.msg)
    for seat in state.seats:
        shown = orjson.dumps(GAME.view(state, seat)).decode()
        for secret in GAME.secrets(state, seat):
            assert f'"{secret}"' not in shown, (seed, seat, secret)


def test_random_battles() -> None:
    for seed in range(BATTLES):
        _battle(seed)
