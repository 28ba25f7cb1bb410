"""Movement (spec §7): steps, facings, the environment caps of U-7.2.1, roads and rails as modes, mountain
roads, forbidden terrain, occupied squares, and the walk half through the engine. Positions are drawn on
small staged boards (move_kit); rows run from the south, so facing N adds one to the row."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from app.games.autarcha import engine, flow, movement
from app.games.autarcha.engine import Ctx
from app.games.autarcha.movement import can_move, destinations, environment, steps_left
from app.games.autarcha.pack import ENVIRONMENTS, UNITS, pack, use_pack
from app.games.autarcha.state import at, sid
from app.games.protocol import Illegal
from tests.games.autarcha.move_kit import answer, logged, pending, put, stage, start_turn

GROUND = ["." * 8] * 8


@pytest.fixture(autouse=True)
def _real_pack() -> Iterator[None]:
    yield
    use_pack(None)


# ------------------------------------------------------------------ U-7.1: steps
def test_MOVE_EX_2_infantry_in_ground_makes_at_most_three_steps() -> None:
    """U-7.1.4 / MOVE-EX-2: F,F,F; T90,T45,F; T45,F are legal; a 4th step never is."""
    s = stage(GROUND)
    u = put(s, "white", "PIE", (2, 3), "N")
    assert steps_left(s, u, ["F", "F", "F"]) == 0
    assert steps_left(s, u, ["R90", "R45", "F"]) == 0
    assert steps_left(s, u, ["R45", "F"]) == 1
    assert steps_left(s, u, ["F", "F", "F", "F"]) is None
    assert steps_left(s, u, ["L45", "F", "F", "R45"]) is None
    found = destinations(s, u)
    assert max(r.steps for r in found.values()) == 3
    assert found[f"{sid((5, 3))}@N"].sequence == ("F", "F", "F")
    assert found[f"{sid((3, 4))}@SE"].sequence == ("R45", "F", "R90")  # a T90, T45, F walk's cheapest twin
    assert f"{sid((6, 3))}@N" not in found


def test_U_7_1_2_each_step_costs_one_whatever_the_environment() -> None:
    s = stage(["." * 4, "f" * 4, "." * 4, "." * 4])
    u = put(s, "white", "SAP", (1, 1), "N")  # SAP: 3 in ground and in forest
    assert steps_left(s, u, ["F"]) == 2
    assert steps_left(s, u, ["F", "F"]) == 1  # into the forest: 3 - 2
    assert steps_left(s, u, ["L45"]) == 2 and steps_left(s, u, ["L90"]) == 2


def test_U_7_1_3_advancing_while_facing_a_diagonal_enters_the_diagonal_square() -> None:
    s = stage(GROUND)
    u = put(s, "white", "PIE", (2, 2), "NE")
    assert destinations(s, u)[f"{sid((3, 3))}@NE"].sequence == ("F",)
    assert destinations(s, u)[f"{sid((3, 3))}@NE"].squares == (sid((3, 3)),)


def test_the_route_to_each_end_is_the_cheapest_and_its_cost_is_shown() -> None:
    s = stage(GROUND)
    u = put(s, "white", "PC", (1, 1), "N")
    found = destinations(s, u)
    r = found[f"{sid((1, 3))}@E"]
    assert r.steps == 3 and r.sequence == ("R90", "F", "F")  # not R45, R45, F, F
    assert all(found[k].steps <= 4 for k in found)
    assert f"{sid((1, 1))}@N" not in found  # no end where it started


# ------------------------------------------------------------------ the Troops Table by environment
LANDSCAPES = {"ground": ".", "forest": "f", "mountains": "^", "water": "~", "city": "#"}


@pytest.mark.parametrize("kind", UNITS)
@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_the_allowance_where_a_unit_stands_is_its_troops_table_value(kind: str, env: str) -> None:
    """Movement-cost case per kind and per environment column (road and rail: on the track, facing along)."""
    value = pack().troops[kind].max_steps(env)
    if env in LANDSCAPES:
        s = stage([LANDSCAPES[env] * 3] * 3)
    else:
        s = stage(GROUND[:3], **{f"{env}s": [".|.", ".|.", ".|."]})
    u = put(s, "white", kind, (1, 1), "N")
    got_env, top = environment(s, pack().troops[kind], (1, 1), "N")
    if env in LANDSCAPES or value is not None:
        assert (got_env, top) == (env, value)
        assert can_move(s, u) == bool(value)
    else:  # "–" in a track column: no such mode, the ground under it counts (README: modes)
        assert got_env == "ground" and top == pack().troops[kind].max_steps("ground")


@pytest.mark.parametrize("kind", UNITS)
def test_on_a_road_facing_across_it_the_landscape_counts(kind: str) -> None:
    """U-7.2.2: road or rail mode only while facing along the track."""
    s = stage(["fff"] * 3, roads=[".|.", ".|.", ".|."])
    assert environment(s, pack().troops[kind], (1, 1), "E") == ("forest", pack().troops[kind].max_steps("forest"))
    assert environment(s, pack().troops[kind], (1, 1), "S")[0] == "road"


def test_a_unit_on_0_step_terrain_cannot_move_nor_turn() -> None:
    """U-7.1.6 / spec §19: 0 steps: it may stay, but a turn is a step too."""
    s = stage(["^^^"] * 3)
    u = put(s, "white", "ART", (1, 1), "N")
    assert not can_move(s, u)
    assert destinations(s, u) == {}
    assert steps_left(s, u, ["L45"]) is None


def test_a_destroyed_forest_counts_as_ground() -> None:
    """U-3.5.9: a destruction marker makes the square plain ground."""
    s = stage(["fff"] * 3)
    u = put(s, "white", "PC", (1, 1), "N")
    assert movement.allowance_now(s, u) == 1
    s.destroyed[sid((1, 1))] = ["forest"]
    assert movement.allowance_now(s, u) == 4


def test_a_destroyed_road_gives_no_road_mode() -> None:
    s = stage(["fff"] * 3, roads=[".|.", ".|.", ".|."])
    u = put(s, "white", "PC", (1, 1), "N")
    assert movement.allowance_now(s, u) == 4
    s.destroyed[sid((1, 1))] = ["road"]
    assert movement.allowance_now(s, u) == 1


def test_a_factory_square_is_moved_over_as_a_city() -> None:
    """U-3.5.8: buildings do not block; a unit moves over one as over a city square."""
    s = stage(GROUND[:4])
    u = put(s, "white", "PC", (0, 1), "N")
    s.factories["fw1"] = {"sq": sid((1, 1)), "hits": 0, "issued_to": "white"}
    found = destinations(s, u)
    assert found[f"{sid((1, 1))}@N"].environment == "city"
    assert steps_left(s, u, ["F"]) == 0  # PC city 1: 1 - 1
    assert f"{sid((2, 1))}@N" not in found


def test_the_printed_board_s_environments_are_kept_but_a_building_or_a_destruction_changes_them() -> None:
    """The search keeps each square's environment on the board as printed (``movement._PRISTINE``); a square
    a factory stands on, or whose own or neighbour's object is destroyed, is computed from the state again."""
    s = stage(["fff"] * 4, roads=[".|.", ".|.", "...", "..."])  # the first line is the northern edge
    u = put(s, "white", "PC", (0, 1), "N")
    before = destinations(s, u)
    assert f"{sid((1, 1))}@N" in before and f"{sid((2, 1))}@N" not in before  # forest: one step
    s.destroyed[sid((1, 1))] = ["forest"]  # ground now: four steps, and onto the road beyond
    after = destinations(s, u)
    assert after[f"{sid((1, 1))}@N"].environment == "ground" and f"{sid((3, 1))}@N" in after
    s.destroyed = {}
    s.factories["fw1"] = {"sq": sid((1, 1)), "hits": 0, "issued_to": "white"}
    assert destinations(s, u)[f"{sid((1, 1))}@N"].environment == "city"
    s.factories = {}
    s.destroyed[sid((2, 1))] = ["road"]  # the road's square below is forest again for a unit on it
    assert environment(s, pack().troops["PC"], (2, 1), "N")[0] == "forest"
    assert destinations(s, u) == before


# ------------------------------------------------------------------ U-7.2 / U-7.3: MOVE-EX-1
ROAD_COLUMN = [".|..", ".|..", ".|..", ".|..", ".|..", ".|.."]


def test_MOVE_EX_1a_armour_on_a_road_makes_four_squares_along_it() -> None:
    s = stage(["f" * 4] * 6, roads=ROAD_COLUMN)
    u = put(s, "white", "PC", (0, 1), "N")
    found = destinations(s, u)
    assert found[f"{sid((4, 1))}@N"].steps == 4
    assert found[f"{sid((4, 1))}@N"].environment == "road"
    assert f"{sid((5, 1))}@N" not in found


@pytest.mark.parametrize(("landscape", "left"), [("f", 0), (".", 1)])
def test_MOVE_EX_1b_two_road_squares_and_a_45_turn_leave_the_road(landscape: str, left: int) -> None:
    """After 2 road steps + a 45° turn: 0 left in forest (1 - 3), 1 left in 4-step ground (4 - 3)."""
    s = stage([landscape * 4] * 6, roads=ROAD_COLUMN)
    u = put(s, "white", "PC", (0, 1), "N")
    assert steps_left(s, u, ["F", "F", "R45"]) == left
    assert destinations(s, u)[f"{sid((2, 1))}@NE"].environment == {"f": "forest", ".": "ground"}[landscape]
    if left == 0:
        assert steps_left(s, u, ["F", "F", "R45", "F"]) is None


def test_MOVE_EX_1c_entering_a_rail_along_it_on_the_4th_step_leaves_two() -> None:
    """Rail max 6 for PC: 6 - 4 = 2 more steps."""
    s = stage(["." * 4] * 6, roads=ROAD_COLUMN, rails=["....", "...|", "../.", "....", "....", "...."])
    u = put(s, "white", "PC", (0, 1), "N")
    assert steps_left(s, u, ["F", "F", "R45"]) == 1
    assert steps_left(s, u, ["F", "F", "R45", "F"]) == 2  # on (3, 2), facing NE along the rail
    found = destinations(s, u)
    assert found[f"{sid((3, 2))}@NE"].environment == "rail"
    assert steps_left(s, u, ["F", "F", "R45", "F", "F", "L45"]) == 0  # (4, 3): the rail turns N there
    assert steps_left(s, u, ["F", "F", "R45", "F", "F", "L45", "F"]) is None


# ------------------------------------------------------------------ U-7.5: roads and rails
def test_U_7_5_3_reversing_on_a_road_costs_two_steps_and_keeps_road_mode() -> None:
    s = stage(["f" * 4] * 6, roads=ROAD_COLUMN)
    u = put(s, "white", "PC", (2, 1), "N")
    assert steps_left(s, u, ["L90", "L90"]) == 2  # road 4 - 2, not forest 1 - 2
    assert destinations(s, u)[f"{sid((2, 1))}@S"].environment == "road"
    assert steps_left(s, u, ["L90", "L90", "F", "F"]) == 0
    assert steps_left(s, u, ["L90", "F"]) is None  # half a reversal is no way off the road: forest 1 - 1


def test_U_7_5_3_reversing_over_water_keeps_a_unit_that_cannot_swim() -> None:
    """The HQ ("–" in water) reverses on a bridge; stopping half-way, across the bridge, loses it."""
    s = stage(["~" * 3] * 4, roads=[".|."] * 4)
    u = put(s, "white", "PSZ", (1, 1), "N")
    found = destinations(s, u)
    assert not found[f"{sid((1, 1))}@S"].lost
    assert found[f"{sid((1, 1))}@E"].lost and found[f"{sid((1, 1))}@E"].steps == 1


def test_following_a_bend_is_a_turn_that_keeps_road_mode() -> None:
    """U-7.5.1: a bend costs a turn; the road leads on from the bend square, so the unit stays on it."""
    s = stage(["f" * 5] * 4, roads=[".....", "...|.", "../..", "--..."])
    u = put(s, "white", "PC", (0, 0), "E")  # on the E-W road, the diagonal leaves NE from (0, 1)
    assert steps_left(s, u, ["F"]) == 3
    assert steps_left(s, u, ["F", "L45"]) == 2  # facing NE at the bend: still the road (forest would give 0)
    assert steps_left(s, u, ["F", "L45", "F"]) == 1  # (1, 2) on the diagonal
    assert steps_left(s, u, ["F", "L45", "F", "F"]) == 0
    back = put(s, "red", "PC", (2, 3), "S")
    assert steps_left(s, back, ["R45", "F"]) == 2  # arrives at (1, 2) facing SW, along the diagonal


def test_a_kind_with_dash_in_the_rail_column_is_never_in_rail_mode() -> None:
    """README: the track columns are modes; "–" means the kind cannot use it."""
    s = stage(["." * 3] * 3, rails=[".|.", ".|.", ".|."])
    u = put(s, "white", "ART", (1, 1), "N")
    assert environment(s, pack().troops["ART"], (1, 1), "N") == ("ground", 2)
    assert not destinations(s, u)[f"{sid((2, 1))}@N"].lost


# ------------------------------------------------------------------ U-7.6: roads through mountains
def test_U_7_6_2_a_unit_that_cannot_be_in_mountains_is_lost_turning_off_a_mountain_road() -> None:
    s = stage(["^" * 3] * 4, roads=[".|."] * 4, steps={("PIE", "mountains"): None})
    u = put(s, "white", "PIE", (1, 1), "N")
    found = destinations(s, u)
    assert not found[f"{sid((3, 1))}@N"].lost  # along the road it is safe
    assert found[f"{sid((1, 1))}@NE"].lost
    assert f"{sid((2, 2))}@NE" not in found  # nothing follows the fatal step


def test_U_7_6_3_a_unit_with_0_in_mountains_may_turn_off_and_stays_blocked_there() -> None:
    s = stage(["^" * 3] * 4, roads=[".|."] * 4)
    u = put(s, "white", "ART", (0, 1), "N")
    assert can_move(s, u)  # along the road: road 2
    found = destinations(s, u)
    assert found[f"{sid((1, 1))}@NE"].environment == "mountains" and not found[f"{sid((1, 1))}@NE"].lost
    assert steps_left(s, u, ["F", "R45"]) == 0
    s.units[u]["sq"], s.units[u]["facing"] = sid((1, 1)), "NE"
    assert not can_move(s, u) and destinations(s, u) == {}


# ------------------------------------------------------------------ U-7.1.5 / U-7.1.6
def test_U_7_1_6_entering_dash_terrain_is_offered_and_loses_the_unit() -> None:
    s = stage(["~~~", "...", "..."])
    u = put(s, "white", "ART", (1, 1), "N")
    put(s, "white", "PSZ", (0, 0), "N")
    put(s, "red", "PSZ", (0, 2), "N")
    start_turn(s)
    answer(s, f"unit:{u}")
    answer(s, "move")
    d = pending(s)
    assert d.kind == "walk"
    key = f"{sid((2, 1))}@N"
    lost = next(c for c in d.choices if c.id == key)
    assert lost.msg is not None and lost.msg.id == "choice_walk_lost"
    ctx = answer(s, key)
    assert u not in s.units
    assert "unit_lost_terrain" in logged(ctx)
    assert s.flags["lost"]["white"] == ["ART"]


def test_U_7_1_5_occupied_squares_block_own_and_enemy_alike() -> None:
    s = stage(GROUND)
    u = put(s, "white", "PIE", (1, 1), "N")
    put(s, "white", "PIE", (2, 1), "N")
    put(s, "red", "PIE", (1, 2), "N")
    found = destinations(s, u)
    assert f"{sid((2, 1))}@N" not in found and f"{sid((3, 1))}@N" not in found
    assert f"{sid((1, 2))}@E" not in found and f"{sid((1, 3))}@E" not in found


def test_a_diagonal_squeeze_between_two_units_is_allowed() -> None:
    """Spec §19: no corner-cutting rule."""
    s = stage(GROUND)
    u = put(s, "white", "PIE", (1, 1), "NE")
    put(s, "red", "PIE", (2, 1), "N")
    put(s, "red", "PIE", (1, 2), "N")
    assert f"{sid((2, 2))}@NE" in destinations(s, u)


def test_mines_do_not_block_a_walk() -> None:
    s = stage(GROUND)
    u = put(s, "white", "PIE", (1, 1), "N")
    s.mines["red"] = [{"sq": sid((2, 1)), "call": "fire", "id": "m1"}]
    assert f"{sid((3, 1))}@N" in destinations(s, u)


# ------------------------------------------------------------------ the walk through the engine
def test_the_walk_enters_every_square_in_order_and_a_stop_ends_it(monkeypatch: pytest.MonkeyPatch) -> None:
    s = stage(GROUND)
    u = put(s, "white", "PIE", (0, 1), "N")
    put(s, "white", "PSZ", (0, 5), "N")
    put(s, "red", "PSZ", (7, 7), "S")
    entered: list[str] = []

    def spy(ctx: Ctx, unit: str, square: str) -> bool:
        entered.append(square)
        return square == sid((2, 1))

    monkeypatch.setattr(flow, "ENTER", [spy])
    start_turn(s)
    answer(s, f"unit:{u}")
    answer(s, "move")
    answer(s, f"{sid((3, 1))}@N")
    assert entered == [sid((1, 1)), sid((2, 1))]
    assert s.units[u]["sq"] == sid((2, 1))
    assert s.units[u]["acted"] and s.moves_left == 4


def test_a_walk_sets_the_facing_it_ends_with() -> None:
    s = stage(GROUND)
    u = put(s, "white", "PC", (0, 1), "N")
    put(s, "white", "PSZ", (0, 5), "N")
    put(s, "red", "PSZ", (7, 7), "S")
    start_turn(s)
    answer(s, f"unit:{u}")
    answer(s, "move")
    ctx = answer(s, f"{sid((1, 2))}@E")
    assert s.units[u]["sq"] == sid((1, 2)) and s.units[u]["facing"] == "E"
    assert "walk_done" in logged(ctx)


def test_FAIRPLAY_EX_a_walk_end_that_is_not_offered_is_refused_before_anything_moves() -> None:
    """U-7.1.7: only legal ends are offered; anything else is refused and the unit stays (README)."""
    s = stage(GROUND)
    u = put(s, "white", "PIE", (0, 1), "N")
    put(s, "white", "PSZ", (0, 5), "N")
    put(s, "red", "PSZ", (7, 7), "S")
    start_turn(s)
    answer(s, f"unit:{u}")
    answer(s, "move")
    for bad in (f"{sid((5, 1))}@N", "nowhere", f"{sid((0, 1))}@N"):
        with pytest.raises(Illegal):
            answer(s, bad)
    assert s.units[u]["sq"] == sid((0, 1))


def test_a_second_half_walk_may_stay() -> None:
    s = stage(GROUND)
    u = put(s, "white", "PIE", (0, 1), "N")
    s.stack = [{"k": "walk", "unit": u, "may_skip": True}]
    engine.run(Ctx(s, random.Random(0)))
    assert "stay" in pending(s).choice_ids()
    answer(s, "stay")
    assert s.units[u]["sq"] == sid((0, 1))


def test_the_search_is_pure() -> None:
    s = stage(["f" * 4] * 6, roads=ROAD_COLUMN)
    u = put(s, "white", "PC", (0, 1), "N")
    before = (dict(s.units[u]), at(s.units[u]["sq"]))
    assert destinations(s, u) == destinations(s, u)
    assert (dict(s.units[u]), at(s.units[u]["sq"])) == before


def test_every_offered_route_replays_legally_to_its_end_on_the_real_board() -> None:
    """Seeded sample: each kind at random squares and facings of the shipped map (roads, rails, bridges,
    mountains); every route is a legal walk of its stated cost that ends where its choice id says."""
    from app.games.autarcha.movement import replay
    from app.games.autarcha.pack import DIRECTIONS
    from app.games.autarcha.state import SEATS, GameState

    use_pack(None)
    rng = random.Random(14)
    board = pack().board
    track_squares = [sq for sq in board.squares() if board.roads[sq[0]][sq[1]] or board.rails[sq[0]][sq[1]]]
    checked = 0
    for i in range(60):
        s = GameState(options={}, seats=list(SEATS), scenario="skirmish")
        pool = track_squares if i % 2 else board.squares()
        sq = rng.choice(pool)
        kind = UNITS[i % len(UNITS)]
        if not pack().troops[kind].may_stand_on(board.terrain[sq[0]][sq[1]]) and i % 2 == 0:
            continue
        u = s.new_unit("white", kind, sid(sq), rng.choice(DIRECTIONS))
        for _ in range(3):  # some neighbours in the way
            s.new_unit("red", "PIE", sid((min(board.rows - 1, sq[0] + rng.randint(-2, 2)),
                                          min(board.cols - 1, sq[1] + rng.randint(-2, 2)))), "S")
        s.units = {k: v for k, v in s.units.items() if k == u or v["sq"] != sid(sq)}
        offered = destinations(s, u)
        assert sorted(movement.reachable_ends(s, u)) == sorted(
            (r.square or sid(sq), r.facing, r.lost) for r in offered.values())  # the bot's cheap reading
        for key in rng.sample(sorted(offered), min(3, len(offered))):  # one end's route, as the answer takes it
            assert movement.route_to(s, u, key) == offered[key]
            assert movement.ends_lost(s, u, key) == offered[key].lost
        for key, route in offered.items():
            assert steps_left(s, u, route.sequence) is not None, (kind, key, route.sequence)
            assert route.steps == len(route.sequence) >= 1
            squares, facings = replay((*sq, movement.FACING_INDEX[s.units[u]["facing"]], 0), route.sequence)
            end_sq = squares[-1] if squares else sid(sq)
            assert key == f"{end_sq}@{route.facing}" and tuple(squares) == route.squares
            top = environment(s, pack().troops[kind], at(end_sq), route.facing)[1]
            assert route.lost == (top is None)
            checked += 1
    assert checked > 500
