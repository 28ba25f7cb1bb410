"""Static files under a content-hashed URL (``/static/warroom.css?v=<hash>``), cached by browsers
for a year: a changed file gets a new URL, so nothing stale is ever served from a cache. A URL
without the current hash (an old page, a hand-typed address) is served but revalidated."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache

from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


def version(path: str) -> str:
    """The file's content hash (recomputed when the file changes, as in development)."""
    stat = os.stat(path)
    return _digest(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _digest(path: str, _mtime: int, _size: int) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def versioned(url: str, path: str) -> str:
    return f"{url}?v={version(path)}"


def cache_control(path: str, asked: str | None) -> str:
    """A year, immutable, for the URL naming the file's current hash; else ask again each time."""
    return IMMUTABLE if asked and os.path.isfile(path) and asked == version(path) else REVALIDATE


class VersionedStatic(StaticFiles):
    """StaticFiles that tells browsers how long to keep what it serves."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            full, _ = self.lookup_path(path)
            query = scope.get("query_string", b"").decode("latin-1")
            asked = next((p[2:] for p in query.split("&") if p.startswith("v=")), None)
            response.headers["Cache-Control"] = cache_control(full, asked) if full else REVALIDATE
        return response
