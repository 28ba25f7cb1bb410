"""Battles for neutral regions (spec §16, §10.3.9–10, §24 "Neutral defender commander")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.games.attack import GAME
from app.games.attack.battle import engine_pick
from app.games.attack.pack import EconCard, pack
from tests.games.attack.battle_kit import answer, fight, lines, one, pending, pick, table
from tests.games.attack.dice_kit import ScriptedDice, faces, pair

STRONG, WEAK = "ec-901", "ec-902"


def low(log: list[str]) -> list[str]:
    return [line.lower() for line in log]


@pytest.fixture(autouse=True)
def test_cards(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Two cards of our own, so the tests do not hang on the data pack's deck."""
    econ = pack().econ
    monkeypatch.setitem(econ, STRONG, EconCard(id=STRONG, type="OIL", value=3, name="Test oil", name_pl="Testowa ropa",
                                               defenders=(("INF", 2), ("TNK", 1), ("ART", 2), ("PLN", 1))))
    monkeypatch.setitem(econ, WEAK, EconCard(id=WEAK, type="POP", value=1, name="Test town", name_pl="Testowe miasto",
                                             defenders=(("INF", 1),)))
    yield


def _neutral(players: int = 2, card: str = WEAK, hands: dict[str, list[str]] | None = None):
    owner = {"belarus": "p1", "poland": "p2", "russia": "p3", "ukraine": "p4"}
    owner = {r: s for r, s in owner.items() if int(s[1]) <= players}
    return table(players=players, owner=owner, units={r: {"INF": 1} for r in owner}, deck=[card, "ec-001"],
                 hands=hands or {"p1": ["ec-002"]})


def test_a_16_3_card_drawn_and_shown_and_kept_on_a_win() -> None:
    """A-16.3, A-16.5: the attacker draws the top card; its defenders fight; the card is shown to all
    (spec §25.2) and the attacker keeps it when it wins (A-10.3.9)."""
    state = _neutral()
    rng = ScriptedDice(*faces("BLANK", "BLANK"), *faces("INF", "BLANK", "BLANK", "BLANK"))
    log = lines(fight(state, "romania", "p1", {"INF": 4}, rng))
    d = one(state)
    assert (d.seat, d.kind) == ("p2", "neutral_command") and d.group
    assert state.battle["card"] == WEAK and state.battle["sides"]["D"]["reserve"] == {"INF": 1}
    assert "romania" not in state.owner  # the defender pieces never give anyone control
    # names of the staged map's regions are not catalogue terms: compared without case
    assert f"light brown draws {WEAK} for neutral romania; its defenders: infantry ×1." in \
        [line.replace("Test town", WEAK).lower() for line in log]
    assert WEAK not in GAME.secrets(state, "p2")
    log += lines(answer(state, "p2", ("decline",), rng))
    assert state.owner["romania"] == "p1" and state.units["romania"] == {"INF": 4}
    assert state.hands["p1"] == ["ec-002", WEAK] and state.deck == ["ec-001"]
    assert WEAK not in GAME.secrets(state, "p2")  # everyone saw it drawn
    assert any(line.startswith("Light brown keeps") for line in log)


def test_a_16_5_defenders_win_card_shuffled_back() -> None:
    """A-16.5, A-10.3.10: the attackers are all lost; the defender pieces are removed, the card goes
    back into the deck (shuffled) and the region stays neutral."""
    state = _neutral()
    rng = ScriptedDice(*faces("INF", "BLANK"))
    fight(state, "romania", "p1", {"INF": 1}, rng)
    log = lines(answer(state, "p2", ("decline",), rng))
    assert state.battle["winner"] == "D"
    assert "romania" not in state.owner and "romania" not in state.units
    assert state.hands["p1"] == ["ec-002"] and sorted(state.deck) == sorted(["ec-001", WEAK])
    assert "the neutral defenders hold romania: their pieces are removed and it stays neutral." in low(log)
    assert any("shuffled back" in line for line in log)
    assert WEAK not in GAME.secrets(state, "p2")  # it was shown to all: knowing it in the deck is fair
    assert "ec-001" in GAME.secrets(state, "p2")


def test_a_16_4_nobody_commands_the_engine_plays_them() -> None:
    """Spec §24: nobody volunteers: the rules commit as many as allowed, INF, ART, TNK, PLN first."""
    assert engine_pick({"INF": 2, "TNK": 1, "ART": 2, "PLN": 1}, 4) == {"INF": 2, "ART": 2}
    assert engine_pick({"TNK": 1, "PLN": 1}, 1) == {"TNK": 1}
    state = _neutral(players=3, card=STRONG)
    rng = ScriptedDice(*faces(*["BLANK"] * 4), *faces("INF", "INF", "INF", "BLANK"),
                       *faces(*["BLANK"] * 4), *faces(*["INF"] * 4))
    fight(state, "romania", "p1", {"INF": 4}, rng)
    assert sorted(d.seat for d in pending(state)) == ["p2", "p3"]
    answer(state, "p2", ("decline",), rng)
    log = lines(answer(state, "p3", ("decline",), rng))
    assert any(line.startswith("nobody commands the defenders of romania: the rules play them") for line in low(log))
    b = state.battle
    assert b["commander"] is None
    assert b["halves"][0]["engaged"] == {"INF": 2, "ART": 2}
    # round 2: three lost, cap 5: the engine refills with everything it has left, tank before plane
    assert b["halves"][2]["added"] == {"TNK": 1, "PLN": 1}
    assert b["halves"][2]["engaged"] == {"TNK": 1, "ART": 1, "PLN": 1}
    assert b["halves"][3]["casualties"] == {"TNK": 1, "ART": 1, "PLN": 1}
    assert state.owner["romania"] == "p1" and state.units["romania"] == {"INF": 4}


def test_a_16_4_one_volunteer_commands() -> None:
    """A-16.4: the one player who wants the defenders commands them and makes their choices."""
    state = _neutral(players=3, card=STRONG)
    rng = ScriptedDice()
    fight(state, "romania", "p1", {"INF": 4}, rng)
    answer(state, "p2", ("decline",), rng)
    log = lines(answer(state, "p3", ("command",), rng))
    assert "blue commands the neutral defenders of romania." in low(log)
    assert state.battle["commander"] == "p3"
    d = one(state)  # the commander picks the defenders' opening four, seeing the attacker's
    assert (d.seat, d.kind, d.min, d.max) == ("p3", "battle_opening", 4, 4)
    assert state.land_units("p3") == 1  # the defenders are not its land units


def test_a_16_4_roll_off_with_a_tie() -> None:
    """A-16.4, spec §24: several volunteers roll 2d6, the highest commands; the tied highest re-roll."""
    state = _neutral(players=4, card=STRONG)
    rng = ScriptedDice(*pair(9), *pair(11), *pair(11), *pair(5), *pair(8))
    fight(state, "romania", "p1", {"INF": 4}, rng)
    assert sorted(d.seat for d in pending(state)) == ["p2", "p3", "p4"]
    answer(state, "p4", ("command",), rng)
    answer(state, "p2", ("command",), rng)
    log = lines(answer(state, "p3", ("command",), rng))
    assert rng.rolls == []
    rolls = [line for line in log if "for command of the defenders" in line]
    assert rolls == ["Green rolls 6 + 3 = 9 for command of the defenders.",
                     "Blue rolls 6 + 5 = 11 for command of the defenders.",
                     "Red rolls 6 + 5 = 11 for command of the defenders.",
                     "Blue rolls 4 + 1 = 5 for command of the defenders.",
                     "Red rolls 6 + 2 = 8 for command of the defenders."]
    assert state.battle["commander"] == "p4"
    assert one(state).seat == "p4"


def test_command_answers_hidden_until_all_are_in() -> None:
    """The offer is a simultaneous step: an answer stays unseen (and may be taken back) until the last."""
    state = _neutral(players=3, card=STRONG)
    rng = ScriptedDice()
    fight(state, "romania", "p1", {"INF": 4}, rng)
    events = answer(state, "p2", ("command",), rng)
    assert events == []
    left = pending(state)
    assert [d.seat for d in left] == ["p3"] and not left[0].undoable
    assert GAME.view(state, "p3")["land_battle"]["commander"] is None


def test_empty_deck_leaves_the_region_undefended() -> None:
    """README default: with no card to draw, nobody defends the neutral region; the attacker takes it."""
    state = _neutral()
    state.deck = []
    log = lines(fight(state, "romania", "p1", {"INF": 2}, ScriptedDice()))
    assert state.owner["romania"] == "p1" and state.units["romania"] == {"INF": 2}
    assert any("nobody defends neutral romania" in line for line in low(log))
    assert pending(state) == []


def test_last_player_standing_offers_nobody() -> None:
    """With every other player eliminated, nobody is asked: the rules play the defenders."""
    state = _neutral(players=2)
    state.eliminated = ["p2"]
    rng = ScriptedDice(*faces("BLANK", "BLANK"), *faces("INF", "BLANK"))
    fight(state, "romania", "p1", {"INF": 2}, rng)
    assert state.owner["romania"] == "p1"


def test_neutral_attack_pick() -> None:
    """The attacker's opening pick comes after the command question (A-10.2.2)."""
    state = _neutral(card=STRONG)
    rng = ScriptedDice(*faces(*["BLANK"] * 16))
    fight(state, "romania", "p1", {"INF": 4, "TNK": 2}, rng)
    answer(state, "p2", ("decline",), rng)
    d = one(state)
    assert (d.seat, d.kind) == ("p1", "battle_opening")
    answer(state, "p1", pick({"INF": 2, "TNK": 2}), rng)
    assert [h["side"] for h in state.battle["halves"]] == ["D", "A", "D"]
    assert state.battle["halves"][2]["added"] == {"TNK": 1}
    assert one(state).kind == "battle_reinforce" and rng.rolls == []


def test_polish_lines_agree_with_the_neutral_defenders() -> None:
    """Polish log lines: the neutral defenders take the plural verb, a colour the singular (spec §22 terms)."""
    from app.games.attack.text import catalogue

    assert catalogue().problems() == []
    state = _neutral()
    rng = ScriptedDice(*faces("INF", "BLANK", "BLANK", "BLANK", "BLANK", "BLANK", "INF", "BLANK"))
    fight(state, "romania", "p1", {"INF": 2}, rng)
    events = answer(state, "p2", ("decline",), rng)
    polish = [catalogue().text(e.msg, "pl") for e in events]
    assert "Runda 1: Neutralni obrońcy rzucają 2 kostkami: piechota, puste pole." in polish
    assert "Neutralni obrońcy: 1 trafienie (piechota ×1); Jasnobrązowy traci: piechota ×1." in polish
    assert "Runda 1: Jasnobrązowy rzuca 2 kostkami: puste pole, puste pole." in polish
