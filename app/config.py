"""Settings read from the environment, once."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    data_dir: Path
    database_url: str | None
    secret_key: str
    workers: int


def _secret_key(data_dir: Path) -> str:
    """Signing key for session cookies: from the environment, else kept in the data
    folder so sessions survive restarts and every worker signs alike."""
    if key := os.environ.get("WARROOM_SECRET"):
        return key
    path = data_dir / "secret_key"
    if path.exists():
        return path.read_text().strip()
    data_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(32)
    path.write_text(key)
    path.chmod(0o600)
    return key


def load_settings() -> Settings:
    data_dir = Path(os.environ.get("WARROOM_DATA", "var")).resolve()
    return Settings(
        host=os.environ.get("HOST", "127.0.0.1"),
        port=int(os.environ.get("PORT", "8000")),
        data_dir=data_dir,
        database_url=os.environ.get("DATABASE_URL") or None,
        secret_key=_secret_key(data_dir),
        workers=int(os.environ.get("WEB_CONCURRENCY", "1")),
    )
