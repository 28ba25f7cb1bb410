from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error a client caused; ``status`` and ``error`` reach it as JSON."""

    def __init__(self, status: int, error: str, **extra: Any) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.extra = extra


def not_found(what: str) -> ApiError:
    return ApiError(404, f"{what} not found")
