"""Settings read from the environment, once."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

MIN_SECRET_CHARS = 32
# words seen in sample configurations: a key holding one was copied, not generated
PLACEHOLDER_WORDS = ("change-me", "changeme", "change_me", "secret", "placeholder", "example", "replace-me")


class ConfigError(Exception):
    """A setting the server must not start with; the message says how to fix it."""


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    data_dir: Path
    database_url: str | None
    secret_key: str
    workers: int


def checked_secret(key: str, source: str) -> str:
    """Refuse a cookie-signing key anyone could guess: whoever knows it forges any session."""
    lowered = key.lower()
    if word := next((w for w in PLACEHOLDER_WORDS if w in lowered), None):
        raise ConfigError(f"{source} looks like a placeholder (it contains '{word}'): unset it to have a key "
                          f"generated into WARROOM_DATA, or set a random one of at least {MIN_SECRET_CHARS} "
                          "characters (python -c 'import secrets; print(secrets.token_urlsafe(32))')")
    if len(key) < MIN_SECRET_CHARS:
        raise ConfigError(f"{source} is {len(key)} characters long; it must be at least {MIN_SECRET_CHARS}: "
                          "unset it to have a key generated into WARROOM_DATA, or set a longer random one")
    return key


def _secret_key(data_dir: Path) -> str:
    """Signing key for session cookies: from the environment, else kept in the data
    folder so sessions survive restarts and every worker signs alike."""
    if key := os.environ.get("WARROOM_SECRET"):
        return checked_secret(key, "WARROOM_SECRET")
    path = data_dir / "secret_key"
    if path.exists():
        return checked_secret(path.read_text().strip(), str(path))
    data_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(32)
    path.write_text(key)
    path.chmod(0o600)
    return key


def data_folder() -> Path:
    """Where the embedded database and the generated key live (WARROOM_DATA)."""
    return Path(os.environ.get("WARROOM_DATA", "var")).resolve()


def load_settings() -> Settings:
    data_dir = data_folder()
    return Settings(
        host=os.environ.get("HOST", "127.0.0.1"),
        port=int(os.environ.get("PORT", "8000")),
        data_dir=data_dir,
        database_url=os.environ.get("DATABASE_URL") or None,
        secret_key=_secret_key(data_dir),
        workers=int(os.environ.get("WEB_CONCURRENCY", "1")),
    )
