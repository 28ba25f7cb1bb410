"""The heuristic bot (bot.py): legal answers to every decision kind, blind to what its seat may not
see, deterministic, better than the random bot, and bot-vs-bot games that end."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from app.games.attack import bot
from app.games.attack.pack import LAND_TYPES
from app.games.attack.rules import GAME
from app.games.attack.state import GameState
from app.games.protocol import Action, Decision
from tests.games.attack.bot_kit import (
    answer,
    decision,
    heuristic,
    new_game,
    next_decision,
    play,
    randomly,
    redeal,
    staged,
)


# ---------------------------------------------------------------- the battle estimates
def test_mixed_engaged_units_roll_more_hits_than_infantry() -> None:
    """A-10.3.5: a die hits only on a face of the roller's own engaged types, one die a unit, so
    four different types expect several times the hits of four infantry."""
    mixed = bot.expected_hits({"INF": 1, "TNK": 1, "ART": 1, "PLN": 1})
    infantry = bot.expected_hits({"INF": 4})
    assert infantry == pytest.approx(4 / 6, rel=1e-9)
    assert mixed > 3 * infantry


def test_two_dice_at_least() -> None:
    """A-10.3.4: a lone infantryman still rolls two dice."""
    assert bot.expected_hits({"INF": 1}) == pytest.approx(1 - (5 / 6) ** 2)


def test_opening_takes_one_of_each_type_first() -> None:
    """A-10.2.2: four units committed; the bot commits variety."""
    pick = bot.best_opening({"INF": 6, "TNK": 2, "ART": 1, "PLN": 1}, 4)
    assert pick == {"INF": 1, "TNK": 1, "ART": 1, "PLN": 1}


def test_expected_battle_favours_the_stronger_side() -> None:
    big, small = {"INF": 4, "TNK": 2, "ART": 2, "PLN": 1}, {"INF": 2}
    att_left, def_left = bot.battle(big, small)
    assert att_left > 5 and def_left == 0
    att_left, def_left = bot.battle(small, big)
    assert att_left == 0 and def_left > 5


# ---------------------------------------------------------------- legality, every kind
def checked(st: GameState, d: Decision, action: Action) -> None:
    ids = set(d.choice_ids())
    assert d.min <= len(action.choices) <= d.max, (d.kind, action)
    assert set(action.choices) <= ids and len(set(action.choices)) == len(action.choices), (d.kind, action)


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4), (4, 5), (5, 6)])
def test_every_answer_is_legal(seed: int, players: int) -> None:
    kinds: Counter[str] = Counter()

    def each(st: GameState, d: Decision, action: Action) -> None:
        kinds[d.kind] += 1
        checked(st, d, action)

    st = play(new_game(seed, players, one_per_continent=seed % 2 == 0), {s: heuristic for s in GAME_SEATS},
              seed, each=each)
    assert st.outcome is not None
    assert {"claim", "place", "capital"} <= set(kinds)
    unknown = set(kinds) - set(bot.HANDLERS)
    assert not unknown, f"decision kinds the bot answers at random: {sorted(unknown)}"


GAME_SEATS = [f"p{i}" for i in range(1, 7)]


# ---------------------------------------------------------------- what the bot may read
@pytest.mark.parametrize("seed", [11, 12])
def test_answers_do_not_change_when_hidden_cards_are_dealt_anew(seed: int) -> None:
    """The bot reads only its seat's view: the other hands and the deck, dealt anew, change nothing."""
    asked = 0

    def each(st: GameState, d: Decision, action: Action) -> None:
        nonlocal asked
        if st.step % 3:
            return
        other = redeal(st, d.seat, st.step)
        (d2,) = [x for x in GAME.pending(other) if x.id == d.id]
        again = GAME.bot(other, d2, random.Random(st.step))
        first = GAME.bot(st, d, random.Random(st.step))
        assert again.choices == first.choices, (d.kind, d.id)
        asked += 1

    play(new_game(seed, 4), {s: heuristic for s in GAME_SEATS}, seed, each=each)
    assert asked > 20


def test_deterministic() -> None:
    a = play(new_game(21, 4), {s: heuristic for s in GAME_SEATS}, 21)
    b = play(new_game(21, 4), {s: heuristic for s in GAME_SEATS}, 21)
    assert a.owner == b.owner and a.units == b.units and a.outcome == b.outcome


# ---------------------------------------------------------------- setup
def test_claims_cluster() -> None:
    """A-4.3: the bot's four starting regions touch each other more than a random claimer's do."""
    def joined(st: GameState, seat: str) -> int:
        mine = st.regions_of(seat)
        return sum(1 for r in mine for n in st.geo.neighbours(r) | st.geo.by_sea(r) if n in mine)

    bot_links = rnd_links = 0
    for seed in range(30, 40):
        st = new_game(seed, 4)
        st = play(st, {"p1": heuristic, "p2": randomly, "p3": randomly, "p4": randomly}, seed,
                  limit=10_000) if False else _setup_only(st, seed)
        bot_links += joined(st, "p1")
        rnd_links += joined(st, "p2")
    assert bot_links > rnd_links


def _setup_only(st: GameState, seed: int) -> GameState:
    rng = random.Random(seed)
    from app.games.protocol import action_rng

    while st.phase == "setup":
        d = next_decision(st)
        assert d is not None
        action = heuristic(st, d, rng) if d.seat == "p1" else randomly(st, d, rng)
        GAME.apply(st, d.seat, action, action_rng(b"setup", st.step))
    return st


def test_capital_is_its_best_garrisoned_region() -> None:
    """A-4.6: the capital goes where the bot stacked its units."""
    for seed in range(50, 55):
        st = _setup_only(new_game(seed, 4), seed)
        cap = st.capitals["p1"]
        assert st.count(cap) == max(st.count(r) for r in st.regions_of("p1"))


def test_starting_stacks_are_mixed() -> None:
    """A-4.5: the planned capital holds every land type."""
    st = _setup_only(new_game(60, 4), 60)
    cap = st.capitals["p1"]
    assert all(st.units[cap].get(t, 0) >= 1 for t in LAND_TYPES)


# ---------------------------------------------------------------- bot-vs-bot games end
@pytest.mark.parametrize("seed", [71, 72, 73])
def test_bot_games_end(seed: int) -> None:
    st = play(new_game(seed, 4), {s: heuristic for s in GAME_SEATS}, seed)
    assert st.outcome is not None and st.outcome["winners"]


# ---------------------------------------------------------------- against the random bot
@pytest.mark.parametrize("seed", [81, 82])
def test_every_kind_met_beside_random_players(seed: int) -> None:
    """Random players take every action (naval challenges, trades, sea moves...): at each of their
    decisions the bot is asked too, and its answer must be legal; no kind is left to chance."""
    kinds: Counter[str] = Counter()

    def each(st: GameState, d: Decision, action: Action) -> None:
        kinds[d.kind] += 1
        checked(st, d, GAME.bot(st, d, random.Random(st.step)))

    bots = {"p1": heuristic, "p2": randomly, "p3": heuristic, "p4": randomly}
    play(new_game(seed, 4), bots, seed, each=each)
    unknown = set(kinds) - set(bot.HANDLERS)
    assert not unknown, f"decision kinds the bot answers at random: {sorted(unknown)}"


def test_beats_the_random_bot() -> None:
    """One bot against three random players wins most seeded games, wherever it sits."""
    wins = 0
    games = 8
    for i in range(games):
        seed = 90 + i
        me = f"p{i % 4 + 1}"
        bots = {s: (heuristic if s == me else randomly) for s in GAME_SEATS[:4]}
        st = play(new_game(seed, 4), bots, seed)
        wins += me in st.outcome["winners"]
    assert wins >= 6, f"the bot won {wins} of {games}"


# ---------------------------------------------------------------- each point of the plan, staged
MIXED = {"INF": 3, "TNK": 2, "ART": 2, "PLN": 1}


def test_attacks_a_weak_neutral_with_good_odds() -> None:
    """It expands: a mixed stack beside a neutral takes the Move and sends a mixed force."""
    st = staged({"home": ("p1", {"INF": 2, "ART": 1}), "front": ("p1", dict(MIXED))}, capitals={"p1": "home"})
    assert answer(st, decision("p1", "action", ["MOVE", "DIPLO", "end"])) == ("MOVE",)
    k = bot.know(st, "p1")
    group = bot.next_group(k)
    assert group is not None and group.origin == "front" and group.dest == "neutral"
    assert len(group.units) >= 3  # several types: each rolls its own faces
    st.turn["move_action"] = {"kind": "MOVE", "groups": [], "moved_in": {}, "attacks": {}, "order": [],
                              "asked": False, "fought": []}
    assert answer(st, decision("p1", "move", ["front>neutral", "front~isle", "home>east", "done"])) \
        == ("front>neutral",)
    picks = answer(st, decision("p1", "move_count", [f"{t}:{n}" for t in MIXED for n in range(1, MIXED[t] + 1)],
                                hi=4, origin="front", dest="neutral", n=7))
    assert {p.split(":")[0] for p in picks} >= {"TNK", "ART", "INF"}


def test_no_attack_against_long_odds() -> None:
    """Two infantry do not march on eight defenders; the turn goes to diplomacy instead."""
    st = staged({"home": ("p1", {"INF": 2}), "front": ("p2", dict(MIXED))}, capitals={"p1": "home"})
    assert answer(st, decision("p1", "action", ["MOVE", "DIPLO", "end"])) == ("DIPLO",)


def test_capital_garrison_scales_with_adjacent_enemy_strength() -> None:
    """It defends its capital: with a big enemy army next door the capital keeps more at home."""
    quiet = staged({"home": ("p1", {"INF": 6, "TNK": 3, "ART": 2}), "front": ("p1", {"INF": 1})},
                   capitals={"p1": "home"})
    threatened = staged({"home": ("p1", {"INF": 6, "TNK": 3, "ART": 2}), "front": ("p1", {"INF": 1}),
                         "east": ("p2", {"INF": 4, "TNK": 2})}, capitals={"p1": "home"})
    calm, tense = bot.know(quiet, "p1"), bot.know(threatened, "p1")
    assert bot._keep(calm, "home") == 1
    assert bot._keep(tense, "home") >= bot.GARRISON * tense.threat("home") - 0.5
    assert sum(bot._budget(tense, "home", "MOVE").values()) < sum(bot._budget(calm, "home", "MOVE").values())


def test_build_spends_every_point() -> None:
    """A-20.4: unspent PP are lost, so the bot buys until nothing affordable is left."""
    from app.games.attack import build

    for pp in (13, 23, 37, 41):
        st = staged({"home": ("p1", {"INF": 2}), "front": ("p1", {"INF": 1})}, capitals={"p1": "home"})
        st.turn["build"] = {"seat": "p1", "pp": pp, "left": pp, "bought": {}, "to_place": {}}
        while True:
            lines = build.buyable(st, st.turn["build"]["left"])
            if not lines:
                break
            ids = [f"{kind}:{n}" for kind, most in lines for n in range(1, most + 1)] + ["done"]
            (pick,) = answer(st, decision("p1", "build_buy", ids))
            assert pick != "done"
            kind, n = pick.split(":")
            b = st.turn["build"]
            b["left"] -= int(n) * bot.COSTS[kind]
            b["bought"][kind] = b["bought"].get(kind, 0) + int(n)
        assert st.turn["build"]["left"] < 5, pp


def test_sea_permission_refuses_a_rival_landing_next_door() -> None:
    """A-7.3.4: the sea controller refuses a rival's sea move beside its regions, permits one far off."""
    st = staged({"home": ("p1", {"INF": 3}), "front": ("p2", {"INF": 3}), "far": ("p3", {"INF": 3}),
                 "east": ("p4", {"INF": 5})}, capitals={"p1": "home"}, sea_controller="p1")
    near = decision("p1", "sea_permission", ["permit", "refuse"], seat="green", origin="isle", dest="front")
    assert answer(st, near) == ("refuse",)
    st.add_units("neutral", "p3", {"INF": 1})
    st.add_units("isle", "p3", {"INF": 1})
    far = decision("p1", "sea_permission", ["permit", "refuse"], seat="red", origin="isle", dest="far")
    assert answer(st, far) == ("permit",)  # red is not the leader (blue is) and lands far from p1
    leader = decision("p1", "sea_permission", ["permit", "refuse"], seat="blue", origin="isle", dest="far")
    assert answer(st, leader) == ("refuse",)


def test_naval_line_by_the_modifiers() -> None:
    """A-13.3.1/A-13.6: against destroyers the battleship is laid; cheap ships lead the line."""
    st = staged({"home": ("p1", {"INF": 3}), "front": ("p2", {"INF": 3})}, capitals={"p1": "home"},
                navy={"p1": {"BB": 1, "DD": 2, "SS": 2}, "p2": {"DD": 3}}, sea_controller="p2")
    st.turn["naval_battle"] = {
        "attacker": "p1", "defender": "p2", "round": 1, "step": "line", "n": 3, "winner": None, "reason": None,
        "sides": {"p1": {"fleet": {"BB": 1, "DD": 2, "SS": 2}, "out": 0, "sunk": {}},
                  "p2": {"fleet": {"DD": 3}, "out": 0, "sunk": {}}}, "rounds": []}
    picks = answer(st, decision("p1", "naval_line", ["DD", "SS", "BB", "DD#2", "SS#2"], lo=3, hi=3))
    assert "BB" in picks and len(picks) == 3
    assert picks[-1] == "BB"  # the battleship behind the cheap ships, which take the first hits


def test_trade_accepted_only_when_it_gains() -> None:
    """A-19: a card that completes a set is worth taking; a swap that breaks one is refused."""
    from app.games.attack.pack import pack

    econ = pack().econ
    by_type: dict[str, list[str]] = {}
    for cid in sorted(econ):
        by_type.setdefault(econ[cid].type, []).append(cid)
    hand = [by_type["OIL"][0], by_type["MIN"][0], by_type["FAC"][0], by_type["POP"][0]]
    st = staged({"home": ("p2", {"INF": 3}), "front": ("p1", {"INF": 3})}, hands={"p2": hand})
    st.turn = {"seat": "p1", "actions": [], "trade_offer": {"from": "p1", "to": "p2", "give": [by_type["RAIL"][0]],
                                                             "ask": "POP:1"}}
    st.active = "p1"
    assert answer(st, decision("p2", "trade_reply", ["accept", "refuse"])) == ("accept",)
    st.turn["trade_offer"] = {"from": "p1", "to": "p2", "give": [by_type["POP"][1]], "ask": "OIL:1"}
    assert answer(st, decision("p2", "trade_reply", ["accept", "refuse"])) == ("refuse",)


def test_commands_neutral_defenders_against_the_leader() -> None:
    """A-16.4: the leader attacking a neutral meets defenders the bot commands."""
    st = staged({"home": ("p1", {"INF": 3}), "front": ("p2", {"INF": 3}), "far": ("p2", {"INF": 1}),
                 "isle": ("p2", {"INF": 1}), "east": ("p3", {"INF": 1})}, active="p2")
    st.battle = {"kind": "land", "region": "neutral", "attacker": "p2", "defender": None, "commander": None,
                 "card": None, "round": 0, "turn": "D", "over": False, "winner": None,
                 "sides": {"A": {"engaged": {}, "reserve": {"INF": 2}}, "D": {"engaged": {}, "reserve": {"INF": 2}}},
                 "halves": []}
    assert answer(st, decision("p1", "neutral_command", ["command", "decline"])) == ("command",)


def test_the_last_round_makes_the_later_seats_bolder() -> None:
    """A timed game counts the regions held after the last turn: the bot takes more risk in its last
    turn the fewer rival turns follow it (the last seat most), and none before the last round."""
    options = {"end": "timed", "turn_limit": "36"}
    st = GAME.setup(options, GAME.roles(4, options), random.Random(3))
    greed = []
    for taken in (20, 31, 32, 33, 34, 35):
        st.turns_taken = taken
        greed.append(bot.know(st, st.seats[0]).greed())
    assert greed[0] == greed[1] == 0.0  # 4 or more turns still to come: the usual caution
    assert greed[2] < greed[3] < greed[4] < greed[5] == bot.FINAL_GREED
    untimed = GAME.setup({"end": "elimination"}, GAME.roles(4, {"end": "elimination"}), random.Random(3))
    untimed.turns_taken = 119
    assert bot.know(untimed, untimed.seats[0]).greed() == 0.0


def test_the_bot_does_not_offer_trades_to_a_seat_with_no_cards() -> None:
    """Fuzz seed 160 (2 players, the bot for p2, a random p1 with an empty hand): the bot offered p1 a
    card, could ask nothing it wanted, cancelled, and picked p1 again, 180,000 answers on. Its count
    of offers moves by the decision number, and a cancelled offer is three answers, not four."""
    from app.fuzz import check_match

    report = check_match(GAME, 160, every_step=False)
    assert report.failure is None, report.failure
    assert report.answers < 10_000
