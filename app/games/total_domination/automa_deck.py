"""The solo automa's cards (spec §15.3 rules 2, 3 and 5): the solo deck's yearly changes and the
deal, which the automa's turns draw from (automa.py), and the main-deck cards it turns up for its
technologies in the Administrative Phase.

``state.solo`` holds ``deck`` (the solo deck, face down), ``dealt`` (this year's cards, face down,
index 0 on top), ``removed`` (the "1939" cards out of the game, never looked at), ``used`` (the cards
revealed this year, face up), ``revealed`` / ``revealed_for`` (the card resolving now, or last).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.games.secrets import Secret
from app.games.total_domination import pack as td_pack
from app.games.total_domination.engine import Ctx, Task, task
from app.games.total_domination.flow import strategic_step, turn_order
from app.games.total_domination.pack import ALLIES, AXIS
from app.games.total_domination.state import GameState
from app.games.total_domination.strategic import draw
from app.games.total_domination.views import secret_part, view_part

FIRST_YEAR = 1939
CHANGE_YEARS = (1940, 1941, 1942, 1943)  # rule 2: from 1943 on nothing more is removed or added
REMOVED_EACH_YEAR = 2
DEAL = {1939: 6, 1940: 5, 1941: 6, 1942: 7}  # rule 3
DEAL_LATER = 9  # 1943, 1944, 1945

# rule 5: a) accepted in any order (their prerequisites play no part); c) never
ANY_ORDER = ("A1", "A2", "B1", "B2", "C1", "C2")
NEVER = ("A4", "D1", "D2")  # Heavy Bombers, Espionage, Enigma
RADAR = "C3"  # b) one per V1 the UK or the USSR has developed
V1 = "E1"
ROCKETS = ("E1", "E2", "E3")  # gap §15.3: the automa launches no rockets, so they are unsuitable
WITH_PREREQUISITES = ("A3", "B3")  # gap §15.3: the automa uses them (§15.6) once their prerequisites are met


def deal_size(year: int) -> int:
    return DEAL.get(year, DEAL_LATER)


def solo_cards(year: int) -> list[str]:
    """The ids of the solo cards marked with this year, in order."""
    return sorted(c.id for c in td_pack.pack().solo.values() if c.year == year)


# ------------------------------------------------------------------ rules 2 and 3
def _change(ctx: Ctx, year: int) -> None:
    """Rule 2 for one year: two random "1939" cards leave the game, the year's cards join."""
    solo = ctx.state.solo
    first = sorted(c for c in solo["deck"] if c in set(solo_cards(FIRST_YEAR)))
    gone = ctx.rng.sample(first, min(REMOVED_EACH_YEAR, len(first)))
    solo["deck"] = [c for c in solo["deck"] if c not in gone]
    solo["removed"] += sorted(gone)
    added = [c for c in solo_cards(year) if c not in solo["deck"] and c not in solo["removed"]]
    solo["deck"] += added
    ctx.log("solo_deck_changes", year=year, removed=len(gone), added=len(added), n=len(added))


@task("automa_deal")
def _run_automa_deal(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    ctx.pop(t)
    if not state.solo_game():
        return False
    solo = state.solo
    if "deck" not in solo:
        # the 1939 deck is the "1939" cards only; a scenario starting later gets every year's changes so far
        solo.update(deck=solo_cards(FIRST_YEAR), dealt=[], removed=[], used=[], revealed=None, revealed_for="")
        changes = [y for y in CHANGE_YEARS if y <= state.year]
    else:
        # every solo card comes back to the deck before it is shuffled (rule 3)
        solo["deck"] = solo["deck"] + solo["dealt"] + solo["used"]
        solo.update(dealt=[], used=[], revealed=None, revealed_for="")
        changes = [state.year] if state.year in CHANGE_YEARS else []
    for year in changes:
        _change(ctx, year)
    deck = sorted(solo["deck"])
    ctx.rng.shuffle(deck)
    n = min(deal_size(state.year), len(deck))
    solo["dealt"], solo["deck"] = deck[:n], deck[n:]
    ctx.log("solo_deal", year=state.year, n=n, left=len(solo["deck"]))
    return False


strategic_step(1, "automa_deal")  # before the draft: the automa takes no part in it (rule 4)


# ------------------------------------------------------------------ what the table sees
def revealed_card(card_id: str) -> dict[str, Any]:
    c = td_pack.pack().solo[card_id]
    return {"id": c.id, "number": c.number, "year": c.year,
            **{p: {"actions": [list(a) for a in getattr(c, p).actions], "units": list(getattr(c, p).units)}
               for p in AXIS}}


@view_part
def _solo_view(state: GameState, seat: str | None) -> dict[str, Any]:
    if not state.solo_game() or "deck" not in state.solo:
        return {}
    solo = state.solo
    revealed, power = solo.get("revealed"), solo.get("revealed_for", "")
    shown = revealed_card(revealed) if revealed else None
    if shown is not None and power in AXIS:
        # the card as it lies against the active country's edge: its four lines on this board
        card = td_pack.pack().solo[revealed]
        shown["lines"] = [[s for s in line if s in state.geo.spaces] for line in card.lines.get(power, ())]
    return {"solo": {
        "revealed": shown,
        "revealed_for": power,
        "used": list(solo.get("used", [])),
        "dealt_left": len(solo.get("dealt", [])),
        "deck_size": len(solo.get("deck", [])),
        "removed": len(solo.get("removed", [])),
    }}


@secret_part
def _solo_secrets(state: GameState, seat: str) -> Iterable[str | Secret]:
    """The dealt pile (its cards and their order), the solo deck and the cards removed unseen."""
    solo = state.solo
    return [*solo.get("dealt", []), *solo.get("deck", []), *solo.get("removed", [])]


# ------------------------------------------------------------------ rule 5: the automa's techs
def suitable(state: GameState, power: str, tech: str) -> tuple[bool, str]:
    """Whether the automa develops this tech for ``power`` now, and the rule that says so."""
    have = state.techs.get(power, [])
    if tech in have:
        return False, "rule5_have"
    if tech in NEVER:
        return False, "rule5_never"
    if tech in ROCKETS:
        return False, "rule5_rocket"
    if tech in ANY_ORDER:
        return True, "rule5_any_order"
    if tech == RADAR:
        v1s = sum(1 for p in ALLIES if V1 in state.techs.get(p, []))
        radars = sum(1 for p in AXIS if RADAR in state.techs.get(p, []))
        return (True, "rule5_radar") if radars < v1s else (False, "rule5_no_radar")
    if tech in WITH_PREREQUISITES:
        spec = td_pack.pack().techs.get(tech)
        ok = spec is None or (all(r in have for r in spec.requires)
                              and (not spec.requires_any or any(r in have for r in spec.requires_any)))
        return (True, "rule5_prerequisites") if ok else (False, "rule5_missing")
    return False, "rule5_never"


def _turn_up(ctx: Ctx) -> str | None:
    """The main deck's top card, face up; an empty deck takes the discards in, shuffled (gap G1)."""
    drawn = draw(ctx.state, 1, ctx.rng, ctx)
    return drawn[0] if drawn else None


@task("automa_techs")
def _run_automa_techs(ctx: Ctx, t: Task) -> bool:
    """Rule 5: in turn order, Germany then Japan (or Japan first in its years) turn up main-deck cards
    until one shows a tech suitable for them; the cards before it are discarded, the accepted one is
    kept as the tech card. One tech per country per round; no tech VP (derived.tech_vp)."""
    state = ctx.state
    ctx.pop(t)
    if not state.solo_game():
        return False
    for power in [p for p in turn_order(state) if p in AXIS]:
        budget = len(state.deck) + len(state.discard)  # every card seen once at most: no endless search
        skipped = 0
        found = False
        while budget > 0 and not found:
            budget -= 1
            card_id = _turn_up(ctx)
            if card_id is None:
                break
            tech = td_pack.card(card_id).tech
            ok, why = suitable(state, power, tech)
            if ok:
                state.techs.setdefault(power, []).append(tech)
                state.tech_cards.setdefault(power, []).append(card_id)
                ctx.log("automa_tech", power=power, tech=tech, card=card_id, skipped=skipped, n=skipped,
                        why={"id": why, "params": {}})
                found = True
            else:
                state.discard.append(card_id)
                skipped += 1
                # the card itself lies face up on the discard pile; the line names its tech and why
                ctx.log("automa_tech_skipped", power=power, tech=tech, why={"id": why, "params": {}})
        if not found:
            ctx.log("automa_tech_none", power=power, n=skipped)
    return False
