"""LAND-EX-1 (spec §11, rulebook XIII "Szczegółowy przykład bitwy lądowej"): the Ukraine battle,
verbatim, with the book's exact dice; and the rulebook's two hit examples (A-10.3.5)."""

from __future__ import annotations

from app.games.attack import GAME
from app.games.attack.battle import hits_by_type
from tests.games.attack.battle_kit import answer, fight, lines, one, pick, table
from tests.games.attack.dice_kit import ScriptedDice, faces

# the faces of each row of LAND-EX-1, in the table's order
ROWS: list[tuple[str, ...]] = [
    ("INF", "ART", "ART", "PLN", "PLN"),  # 1 G R1
    ("TNK", "ART", "PLN", "PLN", "PLN", "PLN"),  # 2 LB R1
    ("INF", "INF", "TNK", "ART", "PLN", "PLN"),  # 3 G R2
    ("INF", "TNK", "TNK", "PLN", "PLN", "BLANK"),  # 4 LB R2
    ("INF", "INF", "ART", "BLANK"),  # 5 G R3
    ("BLANK", "ART", "PLN"),  # 6 LB R3
    ("INF", "INF"),  # 7 G R4
    ("PLN", "TNK", "BLANK"),  # 8 LB R4
    ("INF", "TNK"),  # 9 G R5
    ("PLN", "PLN", "PLN"),  # 10 LB R5
]

# (side, round, reinforcements, engaged before the roll, hits by type, casualties, after: engaged/reserve of both)
EXPECTED: list[dict] = [
    {"side": "D", "round": 1, "added": {}, "engaged": {"INF": 1, "TNK": 1, "ART": 1, "PLN": 1},
     "hits": {"INF": 1, "ART": 1, "PLN": 1}, "casualties": {"INF": 3}, "wasted": 0,
     "after": {"A": {"engaged": {"INF": 1}, "reserve": {"INF": 1, "TNK": 3, "ART": 2, "PLN": 2}},
               "D": {"engaged": {"INF": 1, "TNK": 1, "ART": 1, "PLN": 1}, "reserve": {"INF": 2, "TNK": 1, "ART": 1,
                                                                                      "PLN": 1}}}},
    {"side": "A", "round": 1, "added": {"TNK": 2, "PLN": 1}, "engaged": {"INF": 1, "TNK": 2, "PLN": 1},
     "hits": {"TNK": 1, "PLN": 1}, "casualties": {"INF": 1, "TNK": 1}, "wasted": 0,
     "after": {"A": {"engaged": {"INF": 1, "TNK": 2, "PLN": 1}, "reserve": {"INF": 1, "TNK": 1, "ART": 2, "PLN": 1}},
               "D": {"engaged": {"ART": 1, "PLN": 1}, "reserve": {"INF": 2, "TNK": 1, "ART": 1, "PLN": 1}}}},
    {"side": "D", "round": 2, "added": {"INF": 1, "TNK": 1, "PLN": 1},
     "engaged": {"INF": 1, "TNK": 1, "ART": 1, "PLN": 2},
     "hits": {"INF": 1, "TNK": 1, "ART": 1, "PLN": 2}, "casualties": {"INF": 1, "TNK": 2, "PLN": 1}, "wasted": 1,
     "after": {"A": {"engaged": {}, "reserve": {"INF": 1, "TNK": 1, "ART": 2, "PLN": 1}},
               "D": {"engaged": {"INF": 1, "TNK": 1, "ART": 1, "PLN": 2}, "reserve": {"INF": 1, "ART": 1}}}},
    {"side": "A", "round": 2, "added": {"INF": 1, "TNK": 1, "ART": 2, "PLN": 1},
     "engaged": {"INF": 1, "TNK": 1, "ART": 2, "PLN": 1},
     "hits": {"INF": 1, "TNK": 1, "PLN": 1}, "casualties": {"INF": 1, "TNK": 1, "ART": 1}, "wasted": 0,
     "after": {"A": {"engaged": {"INF": 1, "TNK": 1, "ART": 2, "PLN": 1}, "reserve": {}},
               "D": {"engaged": {"PLN": 2}, "reserve": {"INF": 1, "ART": 1}}}},
    {"side": "D", "round": 3, "added": {"INF": 1, "ART": 1}, "engaged": {"INF": 1, "ART": 1, "PLN": 2},
     "hits": {"INF": 1, "ART": 1}, "casualties": {"INF": 1, "TNK": 1}, "wasted": 0,
     "after": {"A": {"engaged": {"ART": 2, "PLN": 1}, "reserve": {}},
               "D": {"engaged": {"INF": 1, "ART": 1, "PLN": 2}, "reserve": {}}}},
    {"side": "A", "round": 3, "added": {}, "engaged": {"ART": 2, "PLN": 1},
     "hits": {"ART": 1, "PLN": 1}, "casualties": {"INF": 1, "ART": 1}, "wasted": 0,
     "after": {"A": {"engaged": {"ART": 2, "PLN": 1}, "reserve": {}}, "D": {"engaged": {"PLN": 2}, "reserve": {}}}},
    {"side": "D", "round": 4, "added": {}, "engaged": {"PLN": 2}, "hits": {}, "casualties": {}, "wasted": 0,
     "after": {"A": {"engaged": {"ART": 2, "PLN": 1}, "reserve": {}}, "D": {"engaged": {"PLN": 2}, "reserve": {}}}},
    {"side": "A", "round": 4, "added": {}, "engaged": {"ART": 2, "PLN": 1}, "hits": {"PLN": 1},
     "casualties": {"PLN": 1}, "wasted": 0,
     "after": {"A": {"engaged": {"ART": 2, "PLN": 1}, "reserve": {}}, "D": {"engaged": {"PLN": 1}, "reserve": {}}}},
    {"side": "D", "round": 5, "added": {}, "engaged": {"PLN": 1}, "hits": {}, "casualties": {}, "wasted": 0,
     "after": {"A": {"engaged": {"ART": 2, "PLN": 1}, "reserve": {}}, "D": {"engaged": {"PLN": 1}, "reserve": {}}}},
    {"side": "A", "round": 5, "added": {}, "engaged": {"ART": 2, "PLN": 1}, "hits": {"PLN": 1},
     "casualties": {"PLN": 1}, "wasted": 0,
     "after": {"A": {"engaged": {"ART": 2, "PLN": 1}, "reserve": {}}, "D": {"engaged": {}, "reserve": {}}}},
]

LB_RESERVE = {"INF": 5, "TNK": 3, "ART": 2, "PLN": 2}
G_RESERVE = {"INF": 3, "TNK": 2, "ART": 2, "PLN": 2}
G_HAND = ["ec-001", "ec-002", "ec-003"]


def _ukraine() -> tuple:
    state = table(players=3, owner={"ukraine": "p2", "poland": "p2", "belarus": "p1", "russia": "p3"},
                  units={"ukraine": dict(G_RESERVE), "poland": {"INF": 1}, "belarus": {"INF": 1}, "russia": {"INF": 1}},
                  hands={"p1": ["ec-004"], "p2": list(G_HAND), "p3": ["ec-005"]})
    rng = ScriptedDice(*[f for row in ROWS for f in faces(*row)])
    return state, rng


def _play_land_ex_1() -> tuple:
    state, rng = _ukraine()
    log = lines(fight(state, "ukraine", "p1", dict(LB_RESERVE), rng))
    d = one(state)
    assert (d.seat, d.kind, d.min, d.max) == ("p1", "battle_opening", 4, 4)
    log += lines(answer(state, "p1", pick({"INF": 4}), rng))
    d = one(state)  # the defender chooses, seeing the attacker's four (A-10.2.3)
    assert (d.seat, d.kind) == ("p2", "battle_opening")
    assert state.battle["sides"]["A"]["engaged"] == {"INF": 4}
    log += lines(answer(state, "p2", pick({"INF": 1, "TNK": 1, "ART": 1, "PLN": 1}), rng))
    # row 2: LB refills to 4 in round 1 after its losses (the settled reading)
    d = one(state)
    assert (d.seat, d.kind, d.min, d.max) == ("p1", "battle_reinforce", 0, 3)
    log += lines(answer(state, "p1", pick({"TNK": 2, "PLN": 1}), rng))
    d = one(state)  # row 3: G's cap is 5 in round 2
    assert (d.seat, d.kind, d.min, d.max) == ("p2", "battle_reinforce", 0, 3)
    log += lines(answer(state, "p2", pick({"INF": 1, "TNK": 1, "PLN": 1}), rng))
    d = one(state)  # row 4: LB has nothing engaged: at least one must go in
    assert (d.seat, d.kind, d.min, d.max) == ("p1", "battle_reinforce", 1, 5)
    log += lines(answer(state, "p1", pick({"INF": 1, "TNK": 1, "ART": 2, "PLN": 1}), rng))
    d = one(state)  # row 5: G's cap 6, two left in reserve
    assert (d.seat, d.kind, d.min, d.max) == ("p2", "battle_reinforce", 0, 2)
    log += lines(answer(state, "p2", pick({"INF": 1, "ART": 1}), rng))
    return state, rng, log


def test_land_ex_1_every_row() -> None:
    """LAND-EX-1 rows 1–10 (A-10.2, A-10.3.2–A-10.3.7): defender first, the 3+r cap on engaged units,
    two dice a tank, one die per own unit, casualties INF→TNK→ART→PLN, a wasted hit, the 2-dice minimum."""
    state, rng, _ = _play_land_ex_1()
    assert rng.rolls == []  # every die of the book was rolled, no more
    halves = state.battle["halves"]
    assert len(halves) == len(EXPECTED)
    for i, (half, want, row) in enumerate(zip(halves, EXPECTED, ROWS, strict=True), start=1):
        assert half["dice"] == list(row), f"row {i}"
        for key, value in want.items():
            assert half[key] == value, f"row {i}: {key}"
    assert [len(h["dice"]) for h in halves] == [5, 6, 6, 6, 4, 3, 2, 3, 2, 3]  # row 9: one plane rolls two


def test_land_ex_1_end_state_and_card() -> None:
    """LAND-EX-1 end: LB holds Ukraine with 2 ART + 1 PLN; Green lost all 9 there; LB takes one random
    card from Green's hand (A-10.3.9, settled reading of A-17.2); only the two of them see which."""
    state, _, log = _play_land_ex_1()
    assert state.owner["ukraine"] == "p1"
    assert state.units["ukraine"] == {"ART": 2, "PLN": 1}
    assert state.battle["over"] and state.battle["winner"] == "A"
    assert state.battle["sides"]["D"]["lost"] == G_RESERVE
    assert state.owner["poland"] == "p2" and state.outcome is None  # Green still has Poland: no elimination
    taken = [c for c in state.hands["p1"] if c != "ec-004"]
    assert len(taken) == 1 and taken[0] in G_HAND
    assert sorted(state.hands["p2"] + taken) == sorted(G_HAND)
    assert taken[0] in state.seen["p1"] and taken[0] in state.seen["p2"]
    assert taken[0] in GAME.secrets(state, "p3") and taken[0] not in GAME.secrets(state, "p1")
    assert any("takes a random Economics card from Green" in line for line in log)
    assert any("Light brown wins the battle and takes Ukraine with artillery ×2, plane ×1" in line for line in log)


def test_land_ex_1_log_shows_every_roll() -> None:
    """Every roll is logged with its faces, and its hits by type and the casualties."""
    _, _, log = _play_land_ex_1()
    assert "Round 1: Green rolls 5 dice: infantry, artillery, artillery, plane, plane." in log
    assert "Green scores 3 hits (infantry ×1, artillery ×1, plane ×1); Light brown loses infantry ×3." in log
    assert "Round 1: Light brown sends tank ×2, plane ×1 into the battle." in log
    assert "Round 5: Green rolls 2 dice: infantry, tank." in log
    assert "Green scores no hit." in log
    assert sum(1 for line in log if "rolls" in line and "dice" in line) == 10


def test_rulebook_hit_example_1() -> None:
    """A-10.3.5 example 1: the defender's 1 INF + 2 TNK roll 5 dice (2×INF, 2×PLN, blank): 1 hit."""
    assert hits_by_type(["INF", "INF", "PLN", "PLN", "BLANK"], {"INF": 1, "TNK": 2}) == {"INF": 1}
    state = table(owner={"ukraine": "p2", "poland": "p2", "belarus": "p1"},
                  units={"ukraine": {"INF": 1, "TNK": 2}, "poland": {"INF": 1}, "belarus": {"INF": 1}})
    rng = ScriptedDice(*faces("INF", "INF", "PLN", "PLN", "BLANK"))
    fight(state, "ukraine", "p1", {"INF": 5, "ART": 1}, rng)
    answer(state, "p1", pick({"INF": 4}), rng)  # the defender commits all 3: its round-1 roll follows
    half = state.battle["halves"][0]
    assert (half["side"], len(half["dice"]), half["hits"], half["casualties"]) == ("D", 5, {"INF": 1}, {"INF": 1})


def test_rulebook_hit_example_2() -> None:
    """A-10.3.5 example 2: the attacker's INF, TNK, PLN, ART roll 5 dice (3×PLN, 2×TNK): 2 hits, one plane
    and one tank; the other dice are lost."""
    assert hits_by_type(["PLN", "PLN", "PLN", "TNK", "TNK"], {"INF": 1, "TNK": 1, "PLN": 1, "ART": 1}) \
        == {"TNK": 1, "PLN": 1}
    state = table(owner={"ukraine": "p2", "poland": "p2", "belarus": "p1"},
                  units={"ukraine": {"INF": 6}, "poland": {"INF": 1}, "belarus": {"INF": 1}})
    rng = ScriptedDice(*faces("BLANK", "BLANK", "BLANK", "BLANK"), *faces("PLN", "PLN", "PLN", "TNK", "TNK"))
    fight(state, "ukraine", "p1", {"INF": 1, "TNK": 1, "PLN": 1, "ART": 1}, rng)
    half = state.battle["halves"][1]
    assert (half["side"], len(half["dice"]), half["hits"], half["casualties"]) == \
        ("A", 5, {"TNK": 1, "PLN": 1}, {"INF": 2})
    assert one(state).kind == "battle_reinforce"  # Green, round 2, may refill
