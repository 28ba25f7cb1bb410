"""Recruiting new units (spec §12, U-13.1's HQ bonus)."""

from __future__ import annotations

from app.games.autarcha import recruitment
from app.games.autarcha.pack import close_surroundings, pack
from app.games.autarcha.state import at, sid
from tests.games.autarcha.econ_kit import apply, menu_ids, move_to, pending_one, position, squares_in

SP, SC, LM, NP = "south_pass", "south_capital", "lower_meadows", "north_pass"
CITY = "sudogrod"  # in South Capital, crossings 03.07-03.08
FAR_HQ = squares_in(SP, "PSZ")[0]  # not in the city's [BO]


def city_bo() -> set[str]:
    city = pack().cities[CITY]
    return {sid(sq) for sq in pack().recruitment_squares(city)}


def hq_next_to_city() -> str:
    return "03.07.SW"  # a square of Sudogród: the city lies in the HQ's [BO]


def setup_city(hq: str = FAR_HQ, gold: int = 20, extra: list[tuple[str, str, str]] | None = None):  # noqa: ANN201
    units = [("white", "PSZ", hq), ("red", "PSZ", squares_in(NP, "PSZ")[-1]),
             ("white", "PIE", squares_in(SC)[-1]), *(extra or [])]
    return position("autarchy", units, gold={"white": gold})


def test_city_recruits_infantry_and_sappers_in_its_bo_U12_1_U12_2() -> None:
    st = setup_city()
    assert st.control[SC] == "white"
    assert "recruit:sudogrod" in menu_ids(st) and "recruit:nordogrod" not in menu_ids(st)
    apply(st, "white", "recruit:sudogrod")
    d = pending_one(st)
    assert d.kind == "recruit" and d.choice_ids() == ["PIE", "SAP"]  # no way back: the move is spent
    assert st.moves_left == 4
    apply(st, "white", "PIE")
    d = pending_one(st)
    assert d.kind == "place" and set(d.choice_ids()) <= city_bo()
    terrain = pack().board.terrain
    assert all(pack().troops["PIE"].may_stand_on(terrain[at(s)[0]][at(s)[1]]) for s in d.choice_ids())
    square = d.choice_ids()[0]
    apply(st, "white", square)
    new = st.unit_at(square)
    assert new and st.units[new]["kind"] == "PIE" and st.units[new]["new"] is True
    assert st.gold["white"] == 17 and st.ledger["white"][-1]["expense"] == 3
    assert pending_one(st).kind == "move"  # one unit per move: back to the menu
    assert f"unit:{new}" not in menu_ids(st)  # may not act this turn (U-12.1)
    apply(st, "white", "end")
    assert st.units[new]["new"] is False


def test_one_unit_per_move_without_the_hq_bonus_U12_1() -> None:
    st = setup_city()
    apply(st, "white", "recruit:sudogrod")
    apply(st, "white", "SAP")
    apply(st, "white", pending_one(st).choice_ids()[0])
    assert pending_one(st).kind == "move" and st.moves_left == 4


def test_hq_bonus_any_number_in_one_move_U12_3() -> None:
    st = setup_city(hq=hq_next_to_city(), gold=30)
    assert recruitment.hq_bonus(st, "white", CITY)
    apply(st, "white", "recruit:sudogrod")
    for n in range(3):
        d = pending_one(st)
        assert d.kind == "recruit" and ("done" in d.choice_ids()) == (n > 0)
        apply(st, "white", "PIE")
        apply(st, "white", pending_one(st).choice_ids()[0])
    apply(st, "white", "done")
    assert st.moves_left == 4 and st.gold["white"] == 21
    assert sum(1 for d in st.units.values() if d["new"]) == 3


def test_hq_bonus_stops_when_the_gold_does() -> None:
    st = setup_city(hq=hq_next_to_city(), gold=7)
    apply(st, "white", "recruit:sudogrod")
    for _ in range(2):
        apply(st, "white", "PIE")
        apply(st, "white", pending_one(st).choice_ids()[0])
    assert pending_one(st).kind == "move" and st.gold["white"] == 1


def test_factory_recruits_armour_and_artillery_not_on_water_U12_2() -> None:
    st = setup_city()
    fsq = squares_in(SP)[30]
    st.factories["fw1"] = {"sq": fsq, "hits": 0, "issued_to": "white"}
    assert "recruit:fw1" in menu_ids(st)
    apply(st, "white", "recruit:fw1")
    assert pending_one(st).choice_ids() == ["PC", "ART"]
    apply(st, "white", "ART")
    squares = pending_one(st).choice_ids()
    bo = {sid(sq) for sq in close_surroundings(pack().board, at(fsq))}
    terrain = pack().board.terrain
    assert set(squares) <= bo - {fsq}
    assert all(terrain[at(s)[0]][at(s)[1]] not in ("water", "mountains") or pack().troops["ART"].may_stand_on(
        terrain[at(s)[0]][at(s)[1]]) for s in squares)
    assert all(pack().troops["ART"].may_stand_on(terrain[at(s)[0]][at(s)[1]]) for s in squares)


def test_recruiting_needs_control_of_the_producers_area_U12_2() -> None:
    st = setup_city()
    st.factories["fr1"] = {"sq": squares_in(NP)[30], "hits": 0, "issued_to": "red"}  # neutral, in red's area
    st.factories["fx"] = {"sq": squares_in(LM)[30], "hits": 0, "issued_to": "white"}  # nobody controls it
    ids = menu_ids(st)
    assert "recruit:fr1" not in ids and "recruit:fx" not in ids


def test_no_recruiting_in_an_area_under_war_status_U6_2_4() -> None:
    st = setup_city(extra=[("red", "PIE", squares_in(SP)[-1])])
    assert "recruit:sudogrod" in menu_ids(st)
    move_to(st, "u4", squares_in(SC)[0])
    assert SC in st.war and "recruit:sudogrod" not in menu_ids(st)


def test_recruiting_near_enemies_is_allowed_spec19() -> None:
    """An enemy unit in the factory's [BO] (across the area's border) does not forbid recruiting there."""
    fsq, enemy = sid((12, 4)), sid((13, 4))
    assert pack().area_of((12, 4)).id == SP and pack().area_of((13, 4)).id == "lower_burgh"
    assert (13, 4) in close_surroundings(pack().board, (12, 4))
    st = setup_city(extra=[("red", "PIE", enemy)])
    st.factories["fw1"] = {"sq": fsq, "hits": 0, "issued_to": "white"}
    assert "recruit:fw1" in menu_ids(st)
    apply(st, "white", "recruit:fw1")
    apply(st, "white", "PC")
    assert enemy not in pending_one(st).choice_ids()  # occupied squares are not free
    assert fsq not in pending_one(st).choice_ids()  # nor the factory's own


def test_not_enough_gold_no_offer_U12_1() -> None:
    st = setup_city(gold=2)
    assert not any(c.startswith("recruit:") for c in menu_ids(st))


def test_recruiting_costs_one_of_the_five_moves_U12_1() -> None:
    st = setup_city()
    st.moves_left = 0
    assert not any(c.startswith("recruit:") for c in menu_ids(st))


def test_destroyed_factory_recruits_nothing() -> None:
    st = setup_city()
    st.factories["fw1"] = {"sq": squares_in(SP)[30], "hits": 4, "issued_to": "white"}
    assert "recruit:fw1" not in menu_ids(st)
