"""The cookie-signing key: a placeholder or short WARROOM_SECRET stops the server before it
starts anything, and the shipped compose file leaves the key to be generated."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import yaml

from app.config import ConfigError, checked_secret
from tests.conftest import ROOT

REFUSED = [
    ("change-me-to-a-long-random-string", "placeholder"),
    ("CHANGEME" + "x" * 40, "placeholder"),
    ("my-very-long-session-secret-for-production", "placeholder"),
    ("an-example-key-that-is-long-enough-to-pass", "placeholder"),
    ("short-but-random-Zq8", "at least 32"),
]


def serve_with(secret: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    data = Path(tempfile.mkdtemp(prefix="wr-secret-"))
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(WARROOM_SECRET=secret, WARROOM_DATA=str(data), HOST="127.0.0.1", PORT="9")
    done = subprocess.run([sys.executable, "-m", "app", "serve"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=60)
    return done, data


@pytest.mark.parametrize(("secret", "reason"), REFUSED)
def test_the_server_refuses_to_start_with_a_guessable_key(secret: str, reason: str) -> None:
    done, data = serve_with(secret)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "WARROOM_SECRET" in done.stderr and reason in done.stderr, done.stderr
    assert not (data / "pg").exists(), "refused before the embedded database was started"


def test_a_generated_or_long_random_key_is_accepted() -> None:
    assert checked_secret("Zq8" * 11, "WARROOM_SECRET") == "Zq8" * 11
    with pytest.raises(ConfigError, match="at least 32"):
        checked_secret("x" * 31, "WARROOM_SECRET")


def test_compose_leaves_the_key_to_the_data_volume() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    app = compose["services"]["app"]
    assert "WARROOM_SECRET" not in app.get("environment", {})
    dockerfile = (ROOT / "Dockerfile").read_text()
    data_dir = next(part.split("=", 1)[1] for line in dockerfile.splitlines() if line.startswith("ENV")
                    for part in line.split() if part.startswith("WARROOM_DATA="))
    assert any(volume.endswith(f":{data_dir}") for volume in app["volumes"]), "the generated key must persist"
