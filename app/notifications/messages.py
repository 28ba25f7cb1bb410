"""What a notification says, in the recipient's language. Only public facts: the game, the
table, the seat, a link. The words come from the UI catalogue (app/locale); the seat's label
from the game's own terms."""

from __future__ import annotations

from dataclasses import dataclass

from app.i18n import DEFAULT_LANG, LANGS, t, terms_in, tn


@dataclass(frozen=True)
class Turn:
    match_id: str
    title: str  # the game's title
    seat_label: str
    link: str
    game: str = ""

    def name(self, lang: str | None = None) -> str:
        return t("notify_table_name", lang, title=self.title, match=self.match_id)

    def seat(self, lang: str | None = None) -> str:
        return terms_in(self.game, self.seat_label, lang) if self.game else self.seat_label


@dataclass(frozen=True)
class Message:
    subject: str
    text: str

    def webhook_payload(self) -> dict[str, str]:
        # Discord reads "content", Slack reads "text"; each ignores the other
        return {"content": self.text, "text": self.text}


def recipient_lang(lang: str | None) -> str:
    """The account's language; English for an account that never signed in through a page."""
    return lang if lang in LANGS else DEFAULT_LANG


def turn_message(turn: Turn, lang: str | None = None) -> Message:
    lang = recipient_lang(lang)
    return Message(subject=t("notify_turn_subject", lang, name=turn.name(lang)),
                   text=t("notify_turn_text", lang, seat=turn.seat(lang), name=turn.name(lang), link=turn.link))


def digest_message(turns: list[Turn], lang: str | None = None) -> Message:
    lang = recipient_lang(lang)
    lines = [t("notify_digest_line", lang, name=x.name(lang), seat=x.seat(lang), link=x.link) for x in turns]
    return Message(subject=tn("notify_digest_subject", len(turns), lang),
                   text=tn("notify_digest_text", len(turns), lang) + "\n" + "\n".join(lines))


def test_message(public_url: str, lang: str | None = None) -> Message:
    lang = recipient_lang(lang)
    return Message(subject=t("notify_test_subject", lang), text=t("notify_test_text", lang, url=public_url))
