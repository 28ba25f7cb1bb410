"""Every game's log lines, prompts and choice labels are message ids of its own catalogue, complete
in English and Polish, so a match reads Polish in the Polish UI without swapping English terms."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from app.games.attack import GAME as ATTACK
from app.games.autarcha import GAME as AUTARCHA
from app.games.catalogue import Catalogue, plural_categories
from app.games.first_to_fight import GAME as FTF
from app.games.protocol import Event, GameRules, Msg, action_rng
from app.games.qmg import GAME as QMG
from tests.fixtures.cardgame import GAME as CARDGAME
from tests.games.autarcha.skeleton import UNTIL_PLAYABLE

GAMES = [QMG, CARDGAME, ATTACK, FTF, AUTARCHA]
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
    return {w.lower() for w in WORD.findall(literal)} - names - SAME_IN_POLISH


# words Polish spells as English does: not an untranslated line
SAME_IN_POLISH = {"region", "blitzkrieg", "limit", "bonus"}


@pytest.mark.parametrize(("game", "seeds", "players"), [(QMG, (1, 2), 2), (QMG, (3,), 5), (CARDGAME, (1, 2, 3), 3),
                                                       (ATTACK, (1,), 3), (FTF, (1, 2), 4),
                                                       pytest.param(AUTARCHA, (1, 2), 2, marks=UNTIL_PLAYABLE)],
                         ids=["qmg-2p", "qmg-5p", "skirmish", "attack-3p", "ftf-4p", "autarcha-2p"])
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


# --------------------------------------------------------------------------- issue 9: cards, cases, misses
def test_every_qmg_card_has_a_polish_name_and_text_in_the_rulebooks_words() -> None:
    from app.games.qmg.data import catalogue as cards

    catalogue = QMG.package.catalogue
    for definition in cards().values():
        assert definition.summary_pl and definition.summary_pl != definition.summary, definition.key
        assert catalogue.term(definition.key, "pl") == definition.name_pl
        assert catalogue.term(definition.summary, "pl") == definition.summary_pl
    said = catalogue.text(Msg("play_choice", {"card": "ger_wolf_packs", "summary": cards()["ger-30"].summary}), "pl")
    assert said is not None and said.startswith("Zagraj ") and "Economic" not in said
    blitz = next(d for d in cards().values() if d.key == "ger_blitzkrieg")
    assert "wywołują bitwę" in blitz.summary_pl  # the rulebook's "wywołaj bitwę", not a word-for-word "atakują"


def test_a_term_takes_the_case_its_sentence_needs() -> None:
    catalogue = QMG.package.catalogue
    assert catalogue.text(Msg("turn_starts", {"round": 3, "country": "germany"}), "pl") == "Runda 3: tura Niemiec"
    assert catalogue.text(Msg("action_prompt", {"country": "uk"}), "pl") == (
        "Faza działań Wielkiej Brytanii: zagraj lub odrzuć jedną kartę")
    assert catalogue.text(Msg("turn_starts", {"round": 3, "country": "germany"}), "en") == "Round 3: Germany's turn"
    plain = Catalogue({"en": {"m": "{who}"}, "pl": {"m": "tura {who:gen}"}}, {"pl": {"ala": "Ala"}})
    assert plain.text(Msg("m", {"who": "ala"}), "pl") == "tura Ala"  # no case form: the name as it is


def test_a_lookup_that_falls_back_is_recorded_when_a_test_asks(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from app import i18n
    from app.games import catalogue as game_catalogue

    record = tmp_path / "misses.tsv"
    monkeypatch.setenv(i18n.MISSES_ENV, str(record))
    monkeypatch.setattr(i18n, "_missed", set())
    i18n.record_misses()
    try:
        assert i18n.t("no_such_key_anywhere", "pl") == "no_such_key_anywhere"
        i18n.t("yes", "en")  # a message whose English text is its key is no miss
        broken = Catalogue({"en": {"m": "{who} at {where:gen}"}, "pl": {}}, {"en": {"x": "X"}, "pl": {}})
        broken.text(Msg("m", {"who": "x", "where": "y"}), "pl")
    finally:
        monkeypatch.delenv(i18n.MISSES_ENV)
        i18n.record_misses()
    rows = {tuple(line.split("\t")) for line in record.read_text(encoding="utf-8").splitlines()}
    assert ("ui message", "pl", "no_such_key_anywhere") in rows and ("ui message", "en", "no_such_key_anywhere") in rows
    assert {("game message", "pl", "m"), ("game term", "pl", "x"), ("game term case", "pl", "y:gen")} <= rows
    assert not any(r[0] == "ui message" and r[2] == "yes" for r in rows)
    assert game_catalogue.on_missing is None


def test_a_refusal_reads_in_the_pages_language() -> None:
    from app.api.page_kit import page_error
    from app.games.protocol import Choice, Decision, Illegal, validate_action
    from app.i18n import use_lang
    from app.sessions.errors import Refused
    from app.sessions.service import rules_refusal

    use_lang("pl")
    try:
        assert page_error(Refused("there is no move to take back").said("err_nothing_to_undo")) == (
            "Nie ma ruchu do cofnięcia.")
        decision = Decision(id="q1", seat="p1", kind="pick", prompt="Pick", choices=(Choice("a", "A"),), min=1, max=1)
        with pytest.raises(Illegal) as refused:
            validate_action(decision, ["x9"])
        shown = page_error(rules_refusal(refused.value))
        assert shown == "„x9” nie jest jedną z odpowiedzi na to pytanie (dozwolone: a)."
        assert str(refused.value).startswith("'x9' is not a legal choice")  # the API keeps its words
    finally:
        use_lang("en")
    assert page_error(rules_refusal(refused.value)) == str(refused.value)  # and so does an English page


def test_the_rules_refusals_carry_their_words_for_the_pages() -> None:
    from app.api.page_kit import page_error
    from app.games.protocol import Action, Illegal
    from app.i18n import use_lang
    from app.sessions.service import rules_refusal

    seats = QMG.roles(2, {})
    state = QMG.setup({o.id: o.default for o in QMG.options}, seats, action_rng(b"12345678", 0))
    decision = QMG.pending(state)[0]
    with pytest.raises(Illegal) as refused:
        QMG.apply(state, decision.seat, Action(decision=decision.id, choices=("nope",)), random.Random(1))
    assert refused.value.msg is not None and str(refused.value).endswith(decision.prompt)
    use_lang("pl")
    try:
        shown = page_error(rules_refusal(refused.value, QMG.id))
    finally:
        use_lang("en")
    assert shown.startswith("nope nie jest dozwoloną odpowiedzią na: ") and "odrzucenia" in shown


def test_every_space_and_strait_has_a_polish_name_and_a_polish_map_label() -> None:
    from app.games.qmg.data import map_pack
    from app.games.qmg.page import board_context

    catalogue = QMG.package.catalogue
    pack = map_pack()
    for item in [*pack.spaces, *pack.straits]:
        assert catalogue.terms["pl"].get(item.id), f"{item.id} has no Polish name"
    spaces = {s["id"]: s for s in board_context({}, None)["spaces"]}
    assert [line["text"] for line in spaces["southeast_asia"]["lines_pl"]] == ["Azja", "Południowo-Wschodnia"]
    assert [line["text"] for line in spaces["north_sea"]["lines_pl"]] == ["Wschodni", "Atlantyk"]
    assert [line["text"] for line in spaces["germany"]["lines_pl"]] == ["Niemcy"]


def test_a_seats_table_cell_listing_term_ids_shows_each_in_the_page_language() -> None:
    """The seats table listed Total Domination's powers as raw ids ("germany, japan") on a Polish page."""
    import jinja2

    from app.api.templating import fact_filter, show
    from app.i18n import use_lang

    env = jinja2.Environment(autoescape=True)
    env.filters["fact"] = fact_filter
    env.filters["show"] = show
    cell = env.from_string("{{ value|fact }}")
    use_lang("pl")
    try:
        assert cell.render(game_id="total_domination", value=["germany", "japan"]) == "Niemcy, Japonia"
        assert cell.render(game_id="total_domination", value="uk") == "Wielka Brytania"
        assert cell.render(game_id="total_domination", value=[]) == "—"
        assert cell.render(game_id="total_domination", value=3) == "3"
    finally:
        use_lang("en")
    assert cell.render(game_id="total_domination", value=["germany", "japan"]) == "Germany, Japan"
