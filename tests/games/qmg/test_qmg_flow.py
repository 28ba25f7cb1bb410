"""QMG's flow members (app/games/qmg/flow.py): auto-pass of reaction windows and the note of
what the table waits for, over seeded games of bots and random answers."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from app.games.protocol import AutoPasses, Decision, SaysWhatItWaitsFor, random_bot
from app.games.qmg import GAME
from app.games.qmg.state import GameState
from app.games.qmg.text import catalogue
from app.games.secrets import leaks
from app.sessions.views import msg_payload


def positions(seed: int, players: int = 2, steps: int = 400) -> Iterator[tuple[GameState, Decision]]:
    """Every state of a seeded game (the bot and random answers in turn) with its decision."""
    state = GAME.setup({}, GAME.roles(players, {}), random.Random(seed))
    rng = random.Random(seed + 1)
    for step in range(steps):
        pending = [d for d in GAME.pending(state) if not d.optional]
        if not pending:
            return
        d = pending[0]
        yield state, d
        action = GAME.bot(state, d, rng) if step % 2 else random_bot(d, rng)
        GAME.apply(state, d.seat, action, random.Random(step))


def test_qmg_declares_both_members() -> None:
    assert isinstance(GAME, AutoPasses) and isinstance(GAME, SaysWhatItWaitsFor)


def test_only_a_window_offering_nothing_but_pass_is_idle() -> None:
    idle = usable = 0
    for seed in (1, 2, 3):
        for state, d in positions(seed):
            offer = GAME.autopass(state, d.seat, d)
            assert GAME.round_mark(state) == str(state.round)
            if d.kind != "react":
                assert offer is None, f"{d.kind} is not a decision one passes"
                continue
            assert offer is not None and offer.choice == "pass" and "pass" in d.choice_ids()
            assert offer.idle == (d.choice_ids() == ["pass"])
            idle += offer.idle
            usable += not offer.idle
            other = next(s for s in state.seat_labels if s != d.seat)
            assert GAME.autopass(state, other, d) is None, "only the asked seat passes its window"
    assert idle and usable, (idle, usable)


def rendered(note: Any) -> dict[str, str]:
    return {lang: catalogue().text(note, lang) or "" for lang in ("en", "pl")}


def test_the_waiting_note_names_the_country_and_the_question_in_both_languages() -> None:
    seen: dict[str, dict[str, str]] = {}
    for seed in (1, 2):
        for state, d in positions(seed, steps=300):
            note = GAME.waiting_note(state, None)
            assert note is not None, f"no note while waiting on {d.kind}"
            assert GAME.waiting_note(state, d.seat) == note, "the same public sentence for every reader"
            seen.setdefault(note.id, rendered(note))
    assert seen["wait_setup_discard"] == {"en": "Germany discards for setup",
                                          "pl": "Niemcy odrzucają karty na start gry"}
    assert seen["wait_action"] == {"en": "Germany: play or discard a card",
                                   "pl": "Niemcy: zagranie lub odrzucenie karty"}
    react = seen["wait_react"]
    assert " may respond: " in react["en"] and ": możliwa reakcja – " in react["pl"], react
    for texts in seen.values():
        assert texts["en"] and texts["pl"] and "{" not in texts["en"] + texts["pl"], texts


def test_a_window_note_says_who_may_respond_to_what() -> None:
    for state, d in positions(4, players=6, steps=600):
        if d.kind == "react":
            note = GAME.waiting_note(state, None)
            assert note is not None and note.id == "wait_react"
            countries = note.params["countries"]
            assert countries and all(state.seat_of(c) == d.seat for c in countries)
            assert note.params["situation"]["id"].startswith("sit_")
            return
    raise AssertionError("no reaction window came")


def test_the_waiting_note_leaks_nothing_to_any_seat() -> None:
    for seed in (5, 6):
        for state, _d in positions(seed, players=3, steps=300):
            note = GAME.waiting_note(state, None)
            texts = [json.dumps(msg_payload(note)), *rendered(note).values()]
            for seat in state.seat_labels:
                hidden = list(GAME.secrets(state, seat))
                for text in texts:
                    assert not leaks(text, hidden), (seat, text)
