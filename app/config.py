"""Settings read from the environment, once."""

from __future__ import annotations

import os
import secrets
import time
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
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        # O_EXCL: replicas sharing the volume start together; one key is written, every one reads it
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_urlsafe(32))
    for _ in range(50):  # another process may be between creating the file and writing its key
        key = path.read_text().strip()
        if key:
            break
        time.sleep(0.1)
    return checked_secret(key, str(path))


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


@dataclass(frozen=True)
class PoolSettings:
    """How the database pool is sized (app.db.plan_pool): None where the operator left it to us."""

    pool: int | None  # WARROOM_DB_POOL: connections each app process keeps open
    overflow: int | None  # WARROOM_DB_OVERFLOW: more it may open on a burst
    app_processes: int | None  # WARROOM_APP_PROCESSES: every app process on every host sharing the database
    spare: int  # WARROOM_DB_SPARE: connections left for maintenance (migrations, replay, psql)
    timeout: float  # WARROOM_DB_POOL_TIMEOUT: seconds a request waits for a connection before its 503

    def processes(self, workers: int) -> int:
        return self.app_processes if self.app_processes is not None else workers


def _whole(name: str, low: int) -> int | None:
    text = os.environ.get(name, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {text!r}") from None
    if value < low:
        raise ConfigError(f"{name} must be at least {low}, not {value}")
    return value


def pool_settings() -> PoolSettings:
    timeout_text = os.environ.get("WARROOM_DB_POOL_TIMEOUT", "10").strip() or "10"
    try:
        timeout = float(timeout_text)
    except ValueError:
        raise ConfigError(f"WARROOM_DB_POOL_TIMEOUT must be a number of seconds, not {timeout_text!r}") from None
    if not 0 < timeout <= 300:
        raise ConfigError(f"WARROOM_DB_POOL_TIMEOUT must be from 0 to 300 seconds, not {timeout_text}")
    spare = _whole("WARROOM_DB_SPARE", 0)
    return PoolSettings(pool=_whole("WARROOM_DB_POOL", 1), overflow=_whole("WARROOM_DB_OVERFLOW", 0),
                        app_processes=_whole("WARROOM_APP_PROCESSES", 1), spare=3 if spare is None else spare,
                        timeout=timeout)


def worker_count() -> int:
    """This server's worker processes: ``python -m app serve`` says (WARROOM_WORKERS); under a bare
    uvicorn, WEB_CONCURRENCY (what uvicorn itself reads)."""
    return _whole("WARROOM_WORKERS", 1) or _whole("WEB_CONCURRENCY", 1) or 1
