"""What a notification says. Only public facts: the game, the table, the seat, a link."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Turn:
    match_id: str
    title: str  # the game's title
    seat_label: str
    link: str

    @property
    def name(self) -> str:
        return f"{self.title} (table {self.match_id})"


@dataclass(frozen=True)
class Message:
    subject: str
    text: str

    def webhook_payload(self) -> dict[str, str]:
        # Discord reads "content", Slack reads "text"; each ignores the other
        return {"content": self.text, "text": self.text}


def turn_message(turn: Turn) -> Message:
    return Message(subject=f"Your move: {turn.name}",
                   text=f"It is your move as {turn.seat_label} in {turn.name}.\nPlay: {turn.link}")


def digest_message(turns: list[Turn]) -> Message:
    lines = [f"- {t.name}, as {t.seat_label}: {t.link}" for t in turns]
    return Message(subject=f"Your move in {len(turns)} matches",
                   text=f"These {len(turns)} matches are waiting for your move:\n" + "\n".join(lines))


def test_message(public_url: str) -> Message:
    return Message(subject="Warroom test notification",
                   text=f"This is a test: Warroom notifications reach you here. {public_url}")
