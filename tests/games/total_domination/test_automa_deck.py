"""The automa's cards: the solo deck's yearly changes and deal (spec §15.3 rules 1–3), its techs
(rules 5, 6), what the table sees of them (views and secrets)."""

from __future__ import annotations

import json

import pytest

from app.games.total_domination import derived, views
from app.games.total_domination.automa_deck import deal_size, suitable
from app.games.total_domination.pack import SoloCard
from app.games.total_domination.rules import hands_for
from app.games.total_domination.state import GameState
from tests.games.total_domination.automa_boards import ids, run, solo_card, solo_stage, stub, tech_card
from tests.games.total_domination.boards import home

YEARS = {1939: 10, 1940: 2, 1941: 2, 1942: 2, 1943: 2}  # the spec's plausible split of the 18 cards


def deck() -> list[SoloCard]:
    out, n = [], 0
    for year, count in YEARS.items():
        for _ in range(count):
            n += 1
            out.append(solo_card(n, year=year, germany=[("move", "army")], japan=[("move", "army")]))
    return out


def fresh(monkeypatch: pytest.MonkeyPatch, year: int = 1939) -> GameState:
    stub(monkeypatch, solo=deck())
    st = solo_stage(spaces=[home("germany", "germany", capital=True)], year=year)
    st.solo = {}
    return st


def deal(st: GameState, seed: int = 7) -> list[str]:
    return ids(run(st, {"k": "automa_deal"}, seed=seed))


def year_of(card_id: str) -> int:
    return {c.id: c.year for c in deck()}[card_id]


def test_deal_sizes_by_year() -> None:
    assert [deal_size(y) for y in range(1939, 1946)] == [6, 5, 6, 7, 9, 9, 9]


def test_1939_deck_is_the_1939_cards_only_and_six_are_dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    st = fresh(monkeypatch)
    assert deal(st) == ["solo_deal"]
    solo = st.solo
    assert len(solo["dealt"]) == 6 and len(solo["deck"]) == 4 and solo["removed"] == []
    assert all(year_of(c) == 1939 for c in solo["dealt"] + solo["deck"])


def test_each_year_two_random_1939_cards_leave_and_the_years_cards_join(monkeypatch: pytest.MonkeyPatch) -> None:
    st = fresh(monkeypatch)
    deal(st)
    sizes = {}
    for year in range(1940, 1946):
        st.year = year
        st.solo["used"] = st.solo["dealt"][:2]  # cards revealed during the year come back too
        st.solo["dealt"] = st.solo["dealt"][2:]
        log = deal(st, seed=year)
        solo = st.solo
        everything = solo["dealt"] + solo["deck"]
        assert len(set(everything)) == len(everything) and not set(everything) & set(solo["removed"])
        assert solo["used"] == [] and solo["revealed"] is None
        sizes[year] = (len(solo["dealt"]), len(everything), len(solo["removed"]))
        assert all(year_of(c) == 1939 for c in solo["removed"])
        assert {c for c in everything if year_of(c) == min(year, 1943)} == {
            c.id for c in deck() if c.year == min(year, 1943)}
        assert ("solo_deck_changes" in log) == (year <= 1943)
    # 1940: 10 - 2 + 2 = 10 cards, 5 dealt; ... from 1943 on nothing more leaves or joins
    assert sizes == {1940: (5, 10, 2), 1941: (6, 10, 4), 1942: (7, 10, 6), 1943: (9, 10, 8),
                     1944: (9, 10, 8), 1945: (9, 10, 8)}


def test_a_game_starting_in_1943_gets_every_change_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    st = fresh(monkeypatch, year=1943)
    log = deal(st)
    assert log.count("solo_deck_changes") == 4 and len(st.solo["removed"]) == 8
    assert len(st.solo["dealt"]) == 9 and len(st.solo["deck"]) == 1


def test_the_deal_is_the_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    dealt = []
    for seed in (3, 3, 4):
        st = fresh(monkeypatch)
        deal(st, seed=seed)
        dealt.append(st.solo["dealt"])
    assert dealt[0] == dealt[1] and dealt[0] != dealt[2]


def test_no_deal_outside_the_solo_game(monkeypatch: pytest.MonkeyPatch) -> None:
    st = fresh(monkeypatch)
    st.options["players"] = 2
    assert deal(st) == [] and st.solo == {}


def test_the_automa_has_no_hand_and_takes_no_part_in_the_draft() -> None:
    # rule 4: the only hand in a solo game is the player's (the 2-player shared hand of the Allies)
    assert hands_for(1, {}) == {"uk": "allies", "ussr": "allies"}


def test_the_automa_draws_from_its_own_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    # rule 1: the turn takes the dealt pile's top card; the main deck is not touched
    st = fresh(monkeypatch)
    deal(st)
    st.deck = ["td-01", "td-02"]
    top = st.solo["dealt"][0]
    run(st, {"k": "automa_turn", "power": "germany"})
    assert st.solo["revealed"] == top and st.solo["used"] == [top] and st.deck == ["td-01", "td-02"]


# ------------------------------------------------------------------ views and secrets
def test_views_show_the_revealed_card_and_sizes_never_the_pile(monkeypatch: pytest.MonkeyPatch) -> None:
    st = fresh(monkeypatch)
    deal(st)
    run(st, {"k": "automa_turn", "power": "germany"})
    shown = st.solo["revealed"]
    for seat in ("p1", None):
        view = views.view(st, seat)
        assert view["solo"]["revealed"]["id"] == shown and view["solo"]["revealed_for"] == "germany"
        assert view["solo"]["revealed"]["germany"]["actions"] == [["move", "army"]]
        assert view["solo"]["revealed"]["lines"] == [[], [], [], []]
        assert view["solo"]["dealt_left"] == 5 and view["solo"]["deck_size"] == 4
        text = json.dumps(view)
        assert not [c for c in st.solo["dealt"] + st.solo["deck"] if c in text]
    hidden = views.secrets(st, "p1")
    assert set(st.solo["dealt"]) | set(st.solo["deck"]) <= hidden and shown not in hidden


def test_removed_cards_stay_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    st = fresh(monkeypatch, year=1941)
    deal(st)
    assert set(st.solo["removed"]) <= views.secrets(st, "p1")
    assert views.view(st, "p1")["solo"]["removed"] == 4


def test_no_solo_view_outside_the_solo_game(monkeypatch: pytest.MonkeyPatch) -> None:
    st = fresh(monkeypatch)
    st.options["players"] = 4
    assert "solo" not in views.view(st, None)


# ------------------------------------------------------------------ rule 5: the automa's techs
def techs_state(monkeypatch: pytest.MonkeyPatch, techs: list[str], **have: list[str]) -> GameState:
    cards = [tech_card(f"td-{i + 1:02d}", t) for i, t in enumerate(techs)]
    stub(monkeypatch, cards=cards)
    st = solo_stage(spaces=[home("germany", "germany", capital=True)], techs=have)
    st.deck = [c.id for c in cards]
    return st


def test_rule_5_turns_up_cards_until_a_suitable_tech(monkeypatch: pytest.MonkeyPatch) -> None:
    # Germany: Enigma (c), V1 (a rocket), Radar without an Allied V1 (b), then Mechanization (a);
    # Japan: Heavy Bombers (c), then Landing Ships
    st = techs_state(monkeypatch, ["D2", "E1", "C3", "A1", "A4", "B1", "C1"])
    log = ids(run(st, {"k": "automa_techs"}))
    assert st.techs["germany"] == ["A1"] and st.techs["japan"] == ["B1"]
    assert st.tech_cards == {"germany": ["td-04"], "japan": ["td-06"]}
    assert st.discard == ["td-01", "td-02", "td-03", "td-05"] and st.deck == ["td-07"]
    assert log.count("automa_tech_skipped") == 4 and log.count("automa_tech") == 2


def test_rule_5_list_a_in_any_order(monkeypatch: pytest.MonkeyPatch) -> None:
    st = techs_state(monkeypatch, [])
    for tech in ("A1", "A2", "B1", "B2", "C1", "C2"):
        assert suitable(st, "germany", tech)[0]
    st.techs["germany"] = ["A2"]
    assert not suitable(st, "germany", "A2")[0]  # already developed


def test_rule_5_never_espionage_enigma_heavy_bombers_nor_rockets(monkeypatch: pytest.MonkeyPatch) -> None:
    st = techs_state(monkeypatch, [])
    for tech in ("D1", "D2", "A4", "E1", "E2", "E3"):
        assert not suitable(st, "japan", tech)[0]


def test_rule_5_one_radar_per_allied_v1(monkeypatch: pytest.MonkeyPatch) -> None:
    st = techs_state(monkeypatch, [], uk=["E1"])
    assert suitable(st, "germany", "C3")[0]
    st.techs["germany"] = ["C3"]
    assert not suitable(st, "japan", "C3")[0]  # one V1, one Radar already
    st.techs["ussr"] = ["E1"]
    assert suitable(st, "japan", "C3")[0]


def test_rule_5_gap_ground_attack_and_carriers_once_their_prerequisites_are_met(
        monkeypatch: pytest.MonkeyPatch) -> None:
    st = techs_state(monkeypatch, [], germany=["A1"], japan=["B1", "B2"])
    assert not suitable(st, "germany", "A3")[0] and suitable(st, "japan", "B3")[0]


def test_rule_5_turn_order_and_the_discards_taken_in(monkeypatch: pytest.MonkeyPatch) -> None:
    # the deck runs out: the discard pile is shuffled into a new one (gap G1); nothing suitable at
    # all: the search ends once every card has been seen
    st = techs_state(monkeypatch, ["D1", "D2"])
    st.discard = []
    log = ids(run(st, {"k": "automa_techs"}))
    assert log.count("automa_tech_none") == 2 and st.techs["germany"] == [] and st.techs["japan"] == []
    assert sorted(st.deck + st.discard) == ["td-01", "td-02"]


def test_rule_6_no_tech_vp_for_the_automa(monkeypatch: pytest.MonkeyPatch) -> None:
    st = techs_state(monkeypatch, ["A1", "B1"], germany=["C1"])
    run(st, {"k": "automa_techs"})
    assert st.techs["germany"] == ["C1", "A1"]
    assert derived.tech_vp(st, "germany") == 0 and derived.tech_vp(st, "japan") == 0


def test_rule_5_only_in_the_solo_game(monkeypatch: pytest.MonkeyPatch) -> None:
    st = techs_state(monkeypatch, ["A1"])
    st.options["players"] = 2
    run(st, {"k": "automa_techs"})
    assert st.deck == ["td-01"] and st.techs["germany"] == []
