from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error a client caused; ``status`` and ``error`` reach it as JSON."""

    # raised after the cached state may have changed (the rules refused half-way)
    state_touched = False

    def __init__(self, status: int, error: str, **extra: Any) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.extra = extra


class RefusedMidway(ApiError):
    """The rules refused an action after they had started changing the state."""

    state_touched = True


def not_found(what: str) -> ApiError:
    return ApiError(404, f"{what} not found")
