"""`make messages`: extract the UI's message ids, update every language's .po, compile the .mo.

Message ids are keys (see app/i18n.py): extraction finds ``t("key")``, ``tn("key", n)`` (a plural
message), ``N_("key")`` and a refusal's ``.said("key")`` in app/**.py and app/templates/*.html.
Updating adds each new key to every language with an empty text (the catalogue test then fails
until it is translated) and reports keys no code uses any more; it never deletes a translation.

    python scripts/messages.py            # extract, update, compile
    python scripts/messages.py --check    # change nothing; report what is missing or unused (exit 1 if any)
"""

from __future__ import annotations

import argparse
import os
import string
import sys

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from app.i18n import LANGS, LOCALE_DIR, po_path  # noqa: E402

# a game's words are its own catalogue's (app/games/<game>/catalogue.yaml), never the UI's: and a
# game's code may well name a variable ``t`` (Babel 2.19 takes ``t["why"]`` for a message)
METHODS = [("app/templates/*.html", "jinja2"), ("app/games/**.py", "ignore"), ("app/**.py", "python")]
OPTIONS = {"app/templates/*.html": {"trim_blocks": "true", "lstrip_blocks": "true"}}
KEYWORDS = {"t": None, "N_": None, "tn": (1,), "Nn_": None, "said": None}  # said: a refusal's page words
WIDTH = 120


def extract() -> Catalog:
    """Every message id the code uses; a ``tn`` id is a plural message."""
    template = Catalog(project="Warroom", fuzzy=False)
    for filename, lineno, message, _comments, _context in extract_from_dir(
            ROOT, METHODS, OPTIONS, KEYWORDS, comment_tags=(), strip_comment_tags=True):
        key = message if isinstance(message, str) else message[0]
        # tn(...) is the only keyword whose spec names one argument as a tuple: a plural
        plural = (filename, lineno) in _plural_calls(filename)
        known = template.get(key)
        if known is None:
            template.add((key, key) if plural else key, locations=[(filename, lineno)])
        elif plural and isinstance(known.id, str):
            template.delete(key)
            template.add((key, key), locations=[(filename, lineno)])
    return template


_PLURAL_CACHE: dict[str, set[tuple[str, int]]] = {}


def _plural_calls(filename: str) -> set[tuple[str, int]]:
    """(file, line) of every tn("...") call: babel reports singular and plural keywords alike."""
    if filename not in _PLURAL_CACHE:
        found = set()
        for lineno, funcname, _message, _comments in _raw(filename):
            if funcname in ("tn", "Nn_"):
                found.add((filename, lineno))
        _PLURAL_CACHE[filename] = found
    return _PLURAL_CACHE[filename]


def _raw(filename: str) -> list[tuple[int, str, object, list[str]]]:
    from babel.messages.extract import extract_python
    from jinja2.ext import babel_extract

    with open(os.path.join(ROOT, filename), "rb") as handle:
        if filename.endswith(".html"):
            return list(babel_extract(handle, ["tn", "Nn_"], [], OPTIONS["app/templates/*.html"]))
        return list(extract_python(handle, ["tn", "Nn_"], [], {}))


def ids(catalog: Catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def problems(template: Catalog, catalogs: dict[str, Catalog]) -> list[str]:
    """Everything that keeps the catalogues from being complete: a message the code uses that a
    language lacks, leaves empty, misses a plural form of, or gives other placeholders than
    English; a message no code uses."""
    out = []
    english = catalogs.get("en")
    for lang, catalog in catalogs.items():
        for message in template:
            if not message.id:
                continue
            plural = not isinstance(message.id, str)
            key = message.id[0] if plural else message.id
            got = catalog.get(key)
            if got is None:
                out.append(f"{lang}: '{key}' has no translation")
                continue
            forms = got.string if isinstance(got.string, tuple) else (got.string,)
            if plural != isinstance(got.id, tuple):
                out.append(f"{lang}: '{key}' must {'' if plural else 'not '}be a plural message (tn vs t)")
            elif plural and len(forms) != catalog.num_plurals:
                out.append(f"{lang}: '{key}' has {len(forms)} plural forms, {lang} needs {catalog.num_plurals}")
            if not all(f and f.strip() for f in forms) or got.fuzzy:
                out.append(f"{lang}: '{key}' is untranslated (empty or fuzzy)")
                continue
            if english is not None and (base := english.get(key)) is not None:
                base_forms = base.string if isinstance(base.string, tuple) else (base.string,)
                allowed = set().union(*(placeholders(f) for f in base_forms)) | ({"count"} if plural else set())
                wanted = placeholders(base_forms[-1]) - {"count"}
                for form in forms:
                    if not wanted <= placeholders(form) <= allowed:
                        out.append(f"{lang}: '{key}' placeholders {sorted(placeholders(form))} differ from English")
        for key in sorted(ids(catalog) - ids(template)):
            out.append(f"{lang}: '{key}' is no code's message any more")
    return out


def read(lang: str) -> Catalog:
    with open(po_path(lang), "rb") as handle:
        return read_po(handle, locale=lang)


def update(template: Catalog, lang: str) -> None:
    """Add the template's new ids to ``lang``'s .po (untranslated), then compile its .mo."""
    path = po_path(lang)
    with open(path, "rb") as handle:
        catalog = read_po(handle, locale=lang)
    added = ids(template) - ids(catalog)
    for message in template:
        if message.id and (message.id if isinstance(message.id, str) else message.id[0]) in added:
            catalog.add(message.id, "" if isinstance(message.id, str) else ("",) * catalog.num_plurals)
    with open(path, "wb") as handle:
        write_po(handle, catalog, width=WIDTH, omit_header=False, sort_output=False, include_lineno=False)
    with open(path[:-3] + ".mo", "wb") as handle:
        write_mo(handle, catalog)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report only; change no file")
    args = parser.parse_args()
    template = extract()
    if not args.check:
        for lang in LANGS:
            update(template, lang)
        print(f"{len(ids(template))} messages; catalogues in {os.path.relpath(LOCALE_DIR, ROOT)} updated and compiled")
    found = problems(template, {lang: read(lang) for lang in LANGS})
    for problem in found:
        print(problem)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
