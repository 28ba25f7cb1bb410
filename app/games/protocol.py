"""The contract between the platform and a game's rules.

A game is one object that satisfies :class:`GameRules` (a module under ``app/games/<game>/``,
or any importable module named in ``WARROOM_EXTRA_GAMES``); what the platform shows of it
besides the rules (catalogue, board, view sections, bots) is its :class:`GamePackage`. The
platform never reaches into a game's state: it asks the game what is pending, hands it
validated answers, and asks it for views.
Nothing in here may import the web or the database.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from app.games.catalogue import EMPTY, Catalogue
from app.games.secrets import Secret

State = Any  # each game defines its own typed state


class Illegal(Exception):
    """An action the rules forbid. The message reaches the player: name the rule. ``msg`` says the
    same as a message of the game's catalogue (a page shows it in its language); the platform's own
    refusals carry a UI message id instead (``ui_key``, ``ui_params``)."""

    def __init__(self, text: str, msg: Msg | None = None, ui_key: str | None = None, **ui_params: Any) -> None:
        super().__init__(text)
        self.msg = msg
        self.ui_key = ui_key
        self.ui_params = ui_params


@dataclass(frozen=True)
class Seat:
    """A chair at the table. ``id`` is stable (e.g. "axis", "p1"); ``roles`` are the
    countries/sides the seat controls, in the game's own vocabulary."""

    id: str
    label: str
    roles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Msg:
    """A sentence as a message id of the game's catalogue (``GamePackage.catalogue``) and its
    parameters, so that every language renders it in its own words. String parameters that are
    game terms (a country, a space, a card) are translated too; ``n`` chooses the plural form."""

    id: str
    params: dict[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Choice:
    """One answer. ``label`` is the English text (the API's and the fallback); ``msg`` the same
    in the game's catalogue, for every other language."""

    id: str
    label: str
    msg: Msg | None = None


@dataclass(frozen=True)
class Decision:
    """One small question a seat must (or may) answer now.

    ``id`` names this occurrence of the question: unique among the decisions pending at
    the same moment and never reused for a later, different question (an answer sent
    against an older seq is taken while its decision id is still pending for that seat).
    A decision answered with ``min``..``max`` choices out of ``choices``; for a
    single pick use min=max=1. ``undoable`` tells the platform that answering it
    reveals nothing and draws no randomness, so the answer may be taken back.

    ``group`` marks a simultaneous step: every seat answers its decision of the group in
    any order, unseen by the others, until the game reveals them all in the answer that
    completes the group (that one is not ``undoable``). Answers within a group must
    commute and their ids must not depend on the order they come in; a seat may then take
    back its own answer even after other seats of the group answered.

    ``optional`` marks an any-time decision: the seat may answer it whenever it is
    offered, in anyone's turn, and nobody waits for it (it is not in ``waiting_on``,
    bots and clocks ignore it). Games list optional decisions after the others and keep
    their ids stable while they stay on offer.

    ``prompt`` is English; ``prompt_msg`` the same through the game's catalogue.
    """

    id: str
    seat: str
    kind: str
    prompt: str
    choices: tuple[Choice, ...]
    min: int = 1
    max: int = 1
    undoable: bool = False
    group: str | None = None
    optional: bool = False
    prompt_msg: Msg | None = None

    def choice_ids(self) -> list[str]:
        return [c.id for c in self.choices]


@dataclass(frozen=True)
class Action:
    """A seat's answer to a decision: the chosen ids, already checked by the
    platform to be among the decision's legal choices and within min..max."""

    decision: str
    choices: tuple[str, ...]

    @property
    def choice(self) -> str:
        return self.choices[0]


@dataclass(frozen=True)
class Event:
    """A line of the game log. ``text`` is public. ``private`` maps a seat id to a
    fuller text only that seat may read (e.g. "You draw Blitzkrieg"). ``msg`` and
    ``private_msg`` are the same lines through the game's catalogue (the English texts stay
    as the API's words and the fallback for logs written before a game had a catalogue)."""

    text: str
    private: dict[str, str] = field(default_factory=dict)
    msg: Msg | None = None
    private_msg: dict[str, Msg] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome:
    """How the match ended: ``summary`` in English, ``summary_msg`` the same through the catalogue."""

    winners: tuple[str, ...]  # seat ids; empty for a draw
    summary: str
    scores: dict[str, int] = field(default_factory=dict)
    summary_msg: Msg | None = None


@dataclass(frozen=True)
class OptionSpec:
    """One table option (variant, scenario...). ``choices`` empty means a boolean."""

    id: str
    label: str
    default: Any
    choices: tuple[str, ...] = ()
    kind: Literal["bool", "choice"] = "choice"


@dataclass(frozen=True)
class Board:
    """A game's own board on the table page, instead of the generic list of view facts.

    ``directory`` holds ``template`` (Jinja2, given the table's context plus ``board_ctx``) and
    the ``assets`` it links (served as /games/<game>/<name>: the Content-Security-Policy allows
    no inline style or script). ``context(view, seat)`` computes the template's extras (map
    geometry...) from the seat's own view only, so it cannot show more than the view does; a
    true ``own_zoom`` in them keeps the page from wrapping the board in its zoom frame, a true
    ``hand_on_board`` hides the generic hand panel."""

    directory: str
    template: str = "board.html"
    assets: tuple[str, ...] = ()
    context: Callable[[dict[str, Any], str | None], dict[str, Any]] | None = None


@dataclass(frozen=True)
class ViewSections:
    """Which keys of the game's view the generic panels show where: ``hand`` (a list of
    {id, label} cards, playable from the hand panel), ``private`` (the seat's own facts, under
    "only you see this"), ``seats`` (per-seat facts: columns of the seats table); every other
    key but ``internal`` ones is a public fact on the generic board."""

    hand: str | None = None
    private: tuple[str, ...] = ()
    seats: str | None = "seats"  # a list of {id, label, ...}: its other fields become columns of the seats table
    internal: tuple[str, ...] = ()  # keys the generic board never lists


@dataclass(frozen=True)
class CardEntry:
    """One card of a game's card list, in one language: ``key`` is its anchor (#card-<key>)."""

    key: str
    name: str
    text: str
    group: str = ""  # the heading it is listed under (a country, a deck)
    kind: str = ""  # its type, in the same language
    count: int = 1
    ids: tuple[str, ...] = ()  # the ids its copies have in views: #card-<id> lands on this entry too


@dataclass(frozen=True)
class RulesReference:
    """A game's player-facing rules in our own words, as Rally the Troops' info/rules.html.

    ``directory`` holds one HTML fragment per UI language (``en.html``, ``pl.html``), its
    sections ``<section id="...">`` with an ``<h2>`` each: the ids are the anchors the table
    links to (/games/<game>/rules#supply). ``cards(lang)`` lists every card with its text for
    /games/<game>/cards (anchors #card-<key>); None: the game has no cards to list."""

    directory: str
    cards: Callable[[str], list[CardEntry]] | None = None


@dataclass(frozen=True)
class GamePackage:
    """Everything of a game besides its rules that the platform shows or runs: its catalogue
    (sentences and terms in every UI language), its board, its view sections, its bots and
    where its data pack lives. Reached through the game object (``GameRules.package``), never
    through a file path convention, so a game installed from anywhere brings all of it."""

    catalogue: Catalogue = EMPTY
    board: Board | None = None
    sections: ViewSections = ViewSections()
    bots: tuple[str, ...] = ("rules",)
    data_dir: str | None = None
    rules: RulesReference | None = None  # the rules reference and card list the table links to
    # the end-of-game figures read from the public log (docs/protocol.md, "summary")
    summary: Callable[[list[dict[str, Any]]], dict[str, Any]] | None = None


@runtime_checkable
class GameRules(Protocol):
    id: str
    title: str
    min_players: int
    max_players: int
    version: str
    options: tuple[OptionSpec, ...]
    package: GamePackage

    def roles(self, players: int, options: dict[str, Any]) -> list[Seat]:
        """The seats of a table of ``players``; raise Illegal for a bad count."""
        ...

    def setup(self, options: dict[str, Any], seats: list[Seat], rng: random.Random) -> State: ...

    def max_actions(self, players: int, options: dict[str, Any]) -> int:
        """A bound on the answers to required (non-optional) decisions any match of this
        table takes to end, however it is played: the fuzzer reports a match that is still
        going past it as one that never ends. Any-time answers and take-backs do not count."""
        ...

    def pending(self, state: State) -> list[Decision]: ...

    def apply(self, state: State, seat: str, action: Action, rng: random.Random) -> list[Event]:
        """Validate and mutate ``state`` in place, or raise Illegal before mutating."""
        ...

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        """Everything ``seat`` may know (None: a spectator). JSON-compatible."""
        ...

    def secrets(self, state: State, seat: str) -> Iterable[str | Secret]:
        """What ``seat`` must never learn: tokens (card ids in other hands, the deck's cards)
        and :class:`Secret` values at places (a hidden square, a facing beside its unit).
        ``app.games.secrets.leaks`` checks any payload against them."""
        ...

    def outcome(self, state: State) -> Outcome | None: ...

    def bot(self, state: State, decision: Decision, rng: random.Random) -> Action:
        """A legal answer to ``decision`` for a bot-held seat."""
        ...

    def dump(self, state: State) -> dict[str, Any]:
        """A JSON-compatible snapshot of the whole state (server-side only)."""
        ...

    def load(self, data: dict[str, Any]) -> State: ...


@dataclass(frozen=True)
class Pass:
    """How a seat may let a decision go by (``AutoPasses.autopass``): ``choice`` is the choice id
    that passes; ``idle`` says the seat holds nothing it could use here, so passing costs nothing."""

    choice: str
    idle: bool


@runtime_checkable
class AutoPasses(Protocol):
    """Optional members of a game whose seats are often asked whether to react (a reaction
    window, a block): the platform may answer such a decision with its pass, as the seat's own
    answer, by the seat's setting (never ask unless something is usable; always ask; pass
    everything until the round changes).

    ``autopass`` may look at the seat's own hidden cards (the seat itself decides), so a pass
    that comes at once tells the other seats the seat had nothing usable: the trade-off every
    online table with auto-pass accepts (docs/protocol.md)."""

    def autopass(self, state: State, seat: str, decision: Decision) -> Pass | None:
        """How ``seat`` passes ``decision``; None: it is not a decision one passes (a card
        play, a discard...) and the seat is always asked."""
        ...

    def round_mark(self, state: State) -> str:
        """The game's round now: "pass everything until the end of this round" holds while it
        stays the same."""
        ...


@runtime_checkable
class SaysWhatItWaitsFor(Protocol):
    """An optional member: what the table waits for, in a sentence of the game's catalogue."""

    def waiting_note(self, state: State, viewer: str | None) -> Msg | None:
        """E.g. "UK may respond: Italy plays Economic Warfare", for ``viewer`` (None: a
        spectator). Public facts only: the fuzzer checks it against every seat's secrets."""
        ...


def autopass_of(game: GameRules, state: State, seat: str, decision: Decision) -> Pass | None:
    return game.autopass(state, seat, decision) if isinstance(game, AutoPasses) else None


def waiting_note_of(game: GameRules, state: State, viewer: str | None) -> Msg | None:
    return game.waiting_note(state, viewer) if isinstance(game, SaysWhatItWaitsFor) else None


def action_rng(seed: bytes, seq: int) -> random.Random:
    """The RNG for action number ``seq`` of a match: derived, never shared.

    Replaying the log from any snapshot reproduces every die roll and shuffle.
    """
    digest = hmac.new(seed, f"action:{seq}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


def validate_action(decision: Decision, choices: list[str]) -> Action:
    """Check an answer against the decision's own list of legal choices."""
    legal = decision.choice_ids()
    for c in choices:
        if c not in legal:
            raise Illegal(
                f"'{c}' is not a legal choice for {decision.kind} ({decision.prompt}); "
                f"legal choices: {', '.join(legal) if len(legal) <= 12 else str(len(legal)) + ' options'}",
                ui_key="err_not_a_choice", choice=c, legal=", ".join(legal) if len(legal) <= 12 else len(legal),
            )
    if len(set(choices)) != len(choices):
        raise Illegal(f"{decision.kind}: the same choice was given twice", ui_key="err_same_choice_twice")
    if not decision.min <= len(choices) <= decision.max:
        raise Illegal(
            f"{decision.kind} takes between {decision.min} and {decision.max} choices, got {len(choices)}",
            ui_key="err_choice_count", min=decision.min, max=decision.max, got=len(choices),
        )
    return Action(decision=decision.id, choices=tuple(choices))


def random_bot(decision: Decision, rng: random.Random) -> Action:
    """Any legal answer: the fallback bot and the fuzzer's player."""
    ids = decision.choice_ids()
    n = rng.randint(decision.min, min(decision.max, len(ids))) if ids else 0
    return Action(decision=decision.id, choices=tuple(rng.sample(ids, n)))
