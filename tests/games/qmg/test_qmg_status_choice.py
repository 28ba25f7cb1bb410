"""Dominance-phase Status VP are the owner's choice (issue 8 §1): "Korzystanie z kart Status!
nigdy nie jest obowiązkowe". Only a used Status scores and opens the "Status used" window, so the
UK's Enigma Code Cracked can discard only a German Status that Germany chose to use."""

from __future__ import annotations

import random

from qmg_helpers import answer, decision, go, make, pick, until

from app.games.qmg import GAME
from app.games.qmg.data import card
from app.games.qmg.state import GameState

EAST = {"germany": ["germany"], "ukraine": ["germany"], "russia": ["germany"]}
SUPPLY_VP = 2 + 2  # Germany and Ukraine, each held alone
ABUNDANT_VP = 2  # Abundant Resources: an army in Ukraine and one in Russia


def at_dominance(units: dict[str, list[str]] = EAST, **kw: object) -> GameState:
    """Germany past its action phase, asked about its first scoring Status."""
    st = make(units, hand={"germany": ["ger_build_army", "ger_land_battle"]}, **kw)  # type: ignore[arg-type]
    go(st, "discard:")
    until(st, "use_status")
    return st


def to_discard_phase(st: GameState) -> list[str]:
    """Pass every reaction until Germany's discard phase; the cards offered on the way."""
    offered: list[str] = []
    for _ in range(50):
        d = decision(st)
        if d.kind == "discard_phase":
            return offered
        assert d.kind == "react", f"unexpected {d.kind}: {d.prompt}"
        offered += [card(c.id[4:]).key for c in d.choices if c.id.startswith("use:")]
        answer(st, "pass")
    raise AssertionError("never reached the discard phase")


def test_a_status_scores_only_when_its_owner_uses_it():
    declined = at_dominance(statuses={"germany": ["ger_abundant_resources"]})
    d = decision(declined)
    assert d.seat == declined.seat_of("germany") and len(d.choices) == 2
    assert "skip" in d.choice_ids() and "+2 VP" in d.prompt + d.choices[0].label
    assert declined.vp["axis"] == SUPPLY_VP  # asked before anything is scored for it
    answer(declined, "skip")
    to_discard_phase(declined)
    assert declined.vp["axis"] == SUPPLY_VP

    used = at_dominance(statuses={"germany": ["ger_abundant_resources"]})
    pick(used, "use:")
    to_discard_phase(used)
    assert used.vp["axis"] == SUPPLY_VP + ABUNDANT_VP


def test_each_scoring_status_is_its_own_decision():
    st = at_dominance({**EAST, "baltic_sea": ["germany"]},  # Swedish Iron Ore scores 1
                      statuses={"germany": ["ger_abundant_resources", "ger_swedish_iron_ore"]})
    first = decision(st)
    assert [c.id for c in first.choices if c.id.startswith("use:")] == [f"use:{st.countries['germany'].statuses[0]}"]
    answer(st, "skip")
    second = until(st, "use_status")
    assert second.id != first.id and "Swedish Iron Ore" in second.prompt
    pick(st, "use:")
    to_discard_phase(st)
    assert st.vp["axis"] == SUPPLY_VP + 1


def test_a_status_that_would_score_nothing_is_not_asked_about():
    st = make(EAST, hand={"germany": ["ger_build_army", "ger_land_battle"]},
              statuses={"germany": ["ger_swedish_iron_ore"]})  # no navy in the Baltic Sea
    go(st, "discard:")
    until(st, "discard_phase")
    assert st.vp["axis"] == SUPPLY_VP


def test_enigma_cannot_discard_a_status_germany_did_not_use():
    st = at_dominance(statuses={"germany": ["ger_abundant_resources"]},
                      responses={"uk": ["uk_enigma_code_cracked"]})
    answer(st, "skip")
    assert "uk_enigma_code_cracked" not in to_discard_phase(st)
    assert [card(i).key for i in st.countries["germany"].statuses] == ["ger_abundant_resources"]
    assert [card(i).key for i in st.countries["uk"].responses] == ["uk_enigma_code_cracked"]


def test_enigma_still_discards_a_status_germany_used():
    st = at_dominance(statuses={"germany": ["ger_abundant_resources"]},
                      responses={"uk": ["uk_enigma_code_cracked"]})
    pick(st, "use:")
    d = until(st, "react")
    assert d.seat == st.seat_of("uk")
    enigma = next(c.id for c in d.choices if c.id.startswith("use:")
                  and card(c.id[4:]).key == "uk_enigma_code_cracked")
    answer(st, enigma)
    to_discard_phase(st)
    assert st.countries["germany"].statuses == []
    assert st.vp["axis"] == SUPPLY_VP + ABUNDANT_VP  # the use still happened


def test_the_bot_uses_a_scoring_status():
    for seed in range(20):
        st = at_dominance(statuses={"germany": ["ger_abundant_resources"]},
                          responses={"uk": ["uk_enigma_code_cracked"]})
        d = decision(st)
        act = GAME.bot(st, d, random.Random(seed))
        assert act.choices[0].startswith("use:"), f"seed {seed}: the bot declined {d.prompt}"
