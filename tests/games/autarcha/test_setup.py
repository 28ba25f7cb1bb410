"""The five scenarios' setup as the book gives them (spec §4, §19): forces, gold, factories, cards, the order
and zones of deployment, the hidden deployment behind the lid, the start roll."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.games.autarcha import deployment
from app.games.autarcha.pack import pack
from app.games.autarcha.rules import GAME
from app.games.autarcha.state import at
from app.games.secrets import leaks
from tests.games.autarcha.econ_kit import Dice, Table, play_setup

LINE_A, LINE_B = 13, 27  # side A deploys on rows 0..12 (south of line 07), B on rows 27..39 (north of 14)


def forces(state, seat):
    return Counter(d["kind"] for d in state.units.values() if d["seat"] == seat)


# ------------------------------------------------------------------ Skirmish (U-4.1)
def test_skirmish_issue_U4_1() -> None:
    """9 PIE, 6 PC, 3 ART, 1 HQ each; no gold, no ledger, no factories, no cards (no economy)."""
    st = Table("skirmish").state
    for seat in st.seats:
        assert forces(st, seat) == {"PIE": 9, "PC": 6, "ART": 3, "PSZ": 1}
        assert st.gold[seat] == 0 and st.ledger[seat] == []
    assert st.factories == {} and set(st.cards.values()) == {None}


def test_skirmish_deploys_both_at_once_each_in_its_half_U4_1() -> None:
    """Behind the lid both sides place at once (a simultaneous step), each in its own half (spec §19)."""
    t = Table("skirmish")
    ds = t.pending()
    assert {d.seat for d in ds} == {"white", "red"} and {d.kind for d in ds} == {"deploy"}
    assert len({d.group for d in ds}) == 1 and ds[0].group
    white = t.one("white").choice_ids()
    red = t.one("red").choice_ids()
    assert all(at(s)[0] < LINE_A for s in white) and all(at(s)[0] >= LINE_B for s in red)
    # only squares the kind may stand on: the HQ comes last, infantry first may swim
    terrain = pack().board.terrain
    assert all(pack().troops["PIE"].may_stand_on(terrain[at(s)[0]][at(s)[1]]) for s in white)


def _deploy_skirmish(t: Table, check_leaks: bool = True) -> None:
    rng = random.Random(11)
    while t.state.phase == "setup" and any(d.kind == "deploy" for d in t.pending()):
        for d in t.pending():
            t.answer(d.seat, rng.choice(d.choice_ids()), kind="deploy")
            if check_leaks:
                for seat in t.state.seats:
                    hidden = GAME.secrets(t.state, seat)
                    for payload in t.channels(seat):
                        assert leaks(payload, hidden) == [], (seat, payload[:300])


def test_hidden_deployment_never_leaks_before_the_reveal_U4_1() -> None:
    """Neither seat's view, pending decisions nor log carries a square of the other's units behind the lid
    (app.games.secrets.leaks over every channel, after every answer)."""
    t = Table("skirmish")
    _deploy_skirmish(t)
    assert t.one().kind == "first"
    assert all(d["sq"] is None for d in t.state.units.values())  # nothing on the open board yet
    screen = t.state.setup["screen"]
    assert len(screen["white"]) == len(screen["red"]) == 19
    # the secrets are real: white's own view holds its squares, which is a leak to red
    white_view = GAME.view(t.state, "white")
    assert set(white_view["behind_lid"]) == set(screen["white"])
    assert "behind_lid" in white_view and GAME.view(t.state, "red")["behind_lid"].keys() == screen["red"].keys()
    import json

    assert leaks(json.dumps(white_view), GAME.secrets(t.state, "red"))
    assert len(GAME.secrets(t.state, "red")) == 19


def test_hidden_deployment_answer_stays_unseen_until_both_answer() -> None:
    """A side's answer to a simultaneous step is not applied (nor shown) until the other side answers."""
    t = Table("skirmish")
    square = t.one("white").choice_ids()[0]
    t.answer("white", square)
    assert t.state.setup["screen"]["white"] == {}
    assert all(leaks(p, {square}) == [] for p in t.channels("red"))
    t.answer("red", t.one("red").choice_ids()[0])
    assert list(t.state.setup["screen"]["white"].values()) == [square]


def test_lid_comes_off_after_the_roll_all_at_once_U4_1() -> None:
    """The book: deploy, roll, the higher roller chooses, then the lid is lifted: every unit at once."""
    t = Table("skirmish", rng=Dice(2, 5))
    _deploy_skirmish(t, check_leaks=False)
    d = t.one()
    assert d.kind == "first" and d.seat == "red" and sorted(d.choice_ids()) == ["red", "white"]
    t.answer("red", "white")
    ids = t.log_ids()
    assert ids.index("first_chosen") < ids.index("lid_lifted")
    st = t.state
    assert all(d["sq"] is not None for d in st.units.values()) and "screen" not in st.setup
    assert st.first == "white" and st.active == "white" and st.turn == 1 and st.phase == "play"
    assert GAME.secrets(st, "red") == set() and GAME.secrets(st, "white") == set()
    # facing the enemy (README: deployment)
    assert {d["facing"] for d in st.units.values() if d["seat"] == "white"} == {"N"}
    assert {d["facing"] for d in st.units.values() if d["seat"] == "red"} == {"S"}


def test_start_roll_tie_rerolls_and_the_higher_chooses_U4_spec19() -> None:
    """Spec §19: a tie rolls again; the higher roller answers "who starts" (it may give the start away)."""
    t = Table("absolute_zero", rng=Dice(4, 4, 6, 1))
    t.answer("white", t.one("white").choice_ids()[0])
    t.answer("red", t.one("red").choice_ids()[0])
    d = t.one()
    assert (d.kind, d.seat) == ("first", "white")
    ids = t.log_ids()
    assert ids.count("roll_off") == 2 and ids.count("roll_off_tie") == 1
    t.answer("white", "red")
    assert t.state.first == "red" and t.state.active == "red"


# ------------------------------------------------------------------ Autarchy (U-4.2)
def test_autarchy_issue_U4_2() -> None:
    st = Table("autarchy").state
    for seat in st.seats:
        assert forces(st, seat) == {"PSZ": 1} and st.gold[seat] == 100
        assert [f for f, d in st.factories.items() if d["issued_to"] == seat] == [f"f{seat[0]}1"]
        assert st.ledger[seat][0]["income"] == 100 and st.ledger[seat][0]["balance"] == 100


def test_buying_both_at_once_hq_never_for_sale_one_ledger_line_U4_2() -> None:
    t = Table("autarchy")
    ds = t.pending()
    assert {d.seat for d in ds} == {"white", "red"} and {d.kind for d in ds} == {"buy"}
    assert "PSZ" not in ds[0].choice_ids() and "F" not in ds[0].choice_ids()
    assert set(ds[0].choice_ids()) == {"PIE", "PC", "ART", "SAP", "done"}
    for _ in range(3):
        t.answer("white", "PC")
        t.answer("red", "done") if t.pending("red") else None
    # white's cart is its own while it shops
    assert GAME.view(t.state, "white")["cart"] == ["PC", "PC", "PC"]
    assert GAME.view(t.state, "red")["cart"] == [] and "cart" not in GAME.view(t.state, None)
    t.answer("white", "done")
    st = t.state
    assert forces(st, "white") == {"PSZ": 1, "PC": 3} and forces(st, "red") == {"PSZ": 1}
    assert st.gold["white"] == 100 - 18 and st.ledger["white"][-1] == {
        "turn": 0, "what": {"id": "ledger_army", "params": {}}, "income": 0, "expense": 18, "balance": 82}
    assert len(st.ledger["red"]) == 1  # nothing bought: no line


def test_buying_stops_when_the_gold_runs_out() -> None:
    t = Table("civil_war")  # 50 gold: 16 infantry at 3 leave 2, which buys nothing
    t.answer("white", "deal")
    for _ in range(16):
        t.answer("white", "PIE")
        if t.pending("red") and t.one("red").kind == "buy":
            t.answer("red", "done")
    assert t.one().kind != "buy"
    assert forces(t.state, "white")["PIE"] == 16 and t.state.gold["white"] == 2


def test_surplus_then_alternate_U4_2() -> None:
    """The side with more units places until both have as many left, then one each in turn."""
    t = Table("autarchy")
    t.answer("white", "PIE")
    t.answer("red", "done")
    for _ in range(2):
        t.answer("white", "PIE")
    t.answer("white", "done")  # white 4 units (HQ + 3), red 1 (HQ)
    order = []
    while t.one().kind == "deploy":
        d = t.one()
        order.append(d.seat)
        assert all((at(s)[0] < LINE_A) if d.seat == "white" else (at(s)[0] >= LINE_B) for s in d.choice_ids())
        t.answer(d.seat, d.choice_ids()[0])
    assert order == ["white", "white", "white", "red", "white"]
    # the HQ goes down last
    assert t.state.units["u1"]["sq"] is not None


def test_factories_after_units_in_zone_not_on_water_then_cards_for_areas_held_U4_2() -> None:
    t = Table("autarchy", rng=Dice(6, 1))
    t.answer("white", "done")
    t.answer("red", "done")
    t.answer("white", t.one("white").choice_ids()[0])  # each HQ
    t.answer("red", t.one("red").choice_ids()[0])
    d = t.one()
    assert d.kind == "factory_site" and d.seat == "white"
    terrain = pack().board.terrain
    hq_sq = t.state.units["u1"]["sq"]
    assert hq_sq not in d.choice_ids()
    assert all(at(s)[0] < LINE_A and terrain[at(s)[0]][at(s)[1]] != "water" for s in d.choice_ids())
    assert any(terrain[r][c] == "water" for r, c in pack().zone("A"))  # the zone has water to refuse
    t.answer("white", d.choice_ids()[0])
    d = t.one()
    assert d.kind == "factory_site" and d.seat == "red"
    t.answer("red", d.choice_ids()[0])
    st = t.state
    area_w = pack().area_of(at(st.units["u1"]["sq"])).id
    area_r = pack().area_of(at(st.units["u2"]["sq"])).id
    assert st.cards[area_w] == "white" and st.cards[area_r] == "red"
    assert st.control[area_w] == "white" and sum(1 for v in st.cards.values() if v) == 2
    assert t.log_ids().count("card_taken_setup") == 2
    assert t.one().kind == "first" and t.one().seat == "white"


# ------------------------------------------------------------------ Civil War (U-4.3)
def test_civil_war_deals_all_cards_half_each_and_deploys_in_owned_areas_U4_3() -> None:
    t = Table("civil_war", rng=random.Random(4))
    st = t.state
    assert set(st.cards.values()) == {None}
    d = t.one()
    assert (d.seat, d.kind, d.choice_ids()) == ("white", "deal", ["deal"])  # a click, so the deal is logged
    events = t.answer("white", "deal")
    assert [e.msg.id for e in events][:2] == ["cards_dealt", "cards_dealt"]
    held = Counter(st.cards.values())
    assert held == {"white": 6, "red": 6} and st.gold["white"] == 50
    assert all(st.control[a] == s for a, s in st.cards.items())
    other_table = Table("civil_war", rng=random.Random(5))
    other_table.answer("white", "deal")
    other = other_table.state
    assert other.cards != st.cards  # shuffled with the game's RNG
    t.answer("white", "PIE")
    t.answer("red", "done")
    t.answer("white", "done")
    d = t.one()
    assert d.kind == "deploy" and d.seat == "white"
    assert {pack().area_of(at(s)).id for s in d.choice_ids()} <= {a for a, s in st.cards.items() if s == "white"}
    play_setup(t)
    for f in st.factories.values():
        assert st.cards[pack().area_of(at(f["sq"])).id] == f["issued_to"]


# ------------------------------------------------------------------ Total War (U-4.4)
def test_total_war_issue_U4_4() -> None:
    st = Table("total_war").state
    for seat in st.seats:
        assert forces(st, seat) == {"PIE": 15, "PC": 12, "ART": 6, "SAP": 3, "PSZ": 1}
        assert st.gold[seat] == 200 and sum(1 for d in st.factories.values() if d["issued_to"] == seat) == 2


def test_total_war_first_deployer_by_die_three_at_a_time_U4_4() -> None:
    t = Table("total_war", rng=Dice(1, 1, 2, 5))
    d = t.one()
    assert (d.seat, d.kind, d.choice_ids()) == ("white", "roll", ["roll"])  # a click, so the roll is logged
    t.answer("white", "roll")
    assert t.log_ids() == ["roll_off", "roll_off_tie", "roll_off", "first_deployer"]
    order = []
    for _ in range(12):
        d = t.one()
        order.append(d.seat)
        t.answer(d.seat, d.choice_ids()[0])
    assert order == ["red"] * 3 + ["white"] * 3 + ["red"] * 3 + ["white"] * 3
    assert all(at(d["sq"])[0] < LINE_A for d in t.state.units.values() if d["seat"] == "white" and d["sq"])


def test_total_war_whole_setup_two_factories_each_cards_controlled_U4_4() -> None:
    t = Table("total_war", rng=random.Random(2))
    play_setup(t)
    st = t.state
    assert all(d["sq"] for d in st.units.values()) and all(f["sq"] for f in st.factories.values())
    for seat, side in (("white", "A"), ("red", "B")):
        mine = {pack().area_of(at(d["sq"])).id for d in st.units.values() if d["seat"] == seat}
        assert {a for a, s in st.cards.items() if s == seat} == mine
        zone = set(pack().zone(side))
        assert all(at(f["sq"]) in zone for f in st.factories.values() if f["issued_to"] == seat)


# ------------------------------------------------------------------ Absolute Zero (U-4.5)
def test_absolute_zero_hq_at_the_arrow_crossing_no_cards_U4_5() -> None:
    t = Table("absolute_zero")
    st = t.state
    assert forces(st, "white") == {"PSZ": 1} and st.gold["white"] == 0 and st.factories == {}
    d = t.one()
    assert d.seat == "white" and sorted(d.choice_ids()) == ["07.08.SE", "07.08.SW"]
    t.answer("white", "07.08.SE")
    assert sorted(t.one().choice_ids()) == ["14.08.NE", "14.08.NW"]
    t.answer("red", "14.08.NW")
    assert set(st.cards.values()) == {None}  # spec §19: no cards at the start
    assert st.control[pack().area_of(at("07.08.SE")).id] == "white"


@pytest.mark.parametrize("scenario", ["skirmish", "autarchy", "civil_war", "total_war", "absolute_zero"])
def test_every_scenario_sets_up_to_the_first_turn(scenario: str) -> None:
    t = Table(scenario, rng=random.Random(9))
    play_setup(t, pick="last")
    st = t.state
    assert st.phase == "play" and st.turn == 1 and st.active == st.first
    assert all(d["sq"] for d in st.units.values())
    assert deployment.reserve(st, "white") == [] and deployment.reserve(st, "red") == []


def test_hidden_deployment_survives_dump_and_load() -> None:
    """Mid-deployment the screen and the half-answered step go through dump/load (a server restart)."""
    import json

    t = Table("skirmish")
    for _ in range(3):
        for d in t.pending():
            t.answer(d.seat, d.choice_ids()[0])
    t.answer("white", t.one("white").choice_ids()[0])  # red has not answered this step yet
    loaded = GAME.load(json.loads(json.dumps(GAME.dump(t.state))))
    assert loaded.setup["screen"] == t.state.setup["screen"]
    assert GAME.secrets(loaded, "red") == GAME.secrets(t.state, "red") and len(GAME.secrets(loaded, "red")) == 3
    assert [d.seat for d in GAME.pending(loaded)] == ["red"]
    t.state = loaded
    t.answer("red", t.one("red").choice_ids()[0])
    assert len(t.state.setup["screen"]["white"]) == len(t.state.setup["screen"]["red"]) == 4
    assert GAME.view(t.state, None)["behind_lid_count"] == {"white": 4, "red": 4}
    assert GAME.view(t.state, None)["behind_lid"] == {}
