"""Mining by a formation (U-8.1.11, U-11.2.2, U-8.1.9 applied to mining, U-11.1.3-6): offered to a formation
with sappers, one mine per sapper at the same place relative to itself, only places legal for every sapper,
one move of the five, and the mines as secret as a single sapper's."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.fuzz import as_text
from app.games.autarcha import GAME, mines
from app.games.autarcha.pack import pack, use_pack
from app.games.autarcha.state import GameState, at, sid
from app.games.protocol import Event, Illegal
from app.games.secrets import leaks
from tests.games.autarcha import fight_kit
from tests.games.autarcha.move_kit import answer, logged, pending, put, stage, start_turn
from tests.games.autarcha.test_mines import leaked, received

# north first: row 6 from the south has water at column 3
BOARD = ["." * 10] * 5 + ["...~......"] + ["." * 10] * 6


@pytest.fixture(autouse=True)
def _real_pack() -> Iterator[None]:
    yield
    use_pack(None)


def company(kinds: tuple[str, str, str] = ("PIE", "SAP", "SAP"), enemy: bool = True) -> tuple[GameState, list[str]]:
    """White's three units facing north: the first at (3, 3), the others at (4, 3) and (4, 4), all within each
    other's [BO]; a red unit at (6, 7) whose [BO] (rows 5-8, columns 5-8) touches the (4, 4) unit's but not the
    units themselves; both HQs far away. White to move."""
    s = stage(BOARD)
    units = [put(s, "white", k, sq, "N") for k, sq in zip(kinds, [(3, 3), (4, 3), (4, 4)], strict=True)]
    put(s, "white", "PSZ", (0, 9), "S")
    put(s, "red", "PSZ", (11, 9), "S")
    if enemy:
        put(s, "red", "PIE", (6, 7), "S")
    start_turn(s)
    return s, units


def form_up(s: GameState, units: list[str]) -> None:
    answer(s, "formation")
    answer(s, *units)


def offered_offsets(s: GameState, anchor: str) -> set[tuple[int, int]]:
    r, c = at(s.units[anchor]["sq"])
    return {(at(x)[0] - r, at(x)[1] - c) for x in pending(s).choice_ids()}


# ------------------------------------------------------------------ who may mine
def test_a_formation_without_a_sapper_is_not_offered_mining() -> None:
    s, units = company(("PIE", "PIE", "PIE"))
    form_up(s, units)
    assert pending(s).kind == "formation_walk" and "mine" not in pending(s).choice_ids()


def test_a_formation_with_a_sapper_is_offered_mining_beside_its_steps() -> None:
    s, units = company(("PIE", "SAP", "PIE"))
    form_up(s, units)
    ids = pending(s).choice_ids()
    assert pending(s).kind == "formation_walk" and "mine" in ids and "stay" in ids and len(ids) > 2


def test_a_column_is_not_offered_mining() -> None:
    s = stage(BOARD)
    units = [put(s, "white", "SAP", (r, 2), "N") for r in (5, 4, 3)]
    put(s, "white", "PSZ", (0, 9), "S")
    put(s, "red", "PSZ", (11, 9), "S")
    start_turn(s)
    answer(s, "column")
    answer(s, *units)
    assert pending(s).kind == "column_walk" and "mine" not in pending(s).choice_ids()


def test_mining_is_not_offered_when_the_side_cannot_pay_for_every_sapper() -> None:
    g = fight_kit.GROUND
    state, u = fight_kit.position(("white", "PIE", (g[0] - 1, g[1]), "N"), ("white", "SAP", g, "N"),
                                  ("white", "SAP", (g[0], g[1] + 1), "N"), gold=pack().troops["MINE"].cost.value)
    fight_kit.start(state, {"k": "formation", "seat": "white", "column": False, "stage": "pick"})
    fight_kit.give(state, u["1"], u["2"], u["3"])
    assert "mine" not in fight_kit.open_decision(state).choice_ids()
    state.gold["white"] = 2 * pack().troops["MINE"].cost.value
    fight_kit.start(state)  # ask again on the richer side
    assert "mine" in fight_kit.open_decision(state).choice_ids()


# ------------------------------------------------------------------ the mines
def test_U_8_1_11_every_sapper_lays_one_mine_at_the_same_place_relative_to_itself_in_one_move() -> None:
    s, units = company()  # the infantry leads: it lays nothing
    form_up(s, units)
    assert s.moves_left == 4  # U-11.1.3: the formation's one move
    ctx = answer(s, "mine")
    assert "formation_mining" in logged(ctx)
    d = pending(s)
    assert d.kind == "formation_mine" and d.seat == "white"
    target = sid((5, 3))  # one north of the first sapper (4, 3): the choices name its square
    assert target in d.choice_ids()
    ctx = answer(s, target)
    assert sorted((m["sq"], m["call"]) for m in s.mines["white"]) == [(sid((5, 3)), "fire"), (sid((5, 4)), "fire")]
    assert len({m["id"] for m in s.mines["white"]}) == 2
    assert logged(ctx).count("mine_laid") == 2  # one line per sapper, through mines.py's own laying
    assert [at(s.units[u]["sq"]) for u in units] == [(3, 3), (4, 3), (4, 4)]  # U-11.1.5: no steps
    assert s.units[units[1]]["facing"] == "N"
    assert s.moves_left == 4 and all(s.units[u]["acted"] for u in units)
    assert pending(s).kind == "move"  # no attack question follows: the move is over
    assert not any(mines.may_mine(s, u) for u in units[1:])  # U-11.2.2: one square per sapper this turn


def test_only_places_legal_for_every_sapper_are_offered() -> None:
    s, units = company()
    sap1, sap2 = units[1], units[2]
    form_up(s, units)
    answer(s, "mine")
    offered = offered_offsets(s, sap1)

    def offsets(u: str) -> set[tuple[int, int]]:
        r, c = at(s.units[u]["sq"])
        return {(at(x)[0] - r, at(x)[1] - c) for x in mines.mine_squares(s, u)}

    assert offered == offsets(sap1) & offsets(sap2) and offered
    # U-11.2.3: (0, 1) is the second sapper's square for the first (free for the second); (-1, 0) the infantry's
    assert (0, 1) in offsets(sap2) and (0, 1) not in offered
    assert (-1, 0) in offsets(sap2) and (-1, 0) not in offered
    # U-11.1.6: (1, -2) is outside the second sapper's [BO] (columns 3-6), inside the first's (columns 1-4)
    assert (1, -2) in offsets(sap1) and (1, -2) not in offered
    # U-11.1.4: (1, 1) is (5, 5) for the second sapper, in the red unit's [BO]; (5, 4) for the first is not
    assert (1, 1) in offsets(sap1) and (1, 1) not in offered
    # a mine may not lie on water: (2, 0) is (6, 3) for the first sapper, ground for the second
    assert (2, 0) in offsets(sap2) and (2, 0) not in offered
    assert (1, 0) in offered
    r, c = at(s.units[sap1]["sq"])
    with pytest.raises(Illegal):  # named anyway: refused before anything changes
        answer(s, sid((r + 1, c + 1)))
    assert s.mines["white"] == [] and pending(s).kind == "formation_mine"


def test_a_sapper_member_in_an_enemy_s_bo_stops_the_formation_s_mining() -> None:
    """U-11.1.4: the whole formation mines or none of it does (identical action: no sapper is left out)."""
    s, units = company()
    red = next(u for u in s.units if s.units[u]["seat"] == "red" and s.units[u]["kind"] == "PIE")
    s.units[red]["sq"] = sid((4, 6))  # crossing 03.04: [BO] rows 3-6, columns 5-8; the sappers are outside
    assert mines.formation_mine_offsets(s, units)
    s.units[red]["sq"] = sid((4, 5))  # crossing 03.03: [BO] rows 3-6, columns 3-6, both sappers inside
    assert not mines.sapper_may_work(s, units[2])
    assert mines.formation_mine_offsets(s, units) == []
    form_up(s, units)
    assert "mine" not in pending(s).choice_ids()


# ------------------------------------------------------------------ the secret (U-11.2.4, spec §20.2)
def test_the_formation_s_mines_are_secret_from_the_other_seat() -> None:
    g = fight_kit.GROUND
    state, u = fight_kit.position(("white", "PIE", (g[0] - 1, g[1]), "N"), ("white", "SAP", g, "N"),
                                  ("white", "SAP", (g[0], g[1] + 1), "N"), ("red", "PIE", (20, 10), "S"))
    events: list[Event] = fight_kit.start(state, {"k": "formation", "seat": "white", "column": False,
                                                 "stage": "pick"})
    events += fight_kit.give(state, u["1"], u["2"], u["3"])
    events += fight_kit.give(state, "mine")
    events += fight_kit.give(state, sid((g[0] + 1, g[1])))
    laid = state.mines["white"]
    assert {m["sq"] for m in laid} == {sid((g[0] + 1, g[1])), sid((g[0] + 1, g[1] + 1))}
    assert state.gold["white"] == 100 - 2 * pack().troops["MINE"].cost.value  # each mine its price
    hidden = GAME.secrets(state, "red")
    assert {s.value for s in hidden} >= {m["sq"] for m in laid}
    assert leaked(state, "red", events) == []  # view, pending decisions, log lines: nothing
    # and the check is not blind: what White receives names its mines beside their ids
    assert any(leaks(p, hidden) for p in received(state, "white", events))
    assert all(m["sq"] not in e.text for e in events for m in laid)
    assert all(m["sq"] not in as_text(GAME.view(state, "red")) for m in laid)
