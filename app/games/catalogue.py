"""A game's own catalogue: its sentences (message ids) and its terms, in every UI language.

A game's events, prompts and choice labels carry a :class:`~app.games.protocol.Msg` (an id and
parameters). ``Catalogue.text(msg, lang)`` renders one: the language's template for the id (an
English one when the language lacks it), with ``{placeholders}`` filled from the parameters.
A parameter that names a game term (a country id, a space id, a card key...) is shown under the
term's name in that language (``{id:raw}`` shows it as it is); a list is joined with commas, and
a parameter that is itself a message ({"id", "params"}) is rendered in the same language. A template may be a mapping
of CLDR plural categories (``one``, ``few``, ``many``, ``other``) chosen by the parameter ``n``:
Polish says "dobiera 1 kartę / 2 karty / 5 kart". A verb agrees with a term that is its subject
through ``{country:odrzuca|odrzucają}``: the second form where the term's name is grammatically
plural in that language (``plural_terms``: "Niemcy odrzucają", "Japonia odrzuca"). A term takes the
case a sentence needs through ``{country:gen}`` (the term "germany:gen": "tura Niemiec").

The catalogue is data, usually YAML shipped in the game's package (``messages:`` and ``terms:``,
each keyed by language); terms may also come from the game's data pack (space and card names).
Nothing here imports the web or the database.
"""

from __future__ import annotations

import functools
import os
import string
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import yaml
from babel import Locale

LANGS = ("en", "pl")
Template = str | dict[str, str]
CASES = frozenset({"gen", "dat", "acc", "ins", "loc"})

# called with (what, lang, key) when a lookup falls back to English or to the key itself (a message id
# or a term a language lacks); None in production. app/i18n.py sets it when tests ask to record misses.
on_missing: Callable[[str, str, str], None] | None = None


def _missing(what: str, lang: str, key: str) -> None:
    if on_missing is not None:
        on_missing(what, lang, key)


@functools.cache
def plural_categories(lang: str) -> tuple[str, ...]:
    """The CLDR plural categories a language needs for whole numbers (Polish: one, few, many)."""
    rules = Locale.parse(lang).plural_form
    return tuple(sorted({rules(n) for n in range(0, 200)}))


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


class Catalogue:
    def __init__(self, messages: Mapping[str, Mapping[str, Template]],
                 terms: Mapping[str, Mapping[str, str]] | None = None,
                 plural_terms: Mapping[str, Iterable[str]] | None = None) -> None:
        self.messages = {lang: dict(messages.get(lang) or {}) for lang in LANGS}
        self.terms = {lang: dict((terms or {}).get(lang) or {}) for lang in LANGS}
        self.plural_terms = {lang: frozenset((plural_terms or {}).get(lang) or ()) for lang in LANGS}

    @classmethod
    def from_yaml(cls, *paths: str, terms: Mapping[str, Mapping[str, str]] | None = None) -> Catalogue:
        """Merge YAML files of ``messages:`` and ``terms:`` (later files and ``terms`` win)."""
        messages: dict[str, dict[str, Template]] = {lang: {} for lang in LANGS}
        merged: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
        plural: dict[str, set[str]] = {lang: set() for lang in LANGS}
        for path in paths:
            with open(path, encoding="utf-8") as handle:
                data = yaml.safe_load(handle) or {}
            for lang in LANGS:
                messages[lang].update((data.get("messages") or {}).get(lang) or {})
                merged[lang].update({str(k): str(v) for k, v in ((data.get("terms") or {}).get(lang) or {}).items()})
                plural[lang].update(str(t) for t in (data.get("plural_terms") or {}).get(lang) or ())
        for lang in LANGS:
            merged[lang].update((terms or {}).get(lang) or {})
        return cls(messages, merged, plural)

    # ------------------------------------------------------------------ rendering
    def term(self, value: Any, lang: str) -> str:
        """A term's name in ``lang`` (English when that language lacks it), anything else as is."""
        text = str(value)
        found = self.terms.get(lang, {}).get(text)
        if found:
            return found
        if on_missing is not None and text in self.terms["en"]:
            _missing("game term", lang, text)
        return self.terms["en"].get(text) or text

    def template(self, msg_id: str, lang: str, n: Any = None) -> str | None:
        found = self.messages.get(lang, {}).get(msg_id)
        if found is None:
            _missing("game message", lang, msg_id)
            lang, found = "en", self.messages["en"].get(msg_id)
        if isinstance(found, dict):
            category = _plural_rule(lang)(abs(int(n))) if isinstance(n, int) else "other"
            return found.get(category) or found.get("other")
        return found

    def text(self, msg: Any, lang: str) -> str | None:
        """``msg`` (a Msg, or its JSON form {"id", "params"}) in ``lang``; None for an unknown id."""
        msg_id, params = (msg.get("id"), msg.get("params")) if isinstance(msg, dict) else (msg.id, msg.params)
        params = params if isinstance(params, dict) else {}
        template = self.template(str(msg_id), lang, params.get("n"))
        if template is None:
            return None
        try:
            parts = _parsed(template)
        except ValueError:  # a malformed template must not break a page
            return None
        out = []
        for literal, name, spec in parts:
            out.append(literal)
            if name is not None:
                out.append(self._field(params[name], spec, lang) if name in params else "{" + name + "}")
        return "".join(out)

    def _field(self, value: Any, spec: str, lang: str) -> str:
        """One placeholder: ``raw`` as given, ``a|b`` the verb form agreeing with the term, else the
        value in ``lang`` (a term's name, a nested message, a list); ``gen``, ``dat``, ``acc``, ``ins``,
        ``loc`` the term's form in that grammatical case (a term "<value>:gen"), where the language
        declines its names as Polish does."""
        if spec == "raw":
            return str(value)
        if spec in CASES:  # a term's case form: "{country:gen}" -> the term "germany:gen" ("Niemiec")
            form = self.terms.get(lang, {}).get(f"{value}:{spec}")
            if form:
                return form
            _missing("game term case", lang, f"{value}:{spec}")
            return str(self._value(value, lang))
        if "|" in spec:
            singular, _, plural = spec.partition("|")
            return plural if str(value) in self.plural_terms.get(lang, ()) else singular
        shown = self._value(value, lang)
        return format(shown, spec) if spec else str(shown)

    def _value(self, value: Any, lang: str) -> Any:
        if isinstance(value, str):
            return self.term(value, lang)
        if isinstance(value, list):
            return ", ".join(str(self._value(v, lang)) for v in value)
        if isinstance(value, dict) and "id" in value:  # a nested message (a reason, a situation)
            return self.text(value, lang) or ""
        return value

    # ------------------------------------------------------------------ completeness
    def problems(self) -> list[str]:
        """Every message id some language lacks or leaves incomplete (a plural form, a placeholder)."""
        out = []
        ids = set().union(*(set(m) for m in self.messages.values()))
        for msg_id in sorted(ids):
            english = self.messages["en"].get(msg_id)
            wanted = _placeholders(english) if english is not None else set()
            for lang in LANGS:
                found = self.messages[lang].get(msg_id)
                if found is None or found == {} or found == "":
                    out.append(f"{lang}: message '{msg_id}' has no translation")
                    continue
                if isinstance(found, dict):
                    lacking = [c for c in plural_categories(lang) if not found.get(c)]
                    if lacking:
                        out.append(f"{lang}: message '{msg_id}' lacks the plural form(s) {', '.join(lacking)}")
                if _placeholders(found) != wanted:
                    out.append(f"{lang}: message '{msg_id}' placeholders {sorted(_placeholders(found))} "
                               f"differ from English {sorted(wanted)}")
        return out


def _placeholders(template: Template) -> set[str]:
    if isinstance(template, dict):
        return set().union(*(placeholders(v) for v in template.values())) - {"n"} if template else set()
    return placeholders(template) - {"n"}


@functools.lru_cache(maxsize=8192)
def _parsed(template: str) -> tuple[tuple[str, str | None, str], ...]:
    """A template as (literal, placeholder, spec) parts, parsed once (rendering is hot: every
    pending() renders its prompt and choices in English)."""
    return tuple((literal, name, spec or "") for literal, name, spec, _ in string.Formatter().parse(template))


@functools.cache
def _plural_rule(lang: str) -> Any:
    return Locale.parse(lang).plural_form


EMPTY = Catalogue({})


def game_catalogue(directory: str, pack_terms: Mapping[str, Mapping[str, str]]) -> Catalogue:
    """A game's catalogue: the YAML files of ``directory`` (one per rule module), with its data pack's
    names (``pack_terms``: lang -> id -> name) as terms; the hand-written terms win over the pack's."""
    files = sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".yaml"))
    written = Catalogue.from_yaml(*files)
    merged = {lang: {**(pack_terms.get(lang) or {}), **written.terms[lang]} for lang in LANGS}
    return Catalogue(written.messages, merged, {lang: written.plural_terms[lang] for lang in LANGS})


def english_text(catalogue: Catalogue, msg: Any) -> str:
    """The English text of a message, a stored one ({"id", "params"}) or a plain string (already English)."""
    if isinstance(msg, str):
        return msg
    return catalogue.text(msg, "en") or str(getattr(msg, "id", None) or msg.get("id"))
