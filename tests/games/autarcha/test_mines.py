"""Land mines (spec §11.2-11.3, §13.7, §17 MINE-EX, §19, §20.2): laying in secret, the owner's standing call,
what a mine does, demining, and the value-level secret of a mine's square in every channel."""

from __future__ import annotations

import random
from dataclasses import asdict

import pytest

from app.fuzz import as_text
from app.games.autarcha import GAME, flow, mines
from app.games.autarcha.attacks import close_to
from app.games.autarcha.pack import DEMINE_SQUARES, pack
from app.games.autarcha.state import GameState
from app.games.protocol import Action, Event, Illegal
from app.games.secrets import leaks
from app.sessions.views import decision_payload, log_lines
from tests.games.autarcha.fight_kit import GROUND, ROAD, WATER, Die, ctx_of, give, open_decision, position, sq, start


def lay(state: GameState, sapper: str, square: str) -> list[Event]:
    start(state, {"k": "mine", "unit": sapper})
    return give(state, square)


def received(state: GameState, seat: str | None, events: list[Event]) -> list[str]:
    """Every payload ``seat`` receives now, as the fuzzer gathers them: its view, its pending decisions and
    the log lines it reads (None: the spectators' view and the public lines)."""
    out = [as_text(GAME.view(state, seat))]
    if seat is not None:
        out.append(as_text([decision_payload(d) for d in GAME.pending(state) if d.seat == seat]))
    out += [as_text(line) for line in log_lines([(1, [asdict(e) for e in events])], seat)]
    return out


def leaked(state: GameState, seat: str, events: list[Event] = ()) -> list[str]:  # type: ignore[assignment]
    hidden = GAME.secrets(state, seat)
    return [p for p in received(state, seat, list(events)) + received(state, None, list(events)) if leaks(p, hidden)]


# ------------------------------------------------------------------ laying (U-11.2.1-4)
def test_u_11_2_1_a_sapper_lays_a_mine_in_its_bo_in_secret() -> None:
    state, u = position(("white", "SAP", GROUND, "N"), ("red", "PIE", (20, 10), "S"))
    assert "mine" in flow.unit_actions(state, u["1"])
    start(state, {"k": "mine", "unit": u["1"]})
    d = open_decision(state)
    assert d.kind == "mine_at" and d.seat == "white"
    target = sq(GROUND[0] + 1, GROUND[1])
    assert set(c.id for c in d.choices) <= close_to(sq(*GROUND))
    assert sq(*GROUND) not in [c.id for c in d.choices]  # U-11.2.3: not under a unit (the sapper's own square)
    events = give(state, target)
    assert [(m["sq"], m["call"]) for m in state.mines["white"]] == [(target, "fire")]
    assert target not in events[0].text and target in events[0].private["white"]
    assert state.gold["white"] == 100 - pack().troops["MINE"].cost.value  # the table's 1 G, in the ledger
    assert state.ledger["white"][-1]["what"]["id"] == "ledger_mine"


def test_u_11_2_2_one_mine_per_sapper_per_turn() -> None:
    state, u = position(("white", "SAP", GROUND, "N"))
    lay(state, u["1"], sq(GROUND[0] + 1, GROUND[1]))
    state.units[u["1"]]["acted"] = False  # even were it free to act again
    assert not mines.may_mine(state, u["1"])
    state.turn += 2
    assert mines.may_mine(state, u["1"])


def test_u_11_2_3_no_mine_under_any_unit_nor_on_water() -> None:
    state, u = position(("white", "SAP", GROUND, "N"), ("white", "PIE", (GROUND[0] + 1, GROUND[1]), "N"))
    assert sq(GROUND[0] + 1, GROUND[1]) not in mines.mine_squares(state, u["1"])
    state.units[u["1"]]["sq"] = sq(WATER[0], WATER[1] - 2)
    assert sq(*WATER) not in mines.mine_squares(state, u["1"])


def test_u_11_1_4_no_mining_in_an_enemy_unit_s_bo_sapper_or_target() -> None:
    state, u = position(("white", "SAP", GROUND, "N"), ("red", "PIE", (GROUND[0] + 3, GROUND[1]), "S"))
    near = close_to(sq(GROUND[0] + 3, GROUND[1]))
    assert sq(*GROUND) not in near
    assert not set(mines.mine_squares(state, u["1"])) & near  # the target square (spec §19)
    assert mines.mine_squares(state, u["1"])
    state.units[u["2"]]["sq"] = sq(GROUND[0] + 1, GROUND[1] + 1)  # now the sapper itself is in its [BO]
    assert not mines.may_mine(state, u["1"]) and "mine" not in flow.unit_actions(state, u["1"])


def test_a_square_the_enemy_mined_is_not_refused_that_would_give_it_away() -> None:
    state, u = position(("white", "SAP", GROUND, "N"), ("red", "SAP", (20, 10), "S"))
    target = sq(GROUND[0] + 1, GROUND[1])
    state.mines["red"].append({"id": "mine-red-1", "sq": target, "call": "fire"})
    assert target in mines.mine_squares(state, u["1"])


# ------------------------------------------------------------------ MINE-EX and the call (U-11.2.5-7, spec §19)
def test_mine_ex_the_owner_fires_one_hit_no_roll_the_mine_is_used_up_the_move_ends() -> None:
    """MINE-EX: the owner triggers -> the unit takes 1 hit with no roll; the mine is removed."""
    state, u = position(("red", "PSZ", GROUND, "S"), active="red")
    state.mines["white"].append({"id": "mine-white-1", "sq": sq(*GROUND), "call": "fire"})
    ctx = ctx_of(state, Die())  # no face to show: a roll would fail
    assert flow.entered(ctx, u["1"], sq(*GROUND)) is True  # its movement ends there
    assert state.units[u["1"]]["hits"] == 1 and state.mines["white"] == []
    assert any(sq(*GROUND) in e.text for e in ctx.events)  # revealed to both


def test_mine_ex_the_owner_holds_the_mine_stays_and_nothing_is_said() -> None:
    """MINE-EX: the owner stays silent until the end of that unit's movement -> the mine persists."""
    state, u = position(("red", "PIE", GROUND, "S"), active="red")
    state.mines["white"].append({"id": "mine-white-1", "sq": sq(*GROUND), "call": "hold"})
    ctx = ctx_of(state)
    assert flow.entered(ctx, u["1"], sq(*GROUND)) is False
    assert state.units[u["1"]]["hits"] == 0 and len(state.mines["white"]) == 1 and ctx.events == []


def test_a_one_point_unit_on_a_mine_is_destroyed() -> None:
    state, u = position(("red", "PIE", GROUND, "S"), active="red")
    state.mines["white"].append({"id": "mine-white-1", "sq": sq(*GROUND), "call": "fire"})
    assert flow.entered(ctx_of(state), u["1"], sq(*GROUND)) is True and u["1"] not in state.units


def test_own_mines_never_hit_own_units() -> None:
    state, u = position(("white", "PIE", GROUND, "N"))
    state.mines["white"].append({"id": "mine-white-1", "sq": sq(*GROUND), "call": "fire"})
    assert flow.entered(ctx_of(state), u["1"], sq(*GROUND)) is False
    assert state.units[u["1"]]["hits"] == 0 and len(state.mines["white"]) == 1


def test_u_11_2_7_a_mine_under_an_object_hits_the_object_too() -> None:
    state, u = position(("red", "PSZ", ROAD, "S"), active="red")
    state.mines["white"].append({"id": "mine-white-1", "sq": sq(*ROAD), "call": "fire"})
    flow.entered(ctx_of(state), u["1"], sq(*ROAD))
    assert state.units[u["1"]]["hits"] == 1 and state.is_destroyed(sq(*ROAD), "road")


def test_u_10_3_the_owner_changes_a_mine_s_call_any_time_through_an_any_time_decision() -> None:
    state, u = position(("white", "SAP", GROUND, "N"), ("red", "PIE", (20, 10), "S"))
    lay(state, u["1"], sq(GROUND[0] + 1, GROUND[1]))
    m = state.mines["white"][0]
    offered = [d for d in GAME.pending(state) if d.id.startswith("mine-call:")]
    assert [(d.seat, d.optional) for d in offered] == [("white", True)]
    state.active = "red"  # in the enemy's turn too
    GAME.apply(state, "white", Action("mine-call:white", (f"{m['id']}:hold",)), random.Random(0))
    assert m["call"] == "hold"
    GAME.apply(state, "white", Action("mine-call:white", (f"{m['id']}:fire",)), random.Random(0))
    assert m["call"] == "fire"
    with pytest.raises(Illegal) as refused:  # the other seat cannot touch it, and is told nothing of it
        GAME.apply(state, "red", Action("mine-call:white", (f"{m['id']}:hold",)), random.Random(0))
    assert m["sq"] not in str(refused.value) and m["sq"] not in as_text(refused.value.msg)


# ------------------------------------------------------------------ demining (U-11.3)
def test_u_11_3_a_sweep_of_4_squares_clears_and_reveals_the_enemy_mines_among_them() -> None:
    state, u = position(("red", "SAP", GROUND, "S"), ("white", "PIE", (1, 1), "N"), active="red")
    swept = sorted(close_to(sq(*GROUND)))[:DEMINE_SQUARES]
    state.mines["white"] += [{"id": "mine-white-1", "sq": swept[0], "call": "fire"},
                             {"id": "mine-white-2", "sq": sorted(close_to(sq(*GROUND)))[-1], "call": "fire"}]
    state.mines["red"].append({"id": "mine-red-1", "sq": swept[1], "call": "fire"})  # its own: untouched
    assert "demine" in flow.unit_actions(state, u["1"])
    start(state, {"k": "demine", "unit": u["1"]})
    d = open_decision(state)
    assert d.kind == "demine_at" and d.min == d.max == DEMINE_SQUARES
    events = give(state, *swept)
    assert [m["id"] for m in state.mines["white"]] == ["mine-white-2"] and len(state.mines["red"]) == 1
    assert swept[0] in events[0].text and "1 enemy mine" in events[0].text


def test_u_11_3_a_sweep_names_fewer_squares_when_fewer_are_allowed() -> None:
    corner = (0, 0)  # [BO] clipped by the board's edge to 4 squares, one enemy's [BO] takes some more
    state, u = position(("red", "SAP", corner, "S"), ("white", "PIE", (3, 1), "N"), active="red")
    allowed = mines.demine_squares(state, u["1"])
    assert 0 < len(allowed) < DEMINE_SQUARES
    start(state, {"k": "demine", "unit": u["1"]})
    assert open_decision(state).min == open_decision(state).max == len(allowed)


# ------------------------------------------------------------------ the secret (spec §20.2)
def test_the_other_seat_never_receives_a_mine_s_square_but_a_unit_on_it_is_no_leak() -> None:
    state, u = position(("white", "SAP", GROUND, "N"), ("red", "PIE", (20, 10), "S"))
    target = sq(GROUND[0] + 1, GROUND[1])
    events = lay(state, u["1"], target)
    hidden = GAME.secrets(state, "red")
    assert hidden and not GAME.secrets(state, "white")
    assert leaked(state, "red", events) == []
    # the check does catch the square where it is the mine's: the owner's own view, were red to get it
    assert leaks(as_text(GAME.view(state, "white")), hidden)
    assert leaks(as_text([decision_payload(d) for d in GAME.pending(state) if d.seat == "white"]), hidden)
    assert leaks(as_text(log_lines([(1, [asdict(e) for e in events])], "white")), hidden)
    assert GAME.view(state, "red")["mines"] == [] and GAME.view(state, None)["mines"] == []
    # a red unit standing on the (held) mine is a public fact, not a leak
    state.mines["white"][0]["call"] = "hold"
    state.units[u["2"]]["sq"] = target
    state.active = "red"
    assert target in as_text(GAME.view(state, "red")) and leaked(state, "red") == []


def test_a_mine_that_went_off_is_no_secret_any_more_and_a_new_one_there_is() -> None:
    state, u = position(("red", "PSZ", GROUND, "S"), ("white", "SAP", (GROUND[0] - 1, GROUND[1]), "N"))
    state.mines["white"].append({"id": "mine-white-1", "sq": sq(*GROUND), "call": "fire"})
    state.flags["mines_laid"] = {"white": 1}
    ctx = ctx_of(state)
    flow.entered(ctx, u["1"], sq(*GROUND))
    assert GAME.secrets(state, "red") == set() and leaked(state, "red", ctx.events) == []
    state.units[u["1"]]["sq"] = sq(GROUND[0] + 3, GROUND[1] + 3)
    lay(state, u["2"], sq(*GROUND))
    assert [s.value for s in GAME.secrets(state, "red")] == [sq(*GROUND)]  # mine-white-2, unseen


def test_seeded_mine_fields_never_leak() -> None:
    """Many seeded positions: sappers of both sides lay mines, enemies walk over them with random calls,
    sweeps find some; no payload of the other seat ever gives a standing mine away."""
    rng = random.Random(11)
    for _ in range(40):
        state, u = position(("white", "SAP", GROUND, "N"), ("red", "SAP", (20, 10), "S"), ("red", "PC", (16, 9), "S"))
        for _ in range(3):
            state.turn += 2
            state.units[u["1"]]["acted"] = False
            choices = mines.mine_squares(state, u["1"])
            events = lay(state, u["1"], rng.choice(choices))
            state.mines["white"][-1]["call"] = rng.choice(mines.CALLS)
            assert leaked(state, "red", events) == []
        walker = u["3"]
        for s in rng.sample(sorted(close_to(sq(*GROUND))), 6):
            if walker not in state.units or state.unit_at(s) is not None:
                continue
            state.units[walker]["sq"] = s
            ctx = ctx_of(state)
            flow.entered(ctx, walker, s)
            assert leaked(state, "red", ctx.events) == []


def test_u_11_2_8_roads_and_rails_may_be_mined() -> None:
    for track in (ROAD, (1, 6)):
        state, u = position(("white", "SAP", (track[0] + 1, track[1]), "N"))
        assert sq(*track) in mines.mine_squares(state, u["1"]), track
