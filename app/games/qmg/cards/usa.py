"""The USA's unique cards."""

from __future__ import annotations

from app.games.protocol import Msg
from app.games.qmg import board
from app.games.qmg.actions import battle, build, deploy, deployable
from app.games.qmg.cards.germany import rebuild_all
from app.games.qmg.cards.helpers import ew, on_own_battle, on_own_build, on_play, on_would_remove, tasks_of
from app.games.qmg.cards.italy import discard_random_response
from app.games.qmg.cards.play import play_card, playable
from app.games.qmg.cards.registry import Sit, rule
from app.games.qmg.data import AXIS, card
from app.games.qmg.engine import Ctx, Task, ask, cont
from app.games.qmg.state import GameState
from app.games.qmg.supply import supplied_spaces
from app.games.qmg.text import say

A = "usa"

# ---- Status
rule("usa_aircraft_carriers", once_per_turn=True, cost_deck=1, trigger=on_own_battle("sea"), use=tasks_of(
    lambda ctx, o, sit: build(o, "navy", [sit["area"]], optional=True, why="Aircraft Carriers")))
rule("usa_american_volunteer_group_expands", cost_deck=2,
     instead_ok=lambda st, c: deployable(st, c, "szechuan"),
     instead=lambda ctx, o, i: ctx.push(deploy(o, "army", ["szechuan"], o, why="American Volunteer Group")))


def _next_to_supplied_us_navy(st: GameState, sit: Sit, owner: str) -> bool:
    sup = supplied_spaces(st, A)
    return any(n in sup and st.has_unit(n, A) and not board.is_land(n)
               for n in board.adjacent(sit["area"], "allies", st.units))


rule("usa_amphibious_landings", once_per_turn=True, cost_deck=1,
     trigger=on_own_battle("land", cond=_next_to_supplied_us_navy),
     use=tasks_of(lambda ctx, o, sit: build(o, "army", [sit["area"]], optional=True, why="Amphibious Landings")))
rule("usa_flying_fortresses")  # continuous: see cards.play.target_discards


def _radar(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    ctx.state.flags["prevent"] = [sit["area"], sit["c"]]
    ctx.log("radar", space=sit["area"])


rule("usa_radar", once_per_turn=True, cost_deck=2, use=_radar,
     trigger=on_would_remove(owners=[A], kind="navy", supplied=True, cause="battle"))


def _rosie(ctx: Ctx, owner: str, iid: str, sit: Sit) -> None:
    hand = ctx.state.countries[owner].hand
    ctx.push(ask(owner, ctx.state, say("rosie_prompt"),
                 [(i, say("card", card=card(i).key)) for i in hand], "rosie", kind="choose_cards", lo=1, hi=2))


@cont("rosie")
def _rosie_done(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    cs = ctx.state.countries[t["c"]]
    for i in choices:
        cs.hand.remove(i)
        cs.deck.append(i)
    ctx.log("rosie", n=len(choices))


rule("usa_rosie_the_riveter", once_per_turn=True, trigger=lambda st, sit, o: (
    sit["s"] == "discard_start" and sit["c"] == o and bool(st.countries[o].hand)), use=_rosie)
rule("usa_superior_shipyards", once_per_turn=True, cost_deck=1, trigger=on_own_build("navy"), use=tasks_of(
    lambda ctx, o, sit: build(o, "navy", optional=True, why="Superior Shipyards")))
rule("usa_wartime_production", once_per_turn=True, cost_deck=1, trigger=on_own_build("army"), use=tasks_of(
    lambda ctx, o, sit: build(o, "army", optional=True, why="Wartime Production")))

# ---- Events
rule("usa_arsenal_of_democracy", play=on_play(
    lambda ctx, o: build("uk", "army", optional=True, why="Arsenal of Democracy"),
    lambda ctx, o: build("uk", "navy", optional=True, why="Arsenal of Democracy")))
rule("usa_fleet_deployed_to_pearl_harbor", play=on_play(
    lambda ctx, o: deploy(o, "army", ["hawaii"], o, why="Fleet Deployed to Pearl Harbor"),
    lambda ctx, o: build(o, "navy", sorted(board.base_adjacent("hawaii")), why="Fleet Deployed to Pearl Harbor")))


def _flexible(ctx: Ctx, o: str, iid: str) -> None:
    pile = [i for i in ctx.state.countries[o].discard if i != iid]
    opts: list[tuple[str, Msg | str]] = [(i, say("card", card=card(i).key)) for i in pile
                                         if playable(ctx.state, o, i)]
    ctx.push(ask(o, ctx.state, say("flexible_resources_prompt"), opts,
                 "flexible_resources", kind="choose_card"))


@cont("flexible_resources")
def _flexible_done(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    play_card(ctx, t["c"], choices[0], play_step=False, source="discard")


rule("usa_flexible_resources", play=_flexible)
rule("usa_free_french_allies", play=on_play(
    lambda ctx, o: deploy("uk", "army", ["western_europe", "north_africa", "africa"], "uk", optional=True,
                          why="Free French Allies")))
rule("usa_guadalcanal", play=on_play(
    lambda ctx, o: deploy(o, "army", ["new_zealand"], o, why="Guadalcanal"),
    lambda ctx, o: build(o, "navy", sorted(board.base_adjacent("new_zealand")), why="Guadalcanal")))


def _lend_lease(ctx: Ctx, o: str, iid: str) -> None:
    ctx.push(ask(o, ctx.state, say("lend_lease_prompt"),
                 [("uk", say("country", country="uk")), ("ussr", say("country", country="ussr"))], "lend_lease"))


@cont("lend_lease")
def _lend_lease_ally(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ally = choices[0]
    hand = ctx.state.countries[ally].hand
    opts: list[tuple[str, Msg | str]] = [(i, say("play_card_choice", card=card(i).key)) for i in hand
                                         if playable(ctx.state, ally, i)]
    ctx.push(ask(ally, ctx.state, say("lend_lease_play_prompt"),
                 [*opts, ("none", say("play_nothing"))], "lend_lease_play"), {"k": "draw_n", "c": ally, "n": 1})


@cont("lend_lease_play")
def _lend_lease_play(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    if choices[0] != "none":
        play_card(ctx, t["c"], choices[0], play_step=False)


rule("usa_lend_lease", play=_lend_lease)
rule("usa_murmansk_convoy", play=on_play(
    lambda ctx, o: deploy("ussr", "army", ["russia"], o, why="Murmansk Convoy"),
    lambda ctx, o: build("ussr", "army", optional=True, why="Murmansk Convoy")))
rule("usa_operation_magic", play=lambda ctx, o, i: discard_random_response(ctx, "japan", "Operation Magic"))
rule("usa_patton_advances", play=on_play(
    lambda ctx, o: build(o, "army", ["western_europe"], why="Patton Advances"),
    lambda ctx, o: battle(o, "land", ["germany", "italy"], why="Patton Advances")))
rule("usa_theater_shift", play=lambda ctx, o, i: rebuild_all(ctx, o, "Theater Shift"))


# ---- Economic Warfare (bombers): distance counted over the Allies' current adjacency
def _near(st: GameState, kind: str | None, target: str, dist: int) -> bool:
    starts = [s for s in st.units_of(A) if kind is None or board.kind_at(s) == kind]
    return bool(starts) and target in board.within(starts, dist, "allies", st.units)


def _bomb(target_space: str, victim: str, kind: str | None, dist: int, n: int, name: str):  # noqa: ANN202
    def play(ctx: Ctx, o: str, iid: str) -> None:
        if _near(ctx.state, kind, target_space, dist):
            ew(ctx, o, victim, n)
        else:
            ctx.log("bomb_out_of_range", what=name, space=target_space)

    return play


def _bomb_choice(kind: str | None, dist: int, n: int, name: str):  # noqa: ANN202
    def play(ctx: Ctx, o: str, iid: str) -> None:
        opts: list[tuple[str, Msg | str]] = [(c, say("country", country=c)) for c in AXIS
                                             if _near(ctx.state, kind, board.capital(c), dist)]
        if not opts:
            ctx.log("bomb_no_capital", what=name)
            return
        ctx.push(ask(o, ctx.state, say("bomb_prompt", what=name, n=n), opts, "bomb", n=n))

    return play


@cont("bomb")
def _bomb_done(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ew(ctx, t["c"], choices[0], t["n"])


rule("usa_b24_liberator", ew_targets=("italy",), play=_bomb("italy", "italy", "army", 2, 4, "B-24 Liberator"))
rule("usa_b26_marauder", ew_targets=AXIS, play=_bomb_choice("army", 3, 4, "B-26 Marauder"))
rule("usa_b29_superfortress", ew_targets=("germany",),
     play=_bomb("germany", "germany", "army", 3, 5, "B-29 Superfortress"))
rule("usa_firestorm_bombing", ew_targets=AXIS, play=_bomb_choice(None, 1, 7, "Firestorm Bombing"))
rule("usa_sbd_dauntless", ew_targets=("japan",), play=_bomb("japan", "japan", "navy", 2, 4, "SBD Dauntless"))
