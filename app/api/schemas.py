"""Pydantic models for every payload that crosses the HTTP boundary."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from app.sessions import names, passwords


def normalised_name(value: object) -> object:
    """NFKC, spaces trimmed and collapsed; hidden characters and piled-up marks refused
    (app.sessions.names). Runs before the length and pattern checks, which see the result."""
    if not isinstance(value, str):
        return value
    try:
        return names.normalise(value)
    except names.NameRefused as exc:
        raise PydanticCustomError(exc.kind, exc.message, {"code": exc.code}) from exc


PlayerName = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[^\s<>&\"'][^<>&\"']*$"),
                       BeforeValidator(normalised_name)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GuestIn(Strict):
    name: PlayerName


class RegisterIn(Strict):
    name: PlayerName
    password: str = Field(min_length=passwords.MIN_LENGTH, max_length=200,
                          description="not a common password, not the name nor containing it")

    @field_validator("password")
    @classmethod
    def not_guessable(cls, value: str, info: ValidationInfo) -> str:
        try:
            passwords.check(value, info.data.get("name"))
        except passwords.PasswordRefused as exc:
            raise PydanticCustomError(exc.kind, exc.message) from exc
        return value


class PasswordChangeIn(Strict):
    old: str = Field(min_length=1, max_length=200)
    new: str = Field(min_length=passwords.MIN_LENGTH, max_length=200,
                     description="the same rules as at registration")


class LoginIn(Strict):
    # normalised as at registration, so "Ｍarta " finds "Marta"; a hidden character cannot be in any account's name
    name: Annotated[str, Field(min_length=1, max_length=40), BeforeValidator(normalised_name)]
    password: str = Field(min_length=1, max_length=200)


class UserOut(BaseModel):
    id: int
    name: str
    guest: bool
    csrf_token: str


class OptionOut(BaseModel):
    id: str
    label: str
    kind: str
    default: Any
    choices: list[str]


class GameOut(BaseModel):
    id: str
    title: str
    min_players: int
    max_players: int
    options: list[OptionOut]


class ClockIn(Strict):
    """A table's pace: live uses the *_seconds fields, async the *_days ones; missing fields
    take the mode's defaults (live 20 min + 30 s; async 3 days, +1 a move, at most 7)."""

    initial_seconds: int | None = Field(default=None, ge=10, le=24 * 3600)
    increment_seconds: int | None = Field(default=None, ge=0, le=3600)
    initial_days: int | None = Field(default=None, ge=1, le=60)
    per_move_days: int | None = Field(default=None, ge=0, le=30)
    max_days: int | None = Field(default=None, ge=1, le=365)


class CreateMatchIn(Strict):
    game: str = Field(min_length=1, max_length=40)
    players: int = Field(ge=1, le=8)
    options: dict[str, Any] = Field(default_factory=dict)
    mode: Literal["live", "async"] = "live"
    clock: ClockIn | None = Field(default=None, description="null or absent: an untimed table")
    spectator_chat: bool = Field(default=False, description="may spectators read and write the table's chat")
    private: bool = Field(default=False, description="unlisted: only the invite link leads to the table")
    name: str | None = Field(default=None, max_length=60,
                             description="what the lobby calls the table; absent: \"<your name>'s game\"")
    seat: str | None = Field(default=None, max_length=40, description="the seat you take (absent: the first)")


class CreateMatchOut(BaseModel):
    match_id: str
    invite_url: str


class JoinIn(Strict):
    seat: str | None = Field(default=None, max_length=40)


class BotIn(Strict):
    seat: str = Field(min_length=1, max_length=40)
    bot: str = "rules"


class SeatOut(BaseModel):
    seat: str
    label: str
    roles: list[str]
    player: str | None
    bot: str | None
    waiting: bool


class MsgOut(BaseModel):
    """A message id and its parameters; with ``"ui": true`` a key of the server's UI catalogue (a
    table event such as a take-back), else of the game's."""

    model_config = ConfigDict(extra="allow")  # "ui" only where it is true: the socket carries the same

    id: str = Field(description="a message id of the game's catalogue")
    params: dict[str, Any] = Field(default_factory=dict, description="its parameters (game terms as ids)")


class ChoiceOut(BaseModel):
    id: str
    label: str
    msg: MsgOut | None = Field(None, description="the label as a message id, for other languages")


class DecisionOut(BaseModel):
    decision: str
    kind: str
    prompt: str
    prompt_msg: MsgOut | None = Field(None, description="the prompt as a message id, for other languages")
    choices: list[ChoiceOut]
    min: int
    max: int
    undoable: bool
    group: str | None = Field(None, description="a simultaneous step: answers stay hidden until all are in")
    optional: bool = Field(False, description="an any-time decision: nobody waits for it")


class LogLine(BaseModel):
    seq: int
    text: str
    msg: MsgOut | None = Field(None, description="the line as a message id, for other languages")


class ClockOut(BaseModel):
    remaining_ms: int
    running: bool
    timed_out: bool
    on_vacation_until: str | None


class EngineWarningOut(BaseModel):
    seq: int = Field(description="the first seq whose state the current rules engine no longer reproduces")
    engine_version: str | None = Field(description="the engine version that replayed the log differently")


class MatchOut(BaseModel):
    match_id: str
    game: str
    mode: str
    seq: int
    status: str
    seats: list[SeatOut]
    you: str | None
    view: dict[str, Any]
    pending: list[DecisionOut]
    waiting_on: list[str]
    log: list[LogLine]
    outcome: dict[str, Any] | None
    waiting_note: MsgOut | None = Field(
        default=None, description="what the table waits for, in the game's words (games that say so); public")
    autopass: str | None = Field(
        default=None, description="your seat's auto-pass setting for reaction windows: idle (never ask unless "
        "you hold a usable card), ask (always ask) or round (pass everything until the end of this round); "
        "None: no seat, or the game asks no reactions")
    clocks: dict[str, ClockOut] = Field(default_factory=dict, description="per seat; empty when untimed")
    engine_warning: EngineWarningOut | None = Field(
        default=None, description="set when `python -m app replay` found that a rules update replays this "
        "match's log differently; the match itself is left as it was")


class FreeSeat(BaseModel):
    seat: str
    label: str


class MatchSummary(BaseModel):
    match_id: str
    game: str
    title: str
    name: str
    free_seats: list[FreeSeat]
    mode: str
    status: str
    players: int
    seated: int
    you: str | None
    your_move: bool
    url: str


class ActionIn(Strict):
    seq: int = Field(ge=0, le=2**31 - 1)
    decision: str = Field(min_length=1, max_length=120)
    choice: str | None = Field(default=None, max_length=120)
    choices: list[str] | None = Field(default=None, max_length=200)
    key: str | None = Field(default=None, min_length=1, max_length=80)

    @model_validator(mode="after")
    def one_of_choice_or_choices(self) -> ActionIn:
        if (self.choice is None) == (self.choices is None):
            raise ValueError("give exactly one of 'choice' or 'choices'")
        return self

    def picked(self) -> list[str]:
        return [self.choice] if self.choice is not None else list(self.choices or [])


class ActionOut(BaseModel):
    seq: int
    view: dict[str, Any]
    pending: list[DecisionOut]
    applied: bool = True


class ChatIn(Strict):
    text: str = Field(min_length=1, max_length=500)


class ErrorOut(BaseModel):
    error: str
