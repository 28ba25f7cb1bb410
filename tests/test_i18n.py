"""The UI's gettext catalogues: complete in English and Polish, CLDR plural forms, compiled on the
fly from a clean clone, and notifications in the recipient's language."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from app.i18n import LANGS, load_translations, po_path, t, tn
from app.notifications import messages as notify
from app.notifications.messages import Turn, digest_message, turn_message
from scripts import messages


@pytest.fixture(scope="module")
def template() -> Catalog:
    return messages.extract()


def test_every_message_the_code_uses_is_translated_in_english_and_polish(template: Catalog) -> None:
    assert len(messages.ids(template)) > 150, "extraction found too little: babel.cfg's patterns are out of date"
    plural = {m.id[0] for m in template if m.id and not isinstance(m.id, str)}
    assert {"moves_waiting_title", "players_range", "verify_ok", "clock_days", "too_many_attempts",
            "notify_digest_subject"} <= plural
    assert messages.problems(template, {lang: messages.read(lang) for lang in LANGS}) == []


def test_the_check_fails_on_a_missing_or_incomplete_translation(template: Catalog) -> None:
    polish = messages.read("pl")
    polish.delete("seats")
    forms = polish.get("moves_waiting_title").string
    polish.delete("moves_waiting_title")
    polish.add(("moves_waiting_title", "moves_waiting_title"), (forms[0], forms[1], ""))
    english = messages.read("en")
    english.delete("notify_digest_subject")
    english.add("notify_digest_subject", "Your move in {count} matches")  # a plural message made singular
    found = messages.problems(template, {"en": english, "pl": polish})
    assert "pl: 'seats' has no translation" in found
    assert "pl: 'moves_waiting_title' is untranslated (empty or fuzzy)" in found
    assert "en: 'notify_digest_subject' must be a plural message (tn vs t)" in found
    polish = messages.read("pl")
    polish.add("no_code_uses_this", "nic")
    polish.get("signed_in_as").string = "Zalogowano jako {nazwa}"
    found = messages.problems(template, {"pl": polish, "en": messages.read("en")})
    assert "pl: 'no_code_uses_this' is no code's message any more" in found
    assert any(p.startswith("pl: 'signed_in_as' placeholders") for p in found)


@pytest.mark.parametrize(("count", "polish"), [
    (1, "1 mecz czeka na Ciebie"), (2, "2 mecze czekają na Ciebie"), (5, "5 meczów czeka na Ciebie"),
    (22, "22 mecze czekają na Ciebie"), (25, "25 meczów czeka na Ciebie"), (12, "12 meczów czeka na Ciebie"),
    (0, "0 meczów czeka na Ciebie")])
def test_polish_plural_forms_follow_cldr(count: int, polish: str) -> None:
    assert tn("moves_waiting_title", count, "pl") == polish


def test_plural_forms_of_clocks_players_and_replays() -> None:
    assert [tn("clock_days", n, "pl") for n in (1, 2, 5, 22, 25)] == ["1 dzień", "2 dni", "5 dni", "22 dni", "25 dni"]
    assert [tn("clock_days", n, "en") for n in (1, 2)] == ["1 day", "2 days"]
    assert tn("players_range", 4, "pl", min=2, max=4) == "2–4 graczy"
    assert tn("verify_ok", 1, "en").startswith("Replay matches: its 1 move")
    assert tn("verify_ok", 22, "pl") == "Zapis się zgadza: 22 ruchy odtwarzają zapisane stany."
    assert tn("too_many_attempts", 25, "pl").endswith("za 25 sekund.")
    assert tn("too_many_attempts", 1, "en").endswith("in 1 second.")


def test_t_falls_back_to_english_then_to_the_key() -> None:
    assert t("signed_in_as", "pl", name="Ewa") == "Zalogowano jako Ewa"
    assert t("signed_in_as", "xx", name="Ewa") in ("Signed in as Ewa", "Zalogowano jako Ewa")
    assert t("no_such_key", "pl") == "no_such_key"


def test_a_clean_clone_compiles_the_po_in_memory_and_prefers_a_newer_mo(tmp_path: Path) -> None:
    target = tmp_path / "pl" / "LC_MESSAGES"
    target.mkdir(parents=True)
    po = target / "messages.po"
    shutil.copy(po_path("pl"), po)
    assert load_translations(str(po)).gettext("seats") == "Miejsca"  # no .mo at all
    mo = target / "messages.mo"
    mo.write_bytes(b"not a catalogue")
    os.utime(mo, (1, 1))  # older than the .po: ignored
    assert load_translations(str(po)).ngettext("clock_days", "clock_days", 5) == "{count} dni"


def test_notifications_speak_the_recipients_language() -> None:
    turn = Turn(match_id="m1", title="Quartermaster General", seat_label="Player 2: United Kingdom, USSR",
                link="https://example.org/matches/m1", game="qmg")
    polish = turn_message(turn, "pl")
    assert polish.subject == "Twój ruch: Quartermaster General (stół m1)"
    assert "jako Gracz 2: Wielka Brytania, ZSRR" in polish.text and turn.link in polish.text
    assert turn_message(turn, None).subject == "Your move: Quartermaster General (table m1)"
    digest = [digest_message([turn] * n, "pl") for n in (1, 2, 5, 22)]
    assert [d.subject for d in digest] == ["Twój ruch w 1 meczu", "Twój ruch w 2 meczach", "Twój ruch w 5 meczach",
                                           "Twój ruch w 22 meczach"]
    assert [d.text.splitlines()[0] for d in digest] == ["1 mecz czeka na Twój ruch:", "2 mecze czekają na Twój ruch:",
                                                        "5 meczów czeka na Twój ruch:",
                                                        "22 mecze czekają na Twój ruch:"]
    assert digest_message([turn, turn], "en").subject == "Your move in 2 matches"
    assert notify.test_message("https://w.example", "pl").subject == "Warroom: powiadomienie testowe"
    assert notify.test_message("https://w.example", "pl").webhook_payload()["content"].endswith("https://w.example")
