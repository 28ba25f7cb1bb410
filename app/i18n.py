"""The UI's strings in English and Polish, from gettext catalogues, plus each game's own terms.

Templates and pages call ``t("key", **params)``, or ``tn("key", count, **params)`` where a count
decides the grammar (``{count}`` is passed along; Polish has three CLDR plural forms: 1 mecz,
2 mecze, 5 meczów). The language is the request's (``use_lang`` sets it for the request or socket
render being served); a key missing from a language falls back to English, and a key missing
everywhere shows as itself, so a forgotten string is visible rather than fatal (tests check that
none is missing).

Message ids are keys (``signed_in_as``), not English text: English is a catalogue like Polish
(``app/locale/<lang>/LC_MESSAGES/messages.po``), so rewording English never orphans a translation.
Keys built at run time are listed in ``RUNTIME_KEYS`` (marked ``N_``) for extraction. The .po
files are the source: a compiled .mo beside one is used when it is newer (``make messages``
writes it), otherwise the .po is compiled in memory at first use, so a clean clone needs no
build step and no network.

A game's own sentences and terms (card types, countries...) are its catalogue
(``GamePackage.catalogue``, app/games/catalogue.py), reached through the game object:
``term(game, text)`` looks a term up, ``terms_in`` finds terms inside a seat's label.
"""

from __future__ import annotations

import functools
import gettext
import io
import os
import re
from contextvars import ContextVar
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

DEFAULT_LANG = "en"
LANGS = ("en", "pl")
APP_DIR = os.path.dirname(os.path.abspath(__file__))
LOCALE_DIR = os.path.join(APP_DIR, "locale")
DOMAIN = "messages"

_current: ContextVar[str] = ContextVar("warroom_lang", default=DEFAULT_LANG)

# tests point this at a file: every lookup that falls back (a UI key, a game message or a game term a
# language lacks) is appended to it once per process as "what<TAB>lang<TAB>key", so that a walk over
# a server's pages can name each untranslated string (tests/test_polish_walk.py)
MISSES_ENV = "WARROOM_I18N_MISSES"
_missed: set[tuple[str, str, str]] = set()


def note_missing(what: str, lang: str, key: str) -> None:
    """Record a lookup that found no entry in ``lang`` (only when ``WARROOM_I18N_MISSES`` names a file)."""
    path = os.environ.get(MISSES_ENV)
    if not path or (what, lang, key) in _missed:
        return
    _missed.add((what, lang, key))
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(f"{what}\t{lang}\t{' '.join(key.split())}\n")


def record_misses() -> None:
    """Have the games' catalogues report their misses too, when a test asks for them."""
    from app.games import catalogue as game_catalogue

    game_catalogue.on_missing = note_missing if os.environ.get(MISSES_ENV) else None


def N_(key: str) -> str:
    """Marks a key for extraction where the code builds it at run time."""
    return key


def Nn_(key: str) -> str:  # noqa: N802
    """Marks a plural key (one ``tn`` looks up) for extraction."""
    return key


# keys the code builds from a value ("status_" ~ status, an account rule's error type...)
RUNTIME_KEYS = (
    N_("status_open"), N_("status_active"), N_("status_finished"), N_("status_abandoned"),
    N_("mode_live"), N_("mode_async"),
    N_("name_invisible"), N_("name_marks"), N_("name_reserved"), N_("name_taken"),
    N_("password_common"), N_("password_has_name"), N_("old_password_wrong"),
    N_("sign_in_to_join"), N_("sign_in_first"),
    N_("address_kind_unspecified"), N_("address_kind_loopback"), N_("address_kind_link_local"),
    N_("address_kind_multicast"), N_("address_kind_shared"), N_("address_kind_private"),
    N_("address_kind_reserved"),
    N_("webhook_address_is"), N_("webhook_address_embeds"), N_("webhook_host_resolves"),
    N_("webhook_host_resolves_embedded"),
    Nn_("too_many_attempts"),
    N_("autopass_idle"), N_("autopass_ask"), N_("autopass_round"),
    # the platform's refusals of an answer (app/games/protocol.py validate_action: games import no UI)
    N_("err_not_a_choice"), N_("err_same_choice_twice"), N_("err_choice_count"),
)


def po_path(lang: str, locale_dir: str = LOCALE_DIR) -> str:
    return os.path.join(locale_dir, lang, "LC_MESSAGES", f"{DOMAIN}.po")


def compile_po(path: str) -> gettext.GNUTranslations:
    """A .po file as gettext translations, compiled in memory (fuzzy entries left out)."""
    with open(path, "rb") as handle:
        catalog = read_po(handle)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def load_translations(po: str) -> gettext.GNUTranslations | gettext.NullTranslations:
    """The .mo beside ``po`` when it is at least as new, else ``po`` compiled now; nothing: null."""
    mo = po[:-3] + ".mo"
    if os.path.exists(mo) and (not os.path.exists(po) or os.path.getmtime(mo) >= os.path.getmtime(po)):
        with open(mo, "rb") as handle:
            return gettext.GNUTranslations(handle)
    if os.path.exists(po):
        return compile_po(po)
    return gettext.NullTranslations()


@functools.cache
def translations(lang: str) -> gettext.GNUTranslations | gettext.NullTranslations:
    return load_translations(po_path(lang))


def catalogue(lang: str) -> dict[str, str]:
    """Every message of a language as {key: text} (a plural message: its first form)."""
    out: dict[str, str] = {}
    for key, text in getattr(translations(lang), "_catalog", {}).items():
        if isinstance(key, tuple):
            if key[1] == 0:
                out[key[0]] = text
        elif key:
            out[key] = text
    return out


CATALOGUE: dict[str, dict[str, str]] = {lang: catalogue(lang) for lang in LANGS}
record_misses()


LANG_NAMES = {"en": "EN", "pl": "PL"}


def current_lang() -> str:
    return _current.get()


def use_lang(lang: str | None) -> str:
    """Serve the rest of this request (or socket render) in ``lang``; returns the language used."""
    chosen = lang if lang in LANGS else DEFAULT_LANG
    _current.set(chosen)
    return chosen


def _catalog_of(lang: str) -> dict[Any, str]:
    return getattr(translations(lang), "_catalog", {})


def t(key: str, lang: str | None = None, **params: Any) -> str:
    """The message ``key`` in ``lang`` (default: the request's), its ``{placeholders}`` filled."""
    chosen = lang if lang in LANGS else _current.get()
    text = key
    for code in (chosen, DEFAULT_LANG):
        text = translations(code).gettext(key)
        if text != key:
            break
        if key not in _catalog_of(code):  # not a message whose text happens to be its key
            note_missing("ui message", code, key)
    return text.format(**params) if params else text


def tn(key: str, count: int, lang: str | None = None, **params: Any) -> str:
    """The plural message ``key`` in the form ``count`` asks for in that language; ``{count}`` filled."""
    chosen = lang if lang in LANGS else _current.get()
    text = key
    for code in (chosen, DEFAULT_LANG):
        text = translations(code).ngettext(key, key, count)
        if text != key:
            break
        if (key, 0) not in _catalog_of(code):
            note_missing("ui message", code, key)
    return text.format(count=count, **params)


def negotiate(accept_language: str | None) -> str:
    """The best of our languages for an Accept-Language header (q-values honoured)."""
    best, best_q = DEFAULT_LANG, 0.0
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        primary = tag.strip().lower().split("-")[0]
        q -= position * 1e-6  # equal weights: the earlier language wins
        if primary in LANGS and q > best_q:
            best, best_q = primary, q
    return best


def choose_lang(session_lang: Any, user_locale: str | None, accept_language: str | None) -> str:
    """The switch remembered in the session, then the account's choice, then the browser's."""
    for lang in (session_lang, user_locale):
        if lang in LANGS:
            return str(lang)
    return negotiate(accept_language)


# --------------------------------------------------------------------------- game terms
def game_terms(game_id: str) -> dict[str, dict[str, str]]:
    """A game's term catalogue ({lang: {term: name}}) from its package; empty for an unknown game."""
    from app.games.registry import package  # the games import nothing of the web: only this way round

    return package(game_id).catalogue.terms


def term(game_id: str, text: Any, lang: str | None = None) -> str:
    """A game term in the current language: exact matches only, anything else unchanged."""
    value = str(text)
    terms = game_terms(game_id)
    lang = lang or _current.get()
    found = terms.get(lang, {}).get(value)
    if found is None and value in terms.get(DEFAULT_LANG, {}):
        note_missing("game term", lang, value)
    return value if found is None else found


def _term_pattern(terms: dict[str, str]) -> re.Pattern[str] | None:
    # a game's terms never change once loaded: one pattern per term table, cached with the table
    # itself (kept alive by the cache, so its id is never reused for another table)
    if not terms:
        return None
    key = id(terms)
    if key not in _patterns:
        # only multi-letter English names are replaced inside text (ids like "uk" never appear there)
        names = sorted((k for k in terms if " " in k or k[:1].isupper()), key=len, reverse=True)
        _patterns[key] = (terms, _compiled("|".join(re.escape(n) for n in names)) if names else None)
    return _patterns[key][1]


_patterns: dict[int, tuple[dict[str, str], re.Pattern[str] | None]] = {}


@functools.cache
def _compiled(alternatives: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)(" + alternatives + r")(?!\w)")


def terms_in(game_id: str, text: Any, lang: str | None = None) -> str:
    """Every known term inside a longer text: a seat label such as "Player 1: Germany, Italy",
    and log lines written before their game gave them message ids."""
    value = str(text)
    lang = lang or _current.get()
    if lang == DEFAULT_LANG:
        return value
    names = game_terms(game_id).get(lang, {})
    pattern = _term_pattern(names)
    if pattern is None:
        return value
    return pattern.sub(lambda m: names[m.group(1)], value)
