"""Formations and columns (spec §8, U-5.5, U-5.6): the announcement, who may take part (facing, spacing),
identical steps at the pace of the slowest, drop-outs and FORMATION-EX, the identical attack, the column's
single file, its followers stopping behind the unit in front and making up lost steps next turn."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from app.games.autarcha import formation
from app.games.autarcha.pack import use_pack
from app.games.autarcha.state import GameState, at, sid
from app.games.protocol import Illegal
from tests.games.autarcha.move_kit import answer, logged, pending, put, refresh, stage, start_turn

GROUND = ["." * 10] * 12


@pytest.fixture(autouse=True)
def _real_pack() -> Iterator[None]:
    yield
    use_pack(None)


def line_up(kinds: tuple[str, ...] = ("PIE", "PIE", "PIE"), row: int = 1,
            facing: str = "N") -> tuple[GameState, list[str]]:
    """White's units side by side on ``row`` from column 1, both HQs out of the way; White to move."""
    s = stage(GROUND)
    units = [put(s, "white", k, (row, 1 + i), facing) for i, k in enumerate(kinds)]
    put(s, "white", "PSZ", (0, 9), "S")
    put(s, "red", "PSZ", (11, 9), "S")
    start_turn(s)
    return s, units


def squares(s: GameState, units: list[str]) -> list[tuple[int, int]]:
    return [at(s.units[u]["sq"]) for u in units]


# ------------------------------------------------------------------ formation
def test_U_8_1_a_formation_moves_three_units_with_identical_steps_in_one_move() -> None:
    s, units = line_up()
    assert "formation" in pending(s).choice_ids()
    answer(s, "formation")
    assert s.moves_left == 4
    d = pending(s)
    assert d.kind == "formation_units" and d.min == 3 and set(units) <= set(d.choice_ids())
    answer(s, *units)
    assert pending(s).kind == "formation_walk"
    answer(s, f"{sid((2, 2))}@NE")  # the leader's R45, F
    assert squares(s, units) == [(2, 2), (2, 3), (2, 4)]
    assert all(s.units[u]["facing"] == "NE" for u in units)
    assert all(s.units[u]["acted"] for u in units)  # U-8.1.3: no other move this turn
    assert s.moves_left == 4
    assert not any(c.startswith(f"unit:{u}") for u in units for c in pending(s).choice_ids())


def test_FORMATION_EX_announcing_fewer_than_three_is_refused_by_the_protocol() -> None:
    """U-8.1.4: a formation needs 3 units; the naming decision asks for at least 3."""
    s, units = line_up()
    answer(s, "formation")
    with pytest.raises(Illegal):
        answer(s, *units[:2])


def test_FORMATION_EX_a_named_unit_that_cannot_comply_returns_and_the_rest_under_three_lose_the_move() -> None:
    """U-8.1.2 + U-8.1.4 (spec §19: after drop-outs at least 3 must remain): one of three is blocked, so
    all return, the move is lost, and every named unit is done for the turn."""
    s, units = line_up()
    put(s, "red", "PIE", (2, 3), "S")  # in front of the third
    answer(s, "formation")
    answer(s, *units)
    d = pending(s)
    fails = next(c for c in d.choices if c.id == f"{sid((2, 1))}@N")
    assert fails.msg is not None and fails.msg.id == "choice_formation_walk_fails"
    ctx = answer(s, f"{sid((2, 1))}@N")
    assert "formation_failed" in logged(ctx)
    assert squares(s, units) == [(1, 1), (1, 2), (1, 3)]
    assert s.moves_left == 4 and all(s.units[u]["acted"] for u in units)


def test_FORMATION_EX_with_four_named_the_one_that_cannot_comply_stays_locked_and_three_move() -> None:
    s, units = line_up(("PIE", "PIE", "PIE", "PIE"))
    put(s, "red", "PIE", (2, 4), "S")
    answer(s, "formation")
    answer(s, *units)
    label = next(c for c in pending(s).choices if c.id == f"{sid((2, 1))}@N")
    assert label.msg is not None and label.msg.id == "choice_formation_walk_some"
    ctx = answer(s, f"{sid((2, 1))}@N")
    assert "formation_dropped" in logged(ctx)
    assert squares(s, units) == [(2, 1), (2, 2), (2, 3), (1, 4)]
    assert s.units[units[3]]["acted"]  # locked for the turn


def test_U_8_1_5_a_unit_outside_the_formations_close_surroundings_drops_out() -> None:
    s, units = line_up()
    far = put(s, "white", "PIE", (9, 1), "N")
    answer(s, "formation")
    ctx = answer(s, *units, far)
    assert "formation_dropped" in logged(ctx)
    answer(s, f"{sid((2, 1))}@N")
    assert squares(s, units) == [(2, 1), (2, 2), (2, 3)]
    assert at(s.units[far]["sq"]) == (9, 1) and s.units[far]["acted"]


def test_formation_members_share_the_leaders_facing() -> None:
    """Spec §19: a formation requires one facing; a member facing otherwise drops out, and two are too few."""
    s, units = line_up()
    s.units[units[2]]["facing"] = "E"
    answer(s, "formation")
    ctx = answer(s, *units)
    assert logged(ctx).count("formation_dropped") == 1 and "formation_failed" in logged(ctx)
    assert s.moves_left == 4 and squares(s, units) == [(1, 1), (1, 2), (1, 3)]


def test_spacing_is_a_chain_of_close_surroundings() -> None:
    s = stage(GROUND)
    a, b, c = (put(s, "white", "PIE", sq, "N") for sq in ((1, 2), (1, 4), (1, 6)))
    assert formation.formation_members(s, [a, b, c]) == [a, b, c]  # each within the [BO] of the next
    assert formation.formation_members(s, [a, c]) == [a]


def test_U_8_1_7_the_formation_moves_as_fast_as_its_slowest_unit() -> None:
    s, units = line_up(("PC", "PC", "PIE"))  # PC 4, PIE 3 in ground
    answer(s, "formation")
    answer(s, *units)
    d = pending(s)
    assert d.prompt_msg is not None and d.prompt_msg.params["steps"] == 3
    assert f"{sid((4, 1))}@N" in d.choice_ids() and f"{sid((5, 1))}@N" not in d.choice_ids()


def test_the_formation_is_not_offered_without_three_units_that_can_form_up() -> None:
    s, units = line_up()
    s.units[units[1]]["facing"] = "S"
    refresh(s)
    assert "formation" not in pending(s).choice_ids()


def test_units_recruited_this_turn_cannot_join() -> None:
    s, units = line_up()
    s.units[units[0]]["new"] = True
    refresh(s)
    assert "formation" not in pending(s).choice_ids()


# ------------------------------------------------------------------ the formation's attack
def stub_attacks(offsets: set[tuple[int, int]], fired: list[tuple[str, str]]) -> SimpleNamespace:
    """FIGHT's interface as attacks.py documents it: relative_targets, targets, fire_at."""
    def relative_targets(state: GameState, unit: str) -> set[tuple[int, int]]:
        return set(offsets)

    def targets(state: GameState, unit: str) -> list[str]:
        r, c = at(state.units[unit]["sq"])
        return [sid((r + dr, c + dc)) for dr, dc in offsets if 0 <= r + dr < 12 and 0 <= c + dc < 10]

    def fire_at(ctx: object, unit: str, square: str) -> None:
        fired.append((unit, square))

    return SimpleNamespace(relative_targets=relative_targets, targets=targets, fire_at=fire_at)


def test_U_8_1_9_every_member_fires_at_the_same_place_relative_to_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    fired: list[tuple[str, str]] = []
    monkeypatch.setattr(formation, "attacks", stub_attacks({(2, 0), (3, 1)}, fired))
    s, units = line_up()
    answer(s, "formation")
    answer(s, *units)
    answer(s, f"{sid((2, 1))}@N")
    d = pending(s)
    assert d.kind == "formation_fire"
    assert set(d.choice_ids()) == {sid((4, 1)), sid((5, 2)), "skip"}
    answer(s, sid((4, 1)))
    assert fired == [(units[0], sid((4, 1))), (units[1], sid((4, 2))), (units[2], sid((4, 3)))]


def test_U_8_1_10_mixed_kinds_fire_only_where_all_can_hit_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    fired: list[tuple[str, str]] = []
    ranges = {"PIE": {(1, 0), (2, 0)}, "PC": {(2, 0), (3, 0)}}
    stub = stub_attacks(set(), fired)
    stub.relative_targets = lambda state, unit: ranges[state.units[unit]["kind"]]
    stub.targets = lambda state, unit: [sid((at(state.units[unit]["sq"])[0] + dr, at(state.units[unit]["sq"])[1] + dc))
                                        for dr, dc in ranges[state.units[unit]["kind"]]]
    monkeypatch.setattr(formation, "attacks", stub)
    s, units = line_up(("PIE", "PC", "PIE"))
    answer(s, "formation")
    answer(s, *units)
    answer(s, "stay")
    assert set(pending(s).choice_ids()) == {sid((3, 1)), "skip"}


def test_no_shared_target_no_attack_question(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(formation, "attacks", stub_attacks(set(), []))  # no unit can hit anything
    s, units = line_up()
    answer(s, "formation")
    answer(s, *units)
    answer(s, f"{sid((2, 1))}@N")
    assert pending(s).kind == "move"


# ------------------------------------------------------------------ columns
def column(bent: bool = False) -> tuple[GameState, list[str]]:
    """Three infantry in single file going north on column 2 (bent: the two followers come up from the
    south-west, facing north-east)."""
    s = stage(GROUND)
    if bent:
        units = [put(s, "white", "PIE", (3, 2), "N"), put(s, "white", "PIE", (2, 1), "NE"),
                 put(s, "white", "PIE", (1, 0), "NE")]
    else:
        units = [put(s, "white", "PIE", (r, 2), "N") for r in (3, 2, 1)]
    put(s, "white", "PSZ", (0, 9), "S")
    put(s, "red", "PSZ", (11, 9), "S")
    start_turn(s)
    return s, units


def test_U_8_2_2_a_column_moves_single_file_along_the_heads_track() -> None:
    s, units = column()
    answer(s, "column")
    answer(s, *reversed(units))  # the order named does not matter: the file decides who leads
    assert pending(s).kind == "column_walk"
    answer(s, f"{sid((6, 2))}@N")
    assert squares(s, units) == [(6, 2), (5, 2), (4, 2)]
    assert all(s.units[u]["lost_steps"] == 0 and s.units[u]["acted"] for u in units)
    assert s.moves_left == 4


def test_a_column_follows_the_head_round_a_turn() -> None:
    s, units = column()
    answer(s, "column")
    answer(s, *units)
    answer(s, f"{sid((4, 3))}@E")  # F, R90, F
    assert squares(s, units) == [(4, 3), (4, 2), (3, 2)]
    assert [s.units[u]["facing"] for u in units] == ["E", "E", "N"]


def test_U_8_2_3_a_follower_that_cannot_make_the_same_steps_stops_behind_and_loses_them() -> None:
    s, units = column(bent=True)
    answer(s, "column")
    answer(s, *units)
    ctx = answer(s, f"{sid((6, 2))}@N")
    assert "column_follower_stops" in logged(ctx)
    assert squares(s, units) == [(6, 2), (4, 2), (3, 2)]  # the first follower spent a step on the bend
    assert [s.units[u]["lost_steps"] for u in units] == [0, 1, 0]


def end_turns(s: GameState, n: int) -> None:
    for _ in range(n):
        answer(s, "end")


def test_U_8_2_3_lost_steps_are_made_up_next_turn_by_the_same_column() -> None:
    s, units = column(bent=True)
    answer(s, "column")
    answer(s, *units)
    answer(s, f"{sid((6, 2))}@N")
    end_turns(s, 2)  # White's turn ends, Red's passes
    assert s.active == "white" and s.units[units[1]]["lost_steps"] == 1
    answer(s, "column")
    answer(s, *units)
    ctx = answer(s, f"{sid((9, 2))}@N")
    assert "column_made_up" in logged(ctx)
    assert squares(s, units)[:2] == [(9, 2), (8, 2)]  # four steps: it caught up


def test_lost_steps_are_not_made_up_by_another_column() -> None:
    s, units = column(bent=True)
    answer(s, "column")
    answer(s, *units)
    answer(s, f"{sid((6, 2))}@N")
    end_turns(s, 2)
    extra = put(s, "white", "PIE", (2, 2), "N")  # a fourth unit joins the file: not the same column
    answer(s, "column")
    answer(s, *units, extra)
    ctx = answer(s, f"{sid((9, 2))}@N")
    assert "column_made_up" not in logged(ctx)
    assert squares(s, units)[:2] == [(9, 2), (7, 2)]


def test_lost_steps_lapse_after_the_next_turn() -> None:
    s, units = column(bent=True)
    answer(s, "column")
    answer(s, *units)
    answer(s, f"{sid((6, 2))}@N")
    end_turns(s, 3)  # White's next turn passes without the column
    assert s.units[units[1]]["lost_steps"] == 0 and "white" not in s.flags.get("columns", {})


def test_a_column_needs_three_in_single_file() -> None:
    s, units = column()
    s.units[units[2]]["facing"] = "E"  # no longer behind the one in front
    refresh(s)
    assert "column" not in pending(s).choice_ids()


def test_the_close_surroundings_test_is_the_packs() -> None:
    from app.games.autarcha.pack import close_surroundings, pack

    board = pack().board
    for of in ((0, 0), (5, 6), (39, 29), (12, 3)):
        block = set(close_surroundings(board, of))
        assert {sq for sq in board.squares() if formation._within(sq, of)} == block


def test_a_member_a_mine_stops_blocks_the_members_behind_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A triggered mine ends its victim's movement (spec §19); members behind it stop behind it."""
    from app.games.autarcha import flow

    s = stage(GROUND)
    units = [put(s, "white", "PIE", (r, 1), "N") for r in (3, 2, 1)]
    put(s, "white", "PSZ", (0, 9), "S")
    put(s, "red", "PSZ", (11, 9), "S")
    start_turn(s)
    monkeypatch.setattr(flow, "ENTER", [lambda ctx, unit, square: square == sid((4, 1))])
    answer(s, "formation")
    answer(s, *units)
    answer(s, f"{sid((5, 1))}@N")
    assert squares(s, units) == [(4, 1), (3, 1), (2, 1)]
    assert s.moves_left == 4


def test_the_formation_and_column_catalogue_is_complete_in_english_and_polish() -> None:
    from pathlib import Path

    from app.games.autarcha.text import CATALOGUE_DIR, catalogue
    from app.games.catalogue import Catalogue

    own = Catalogue.from_yaml(str(Path(CATALOGUE_DIR) / "movement.yaml"))
    assert own.problems() == []
    whole = catalogue()  # this module's sentences read the same inside the game's whole catalogue
    for lang in ("en", "pl"):
        assert all(whole.messages[lang][k] == v for k, v in own.messages[lang].items())


def test_a_formation_may_attack_then_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """U-5.4 for formations: no steps, the identical attack, then the identical steps."""
    fired: list[tuple[str, str]] = []
    monkeypatch.setattr(formation, "attacks", stub_attacks({(2, 0)}, fired))
    s, units = line_up()
    answer(s, "formation")
    answer(s, *units)
    answer(s, "stay")
    answer(s, sid((3, 1)))
    assert len(fired) == 3
    assert pending(s).kind == "formation_walk"
    answer(s, f"{sid((2, 1))}@N")
    assert squares(s, units) == [(2, 1), (2, 2), (2, 3)]
    assert pending(s).kind == "move" and s.moves_left == 4


def test_a_member_stepping_into_dash_terrain_with_the_formation_is_lost_and_the_label_says_so() -> None:
    """U-7.1.6 in a formation: the identical step takes the artillery into water ("–"): it is lost."""
    s = stage(["...~......"] + ["." * 10] * 11)  # drawn north first: the water is on row 11
    units = [put(s, "white", "ART", (10, c), "N") for c in (1, 2, 3)]
    put(s, "white", "PSZ", (0, 9), "S")
    put(s, "red", "PSZ", (5, 9), "S")
    start_turn(s)
    answer(s, "formation")
    answer(s, *units)
    label = next(c for c in pending(s).choices if c.id == f"{sid((11, 1))}@N")
    assert label.msg is not None and label.msg.id == "choice_formation_walk_some"
    assert label.msg.params["lost"] == 1 and label.msg.params["behind"] == 0
    ctx = answer(s, f"{sid((11, 1))}@N")
    assert "unit_lost_terrain" in logged(ctx)
    assert units[2] not in s.units and squares(s, units[:2]) == [(11, 1), (11, 2)]
