"""The one mapping from the sessions' refusals to HTTP: status codes and the JSON error body.

Sessions raise kinds (``NotFound``, ``Stale``...); the web layer alone knows that a stale
move is a 409. ``ApiError`` is for the web layer's own refusals (a form field, sign in first),
which carry their status where they are raised."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse

from app.sessions.errors import (
    Conflict,
    DomainError,
    Forbidden,
    Invalid,
    NotFound,
    RateLimited,
    Refused,
    Unauthenticated,
    Unavailable,
)

STATUS: dict[type[DomainError], int] = {
    Refused: 400,
    Unauthenticated: 401,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    Invalid: 422,
    RateLimited: 429,
    Unavailable: 503,
}


class ApiError(DomainError):
    """A refusal made by the web layer itself, with its HTTP status."""

    def __init__(self, status: int, error: str, **extra: Any) -> None:
        super().__init__(error, **extra)
        self.status = status


def status_of(exc: DomainError) -> int:
    if isinstance(exc, ApiError):
        return exc.status
    for kind in type(exc).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 400


def error_response(exc: DomainError) -> JSONResponse:
    headers = {"Retry-After": str(exc.extra["retry_after"])} if "retry_after" in exc.extra else None
    return JSONResponse(status_code=status_of(exc), content={"error": exc.error, **exc.extra}, headers=headers)
