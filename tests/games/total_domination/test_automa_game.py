"""Whole solo games on the real pack: the automa against random answers, to the end."""

from __future__ import annotations

import json
import random
from typing import Any

from app.games.total_domination import GAME
from app.games.total_domination.pack import AXIS, pack
from app.games.total_domination.state import GameState, dump


def play(seed: int, options: dict[str, Any] | None = None) -> tuple[GameState, list[str]]:
    rng = random.Random(seed)
    st = GAME.setup(options or {}, GAME.roles(1, options or {}), rng)
    log: list[str] = []
    for _ in range(GAME.max_actions(1, {})):
        if GAME.outcome(st) is not None:
            break
        decision = GAME.pending(st)[0]
        events = GAME.apply(st, decision.seat, GAME.bot(st, decision, rng), rng)
        log += [e.text for e in events]
        for e in events:  # every choice the automa makes says which rule made it
            if e.msg is not None and e.msg.id in ("automa_move", "automa_build", "automa_destroy"):
                assert e.msg.params["why"], e.text
        check(st)
    return st, log


def check(st: GameState) -> None:
    solo = st.solo
    piles = [solo["dealt"], solo["deck"], solo["used"], solo["removed"]]
    every = [c for pile in piles for c in pile]
    joined = [c.id for c in pack().solo.values() if c.year <= st.year]  # rule 2: the later years' cards wait
    assert sorted(every) == sorted(joined), "every solo card in play is in exactly one pile"
    assert not [u for u in st.units if u.kind in ("bomber", "uboat", "resistance")]  # rule 8
    assert not [p for p in AXIS if p in st.hand_of]  # the automa holds no cards (rule 4)


def test_solo_games_to_the_end() -> None:
    for seed in range(3):
        st, log = play(seed)
        assert GAME.outcome(st) is not None
        assert any("(automa) reveals solo card" in line for line in log)


def test_the_same_seed_plays_the_same_game() -> None:
    first, log1 = play(11)
    second, log2 = play(11)
    assert log1 == log2
    assert json.dumps(dump(first), sort_keys=True) == json.dumps(dump(second), sort_keys=True)


def test_rule_8_no_bombers_nor_u_boats_in_a_solo_game() -> None:
    st = GAME.setup({"bombers": True, "uboats": True}, GAME.roles(1, {}), random.Random(1))
    assert st.options["bombers"] is False and st.options["uboats"] is False


def test_the_automa_speaks_english_and_polish(monkeypatch: Any) -> None:
    from app.games import catalogue as cat
    from app.games.total_domination import text

    book = text.catalogue()
    mine = {m for m in book.messages["en"] if m.startswith(("automa_", "solo_", "why_", "what_", "rule5_"))}
    assert not [p for p in book.problems() if any(f"'{m}'" in p for m in mine)]
    missed: list[tuple[str, str, str]] = []
    monkeypatch.setattr(cat, "on_missing", lambda what, lang, key: missed.append((what, lang, key)))
    rng = random.Random(5)
    st = GAME.setup({}, GAME.roles(1, {}), rng)
    seen: set[str] = set()
    for _ in range(200):
        if GAME.outcome(st) is not None:
            break
        decision = GAME.pending(st)[0]
        for e in GAME.apply(st, decision.seat, GAME.bot(st, decision, rng), rng):
            if e.msg is not None and e.msg.id in mine:
                seen.add(e.msg.id)
                assert book.text(e.msg, "pl")
    assert {"automa_reveals", "automa_action", "automa_turn_ends", "solo_deal"} <= seen
    assert not [m for m in missed if m[1] == "pl"]
