"""The kinds of refusal the sessions layer raises. They name what went wrong, never how
it travels: app/api/errors.py is the one place that turns each kind into an HTTP status."""

from __future__ import annotations

from typing import Any, Self


class DomainError(Exception):
    """A request Warroom refuses; ``error`` is what the client reads, ``extra`` goes with it
    (``retry_after``: when trying again may succeed)."""

    # raised after the cached state may have changed (the rules refused half-way)
    state_touched = False

    def __init__(self, error: str, **extra: Any) -> None:
        super().__init__(error)
        self.error = error
        self.extra = extra
        # the same refusal as a UI message id (app/locale) and its parameters: what a page shows,
        # in its own language (the JSON API keeps ``error``); or a game's message (``game_msg``)
        self.ui_key: str | None = None
        self.ui_params: dict[str, Any] = {}
        self.game_msg: Any = None
        self.game_id: str | None = None

    def said(self, key: str, **params: Any) -> Self:
        """This refusal's words for the pages: the UI message ``key`` with ``params``."""
        self.ui_key, self.ui_params = key, params
        return self


class Refused(DomainError):
    """The table's state or rules refuse it now: not your turn, the seat is taken, it has started."""


class RefusedMidway(Refused):
    """The rules refused an action after they had started changing the state."""

    state_touched = True


class Invalid(DomainError):
    """A field of the request is malformed or names nothing that exists (the text starts with its name)."""


class NotFound(DomainError):
    """What the request names does not exist (or is not the caller's to know of)."""


class Forbidden(DomainError):
    """Not the caller's to do: another seat's decision, the host's right, a spectator acting."""


class Unauthenticated(DomainError):
    """The caller did not prove who they are (a wrong name or password)."""


class Conflict(DomainError):
    """It collides with what is already there: a name taken, an idempotency key reused."""


class Stale(Conflict):
    """It was made against a state the table has moved past: the client must resync."""


class RateLimited(DomainError):
    """Too many requests of a kind; ``retry_after`` says when to try again."""


class Unavailable(DomainError):
    """The server cannot do it now (busy, or a game not installed): not the request's fault."""


def not_found(what: str) -> NotFound:
    return NotFound(f"{what} not found")
