"""Password rules and argon2 hashing, off the event loop.

Rules: at least ``MIN_LENGTH`` characters, not one of the common passwords shipped in
``common_passwords.txt`` (compared case-insensitively), and not the player's name nor,
for names of three or more characters, containing it (case-insensitively, with or without
the name's spaces).

An argon2 hash costs ~0.2 s of CPU and 64 MiB: every hash and verify runs in a worker
thread, at most ``WARROOM_PASSWORD_HASHES`` at once per worker, so a burst of logins
neither stalls the event loop nor eats the machine's memory.
"""

from __future__ import annotations

import asyncio
import functools
import os
import unicodedata
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_LENGTH = 8
COMMON_FILE = Path(__file__).with_name("common_passwords.txt")

_hasher = PasswordHasher()


class PasswordRefused(ValueError):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


@functools.cache
def common_passwords() -> frozenset[str]:
    lines = COMMON_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(fold(line) for line in lines if line.strip() and not line.startswith("#"))


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def check(password: str, name: str | None) -> None:
    """Raise ``PasswordRefused`` naming the rule ``password`` breaks (length is the schema's)."""
    folded = fold(password)
    if folded in common_passwords():
        raise PasswordRefused("password_common", "this is one of the most common passwords; choose another")
    if name:
        spaced = fold(name).strip()
        for variant in {spaced, spaced.replace(" ", "")}:
            if variant and (folded == variant or (len(variant) >= 3 and variant in folded)):
                raise PasswordRefused("password_has_name", "must not be or contain your name")


@functools.cache
def _slots() -> asyncio.Semaphore:
    return asyncio.Semaphore(max(1, int(os.environ.get("WARROOM_PASSWORD_HASHES", "2"))))


async def hash_password(password: str) -> str:
    async with _slots():
        return await asyncio.to_thread(_hasher.hash, password)


async def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches ``stored``; with no stored hash the same work is done
    anyway, so the answer's timing does not tell which names exist."""
    async with _slots():
        return await asyncio.to_thread(_verify, stored, password)


@functools.cache
def _decoy() -> str:
    return _hasher.hash("no account has this password")


def _verify(stored: str | None, password: str) -> bool:
    try:
        return _hasher.verify(stored or _decoy(), password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False
