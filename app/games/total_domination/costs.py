"""The Tech Sheet's cost rows (spec §6.2) and a played card's OP value (§6.1).

Each row is a run of OP symbols and a developed tech covers one; the attack reductions that
depend on the target's space (B3 on armies, A3 on fleets, on coastal spaces only) stack with the
others, and every row keeps at least one symbol (gap G4: minimum 1 OP).
"""

from __future__ import annotations

from app.games.total_domination import pack as td_pack
from app.games.total_domination.state import GameState

ACTIONS: tuple[str, ...] = (
    "build_army", "build_bomber", "build_fleet", "build_uboat",
    "move_army", "move_bomber", "move_fleet", "move_uboat",
    "attack_army", "attack_bomber", "attack_fleet", "attack_uboat", "attack_resistance",
)
FIXED = 2  # U-boat build / move / attack and the attack on Resistance: never modified


def _coastal(state: GameState, space: str | None) -> bool:
    return space is not None and state.geo.spaces[space].shape == "coastal"


def cost(state: GameState, power: str, action: str, space: str | None = None) -> int:
    """OP the power pays for one action; ``space`` is the target's space (the coastal reductions)."""
    techs = set(state.techs.get(power, []))
    if action in ("build_army", "build_bomber"):  # a bomber costs the current army cost (§13.1)
        return 2 if "C1" in techs else 3
    if action == "build_fleet":
        return 2 if "C2" in techs else 3
    if action in ("move_army", "move_bomber"):  # bombers are land units (§13.1)
        return 1 if "A1" in techs else 2
    if action == "move_fleet":
        return 1 if "B1" in techs else 2
    if action in ("attack_army", "attack_bomber"):
        n = 1 if "A3" in techs else 2 if "A2" in techs else 3
        if "B3" in techs and _coastal(state, space):
            n -= 1
        return max(1, n)
    if action == "attack_fleet":
        n = 1 if "B3" in techs else 2 if "B2" in techs else 3
        if "A3" in techs and _coastal(state, space):
            n -= 1
        return max(1, n)
    if action in ("build_uboat", "move_uboat", "attack_uboat", "attack_resistance"):
        return FIXED
    raise ValueError(f"no such action: {action}")


def tactics_modifier(state: GameState, power: str) -> int:
    """The sum of the +1 / −1 Tactics cards lying in front of the power this round (§7.1.A)."""
    return sum(t["value"] for t in state.tactics if t.get("power") == power and t.get("value") in (1, -1))


def card_value(state: GameState, power: str, card_id: str, base: int | None = None) -> int:
    """A card's OP for this power: ``base`` (default the printed OP; a 5/6/7 Tactics event passes
    its own) plus the ±1 modifiers, which apply after a replacement; never below 0 (gap G5)."""
    printed = td_pack.card(card_id).op if base is None else base
    return max(0, printed + tactics_modifier(state, power))
