"""What a player may be called, and when two names read the same.

A name is normalised (NFKC, surrounding space stripped, inner runs of space made one) and
then refused if it hides anything: text-direction controls (U+202A–202E, U+2066–2069,
U+200E/F, U+061C), zero-width characters (U+200B–200D, U+2060, U+FEFF) or any other
control, format, private-use or unassigned code point, or if combining marks pile up
(more than ``MAX_MARKS_IN_A_ROW`` on one letter, or more marks than other characters).

``skeleton`` is what a name looks like once case, accents, spacing and the common
Latin/Cyrillic/Greek/digit look-alikes are folded away: registered accounts reserve theirs,
so "Marta", "MARTA", "Маrta" (Cyrillic а) and "M a r t a" are one name.
"""

from __future__ import annotations

import unicodedata

MAX_MARKS_IN_A_ROW = 3  # enough for Thai, Hebrew pointing or Vietnamese; not for "zalgo" text
MARKS = {"Mn", "Mc", "Me"}
HIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# named explicitly although Cf covers them: these are the ones abused to fake a name
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C))
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")

# Applied after case folding and accent stripping: characters drawn like Latin letters. Case
# folding makes "I" an "i" and "I" passes for "l", so i, l, 1 and | are one letter here.
_LOOK_ALIKES = str.maketrans({
    "i": "l", "1": "l", "|": "l", "0": "o",
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "l", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "һ": "h", "ӏ": "l", "ь": "b", "г": "r", "п": "n",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "μ": "m", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ζ": "z", "ω": "w",
    # Latin letters that pass for others
    "ı": "l", "ɡ": "g", "ʟ": "l", "ɪ": "l", "ꞁ": "l", "ſ": "s", "ł": "l", "đ": "d", "ø": "o", "ħ": "h",
})
_SEQUENCES = (("rn", "m"), ("vv", "w"))


class NameRefused(ValueError):
    """Why a name was refused: ``kind`` keys the page's translation, ``code`` names the character."""

    def __init__(self, kind: str, message: str, code: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.code = code


def code_point(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def normalise(raw: str) -> str:
    """The name as stored and shown, or ``NameRefused``."""
    text = unicodedata.normalize("NFKC", raw)
    for ch in text:
        if ch in BIDI_CONTROLS or ch in ZERO_WIDTH or unicodedata.category(ch) in HIDDEN_CATEGORIES:
            raise NameRefused("name_invisible", f"{code_point(ch)} is an invisible or control character; "
                              "names may not contain any", code_point(ch))
    text = " ".join(text.split())
    check_marks(text)
    return text


def check_marks(text: str) -> None:
    marks = run = 0
    for i, ch in enumerate(text):
        if unicodedata.category(ch) in MARKS:
            if i == 0:
                raise NameRefused("name_marks", "a name may not begin with a combining mark")
            marks += 1
            run += 1
            if run > MAX_MARKS_IN_A_ROW:
                raise NameRefused("name_marks", f"at most {MAX_MARKS_IN_A_ROW} combining marks on one letter")
        else:
            run = 0
    if marks * 2 > len(text):
        raise NameRefused("name_marks", "a name may not be mostly combining marks")


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal skeletons mean one could pass for the other."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    text = text.translate(_LOOK_ALIKES)
    for seq, looks_like in _SEQUENCES:
        text = text.replace(seq, looks_like)
    letters = "".join(ch for ch in text if ch.isalnum())
    return letters or " ".join(text.split())  # a name of symbols only is its own skeleton


def login_of(name: str) -> str:
    """The case-insensitive key a registered name logs in with."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).lower()
