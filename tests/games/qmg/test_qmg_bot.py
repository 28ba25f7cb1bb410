"""The bot answers legally and follows its priorities."""

from __future__ import annotations

import random

from qmg_helpers import card_position, decision, go, make, until_usable

from app.games.qmg import GAME


def test_bot_prefers_the_battle_that_cuts_enemy_supply():
    units = {"germany": ["germany"], "eastern_europe": ["germany"], "russia": ["ussr"], "scandinavia": ["ussr"],
             "moscow": ["ussr"], "balkans": ["ussr"]}
    st = card_position(units, "germany", "ger_land_battle")
    go(st, "play:")
    d = decision(st)
    assert {"at:russia", "at:balkans"} <= set(d.choice_ids())
    picks = {GAME.bot(st, d, random.Random(i)).choice for i in range(10)}
    assert picks == {"at:russia"}


def test_bot_builds_on_a_free_supply_space():
    st = card_position({"germany": ["germany"], "balkans": ["germany"]}, "germany", "ger_build_army")
    go(st, "play:")
    d = decision(st)
    assert GAME.bot(st, d, random.Random(0)).choice in ("at:ukraine", "at:western_europe")


def test_bot_plays_a_battle_with_a_target_rather_than_an_empty_one():
    units = {"germany": ["germany"], "balkans": ["ussr"], "moscow": ["ussr"]}
    st = make(units, hand={"germany": ["ger_land_battle", "ger_sea_battle"]})
    d = decision(st)
    a = GAME.bot(st, d, random.Random(3))
    assert a.choice.startswith("play:") and st.countries["germany"].hand.index(a.choice[5:]) == 0


def test_bot_uses_a_protecting_response():
    units = {"ukraine": ["ussr"], "balkans": ["germany"], "germany": ["germany"]}
    st = card_position(units, "germany", "ger_land_battle", responses={"ussr": ["ussr_stalingrad"]})
    go(st, "play:", "at:ukraine")
    until_usable(st, "ussr_stalingrad")
    d = decision(st)
    assert GAME.bot(st, d, random.Random(0)).choice.startswith("use:")


def test_bot_answers_every_decision_legally_in_a_long_game():
    st = GAME.setup({"reallocation": True}, GAME.roles(5, {}), random.Random(11))
    rng = random.Random(5)
    while GAME.outcome(st) is None:
        d = GAME.pending(st)[0]
        a = GAME.bot(st, d, rng)
        assert set(a.choices) <= set(d.choice_ids()) and d.min <= len(a.choices) <= d.max
        GAME.apply(st, d.seat, a, random.Random(rng.random()))


def test_bot_does_not_pay_a_deck_cost_in_vp():
    units = {"germany": ["germany"], "balkans": ["germany"], "ukraine": ["ussr"], "moscow": ["ussr"]}
    st = card_position(units, "germany", "ger_land_battle", statuses={"germany": ["ger_blitzkrieg"]},
                       deck={"germany": 0})
    go(st, "play:", "at:ukraine")
    until_usable(st, "ger_blitzkrieg")
    assert GAME.bot(st, decision(st), random.Random(0)).choice == "pass"
