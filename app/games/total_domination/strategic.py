"""The Strategic Phase (spec §5.2, rulebook §4.1): the draft, the Arctic exchange, the swap
(Enigma), Espionage — and the 2-player shared hand's pass (§12.1), the other half of the hand rules.

Hands, not powers, take part in the draft: a hand id is a power, or "axis"/"allies" for the shared
hand of the standard 2-player game and of the solo game. Everything in progress lives in
``state.draft`` (packets, face-down picks, the Enigma cards drawn, the Espionage in hand), so
views and secrets read it without knowing the tasks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from app.games.total_domination import engine
from app.games.total_domination import pack as td_pack
from app.games.total_domination.engine import Ctx, Task, answers, ask, cont, question, task, wait_all
from app.games.total_domination.flow import PASS_RULE, strategic_step, turn_order, year_info
from app.games.total_domination.pack import POWERS, side_of
from app.games.total_domination.state import GameState, enemies_of
from app.games.total_domination.text import Label, say
from app.games.total_domination.views import known_part, own_hands, secret_part, view_part

ENIGMA, ESPIONAGE = "D2", "D1"
ARCTIC = "arctic"  # the Arctic expansion's space whose controller may exchange a card (spec §13.4)
# the years a power draws one card more and picks one more in the first pick (rulebook §4.1 WAŻNE)
SPECIAL_DRAW: dict[int, str] = {1939: "germany", 1941: "japan"}
SOLO_DISCARD = 2  # solo rule 4: the player discards two chosen cards instead of passing


# ------------------------------------------------------------------ the draw pile
def draw(state: GameState, n: int, rng: random.Random, ctx: Ctx | None = None) -> list[str]:
    """The top ``n`` cards of the draw pile. When it runs out the discard pile is shuffled into a new
    draw pile (gap G1; tech cards by the sheets and Diplomacy cards in play are never in the discard
    pile). Fewer than ``n`` only when both piles are empty. ``ctx`` logs the reshuffle."""
    out: list[str] = []
    while len(out) < n:
        if not state.deck:
            if not state.discard:
                break
            state.deck, state.discard = list(state.discard), []
            rng.shuffle(state.deck)
            # everyone saw these cards face up a moment ago (a discard of this very answer may be named
            # in its log): until the next answer, that they went into the pile is no secret; where each
            # went (the pile's order, the hands that drew them) is, and the views never show it
            state.flags["reshuffled"] = {"step": state.step, "cards": sorted(state.deck)}
            if ctx is not None:
                ctx.log("log_reshuffle", n=len(state.deck))
        take = min(n - len(out), len(state.deck))
        out += state.deck[:take]
        del state.deck[:take]
    return out


# ------------------------------------------------------------------ hands
def hand_ids(state: GameState) -> list[str]:
    """Every hand in the turn order of the year (a shared hand where its first power sits)."""
    out: list[str] = []
    for p in turn_order(state):
        h = state.hand_of.get(p)
        if h is not None and h not in out:
            out.append(h)
    return out


def powers_of_hand(state: GameState, hid: str) -> list[str]:
    return [p for p in POWERS if state.hand_of.get(p) == hid]


def seat_of_hand(state: GameState, hid: str) -> str:
    return state.seats[powers_of_hand(state, hid)[0]]


def shared(state: GameState, hid: str) -> bool:
    """The standard 2-player (and solo) hand: both countries of a side play from it (spec §12.1)."""
    return len(powers_of_hand(state, hid)) > 1


def base_draw(state: GameState) -> int:
    """The Round Track's number for the year, or the scenario's deal in its first year (spec §14.2)."""
    data = td_pack.pack()
    scenario = data.scenarios.get(str(state.options.get("scenario", "full")))
    if scenario is not None and scenario.deal is not None and state.year == scenario.first_year:
        return scenario.deal
    year = data.years.get(state.year)
    return year.draw if year is not None else 4


def specials(state: GameState, hid: str) -> int:
    """1 when the hand holds the power of the year's special draw (Germany 1939, Japan 1941)."""
    return sum(1 for p in powers_of_hand(state, hid) if SPECIAL_DRAW.get(state.year) == p)


def pick_size(state: GameState, hid: str) -> int:
    """Cards kept in each pick after the first: 2 for a shared hand (rulebook §10.1), else 1."""
    return 2 if shared(state, hid) else 1


def draw_count(state: GameState, hid: str) -> int:
    """What the hand draws: the Round Track's number per country plus the special card; a shared
    hand draws its two countries' total minus one (rulebook §10.1)."""
    powers = powers_of_hand(state, hid)
    return len(powers) * base_draw(state) + specials(state, hid) - (len(powers) - 1)


def first_pick(state: GameState, hid: str, aside: int) -> int:
    """1 (2 for a shared hand), one more for the year's special draw, one more for each set-aside
    (reserve or Lend-Lease) card: Germany 1939 picks 2, Japan 1941 with a reserve 3 (rulebook §4.1,
    §9.1; gap G16: a 2-player set-aside card raises the first pick by 1 too)."""
    return pick_size(state, hid) + specials(state, hid) + aside


def receiver(state: GameState, hid: str) -> str:
    """Who gets the packet ``hid`` passes: left is the next hand in turn order, right the previous."""
    order = [h for h in (state.hand_of.get(p) for p in POWERS) if h is not None]
    ring = list(dict.fromkeys(order))
    step = 1 if year_info(state)[1] == "left" else -1
    return ring[(ring.index(hid) + step) % len(ring)]


def _card_choices(cards: Iterable[str]) -> list[tuple[str, Label]]:
    return [(c, say("choice_card", card=c)) for c in cards]


def _private(state: GameState, hid: str, msg_id: str, **params: Any) -> dict[str, Any]:
    seat = seat_of_hand(state, hid)
    return {seat: say(msg_id, **params)} if seat else {}


# ------------------------------------------------------------------ A. the draft
@task("draft")
def _run_draft(ctx: Ctx, t: Task) -> bool:
    state = ctx.state
    if not t.get("dealt"):
        t["dealt"] = True
        _deal(ctx)
    d = state.draft
    while True:
        live = {h: p for h, p in sorted(d["packets"].items()) if p}
        if not live:
            _take_picks(ctx)
            ctx.pop(t)
            return False
        qs: dict[str, dict[str, Any]] = {}
        for hid, packet in live.items():
            n = _keep_now(state, hid)
            if len(packet) > n:
                qs[hid] = _draft_question(state, hid, packet, n)
        if qs:
            return wait_all(t, f"draft:{state.year}:{d['pick']}", qs)
        _resolve_picks(ctx, {})


def _deal(ctx: Ctx) -> None:
    """Step 1–2: every hand draws, its set-aside cards join what it drew."""
    state = ctx.state
    state.phase = "draft"
    solo = state.solo_game()
    state.draft = {"year": state.year, "pick": 1, "direction": "none" if solo else year_info(state)[1],
                   "packets": {}, "picks": {}, "first": {}, "solo": solo, "seen": {}}
    d = state.draft
    if not solo:
        ctx.log("log_draft_begins", year=state.year, direction=f"pass_{d['direction']}")
    for hid in hand_ids(state):
        aside = state.set_aside.pop(hid, [])
        drawn = draw(state, draw_count(state, hid), ctx.rng, ctx)
        d["packets"][hid] = drawn + aside
        _saw(state, hid, drawn + aside)
        d["picks"][hid] = []
        d["first"][hid] = first_pick(state, hid, len(aside))
        msg = "log_draft_draws_aside" if aside else "log_draft_draws"
        ctx.log(msg, private=_private(state, hid, msg + "_private", cards=drawn, aside=aside),
                hand=hid, n=len(drawn), aside=len(aside))


def _keep_now(state: GameState, hid: str) -> int:
    """How many cards the hand keeps from its packet in this pick (solo: all but two)."""
    d = state.draft
    packet = d["packets"][hid]
    if d["solo"]:
        return max(0, len(packet) - SOLO_DISCARD)
    return d["first"][hid] if d["pick"] == 1 else pick_size(state, hid)


def _draft_question(state: GameState, hid: str, packet: list[str], n: int) -> dict[str, Any]:
    d = state.draft
    seat = seat_of_hand(state, hid)
    if d["solo"]:
        k = len(packet) - n
        return question(seat, "draft_discard", say("prompt_solo_discard", hand=hid, year=state.year, n=k),
                        _card_choices(packet), k, k, undoable=True)
    last = len(packet) - n == 1  # the one card left over goes to the discard pile, not on
    prompt = say("prompt_draft_last" if last else "prompt_draft_pick", hand=hid, year=state.year, pick=d["pick"],
                 n=n, left=len(packet) - n)
    return question(seat, "draft_pick", prompt, _card_choices(packet), n, n, undoable=True)


@answers("draft")
def _answer_draft(ctx: Ctx, t: Task, got: dict[str, tuple[str, ...]]) -> None:
    _resolve_picks(ctx, got)


def _resolve_picks(ctx: Ctx, got: dict[str, tuple[str, ...]]) -> None:
    """Every hand's pick at once (sorted hand order, so the answers commute): the picks go face down,
    a single card left over is discarded (the last pick), more are passed on in the year's direction."""
    state = ctx.state
    d = state.draft
    passed: dict[str, list[str]] = {}
    for hid, packet in sorted(d["packets"].items()):
        if not packet:
            continue
        n = _keep_now(state, hid)
        if hid not in got:
            kept = list(packet[:n])  # no choice: the hand keeps all it holds
        elif d["solo"]:
            kept = [c for c in packet if c not in got[hid]]  # the solo player names the cards it discards
        else:
            kept = list(got[hid])
        rest = [c for c in packet if c not in kept]
        d["picks"][hid] += kept
        d["packets"][hid] = []
        seat = seat_of_hand(state, hid)
        if d["solo"] or len(rest) == 1:
            state.discard.extend(rest)
            if rest:
                ctx.log("log_draft_discards", private={seat: say("log_draft_keeps_private", cards=kept)},
                        hand=hid, cards=rest, n=len(rest))
        else:
            passed[receiver(state, hid)] = rest
            ctx.log("log_draft_picks", private={seat: say("log_draft_keeps_private", cards=kept)},
                    hand=hid, n=len(kept), passed=len(rest))
    for hid, cards in sorted(passed.items()):
        d["packets"][hid] = cards
        _saw(state, hid, cards)
    d["pick"] += 1


def _saw(state: GameState, hid: str, cards: list[str]) -> None:
    """The hand's seat has held these cards in a packet this year: it knows them wherever the
    draft sends them (spec §19.1: "each player sees the cards passed to them"), so its own log
    lines naming them give nothing away while they lie in other hands this year."""
    seen = state.draft.setdefault("seen", {}).setdefault(seat_of_hand(state, hid), [])
    seen.extend(c for c in cards if c not in seen)


def _take_picks(ctx: Ctx) -> None:
    """Step 6: the draft ends; each hand takes the cards it picked."""
    state = ctx.state
    d = state.draft
    for hid in hand_ids(state):
        picks = d["picks"].get(hid, [])
        state.hands[hid] = state.hands.get(hid, []) + picks
        ctx.log("log_draft_takes", private=_private(state, hid, "log_draft_takes_private", cards=picks),
                hand=hid, n=len(picks))
    state.draft = {"year": state.year, "seen": d.get("seen", {})}


# ------------------------------------------------------------------ the Arctic exchange (spec §13.4, gap G24)
@task("arctic_exchange")
def _run_arctic(ctx: Ctx, t: Task) -> bool:
    """The power controlling the Arctic swaps one card with its ally: mandatory, one for one, each
    choosing its own card, simultaneously. None when the ally shares its hand (2-player, solo)."""
    state = ctx.state
    pair = arctic_pair(state)
    if pair is None:
        ctx.pop(t)
        return False
    holder, ally = pair
    h1, h2 = state.hand_of[holder], state.hand_of[ally]
    if not state.hands.get(h1) or not state.hands.get(h2):
        ctx.log("log_arctic_empty", power=holder, ally=ally)
        ctx.pop(t)
        return False
    t["holder"], t["ally"] = holder, ally
    qs = {h: question(seat_of_hand(state, h), "arctic_exchange",
                      say("prompt_arctic", power=p, other=o), _card_choices(state.hands[h]), undoable=True)
          for h, p, o in ((h1, holder, ally), (h2, ally, holder))}
    return wait_all(t, f"arctic:{state.year}", qs)


def arctic_pair(state: GameState) -> tuple[str, str] | None:
    """(the power controlling the Arctic, its ally) when they exchange a card this year."""
    if not state.options.get("arctic") or ARCTIC not in state.geo.spaces:
        return None
    from app.games.total_domination import derived  # the GEO module; imported late, only with the Arctic

    holder = derived.controller(state, ARCTIC)
    if holder not in POWERS or state.automa(holder):
        return None
    ally = next(p for p in POWERS if p != holder and side_of(p) == side_of(holder))
    if state.automa(ally) or state.hand_of.get(holder) is None or state.hand_of.get(ally) is None \
            or state.hand_of[holder] == state.hand_of[ally]:
        return None
    return holder, ally


@answers("arctic_exchange")
def _answer_arctic(ctx: Ctx, t: Task, got: dict[str, tuple[str, ...]]) -> None:
    state = ctx.state
    ctx.pop(t)
    holder, ally = t["holder"], t["ally"]
    h1, h2 = state.hand_of[holder], state.hand_of[ally]
    give, take = got[h1][0], got[h2][0]
    state.hands[h1] = [c for c in state.hands[h1] if c != give] + [take]
    state.hands[h2] = [c for c in state.hands[h2] if c != take] + [give]
    s1, s2 = seat_of_hand(state, h1), seat_of_hand(state, h2)
    _know(state, s1, h2, [give])
    _know(state, s2, h1, [take])
    private = {s1: say("log_arctic_private", gave=give, got=take, other=ally)}
    if s2 != s1:
        private[s2] = say("log_arctic_private", gave=take, got=give, other=holder)
    else:
        private[s1] = say("log_arctic_private_both", power=holder, ally=ally, gave=give, got=take)
    ctx.log("log_arctic", private=private, power=holder, ally=ally)


# ------------------------------------------------------------------ B. the swap (Enigma)
@task("swap")
def _run_swap(ctx: Ctx, t: Task) -> bool:
    """In turn order from the year's starting power, each hand owner may discard 1 and draw 1; with
    Enigma draw 2 and keep 1. A shared hand swaps once per country; with Enigma in both countries the
    side makes one combined swap instead: discard up to 2, draw 3, keep as many as it discarded
    (spec §12.1 as recommended)."""
    state = ctx.state
    if "queue" not in t:
        state.phase = "swap"
        t["queue"] = swap_queue(state)
    while t["queue"]:
        power, mode = t["queue"].pop(0)
        hid = state.hand_of[power]
        hand = state.hands.get(hid, [])
        if not hand:
            continue
        seat = state.seats[power]
        if mode == "double":
            ctx.push(ask(seat, say("prompt_swap_double", hand=hid), _card_choices(hand), "swap_discarded",
                         kind="swap", lo=0, hi=min(2, len(hand)), power=power, mode=mode))
        else:
            ctx.push(ask(seat, say("prompt_swap_enigma" if mode == "enigma" else "prompt_swap", power=power),
                         _card_choices(hand) + [("skip", say("choice_no_swap"))], "swap_discarded",
                         kind="swap", power=power, mode=mode))
        return False
    ctx.pop(t)
    return False


def swap_queue(state: GameState) -> list[tuple[str, str]]:
    """(power, "plain" / "enigma" / "double") in turn order; the automa takes no part."""
    out: list[tuple[str, str]] = []
    done: set[str] = set()
    for p in turn_order(state):
        hid = state.hand_of.get(p)
        if hid is None or state.automa(p) or hid in done:
            continue
        partners = powers_of_hand(state, hid)
        if len(partners) > 1 and all(ENIGMA in state.techs.get(q, []) for q in partners):
            out.append((p, "double"))
            done.add(hid)
            continue
        out.append((p, "enigma" if ENIGMA in state.techs.get(p, []) else "plain"))
    return out


@cont("swap_discarded")
def _swap_discarded(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power, mode = ctx.state, t["power"], t["mode"]
    hid = state.hand_of[power]
    gone = [c for c in choices if c != "skip"]
    if not gone:
        ctx.log("log_swap_skips", power=power)
        return
    state.hands[hid] = [c for c in state.hands[hid] if c not in gone]
    state.discard.extend(gone)
    looks = {"plain": 1, "enigma": 2, "double": 3}[mode]
    drawn = draw(state, looks, ctx.rng, ctx)
    if mode == "plain" or len(drawn) <= len(gone):
        state.hands[hid] += drawn
        ctx.log("log_swap", private={state.seats[power]: say("log_swap_private", cards=drawn)},
                power=power, discarded=gone, n=len(drawn))
        return
    state.draft["enigma"] = {"hand": hid, "cards": drawn}
    ctx.log("log_swap_enigma", private={state.seats[power]: say("log_swap_enigma_private", cards=drawn)},
            power=power, discarded=gone, n=len(drawn))
    keep = len(gone)
    ctx.push(ask(state.seats[power], say("prompt_enigma_keep", power=power, n=keep), _card_choices(drawn),
                 "enigma_kept", kind="enigma_keep", lo=keep, hi=keep, power=power))


@cont("enigma_kept")
def _enigma_kept(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power = ctx.state, t["power"]
    held = state.draft.pop("enigma")
    kept = list(choices)
    rest = [c for c in held["cards"] if c not in kept]
    state.hands[held["hand"]] += kept
    state.discard.extend(rest)
    ctx.log("log_enigma_keeps", private={state.seats[power]: say("log_enigma_keeps_private", cards=kept)},
            power=power, discarded=rest, n=len(kept))


# ------------------------------------------------------------------ C. Espionage
@task("espionage")
def _run_espionage(ctx: Ctx, t: Task) -> bool:
    """In turn order, a hand whose country has Espionage may look at 3 random cards of an opponent's
    hand (5 when a shared hand's two countries both have it) and discard 1 of them (2); the opponent
    draws replacements. Against the solo automa it has no effect (spec §15.4): it holds no hand."""
    state = ctx.state
    if "queue" not in t:
        state.phase = "espionage"
        t["queue"] = espionage_queue(state)
    while t["queue"]:
        power, strength = t["queue"].pop(0)
        targets = [h for h in hand_ids(state) if any(p in enemies_of(power) for p in powers_of_hand(state, h))]
        if state.solo_game():
            ctx.log("log_espionage_automa", power=power)
            continue
        targets = [h for h in targets if state.hands.get(h)]
        if not targets:
            continue
        ctx.push(ask(state.seats[power], say("prompt_espionage", power=power, n=3 + 2 * (strength - 1)),
                     [(h, say("choice_hand", hand=h)) for h in targets] + [("skip", say("choice_no_espionage"))],
                     "espionage_target", kind="espionage", power=power, strength=strength))
        return False
    ctx.pop(t)
    return False


def espionage_queue(state: GameState) -> list[tuple[str, int]]:
    """(power, 1 or 2) in turn order: one use per hand, doubled when both countries of a shared hand
    have Espionage (rulebook §10.1 A)."""
    out: list[tuple[str, int]] = []
    done: set[str] = set()
    for p in turn_order(state):
        hid = state.hand_of.get(p)
        if hid is None or state.automa(p) or hid in done or ESPIONAGE not in state.techs.get(p, []):
            continue
        done.add(hid)
        out.append((p, sum(1 for q in powers_of_hand(state, hid) if ESPIONAGE in state.techs.get(q, []))))
    return out


@cont("espionage_target")
def _espionage_target(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power, strength = ctx.state, t["power"], t["strength"]
    target = choices[0]
    if target == "skip":
        ctx.log("log_espionage_skips", power=power)
        return
    hand = state.hands[target]
    seen = sorted(ctx.rng.sample(sorted(hand), min(3 + 2 * (strength - 1), len(hand))))
    spy = state.seats[power]
    state.draft["spy"] = {"power": power, "target": target, "cards": seen}
    _know(state, spy, target, seen)
    private = {spy: say("log_espionage_private", target=target, cards=seen)}
    victim = seat_of_hand(state, target)
    if victim != spy:
        private[victim] = say("log_espionage_shown", power=power, cards=seen)
    ctx.log("log_espionage", private=private, power=power, target=target, n=len(seen))
    most = min(strength, len(seen))
    ctx.push(ask(spy, say("prompt_espionage_discard", power=power, target=target, n=most), _card_choices(seen),
                 "espionage_discarded", kind="espionage_discard", lo=0, hi=most, power=power, target=target))


@cont("espionage_discarded")
def _espionage_discarded(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    state, power, target = ctx.state, t["power"], t["target"]
    state.draft.pop("spy", None)
    gone = list(choices)
    if not gone:
        ctx.log("log_espionage_keeps_all", power=power, target=target)
        return
    state.hands[target] = [c for c in state.hands[target] if c not in gone]
    state.discard.extend(gone)
    drawn = draw(state, len(gone), ctx.rng, ctx)
    state.hands[target] += drawn
    ctx.log("log_espionage_discards", private=_private(state, target, "log_espionage_replaced", cards=drawn),
            power=power, target=target, cards=gone, n=len(drawn))


# ------------------------------------------------------------------ what a seat knows of another hand
def _know(state: GameState, seat: str, hid: str, cards: list[str]) -> None:
    """``seat`` has seen these cards in hand ``hid`` (Espionage, the Arctic exchange): they stay
    shown to it while they stay in that hand (or its set-aside cards) this round."""
    if not seat or seat_of_hand(state, hid) == seat:
        return
    state.flags.setdefault("known", []).append({"seat": seat, "hand": hid, "cards": list(cards)})


def known_cards(state: GameState, seat: str) -> dict[str, list[str]]:
    """hand -> the cards of that hand ``seat`` has seen this round and that are still there."""
    out: dict[str, list[str]] = {}
    for k in state.flags.get("known", []):
        if k["seat"] != seat:
            continue
        there = set(state.hands.get(k["hand"], [])) | set(state.set_aside.get(k["hand"], []))
        for c in k["cards"]:
            if c in there and c not in out.setdefault(k["hand"], []):
                out[k["hand"]].append(c)
    return {h: cs for h, cs in sorted(out.items()) if cs}


@known_part
def _known(state: GameState, seat: str) -> list[str]:
    out = [c for cs in known_cards(state, seat).values() for c in cs]
    if state.draft.get("year") == state.year:
        out += state.draft.get("seen", {}).get(seat, [])
    shuffled = state.flags.get("reshuffled")
    if shuffled and shuffled["step"] == state.step:
        out += shuffled["cards"]
    return out


# ------------------------------------------------------------------ the 2-player shared hand's pass (§12.1)
def pass_rule(ctx: Ctx, power: str) -> bool:
    """A country of a shared hand passes (spec §12.1, recommended reading): the first of the two
    discards half the hand rounded down, chosen by the player; the second may keep half of what is
    left rounded up as the reserve (none if that country did Lend-Lease) and discards the rest.
    False for a hand of its own: the plain pass of flow.py."""
    state = ctx.state
    hid = state.hand_of.get(power)
    if hid is None or not shared(state, hid):
        return False
    hand = state.hands[hid]
    partner_on = any(p not in state.passed for p in powers_of_hand(state, hid) if p != power)
    seat = state.seats[power]
    if partner_on:
        n = len(hand) // 2
        if n == 0:
            _shared_passes(ctx, power, gone=[], keep=[])
            return True
        ctx.push(ask(seat, say("prompt_pass_first", power=power, n=n), _card_choices(hand), "shared_pass_first",
                     kind="pass_discard", lo=n, hi=n, power=power))
        return True
    most = 0 if power in state.lend_lease else (len(hand) + 1) // 2
    if most == 0:
        _shared_passes(ctx, power, gone=list(hand), keep=[])
        return True
    ctx.push(ask(seat, say("prompt_pass_reserve", power=power, n=most), _card_choices(hand), "shared_pass_last",
                 kind="reserve", lo=0, hi=most, power=power))
    return True


@cont("shared_pass_first")
def _shared_pass_first(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    _shared_passes(ctx, t["power"], gone=list(choices), keep=[])


@cont("shared_pass_last")
def _shared_pass_last(ctx: Ctx, t: Task, choices: tuple[str, ...]) -> None:
    hand = ctx.state.hand(t["power"])
    _shared_passes(ctx, t["power"], gone=[c for c in hand if c not in choices], keep=list(choices))


def _shared_passes(ctx: Ctx, power: str, gone: list[str], keep: list[str]) -> None:
    state = ctx.state
    hid = state.hand_of[power]
    state.hands[hid] = [c for c in state.hands[hid] if c not in gone and c not in keep]
    state.discard.extend(gone)
    if keep:
        state.set_aside.setdefault(hid, []).extend(keep)
    state.passed.append(power)
    private = {state.seats[power]: say("log_pass_reserve_private", cards=keep)} if keep else None
    ctx.log("log_shared_pass", private=private, power=power, discarded=gone, n=len(gone), reserved=len(keep),
            left=len(state.hands[hid]))


PASS_RULE["rule"] = pass_rule


# ------------------------------------------------------------------ views and secrets
@view_part
def _view(state: GameState, seat: str | None) -> dict[str, Any]:
    mine = own_hands(state, seat)
    d = state.draft
    t = engine.current(state)
    step = t if t is not None and "qs" in t else {}  # a simultaneous step waiting for answers
    waiting = [h for h in sorted(step.get("qs", {})) if h not in step.get("got", {})]
    out: dict[str, Any] = {}
    if d.get("packets") is not None:
        drafting = step.get("k") == "draft"
        out["draft"] = {
            "year": d["year"], "pick": d["pick"], "direction": d["direction"], "solo": d["solo"],
            "waiting_on": waiting if drafting else [],
            "packet_sizes": {h: len(p) for h, p in sorted(d["packets"].items())},
            "picked": {h: len(p) for h, p in sorted(d["picks"].items())},
            "packets": {h: list(d["packets"][h]) for h in mine if h in d["packets"]},
            "picks": {h: list(d["picks"][h]) for h in mine if h in d["picks"]},
            # the seat's answers to this pick, still open to be taken back until the step completes
            "chosen": {h: list(v) for h, v in sorted(step.get("got", {}).items()) if h in mine} if drafting else {},
        }
    if step.get("k") == "arctic_exchange":
        out["arctic"] = {"power": step["holder"], "ally": step["ally"], "waiting_on": waiting}
    enigma = d.get("enigma")
    if enigma and enigma["hand"] in mine:
        out["enigma"] = list(enigma["cards"])
    if seat is not None:
        seen = known_cards(state, seat)
        if seen:
            out["seen"] = seen
    spy = d.get("spy")
    if spy and spy["target"] in mine:
        out["shown"] = {"power": spy["power"], "cards": list(spy["cards"])}
    return out


@secret_part
def _secrets(state: GameState, seat: str) -> list[str]:
    mine = set(own_hands(state, seat))
    d = state.draft
    out: list[str] = []
    for area in ("packets", "picks"):
        for hid, cards in (d.get(area) or {}).items():
            if hid not in mine:
                out.extend(cards)
    enigma = d.get("enigma")
    if enigma and enigma["hand"] not in mine:
        out.extend(enigma["cards"])
    return out


strategic_step(10, "draft")
strategic_step(15, "arctic_exchange")
strategic_step(20, "swap")
strategic_step(30, "espionage")
