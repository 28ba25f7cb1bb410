"""The end-of-game figures of a finished match, read from its public log alone (docs/protocol.md,
"summary"): each colour's regions at the end of every round (the "round_ends" lines carry the
standings), the final standings (the "game_over" line), and per colour the Economics cards it
gained in play (drawn from the deck or taken from a beaten player: both lines are public, the
card itself is not in them; a neutral's card lost with the battle is not a gain) and who was
eliminated."""

from __future__ import annotations

from typing import Any

ROUND_ENDS = "round_ends"
GAME_OVER = "game_over"
GAINS = ("card_drawn", "card_taken")  # cards.py: the public lines of a card coming into a hand
# battle.py: a neutral's card is drawn into the attacker's hand ("neutral_card" names it, shown to
# all) and shuffled back into the deck if the neutral holds (cards.py's "card_shuffled_back")
NEUTRAL_CARD, SHUFFLED_BACK = "neutral_card", "card_shuffled_back"
ELIMINATED = "eliminated"


def _standing(params: dict[str, Any]) -> dict[str, int] | None:
    """{colour: regions} from a line's "standing" list of "standing_row" messages."""
    rows = params.get("standing")
    if not isinstance(rows, list):
        return None
    out: dict[str, int] = {}
    for row in rows:
        p = row.get("params") if isinstance(row, dict) else None
        if not isinstance(p, dict) or not isinstance(p.get("seat"), str):
            continue
        try:
            out[p["seat"]] = int(p.get("regions") or 0)
        except (TypeError, ValueError):
            continue
    return out


def summary(lines: list[dict[str, Any]]) -> dict[str, Any]:
    rounds: list[list[Any]] = []
    colours: list[str] = []  # in the order they first stand in the standings
    final: dict[str, int] = {}
    cards: dict[str, int] = {}
    out: list[str] = []
    at_stake: dict[str, str] = {}  # a neutral's card -> the attacker who drew it
    for line in lines:
        kind, params = line.get("id"), line.get("params") or {}
        if not isinstance(params, dict):
            continue
        if kind in (ROUND_ENDS, GAME_OVER):
            standing = _standing(params)
            if standing is None:
                continue
            colours += [c for c in standing if c not in colours]
            final = standing
            rnd = params.get("round")
            if kind == ROUND_ENDS or not rounds or rounds[-1][0] != rnd:
                rounds.append([rnd, standing])
            else:  # the game ended with the round: its last line is the same round, closer to the end
                rounds[-1] = [rnd, standing]
        elif kind in GAINS and isinstance(params.get("seat"), str):
            cards[params["seat"]] = cards.get(params["seat"], 0) + 1
        elif kind == NEUTRAL_CARD and isinstance(params.get("seat"), str) and isinstance(params.get("card"), str):
            at_stake[params["card"]] = params["seat"]
        elif kind == SHUFFLED_BACK and params.get("card") in at_stake:
            loser = at_stake.pop(params["card"])
            cards[loser] = cards.get(loser, 0) - 1
        elif kind == ELIMINATED and isinstance(params.get("seat"), str):
            out.append(params["seat"])
    colours += [c for c in out if c not in colours]
    # every row names every colour (an eliminated one leaves the standings: 0 regions from then on)
    table = [[r, {c: s.get(c, 0) for c in colours}] for r, s in rounds]
    return {"rounds": table,
            "by_role": {c: {"vp": final.get(c, 0), "cards": cards.get(c, 0)} for c in colours},
            "eliminated": out}
