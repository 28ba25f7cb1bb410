"""A Logistics event's icons (spec §7.2; G22, G23) resolved by push_logistics, on staged boards."""

from __future__ import annotations

import pytest

from app.games.total_domination import flow, tracks, views
from app.games.total_domination.derived import space_vp
from app.games.total_domination.logistics import push_logistics
from tests.games.total_domination.boards import card, home, island, land, stage, stub_pack
from tests.games.total_domination.ops_table import Table


@pytest.fixture(autouse=True)
def deck(monkeypatch):
    stub = stub_pack(monkeypatch, cards=[card("log", op=4, kind="logistics")])
    stub.tracks, stub.years = {"usa": 3, "china": 3}, {}
    for module in (tracks, flow):
        monkeypatch.setattr(module, "pack", lambda: stub)
    return stub


def europe(**kw):
    """Germany (capital, factory, shipyard), Italy (Axis coalition home), France (a French home
    space Germany occupies), Poland and Austria (neutral, a German army each), Malta (an island
    with a German fleet), Spain (neutral, empty)."""
    return stage(spaces=[home("germany", "germany", capital=True, factory=True, shipyard=True),
                         home("italy", "italy", stars=2), home("france", "france", shape="land", stars=2),
                         land("poland", stars=2), land("austria"), island("malta"), land("spain")],
                 links=[("germany", "poland", "land"), ("germany", "austria", "land"), ("germany", "france", "land"),
                        ("austria", "italy", "land"), ("italy", "malta", "sea"), ("france", "spain", "land")],
                 units=[("germany", "army", "poland"), ("germany", "army", "austria"), ("germany", "army", "france"),
                        ("germany", "fleet", "malta")], **kw)


def logistics(st, power, icons):
    st.turn = {"power": power}
    t = Table(st)
    t.call(push_logistics, power, icons, "log")
    return t


def test_a_build_icon_builds_one_unit_of_its_type_free():
    st = europe()
    t = logistics(st, "germany", {"army": 1})
    builds = [c for c in t.choices() if c.startswith("build:")]
    assert builds == ["build:germany:army:germany"] and t.cost(builds[0]) == 0
    assert t.decision.kind == "logistics" and t.decision.undoable
    t.answer("build:germany:army:germany")
    assert not t.waiting and [u.kind for u in st.units_at("germany")] == ["army"]


def test_a_move_icon_moves_a_unit_built_by_the_same_event():
    st = europe()
    t = logistics(st, "germany", {"fleet": 1, "move": 1})
    t.answer("build:germany:fleet:germany")
    fleet = st.units[-1].id
    assert not any(c.startswith("build:") for c in t.choices())  # one fleet icon, used
    moves = [c for c in t.choices() if c.startswith(f"move:{fleet}:")]
    assert moves, "the new fleet may move"
    t.answer(moves[0])
    assert not t.waiting


def test_satellites_two_armies_never_on_one_space_nor_on_a_start_axis_home_space():
    st = europe()
    vp = space_vp(st)["germany"]
    t = logistics(st, "germany", {"satellite": 1})
    assert sorted(c for c in t.choices() if c.startswith("satellite:")) == [
        "satellite:austria", "satellite:france", "satellite:poland"]  # not Germany, Italy, Malta (island), Spain
    t.answer("satellite:poland")
    assert sorted(c for c in t.choices() if c.startswith("satellite:")) == ["satellite:austria", "satellite:france"]
    t.answer("satellite:france")
    assert not t.waiting
    assert sorted(u.space for u in st.units if u.kind == "army") == ["austria", "france", "france", "poland",
                                                                     "poland"]
    assert space_vp(st)["germany"] == vp  # the spaces were German already


def test_two_satellite_icons_may_use_one_space_each_once():
    st = europe()
    st.geo.spaces["london"] = home("london", "uk", capital=True)  # taken by Germany: room for 4
    st.geo.neighbours["london"] = ()
    st.new_unit("germany", "army", "london")
    st.new_unit("germany", "army", "london")
    t = logistics(st, "germany", {"satellite": 2})
    t.answer("satellite:london")
    assert "satellite:london" in t.choices()  # only as the second icon's first army
    t.answer("satellite:poland")  # the first icon's second army
    t.answer("satellite:london")  # the second icon begins
    assert "satellite:london" not in t.choices()  # never both armies of one icon on one space
    t.answer("satellite:france")
    assert not t.waiting and sum(1 for u in st.units_at("london")) == 4


def test_resistance_up_to_three_on_axis_spaces_that_are_not_their_home_spaces():
    st = europe()
    vp = space_vp(st)["germany"]
    t = logistics(st, "uk", {"resistance": 1, "satellite": 1})
    assert sorted(t.choices()) == ["done", "resistance:austria", "resistance:france", "resistance:poland"]
    t.answer("resistance:poland").answer("resistance:poland").answer("resistance:france")
    assert not t.waiting
    assert sorted(u.space for u in st.units if u.kind == "resistance") == ["france", "poland", "poland"]
    assert space_vp(st)["germany"] == vp - 3  # Poland 2 → 0, France 2 → 1


def test_the_player_may_stop_early_and_sees_the_icons_left():
    st = europe()
    t = logistics(st, "germany", {"army": 1, "move": 2})
    assert views.view(st, "uk")["logistics"]["icons"] == {"army": 1, "move": 2}
    t.answer("done")
    assert not t.waiting and views.view(st, "uk")["logistics"] is None
    assert t.logged("logistics_done") == [{"power": "germany"}]


def test_nothing_to_do_ends_the_event_at_once():
    st = europe(destroyed=["germany"])
    t = logistics(st, "germany", {"army": 1})
    assert not t.waiting



def test_resistance_comes_from_one_shared_pool(monkeypatch, deck):
    deck.tokens = {"germany": {"army": 10, "fleet": 10}, "resistance": {"resistance": 4}}
    st = europe()
    st.new_unit("ussr", "resistance", "austria")
    t = logistics(st, "uk", {"resistance": 2})
    for _ in range(3):
        t.answer("resistance:poland")
    assert not t.waiting  # 4 in the box: the USSR's one and three British
    assert sum(1 for u in st.units if u.kind == "resistance") == 4


def test_solo_rule_8_a_solo_game_ignores_resistance_and_bomber_icons():
    st = europe()
    st.options["players"] = 1
    st.seats = {"germany": "", "uk": "p1", "japan": "", "ussr": "p1"}
    t = logistics(st, "uk", {"resistance": 1, "bomber": 1})
    assert not t.waiting  # both icons ignored: nothing to resolve
    assert not [u for u in st.units if u.kind in ("resistance", "bomber")]
