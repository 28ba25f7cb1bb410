"""The bot answers legally and follows its priorities."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from qmg_helpers import card_position, decision, go, make, until_usable

from app.games.protocol import action_rng
from app.games.qmg import GAME, bot


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


# ---------------------------------------------------------------- the team doctrines (issue 8)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_bot_answers_legally_for_every_player_count(players):
    """Every seat layout, default table options: the bot's answers (look-ahead, dominance
    Status decisions included) are always among the legal choices, and the game ends."""
    st = GAME.setup({}, GAME.roles(players, {}), random.Random(100 + players))
    rng = random.Random(players)
    kinds = set()
    while GAME.outcome(st) is None:
        d = GAME.pending(st)[0]
        a = GAME.bot(st, d, rng)
        assert set(a.choices) <= set(d.choice_ids()) and d.min <= len(a.choices) <= d.max
        assert len(set(a.choices)) == len(a.choices)
        kinds.add(d.kind)
        GAME.apply(st, d.seat, a, action_rng(b"bot-legal", st.step))
    assert "action" in kinds and GAME.outcome(st).summary


def test_the_axis_judges_an_event_by_what_it_does():
    """Plunder scores 1 VP per German unit outside Germany: worthless with none, worth its VP
    with three, as the one-card look-ahead finds; the copy leaves the real state untouched."""
    st = make({"germany": ["germany"]}, hand={"germany": ["ger_plunder", "ger_build_army"]})
    plunder = st.countries["germany"].hand[0]
    before = GAME.dump(st)
    assert bot._play_value(st, "germany", plunder) == bot.DOCTRINE["axis"].look_base
    assert GAME.dump(st) == before
    away = {"germany": ["germany"], "western_europe": ["germany"], "balkans": ["germany"],
            "eastern_europe": ["germany"]}
    st = make(away, hand={"germany": ["ger_plunder", "ger_build_army"]})
    assert bot._play_value(st, "germany", st.countries["germany"].hand[0]) == bot.DOCTRINE["axis"].look_base + 3


def test_the_axis_plays_a_build_before_an_event_that_does_nothing():
    st = make({"germany": ["germany"]}, hand={"germany": ["ger_plunder", "ger_build_army"]})
    d = decision(st)
    build = st.countries["germany"].hand[1]
    assert {GAME.bot(st, d, random.Random(i)).choice for i in range(10)} == {f"play:{build}"}


def test_japan_values_a_navy_by_the_supply_spaces_its_armies_could_land_on(monkeypatch):
    units = {"japan": ["japan"], "sea_of_japan": ["japan"], "iwo_jima": ["japan"]}
    st = card_position(units, "japan", "jpn_build_navy")
    with_doctrine = bot._build_value(st, "japan", "central_pacific")  # next to Hawaii
    monkeypatch.setitem(bot.DOCTRINE, "axis", bot.Doctrine())
    plain = bot._build_value(st, "japan", "central_pacific")
    monkeypatch.undo()
    assert with_doctrine == plain + bot.DOCTRINE["axis"].navy_landing
    st.units["hawaii"] = ["japan"]  # once Hawaii is held there is nothing left to land on
    monkeypatch.setitem(bot.DOCTRINE, "axis", bot.Doctrine())
    held_plain = bot._build_value(st, "japan", "central_pacific")
    monkeypatch.undo()
    assert bot._build_value(st, "japan", "central_pacific") == held_plain


def test_the_balance_script_is_reproducible():
    """scripts/qmg_balance.py: the same seeds give the same table (games/s aside)."""
    script = Path(__file__).resolve().parents[3] / "scripts" / "qmg_balance.py"

    def table() -> list[str]:
        out = subprocess.run([sys.executable, str(script), "-n", "4", "--players", "2,6"],
                             capture_output=True, text=True, check=True).stdout
        return [line for line in out.splitlines() if "games/s" not in line]

    first = table()
    assert any(line.split()[0] == "all" for line in first if line.strip())
    assert table() == first
