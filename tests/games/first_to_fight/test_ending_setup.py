"""Setup's red missions (spec §3 step 6: keep 3 or 4, simultaneous and secret; §11.1 the draft) and the
lead's deal (T-SETUP-1, the reshuffle loop)."""

from __future__ import annotations

import random

import pytest

from app.games.first_to_fight import setup
from app.games.first_to_fight.engine import Ctx, apply_answer, decisions
from app.games.first_to_fight.pack import REGIONS, pack, use_pack
from app.games.first_to_fight.rules import GAME
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.views import secrets, view
from app.games.protocol import Illegal, Seat
from tests.games.first_to_fight.ending_kit import own_pack, soldier, staged

__all__ = ["own_pack"]


def new_game(players: int, **options: bool) -> GameState:
    seats = [Seat(id=f"p{i + 1}", label=f"Commander {i + 1}") for i in range(players)]
    return GAME.setup(options, seats, random.Random(11))


def answer(state: GameState, seat: str, *choices: str) -> None:
    [d] = [d for d in decisions(state) if d.seat == seat]
    apply_answer(Ctx(state, random.Random(3)), seat, d.id, tuple(choices))


def test_keep_3_or_4_all_at_once_and_in_secret() -> None:
    """§3 step 6: each keeps 3 or 4 of the 4 dealt; the answers stay unseen until the last is in; the cards
    not kept leave the game unrevealed; keeping 4 is "started with 4" (§7.6)."""
    state = new_game(3)
    dealt = {s: list(state.hands[s]) for s in state.seats}
    asked = decisions(state)
    assert [(d.seat, d.kind, d.min, d.max) for d in asked] == [(s, "keep_missions", 3, 4) for s in state.seats]
    assert all(d.group and {c.id for c in d.choices} == set(dealt[d.seat]) for d in asked)
    assert all(d.undoable for d in asked)
    with pytest.raises(Illegal):
        answer(state, "p1", *dealt["p1"][:2])
    answer(state, "p1", *dealt["p1"][:3])
    answer(state, "p2", *dealt["p2"])
    assert state.hands == dealt  # nothing settles before the last answer
    assert dealt["p1"][3] not in str(view(state, "p2"))
    answer(state, "p3", *dealt["p3"][1:])
    assert sorted(state.hands["p1"]) == sorted(dealt["p1"][:3]) and len(state.hands["p2"]) == 4
    assert state.started_four == {"p1": False, "p2": True, "p3": False}
    assert set(state.removed_missions) == {dealt["p1"][3], dealt["p3"][0]}
    for seat in ("p2", "p3"):  # removed unrevealed
        assert dealt["p1"][3] in secrets(state, seat)
    assert dealt["p1"][3] not in secrets(state, "p1")  # its holder saw it
    assert [d.kind for d in decisions(state)] == ["order"]


def test_the_draft_keep_1_pass_3_keep_1_pass_2_keep_1_or_2() -> None:
    """§11.1: 4 dealt; keep 1 and pass 3 to the left; keep 1 of the 3 from the right and pass 2; keep both
    or 1 of the last 2 (the other leaves the game unrevealed)."""
    state = new_game(4, draft=True)
    dealt = {d.seat: [c.id for c in d.choices] for d in decisions(state)}
    assert state.hands == {s: [] for s in state.seats}  # the dealt cards are the first packets
    asked = decisions(state)
    assert {(d.kind, d.min, d.max, len(d.choices)) for d in asked} == {("draft_pick", 1, 1, 4)}
    for seat in state.seats:
        answer(state, seat, dealt[seat][0])
    assert state.hands == {s: [dealt[s][0]] for s in state.seats}
    # p2 now picks from what p1 passed; p1's leftovers are secret to p3, who never held them
    asked = {d.seat: d for d in decisions(state)}
    assert {c.id for c in asked["p2"].choices} == set(dealt["p1"][1:])
    assert set(dealt["p1"][1:]) <= secrets(state, "p3") and not set(dealt["p1"][1:]) & secrets(state, "p1")
    for seat in state.seats:
        answer(state, seat, sorted(c.id for c in asked[seat].choices)[0])
    asked = {d.seat: d for d in decisions(state)}
    assert {(d.kind, d.min, d.max, len(d.choices)) for d in asked.values()} == {("draft_keep", 1, 2, 2)}
    assert {c.id for c in asked["p3"].choices} <= set(dealt["p1"])  # from two seats to the right
    for i, seat in enumerate(state.seats):
        ids = [c.id for c in asked[seat].choices]
        answer(state, seat, *(ids if i % 2 else ids[:1]))
    assert [len(state.hands[s]) for s in state.seats] == [3, 4, 3, 4]
    assert state.started_four == {"p1": False, "p2": True, "p3": False, "p4": True}
    assert len(state.removed_missions) == 2
    kept = [m for s in state.seats for m in state.hands[s]]
    assert sorted(kept + state.removed_missions) == sorted(m for s in state.seats for m in dealt[s])


def test_the_draft_with_two_players_passes_to_the_one_opponent() -> None:
    state = new_game(2, draft=True)
    dealt = {d.seat: [c.id for c in d.choices] for d in decisions(state)}
    for seat in state.seats:
        answer(state, seat, dealt[seat][0])
    asked = {d.seat: d for d in decisions(state)}
    assert {c.id for c in asked["p1"].choices} == set(dealt["p2"][1:])
    assert {c.id for c in asked["p2"].choices} == set(dealt["p1"][1:])


class Rigged(random.Random):
    """The first shuffle of the soldier deck puts 4 Infantry on top; the later ones are seeded."""

    def __init__(self, first: list[str]) -> None:
        super().__init__(5)
        self.first, self.shuffles = first, 0

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        if x and x[0] in pack().soldiers:
            self.shuffles += 1
            if self.shuffles == 1:
                x.sort(key=lambda s: (s not in self.first, self.first.index(s) if s in self.first else 0, s))
                return
        super().shuffle(x)


def test_t_setup_1_four_of_a_formation_reshuffle_the_whole_deck(own_pack: None) -> None:
    """T-SETUP-1 (§3 step 4, the lead's setup.deal): the 5 first soldiers include 4 Infantry: they go back,
    the whole deck is shuffled and dealt again."""
    formations = ["INFANTRY"] * 4 + ["PILOT", "SAILOR"] * 5
    use_pack(staged(soldiers=[soldier(f"s{i:02d}", f) for i, f in enumerate(formations)]))
    first = ["s00", "s01", "s02", "s03", "s04"]
    rng = Rigged(first)
    state = GameState(options={"draft": False, "events": False, "players": 2}, seats=["p1", "p2"])
    setup.deal(state, rng)
    assert rng.shuffles >= 2
    placed = [next(s for s, d in state.soldiers.items() if d["region"] == r) for r in REGIONS]
    assert placed != first
    counts = [sum(pack().soldiers[s].formation == f for s in placed) for f in ("INFANTRY", "PILOT", "SAILOR")]
    assert max(counts) < 4
