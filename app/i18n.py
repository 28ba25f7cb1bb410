"""The one catalogue of UI strings. English now; add a "pl" dict with the same keys for Polish.

Templates call ``t("key")`` or ``t("key", name=...)`` (str.format placeholders). A key missing
from a language falls back to English, and a key missing everywhere shows as itself, so a
forgotten string is visible rather than fatal.
"""

from __future__ import annotations

from typing import Any

DEFAULT_LANG = "en"

CATALOGUE: dict[str, dict[str, str]] = {
    "en": {
        "brand": "Warroom",
        "tagline": "Play WW2 strategy board games together: live or play-by-web.",
        "signed_in_as": "Signed in as {name}",
        "guest_suffix": "(guest)",
        "logout": "Log out",
        "lobby": "Lobby",
        # signing in
        "play_as_guest": "Play as a guest",
        "nickname": "Nickname",
        "play": "Play",
        "register": "Register",
        "log_in": "Log in",
        "name": "Name",
        "password": "Password",
        "password_hint": "at least 8 characters",
        "create_account": "Create account",
        "sign_in_to_join": "Sign in to take a seat at this table.",
        "bad_name": "Nickname: 1–40 characters, no quotes or angle brackets, not starting with a space.",
        "bad_password": "Password: at least 8 characters.",
        "csrf_refused": "Form refused: it did not carry this session's security token. Reload the page and try again.",
        # lobby
        "games": "Games",
        "players_range": "{min}–{max} players",
        "new_table": "New table",
        "players": "Players",
        "mode": "Mode",
        "mode_live": "Live",
        "mode_async": "Play-by-web (async)",
        "create_table": "Create table",
        "open_tables": "Open tables",
        "no_open_tables": "No tables are waiting for players.",
        "your_matches": "Your matches",
        "no_matches": "You are not playing anything yet.",
        "join": "Join",
        "open": "Open",
        "your_move": "your move",
        "seated_of": "{seated}/{players} seated",
        "status_open": "waiting for players",
        "status_active": "in play",
        "status_finished": "finished",
        "status_abandoned": "abandoned",
        # table
        "table": "Table",
        "seats": "Seats",
        "seat": "Seat",
        "player": "Player",
        "empty_seat": "empty",
        "bot": "bot ({name})",
        "you": "you",
        "waiting": "to move",
        "invite": "Invite link",
        "copy": "Copy",
        "take_seat": "Take this seat",
        "join_table": "Join this table",
        "add_bot": "Add bot",
        "start": "Start the match",
        "start_hint": "Every seat must be filled (players or bots) before the host starts.",
        "waiting_for_host": "Waiting for the host to start.",
        "waiting_on": "Waiting on: {seats}",
        "board": "Board",
        "your_hand": "Your hand",
        "empty_hand": "Your hand is empty.",
        "private_info": "Only you see this",
        "public_info": "Table",
        "others": "Players",
        "decisions": "Your decisions",
        "nothing_to_decide": "Nothing to decide right now.",
        "spectating": "You are watching this match.",
        "pick_between": "Pick {min}–{max}",
        "confirm": "Confirm",
        "log": "Log",
        "log_empty": "Nothing has happened yet.",
        "chat": "Chat",
        "chat_empty": "No messages yet.",
        "say": "Say",
        "chat_placeholder": "Say something…",
        "stale": "The table moved on while you were deciding ({detail}). Here is where it stands now.",
        "done": "Done.",
        "game_over": "Game over",
        "not_found": "There is no such table.",
        "back_to_lobby": "Back to the lobby",
        "live_lost": "Connection lost — reconnecting…",
        "yes": "yes",
        "no": "no",
    },
}


def t(key: str, lang: str = DEFAULT_LANG, **params: Any) -> str:
    table = CATALOGUE.get(lang) or CATALOGUE[DEFAULT_LANG]
    text = table.get(key) or CATALOGUE[DEFAULT_LANG].get(key) or key
    return text.format(**params) if params else text
