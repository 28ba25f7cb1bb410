"""The regions' special rules (spec §4.4), used only through the Sabotage chooser's special action, for
one region that is not occupied (its marker on the light part of the track):

* Silent Unseen drops (Warsaw): one soldier from any region moves to Warsaw (the token's hold applies);
* Polish Underground State (Poland): name a formation, reveal soldier cards from the top until one of
  it, place that soldier in Poland (its ability is not used, OQ-11), shuffle the other revealed cards
  back with the whole deck; none of that formation in the deck: nothing is placed;
* Training camp (Northern Europe and the Atlantic): +1 Strength to one, two or three soldiers there;
* Main front (Western Europe): discard a mission from hand, shown to all (a stage I card draws its
  stage II replacement: ENDING's ``missions.discard_mission``), then the Western Europe marker moves
  one square right, with or without a discard (OQ-12);
* North Africa and Italy: the top two soldier cards are placed there, abilities unused.

A rule is offered only when it can do something (a soldier to drop, a card in the deck, a soldier to
train); Main front always can (the marker moves). Every soldier placed or moved goes through
``concentration.arrive``."""

from __future__ import annotations

from app.games.first_to_fight import missions
from app.games.first_to_fight.concentration import arrive, movable, move_soldier
from app.games.first_to_fight.engine import Ctx, Task, ask, cont, task
from app.games.first_to_fight.orders import offer, passed, soldier_choice
from app.games.first_to_fight.pack import ATTRIBUTE_CAP, FORMATIONS, REGIONS, pack
from app.games.first_to_fight.state import GameState
from app.games.first_to_fight.text import say
from app.games.first_to_fight.training import train

CAMP_MAX = 3
REVEAL_TWO = 2
NO_DISCARD = "none"


def _rule(region: str) -> str:
    return pack().regions[region].rule


def _camp_soldiers(state: GameState, region: str) -> list[str]:
    return [s for s in state.in_region(region) if state.soldiers[s]["s"] < ATTRIBUTE_CAP]


def usable(state: GameState, region: str) -> bool:
    """The region's rule may be used now and would do something."""
    if state.occupied(region):
        return False
    rule = _rule(region)
    if rule == "DROPS":
        return any(state.soldiers[s]["region"] != region for s in movable(state))
    if rule in ("UNDERGROUND_STATE", "REVEAL_TWO"):
        return bool(state.soldier_deck)
    if rule == "TRAINING_CAMP":
        return bool(_camp_soldiers(state, region))
    return rule == "MAIN_FRONT"


def offer_rule(ctx: Ctx, seat: str) -> None:
    """The Sabotage chooser's special action, after their own sabotage (or declining it)."""
    state = ctx.state
    options = [(r, say("choice_rule", rule=f"rule_{_rule(r)}", region=r)) for r in REGIONS if usable(state, r)]
    offer(ctx, seat, "region_rule", say("prompt_rule", seat=seat), options, "region_rule", nothing="rule_nothing")


@cont("region_rule")
def _chosen(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat, region = ctx.state, t["seat"], choices[0]
    if passed(ctx, seat, region):
        return
    rule = _rule(region)
    ctx.log("rule_used", seat=seat, rule=f"rule_{rule}", region=region)
    if rule == "DROPS":
        options = [soldier_choice(state, s) for s in movable(state) if state.soldiers[s]["region"] != region]
        ctx.push(ask(seat, say("prompt_drops", seat=seat, region=region), options, "drops", kind="drops_soldier",
                     undoable=True, region=region))
    elif rule == "UNDERGROUND_STATE":
        ctx.push(ask(seat, say("prompt_underground_state", seat=seat),
                     [(f, say("choice_formation", formation=f"formation_{f}")) for f in FORMATIONS],
                     "underground_state", kind="underground_formation", region=region))
    elif rule == "TRAINING_CAMP":
        options = [soldier_choice(state, s) for s in _camp_soldiers(state, region)]
        ctx.push(ask(seat, say("prompt_camp", seat=seat, region=region), options, "camp", kind="camp_soldiers",
                     lo=1, hi=min(CAMP_MAX, len(options)), undoable=True))
    elif rule == "MAIN_FRONT":
        hand = state.hands.get(seat, [])
        options = [(m, say("choice_mission", mission=m)) for m in hand]
        ctx.push(ask(seat, say("prompt_main_front", seat=seat), [*options, (NO_DISCARD, say("choice_no_discard"))],
                     "main_front", kind="main_front_discard", region=region))
    else:
        _reveal_two(ctx, seat, region)


@cont("drops")
def _drops(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    move_soldier(ctx, t["seat"], choices[0], t["region"])


@cont("underground_state")
def _underground_state(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    """Reveal one card at a time from the top until the named formation shows (all of them public)."""
    state, seat, region, formation = ctx.state, t["seat"], t["region"], choices[0]
    revealed: list[str] = []
    found = None
    while state.soldier_deck:
        card = state.soldier_deck.pop(0)
        if pack().soldiers[card].formation == formation:
            found = card
            break
        revealed.append(card)
    state.see("*", *revealed)
    state.soldier_deck.extend(revealed)
    ctx.rng.shuffle(state.soldier_deck)
    if found is None:
        ctx.log("underground_state_none", formation=f"formation_{formation}", soldiers=list(revealed))
        return
    if revealed:
        ctx.log("underground_state_found", formation=f"formation_{formation}", soldiers=[*revealed, found],
                n=len(revealed), soldier=found, region=region)
    else:
        ctx.log("underground_state_first", formation=f"formation_{formation}", soldier=found, region=region)
    arrive(ctx, seat, found, region)  # OQ-11: its ability is not used


@cont("camp")
def _camp(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    for soldier in choices:
        train(ctx, t["seat"], soldier, "S")


@cont("main_front")
def _main_front(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    seat, region = t["seat"], t["region"]
    # "Finally" (§4.4): the marker moves after the discard and any stage II draw it starts
    ctx.push({"k": "main_front_push", "region": region})
    if choices[0] != NO_DISCARD:
        missions.discard_mission(ctx, seat, choices[0])


@task("main_front_push")
def _run_push(ctx: Ctx, t: Task) -> bool:
    state, region = ctx.state, t["region"]
    ctx.pop(t)
    if state.domination[region] >= len(pack().regions[region].track) - 1:
        ctx.log("main_front_end", region=region)  # OQ-3: the marker stays on the last square
        return False
    state.domination[region] += 1
    ctx.log("main_front_push", region=region, level=state.level(region))
    return False




def _reveal_two(ctx: Ctx, seat: str, region: str) -> None:
    state = ctx.state
    cards = state.soldier_deck[:REVEAL_TWO]
    ctx.log("reveal_two", seat=seat, soldiers=list(cards), region=region)
    for card in cards:
        arrive(ctx, seat, card, region)  # their abilities are not used
