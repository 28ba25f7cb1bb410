"""Small board positions and drivers for the QMG rules tests."""

from __future__ import annotations

import random
from typing import Any

from app.games.protocol import Action, Decision, Event, action_rng
from app.games.qmg import GAME
from app.games.qmg.data import COUNTRIES, catalogue
from app.games.qmg.engine import Ctx, run
from app.games.qmg.state import GameState
from app.games.qmg.turn import turn


def iids(key: str) -> list[str]:
    return [i for i, d in catalogue().items() if d.key == key]


def _take(st: GameState, c: str, key: str) -> str:
    """Move a card with definition ``key`` out of whatever zone holds it and return its id."""
    cs = st.countries[c]
    for i in iids(key):
        if i in cs.deck:  # make() first gathers every card into the deck
            cs.deck.remove(i)
            return i
    raise AssertionError(f"no free copy of {key}")


def make(
    units: dict[str, list[str]],
    active: str = "germany",
    hand: dict[str, list[str]] | None = None,
    statuses: dict[str, list[str]] | None = None,
    responses: dict[str, list[str]] | None = None,
    deck: dict[str, int] | None = None,
    discard: dict[str, list[str]] | None = None,
    players: int = 6,
    options: dict[str, Any] | None = None,
    start: bool = True,
    to_action: bool = True,
) -> GameState:
    """A position at the start of ``active``'s turn with exactly the given units and cards.

    Hands not given are emptied; decks keep their cards (``deck`` trims them to a size).
    """
    st = GAME.setup(options or {}, GAME.roles(players, {}), random.Random(1))
    st.stack.clear()
    st.units = {s: list(cs) for s, cs in units.items()}
    for c in COUNTRIES:
        cs = st.countries[c]
        cs.deck.extend(cs.hand)
        cs.deck.extend(cs.discard)
        cs.hand, cs.discard, cs.revealed, cs.statuses, cs.responses = [], [], [], [], []
        cs.deck.sort()
    for c, keys in (hand or {}).items():
        st.countries[c].hand = [_take(st, c, k) for k in keys]
    for c, keys in (statuses or {}).items():
        st.countries[c].statuses = [_take(st, c, k) for k in keys]
    for c, keys in (responses or {}).items():
        st.countries[c].responses = [_take(st, c, k) for k in keys]
    for c, keys in (discard or {}).items():
        for k in keys:
            i = _take(st, c, k)
            st.countries[c].discard.append(i)
            st.countries[c].revealed.append(i)
    for c, n in (deck or {}).items():
        del st.countries[c].deck[n:]
    st.active = active
    if start:
        st.stack.append(turn(active))
        run(Ctx(st, random.Random(2)))
        if to_action:
            pass_reactions(st)
    return st


def decision(st: GameState) -> Decision:
    ds = GAME.pending(st)
    assert ds, "nothing pending"
    return ds[0]


def answer(st: GameState, *choices: str, seed: int = 0) -> list[Event]:
    d = decision(st)
    return GAME.apply(st, d.seat, Action(d.id, tuple(choices)), action_rng(b"test", st.step + seed))


def pick(st: GameState, prefix: str) -> list[Event]:
    """Answer with the single choice whose id starts with ``prefix``."""
    d = decision(st)
    hits = [c.id for c in d.choices if c.id.startswith(prefix)]
    assert len(hits) == 1, f"{prefix!r} matches {hits} in {d.kind}: {d.choice_ids()}"
    return answer(st, hits[0])


def play(st: GameState, key: str) -> list[Event]:
    c = st.active
    iid = next(i for i in st.countries[c].hand if catalogue()[i].key == key)
    return answer(st, f"play:{iid}")


def pass_reactions(st: GameState) -> None:
    while GAME.pending(st) and decision(st).kind == "react":
        answer(st, "pass")


def use(st: GameState, key: str) -> list[Event]:
    d = decision(st)
    assert d.kind == "react", f"expected a reaction prompt, got {d.kind}: {d.prompt}"
    hits = [c.id for c in d.choices if c.id.startswith("use:") and catalogue()[c.id[4:]].key == key]
    assert hits, f"{key} not usable now: {d.choice_ids()}"
    return answer(st, hits[0])


def react_options(st: GameState) -> list[str]:
    d = decision(st)
    if d.kind != "react":
        return []
    return [catalogue()[c.id[4:]].key for c in d.choices if c.id.startswith("use:")]


def until(st: GameState, kind: str, limit: int = 50) -> Decision:
    """Pass every reaction prompt until a decision of ``kind`` is pending."""
    for _ in range(limit):
        d = decision(st)
        if d.kind == kind:
            return d
        if d.kind == "react":
            answer(st, "pass")
            continue
        raise AssertionError(f"waiting for {kind}, got {d.kind}: {d.prompt}")
    raise AssertionError("too many steps")


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def armies(st: GameState, c: str) -> list[str]:
    return sorted(st.units_of(c))


def until_usable(st: GameState, key: str, limit: int = 50) -> None:
    """Pass reaction prompts until ``key`` is offered (fails if another kind of decision comes first)."""
    for _ in range(limit):
        d = decision(st)
        assert d.kind == "react", f"{key} never offered; now {d.kind}: {d.prompt}"
        if key in react_options(st):
            return
        answer(st, "pass")
    raise AssertionError("too many steps")


FILLER = {"germany": "ger_build_army", "uk": "uk_build_army", "japan": "jpn_build_army", "ussr": "ussr_build_army",
          "italy": "ita_build_army", "usa": "usa_build_army"}


def card_position(units: dict[str, list[str]], c: str, key: str, **kw: Any) -> GameState:
    """``c``'s action phase with ``key`` (and a filler card) in hand."""
    hand = dict(kw.pop("hand", {}))
    if c not in hand:
        hand[c] = [key, FILLER[c]] if key != FILLER[c] else [key, key]
    return make(units, active=c, hand=hand, **kw)


def go(st: GameState, *steps: str) -> list[Event]:
    """Answer a sequence of decisions, passing reaction prompts in between.

    ``use:KEY`` waits until KEY is offered and uses it; ``n:K`` answers with the first K choices;
    ``''`` answers with no choice; anything else picks the unique choice starting with it.
    """
    events: list[Event] = []
    for s in steps:
        if s.startswith("use:"):
            until_usable(st, s[4:])
            events += use(st, s[4:])
            continue
        while decision(st).kind == "react":
            events += answer(st, "pass")
        if s.startswith("n:"):
            events += answer(st, *decision(st).choice_ids()[: int(s[2:])])
        elif s == "":
            events += answer(st)
        elif s in ("play:", "discard:", "instead:", "use:"):
            events += answer(st, next(c for c in decision(st).choice_ids() if c.startswith(s)))
        else:
            events += pick(st, s)
    return events


def finish(st: GameState) -> list[Event]:
    """Pass reactions until the active country's discard phase."""
    events: list[Event] = []
    for _ in range(100):
        d = decision(st)
        if d.kind == "discard_phase":
            return events
        assert d.kind == "react", f"unexpected {d.kind}: {d.prompt} {d.choice_ids()}"
        events += answer(st, "pass")
    raise AssertionError("did not reach the discard phase")


def deck(st: GameState, c: str) -> int:
    return len(st.countries[c].deck)


def card_vp(st: GameState, team: str) -> int:
    """VP scored by cards (not by the dominance phase)."""
    return sum(d for t, d, why in st.vp_log if t == team and "dominance" not in why)
