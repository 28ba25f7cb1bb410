"""Every game's log lines, prompts and choice labels are message ids of its own catalogue, complete
in English and Polish, so a match reads Polish in the Polish UI without swapping English terms."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from app.games.catalogue import Catalogue, plural_categories
from app.games.protocol import Event, GameRules, Msg, action_rng
from app.games.qmg import GAME as QMG
from tests.fixtures.cardgame import GAME as CARDGAME

GAMES = [QMG, CARDGAME]
WORD = re.compile(r"[A-Za-z]{4,}")


def test_every_game_ships_a_complete_catalogue() -> None:
    for game in GAMES:
        catalogue = game.package.catalogue
        assert catalogue.messages["en"], f"{game.id} has no catalogue"
        assert catalogue.problems() == [], game.id


def test_the_check_fails_on_a_missing_translation_or_plural_form() -> None:
    broken = Catalogue({"en": {"draws": {"one": "{who} draws {n} card", "other": "{who} draws {n} cards"},
                               "passes": "{who} passes", "bids": "{who} bids {bid}"},
                        "pl": {"draws": {"one": "{who} dobiera {n} kartę", "other": "{who} dobiera {n} karty"},
                               "bids": "{who} licytuje"}})
    assert set(plural_categories("pl")) == {"one", "few", "many"}
    assert broken.problems() == ["pl: message 'bids' placeholders ['who'] differ from English ['bid', 'who']",
                                 "pl: message 'draws' lacks the plural form(s) few, many",
                                 "pl: message 'passes' has no translation"]


@pytest.mark.parametrize(("n", "polish"), [(1, "Japonia dobiera 1 kartę"), (2, "Japonia dobiera 2 karty"),
                                           (5, "Japonia dobiera 5 kart"), (22, "Japonia dobiera 22 karty"),
                                           (25, "Japonia dobiera 25 kart")])
def test_game_messages_take_polish_plural_forms(n: int, polish: str) -> None:
    assert QMG.package.catalogue.text(Msg("draws_cards", {"country": "japan", "n": n}), "pl") == polish


def test_a_verb_agrees_with_a_country_whose_polish_name_is_plural() -> None:
    catalogue = QMG.package.catalogue
    said = {c: catalogue.text(Msg("draws_cards", {"country": c, "n": 5}), "pl") for c in ("germany", "uk", "usa")}
    assert said == {"germany": "Niemcy dobierają 5 kart", "uk": "Wielka Brytania dobiera 5 kart",
                    "usa": "USA dobierają 5 kart"}
    assert catalogue.text(Msg("draws_cards", {"country": "germany", "n": 5}), "en") == "Germany draws 5 cards"


def test_terms_in_parameters_are_translated_and_raw_ones_kept() -> None:
    catalogue = QMG.package.catalogue
    line = Msg("builds_army", {"country": "uk", "space": "western_europe"})
    assert catalogue.text(line, "en") == "United Kingdom builds an army in Western Europe"
    assert catalogue.text(line, "pl") == "Wielka Brytania formuje armię: Europa Zachodnia"
    play = Msg("plays", {"seat": "p1", "card": "card-c07", "id": "card-c07", "value": 7})
    assert CARDGAME.package.catalogue.text(play, "pl") == "Gracz 1 zagrywa 7 (miecze) (card-c07) i zdobywa 7"


# --------------------------------------------------------------------------- whole matches
def messages_of(game: GameRules, seed: int, players: int, max_steps: int = 3000) -> Iterator[tuple[str, Msg, str]]:
    """(where, message, its English text) for every log line, prompt and choice of a seeded bot match."""
    seats = game.roles(players, {})
    match_seed = seed.to_bytes(8, "big")
    state = game.setup({o.id: o.default for o in game.options}, seats, action_rng(match_seed, 0))
    rng = random.Random(seed)
    for step in range(1, max_steps):
        pending = game.pending(state)
        for d in pending:
            assert d.prompt_msg is not None, f"{game.id}: prompt without a message id: {d.prompt}"
            yield "prompt", d.prompt_msg, d.prompt
            for c in d.choices:
                assert c.msg is not None, f"{game.id}: choice without a message id: {c.label}"
                yield "choice", c.msg, c.label
        waiting = [d for d in pending if not d.optional]
        if not waiting:
            outcome = game.outcome(state)
            assert outcome is not None and outcome.summary_msg is not None, f"{game.id}: no summary message"
            yield "outcome", outcome.summary_msg, outcome.summary
            return
        d = rng.choice(waiting)
        action = game.bot(state, d, rng)
        for event in game.apply(state, d.seat, action, action_rng(match_seed, step)):
            yield from lines_of(game, event)


def lines_of(game: GameRules, event: Event) -> Iterator[tuple[str, Msg, str]]:
    assert event.msg is not None, f"{game.id}: log line without a message id: {event.text}"
    yield "log", event.msg, event.text
    assert set(event.private_msg) == set(event.private), event
    for seat, msg in event.private_msg.items():
        yield "private log", msg, event.private[seat]


def nested(catalogue: Catalogue, msg: Msg | dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    msg_id, params = (msg.id, msg.params) if isinstance(msg, Msg) else (msg["id"], msg.get("params") or {})
    yield msg_id, params
    for value in params.values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and "id" in item:
                yield from nested(catalogue, item)


def english_words(catalogue: Catalogue, msg_id: str, params: dict[str, Any], names: set[str]) -> set[str]:
    """The template's own English words (not its parameters, not a term's English name)."""
    template = catalogue.template(msg_id, "en", params.get("n")) or ""
    literal = re.sub(r"\{[^}]*\}", " ", template)
    return {w.lower() for w in WORD.findall(literal)} - names


@pytest.mark.parametrize(("game", "seeds", "players"), [(QMG, (1, 2), 2), (QMG, (3,), 5), (CARDGAME, (1, 2, 3), 3)],
                         ids=["qmg-2p", "qmg-5p", "skirmish"])
def test_a_match_played_in_polish_has_no_english_line_prompt_or_choice(game: GameRules, seeds: tuple[int, ...],
                                                                        players: int) -> None:
    catalogue = game.package.catalogue
    # proper names the data pack has only in English (most unique QMG cards) are terms, not sentences
    names = {w.lower() for name in catalogue.terms["en"].values() for w in WORD.findall(name)}
    seen: set[str] = set()
    for seed in seeds:
        for where, msg, english in messages_of(game, seed, players):
            assert catalogue.text(msg, "en") == english, f"{game.id}: the English {where} is not its catalogue's"
            polish = catalogue.text(msg, "pl")
            assert polish is not None, f"{game.id}: {where} '{msg.id}' is not in the catalogue"
            for raw in (v for v in msg.params.values() if isinstance(v, str) and " " in v):
                polish = polish.replace(raw, " ")  # a card's summary: data the pack has in English only
            for msg_id, params in nested(catalogue, msg):
                assert msg_id in catalogue.messages["pl"], f"{game.id}: '{msg_id}' lacks a Polish translation"
                leftover = english_words(catalogue, msg_id, params, names) & {w.lower() for w in WORD.findall(polish)}
                assert not leftover, f"{game.id}: the Polish {where} '{polish}' keeps English words {leftover}"
                seen.add(msg_id)
    assert len(seen) > (25 if game is QMG else 12), f"{game.id}: the matches used only {sorted(seen)}"
