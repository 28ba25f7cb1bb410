"""The soldiers' recruitment abilities (spec §5.5): the player who recruits a soldier through the
Recruitment order may use its ability at once, or not:

* Additional recruitment: another draw 2, keep 1 in the same region (that soldier's ability unused);
* Victory point: +1 VP;
* Training: +1 to one attribute of this soldier (cap 5);
* Underground activity: the recruitment region's marker one square left, no VP, no threshold;
* Movement: this soldier to a neighbouring region (the token's hold applies; +1 VP into its region);
* Liaison: the top 2 event cards, one back on top, the other to the bottom; seen by this player only.

An ability that could do nothing is not offered (a soldier held by the token, a marker on the first
square, an empty deck)."""

from __future__ import annotations

from app.games.first_to_fight import recruitment
from app.games.first_to_fight.concentration import may_leave, move_soldier
from app.games.first_to_fight.engine import Ctx, Task, ask, cont
from app.games.first_to_fight.orders import PASS, offer, passed, region_choice
from app.games.first_to_fight.pack import pack
from app.games.first_to_fight.text import say
from app.games.first_to_fight.training import attribute_choices, train

USE = "use"
LIAISON_DRAW = 2


def offer_ability(ctx: Ctx, seat: str, soldier: str, region: str) -> None:
    state = ctx.state
    ability = pack().soldiers[soldier].ability
    term = f"ability_{ability}"
    data = {"soldier": soldier, "region": region, "ability": ability}
    use = [(USE, say("choice_use_ability", ability=term))]
    prompt = say("prompt_ability", seat=seat, soldier=soldier, ability=term)
    if ability == "ADDITIONAL_RECRUITMENT":
        if state.soldier_deck:
            offer(ctx, seat, "ability", prompt, use, "ability", **data)
    elif ability == "VICTORY_POINT":
        offer(ctx, seat, "ability", prompt, use, "ability", undoable=True, **data)
    elif ability == "TRAINING":
        if attribute_choices(state, soldier):
            offer(ctx, seat, "ability_train", say("prompt_ability_train", seat=seat, soldier=soldier,
                                                  ability=term),
                  attribute_choices(state, soldier), "ability", undoable=True, **data)
    elif ability == "UNDERGROUND":
        if state.domination[region] > 0:
            offer(ctx, seat, "ability", prompt, use, "ability", undoable=True, **data)
    elif ability == "MOVEMENT":
        if may_leave(state, soldier):
            offer(ctx, seat, "ability_move", say("prompt_ability_move", seat=seat, soldier=soldier, ability=term),
                  [region_choice(r) for r in pack().neighbours(region)], "ability", undoable=True, **data)
    elif ability == "LIAISON" and state.event_deck:
        offer(ctx, seat, "ability", prompt, use, "ability", **data)


@cont("ability")
def _ability(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, seat, choice = ctx.state, t["seat"], choices[0]
    if choice == PASS:
        passed(ctx, seat, choice)
        return
    soldier, region, ability = t["soldier"], t["region"], t["ability"]
    term = f"ability_{ability}"
    ctx.log("ability_used", seat=seat, soldier=soldier, ability=term)
    if ability == "ADDITIONAL_RECRUITMENT":
        recruitment.draw(ctx, seat, region, recruitment.DRAW, ability=False)
    elif ability == "VICTORY_POINT":
        state.vp[seat] = state.vp.get(seat, 0) + 1
        ctx.log("ability_vp", seat=seat)
    elif ability == "TRAINING":
        train(ctx, seat, soldier, choice)
    elif ability == "UNDERGROUND":
        state.domination[region] -= 1  # no VP, whatever the square (§5.5)
        ctx.log("ability_underground", region=region, level=state.level(region))
    elif ability == "MOVEMENT":
        move_soldier(ctx, seat, soldier, choice)
    else:
        _liaison(ctx, seat)


def _liaison(ctx: Ctx, seat: str) -> None:
    """The cards stay in the deck while the player chooses: the deck's secrets keep covering them."""
    state = ctx.state
    top = state.event_deck[:LIAISON_DRAW]
    state.see(seat, *top)
    ctx.log("liaison_draws", private={seat: say("liaison_draws_private", seat=seat, events=list(top))}, seat=seat,
            n=len(top))
    if len(top) < LIAISON_DRAW:
        ctx.log("liaison_one", seat=seat)
        return
    ctx.push(ask(seat, say("prompt_liaison", seat=seat), [(e, say("choice_event", event=e)) for e in top], "liaison",
                 kind="liaison_top", undoable=True, top=top))


@cont("liaison")
def _liaison_top(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, first = ctx.state, choices[0]
    other = next(e for e in t["top"] if e != first)
    del state.event_deck[:LIAISON_DRAW]
    state.event_deck.insert(0, first)
    state.event_deck.append(other)
    ctx.log("liaison_done", seat=t["seat"])
