"""The scenarios' setup after the issue (spec §4, §19): Civil War's dealt cards, the deployment in each
scenario's order and zone, the factories' placing, the cards taken for the areas held, the start roll
and, in Skirmish, the lid lifted.

Setup steps in the book's order (``flow.SETUP``; buying is ``buying.py``'s step 20):

* 10 ``deal_cards``: Civil War shuffles all twelve area cards (``ctx.rng``) and deals six to each side,
  who then own those areas (the deployment zone) and control them;
* 30 ``deploy``: ``hidden`` (Skirmish, behind the box lid: both sides place at once, one unit each per
  simultaneous step, neither seeing the other's squares), ``surplus_then_alternate`` (the side with more
  units places until both have as many left, then one each in turn), ``alternate`` (Total War: three
  at a time, the first deployer by a die) and ``hq_at_crossing`` (Absolute Zero);
* 40 ``factories``: the factories go into the side's zone (Civil War: its own areas), not on water and
  not under a unit, one at a time in turn (white first);
* 50 ``take_cards``: control from the units now on the board, then (Autarchy, Total War) the card of
  every area a side controls;
* 60 ``start_roll``: both dice, a tie rolls again; the higher roller chooses who starts;
* 70 ``lift_lid``: Skirmish's placements come out from behind the lid, all at once.

A unit goes down facing the enemy (``setup.FACING_AT_START``) and the reserve is placed in a fixed order,
the HQ last (README: deployment)."""

from __future__ import annotations

from typing import Any

from app.games.autarcha.engine import Ctx, Task, answer, answers, question, task, wait, wait_all
from app.games.autarcha.flow import setup_step
from app.games.autarcha.pack import Scenario, crossing_squares, pack, parse_crossing
from app.games.autarcha.setup import FACING_AT_START
from app.games.autarcha.state import SIDE_OF, GameState, at, sid
from app.games.autarcha.text import say, square_choices
from app.games.autarcha.views import secret_part, view_part
from app.games.secrets import Secret

# the order a side's reserve goes onto the board: the HQ last, so it is placed knowing the most
PLACING_ORDER: tuple[str, ...] = ("PIE", "SAP", "PC", "ART", "PSZ")


def scenario(state: GameState) -> Scenario:
    return pack().scenarios[state.scenario]


def terrain_now(state: GameState, square: str) -> str:
    """The landscape a unit stands on: a destroyed forest or city counts as ground (U-3.5.9)."""
    r, c = at(square)
    if {"forest", "city"} & set(state.destroyed.get(square, ())):
        return "ground"
    return pack().board.terrain[r][c]


def may_stand(state: GameState, kind: str, square: str) -> bool:
    return pack().troops[kind].may_stand_on(terrain_now(state, square))


def zone(state: GameState, seat: str) -> list[str]:
    """The squares ``seat`` deploys on (spec §4, §19): under its arrow-marked line; in Civil War the areas
    whose cards it was dealt; in Absolute Zero the squares of its arrow-marked crossing on its side."""
    data, how = pack(), scenario(state).zone
    side = SIDE_OF[seat]
    if how == "owned_areas":
        return [sid(sq) for sq in data.board.squares() if state.cards.get(_area(sq)) == seat]
    lines = data.zone(side)
    if how == "hq_crossing":
        on_side = set(lines)
        return [sid(sq) for sq in crossing_squares(*parse_crossing(data.deployment[side].hq_crossing))
                if sq in on_side]
    return [sid(sq) for sq in lines]


def _area(sq: tuple[int, int]) -> str | None:
    a = pack().area_of(sq)
    return a.id if a else None


def reserve(state: GameState, seat: str) -> list[str]:
    """``seat``'s units still to deploy, in placing order (those behind the lid are placed)."""
    screened = state.setup.get("screen", {}).get(seat, {})
    left = [u for u, d in state.units.items() if d["seat"] == seat and d["sq"] is None and u not in screened]
    return sorted(left, key=lambda u: (PLACING_ORDER.index(state.units[u]["kind"]), int(u[1:])))


def free_squares(state: GameState, seat: str, kind: str) -> list[str]:
    """Where ``seat`` may put a unit of ``kind`` now: its zone, a landscape the kind may stand on, no unit
    (nor one of its own behind the lid) and no factory there."""
    taken = set(state.occupied()) | set(state.setup.get("screen", {}).get(seat, {}).values())
    taken |= {f["sq"] for f in state.factories.values() if f["sq"]}
    return [s for s in zone(state, seat) if s not in taken and may_stand(state, kind, s)]


def roll_off(ctx: Ctx, why: str) -> str:
    """Both sides roll the die (spec §19: a tie rolls again); the higher roller's seat. Every roll is logged."""
    faces = pack().die.value
    while True:
        rolls = {s: ctx.rng.randint(1, faces) for s in ctx.state.seats}
        a, b = ctx.state.seats
        ctx.log("roll_off", why=f"roll_for_{why}", seat_a=a, roll_a=rolls[a], seat_b=b, roll_b=rolls[b])
        if rolls[a] != rolls[b]:
            return a if rolls[a] > rolls[b] else b
        ctx.log("roll_off_tie", roll=rolls[a])


def _place(ctx: Ctx, unit: str, square: str) -> None:
    d = ctx.state.units[unit]
    d["sq"], d["facing"] = square, FACING_AT_START[SIDE_OF[d["seat"]]]


def _no_room(ctx: Ctx, unit: str) -> None:
    """A unit with no square left in its zone stays in the box (it cannot happen on the book's board)."""
    d = ctx.state.units.pop(unit)
    ctx.log("no_room", seat=d["seat"], kind=f"kind_{d['kind']}")


# ------------------------------------------------------------------ Civil War's cards
def _click(t: Task, seat: str, kind: str, prompt: str, choice: str) -> bool:
    """A table's first step that draws randomness waits for a click: what ``setup()`` logs reaches no one,
    what an answer logs does (Attack!'s first-player roll does the same)."""
    return wait(t, seat, kind, say(prompt, seat=seat), [(choice, say(f"choice_{choice}"))])


@task("deal_cards")
def _run_deal(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    if scenario(state).cards != "dealt":
        ctx.pop(t)
        return False
    if not t.get("go"):
        return _click(t, state.seats[0], "deal", "prompt_deal", "deal")
    ctx.pop(t)
    deck = sorted(pack().areas)
    ctx.rng.shuffle(deck)
    half = len(deck) // 2
    for i, area in enumerate(deck):
        seat = state.seats[0] if i < half else state.seats[1]
        state.cards[area] = state.control[area] = seat
    for seat in state.seats:
        held = [a for a in deck if state.cards[a] == seat]
        ctx.log("cards_dealt", seat=seat, n=len(held), gold=sum(pack().areas[a].gold for a in held))
    return False


@answer("deal_cards")
def _answer_deal(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    t["go"] = True


# ------------------------------------------------------------------ deployment
@task("deploy")
def _run_deploy(ctx: Ctx, t: Task) -> bool:
    ctx.pop(t)
    how = scenario(ctx.state).deployment
    ctx.push({"k": "deploy_hidden"} if how == "hidden" else {"k": "deploy_turns"})
    return False


def _prompt(state: GameState, seat: str, unit: str, hidden: bool) -> Any:
    return say("prompt_deploy_hidden" if hidden else "prompt_deploy", seat=seat,
               kind=f"kind_{state.units[unit]['kind']}", n=len(reserve(state, seat)))


@task("deploy_hidden")
def _run_hidden(ctx: Ctx, t: Task) -> bool:
    """Behind the lid (U-4.1): each side with units left places one, both at once; the answers stay unseen by
    the other side (a simultaneous step), and the squares go to the screen, not yet onto the board."""
    state = ctx.state
    screen = state.setup.setdefault("screen", {s: {} for s in state.seats})
    qs: dict[str, dict[str, Any]] = {}
    t["units"] = {}
    for seat in state.seats:
        for unit in reserve(state, seat):
            squares = free_squares(state, seat, state.units[unit]["kind"])
            if not squares:
                _no_room(ctx, unit)
                continue
            t["units"][seat] = unit
            qs[seat] = question(seat, "deploy", _prompt(state, seat, unit, True), square_choices(squares))
            break
    if not qs:
        ctx.pop(t)
        ctx.log("deployment_hidden_done", n_a=len(screen[state.seats[0]]), n_b=len(screen[state.seats[1]]),
                seat_a=state.seats[0], seat_b=state.seats[1])
        return False
    return wait_all(t, "deploy", qs)


@answers("deploy_hidden")
def _answer_hidden(ctx: Ctx, t: Task, got: dict[str, tuple[str, ...]]) -> None:
    state = ctx.state
    for seat, (square,) in sorted(got.items()):
        unit = t["units"][seat]
        state.setup["screen"][seat][unit] = square
        kind = f"kind_{state.units[unit]['kind']}"
        # the public line names the kind only: the square stays behind the lid
        ctx.log("deployed_hidden", private={seat: say("deployed_hidden_own", seat=seat, kind=kind, square=square)},
                seat=seat, kind=kind)


def next_placer(state: GameState) -> str | None:
    """Whose placement is next when the sides deploy in turn (spec §4.2-4.5, §19); it may open a new drop."""
    left = {s: len(reserve(state, s)) for s in state.seats}
    if not any(left.values()):
        return None
    how, first = scenario(state).deployment, state.seats[0]
    last = state.setup.get("last")
    if how == "surplus_then_alternate":
        a, b = state.seats
        if left[a] != left[b]:
            return a if left[a] > left[b] else b
        # as many left: one each in turn, starting with the side that did not place the last surplus unit
        return state.other(last) if last else first
    if how == "alternate":
        drop = state.setup.get("drop")
        if drop and drop["left"] > 0 and left[drop["seat"]]:
            return str(drop["seat"])
        seat = state.other(drop["seat"]) if drop else state.setup["first_deployer"]
        if not left[seat]:
            seat = state.other(seat)
        state.setup["drop"] = {"seat": seat, "left": scenario(state).per_drop}
        return seat
    return next(s for s in state.seats if left[s])  # the HQ at the crossing: white, then red


@task("deploy_turns")
def _run_turns(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    if scenario(state).deployment == "alternate" and "first_deployer" not in state.setup:
        if not t.get("go"):
            return _click(t, state.seats[0], "roll", "prompt_roll_deployment", "roll")
        state.setup["first_deployer"] = roll_off(ctx, "deployment")  # spec §19: the higher deploys first
        ctx.log("first_deployer", seat=state.setup["first_deployer"], n=scenario(state).per_drop)
    while True:
        seat = next_placer(state)
        if seat is None:
            ctx.pop(t)
            return False
        unit = reserve(state, seat)[0]
        squares = free_squares(state, seat, state.units[unit]["kind"])
        if squares:
            break
        _no_room(ctx, unit)
    t["unit"] = unit
    return wait(t, seat, "deploy", _prompt(state, seat, unit, False), square_choices(squares))


@answer("deploy_turns")
def _answer_turns(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state = ctx.state
    if "unit" not in t:  # the click for Total War's roll-off
        t["go"] = True
        return
    unit = t.pop("unit")
    seat = state.units[unit]["seat"]
    _place(ctx, unit, choices[0])
    state.setup["last"] = seat
    if state.setup.get("drop"):
        state.setup["drop"]["left"] -= 1
    ctx.log("deployed", seat=seat, unit=unit, kind=f"kind_{state.units[unit]['kind']}", square=choices[0])


# ------------------------------------------------------------------ the factories
def factory_sites(state: GameState, seat: str) -> list[str]:
    """Spec §19: in the side's zone (Civil War: its own areas), not on water, on no unit or other factory."""
    taken = set(state.occupied()) | {f["sq"] for f in state.factories.values() if f["sq"]}
    return [s for s in zone(state, seat) if s not in taken and may_stand(state, "F", s)]


def _next_factory(state: GameState) -> str | None:
    """One at a time in turn, white first (the order changes nothing the other side could exploit)."""
    waiting = sorted((f for f, d in state.factories.items() if d["sq"] is None),
                     key=lambda f: (int(f[2:]), state.seats.index(state.factories[f]["issued_to"])))
    return waiting[0] if waiting else None


@task("factories")
def _run_factories(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    while True:
        fid = _next_factory(state)
        if fid is None:
            ctx.pop(t)
            return False
        seat = state.factories[fid]["issued_to"]
        sites = factory_sites(state, seat)
        if sites:
            break
        del state.factories[fid]
        ctx.log("no_room_factory", seat=seat)
    t["factory"] = fid
    n = sum(1 for d in state.factories.values() if d["issued_to"] == seat and d["sq"] is None)
    return wait(t, seat, "factory_site", say("prompt_factory_site", seat=seat, n=n), square_choices(sites))


@answer("factories")
def _answer_factory(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    fid = t.pop("factory")
    d = ctx.state.factories[fid]
    d["sq"] = choices[0]
    ctx.log("factory_placed", seat=d["issued_to"], factory=fid, square=choices[0])


# ------------------------------------------------------------------ cards for the areas held
@task("take_cards")
def _run_take_cards(ctx: Ctx, t: Task) -> bool:
    from app.games.autarcha.areas import update_areas

    ctx.pop(t)
    state = ctx.state
    if not scenario(state).economy:
        return False
    update_areas(ctx, gains=False)
    if scenario(state).cards == "controlled":
        for area in sorted(state.control):
            seat = state.control[area]
            if seat and state.cards.get(area) is None and area not in state.war:
                state.cards[area] = seat
                ctx.log("card_taken_setup", seat=seat, area=area, gold=pack().areas[area].gold)
    return False


# ------------------------------------------------------------------ who starts
@task("start_roll")
def _run_start_roll(ctx: Ctx, t: Task) -> bool:
    """Every scenario: roll the die, the higher roller chooses who starts (the book: "wybiera, kto zaczyna")."""
    state = ctx.state
    if "roller" not in t:
        t["roller"] = roll_off(ctx, "start")
    seat = t["roller"]
    return wait(t, seat, "first", say("prompt_first", seat=seat),
                [(s, say("choice_first", seat=s)) for s in state.seats])


@answer("start_roll")
def _answer_start(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    ctx.pop(t)
    ctx.state.first = choices[0]
    ctx.log("first_chosen", seat=t["roller"], first=choices[0])


@task("lift_lid")
def _run_lift(ctx: Ctx, t: Task) -> bool:
    """The lid comes off (U-4.1): every placement behind it goes onto the board at once, after the roll."""
    ctx.pop(t)
    state = ctx.state
    screen = state.setup.pop("screen", None)
    if screen is None:
        return False
    for seat in state.seats:
        for unit, square in sorted(screen.get(seat, {}).items(), key=lambda kv: int(kv[0][1:])):
            if unit in state.units:
                _place(ctx, unit, square)
    ctx.log("lid_lifted")
    return False


setup_step(10, "deal_cards")
setup_step(30, "deploy")
setup_step(40, "factories")
setup_step(50, "take_cards")
setup_step(60, "start_roll")
setup_step(70, "lift_lid")


# ------------------------------------------------------------------ what each seat sees of it
@view_part
def _deployment_view(state: GameState, seat: str | None) -> dict[str, Any]:
    """A seat sees its own placements behind the lid; everyone sees how many each side has placed there."""
    screen = state.setup.get("screen")
    if screen is None:
        return {}
    own = {u: {"kind": state.units[u]["kind"], "sq": sq, "facing": state.units[u]["facing"]}
           for u, sq in screen.get(seat, {}).items()} if seat in screen else {}
    return {"lid": True, "behind_lid": own, "behind_lid_count": {s: len(screen.get(s, {})) for s in state.seats}}


@secret_part
def _deployment_secrets(state: GameState, seat: str) -> list[Secret]:
    """The other side's squares behind the lid: any mention of one, in any channel, gives it away (nothing
    else of the other side's half of the board is named before the reveal)."""
    screen = state.setup.get("screen", {})
    return [Secret(place=f"{other}'s {unit} behind the lid", value=square)
            for other in state.seats if other != seat for unit, square in screen.get(other, {}).items()]
