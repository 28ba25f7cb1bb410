"""The Diplomatic Attack (spec §15): 2d6 to win a neutral region over without a battle.

8+ when the region is adjacent to one of the actor's (by land, a sea lane or an anchored zone), else
9+. On a failure every other player rolls; the highest 9+ gains the region, ties among the highest
rolling again. Whoever gains it gets a free infantry there and draws an Economics card. Every roll
is logged with both dice."""

from __future__ import annotations

from app.games.attack import cards, dice
from app.games.attack.engine import Ctx, Task, ask, cont
from app.games.attack.flow import ActionKind, register_action
from app.games.attack.state import GameState
from app.games.attack.text import Label, say

NEAR = 8  # the target borders one of the actor's regions
FAR = 9  # it does not; also what the other players need after a failure


def targets(state: GameState) -> list[str]:
    """A-15.1: only a neutral region may be targeted."""
    return [r for r in sorted(state.geo.regions) if r not in state.owner]


def needed(state: GameState, seat: str, region: str) -> int:
    """A-15.2: 8+ next to an own region (Map.adjacent counts lanes and anchored zones), else 9+."""
    near = any(state.geo.adjacent(region, own) for own in state.regions_of(seat))
    return NEAR if near else FAR


def _allowed(state: GameState, seat: str) -> bool:
    return bool(targets(state))


def _start(ctx: Ctx, seat: str) -> None:
    state = ctx.state
    options: list[tuple[str, Label]] = [(r, say("choice_diplo_target", region=r, need=needed(state, seat, r)))
                                        for r in targets(state)]
    ctx.push(ask(seat, say("prompt_diplo_target", seat=state.colours[seat]), options, "diplo_target",
                 kind="diplo_target"))


@cont("diplo_target")
def _target_chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat, region = ctx.state, t["seat"], choices[0]
    need = needed(state, seat, region)
    a, b = dice.blue(ctx.rng)
    ctx.log("diplo_roll", seat=state.colours[seat], region=region, a=a, b=b, total=a + b, need=need)
    if a + b >= need:
        _gain(ctx, seat, region)
        return
    ctx.log("diplo_failed", region=region)
    # the others roll in turn order from the actor's left, so the log reads round the table
    live = state.live()
    i = live.index(seat) if seat in live else 0
    others = [s for s in live[i + 1:] + live[:i] if s != seat]
    rolls: dict[str, int] = {}
    for s in others:
        a, b = dice.blue(ctx.rng)
        rolls[s] = a + b
        ctx.log("diplo_other_roll", seat=state.colours[s], a=a, b=b, total=a + b)
    rolling = _highest({s: r for s, r in rolls.items() if r >= FAR})
    if not rolling:
        ctx.log("diplo_stays_neutral", region=region, need=FAR)
        return
    # the tied highest roll again until one is higher; the re-rolls need no 9+
    while len(rolling) > 1:
        ctx.log("diplo_tie", seats=[state.colours[s] for s in rolling], total=rolls[rolling[0]])
        rolls = {}
        for s in rolling:
            a, b = dice.blue(ctx.rng)
            rolls[s] = a + b
            ctx.log("diplo_reroll", seat=state.colours[s], a=a, b=b, total=a + b)
        rolling = _highest(rolls)
    _gain(ctx, rolling[0], region)


def _highest(rolls: dict[str, int]) -> list[str]:
    if not rolls:
        return []
    best = max(rolls.values())
    return [s for s, r in rolls.items() if r == best]


def _gain(ctx: Ctx, seat: str, region: str) -> None:
    """A-15.3 / A-15.5: a free infantry in the region, which is now the seat's, and a card from the deck."""
    state = ctx.state
    state.add_units(region, seat, {"INF": 1})
    ctx.log("diplo_gained", seat=state.colours[seat], region=region)
    cards.draw(ctx, seat)


register_action(ActionKind("DIPLO", order=50, allowed=_allowed, start=_start, repeatable=True))
