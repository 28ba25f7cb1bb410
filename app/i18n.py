"""The one catalogue of UI strings, in English and Polish, plus each game's own terms.

Templates call ``t("key")`` or ``t("key", name=...)`` (str.format placeholders). The language
is the request's (``use_lang`` sets it for the request or socket render being served); a key
missing from a language falls back to English, and a key missing everywhere shows as itself,
so a forgotten string is visible rather than fatal (tests check that none is missing).

Game terms (card types, countries...) are data: a game may ship ``app/games/<game>/i18n.yaml``
mapping the term as its engine names it (an id or its English label) to each language's name,
the rulebook's own words in Polish. ``term(game, text)`` looks one up.
"""

from __future__ import annotations

import functools
import os
import re
from contextvars import ContextVar
from typing import Any

import yaml

DEFAULT_LANG = "en"
LANGS = ("en", "pl")
GAMES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "games")

_current: ContextVar[str] = ContextVar("warroom_lang", default=DEFAULT_LANG)

CATALOGUE: dict[str, dict[str, str]] = {
    "en": {
        "brand": "Warroom",
        "tagline": "Play WW2 strategy board games together: live or play-by-web.",
        "signed_in_as": "Signed in as {name}",
        "guest_suffix": "(guest)",
        "logout": "Log out",
        "lobby": "Lobby",
        "language": "Language",
        "moves_waiting": "Your move: {count}",
        "moves_waiting_title": "Matches waiting on you",
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
        "sign_in_first": "Sign in first.",
        "bad_name": "Nickname: 1–40 characters, no quotes or angle brackets, not starting with a space.",
        "bad_password": "Password: at least 8 characters.",
        "name_invisible": "Name: {code} is an invisible or control character; names may not contain any.",
        "name_marks": "Name: too many combining marks (accents stacked on one letter).",
        "name_reserved": "Name: “{name}” belongs to a registered player (or looks like it). Log in, or pick another.",
        "name_taken": ("Name: “{name}” is already registered (or looks like a registered name). Log in, or "
                       "pick another."),
        "password_common": "Password: this is one of the most common passwords. Choose another.",
        "password_has_name": "Password: must not be your name, nor contain it.",
        "old_password_wrong": "Current password: that is not your password.",
        "too_many_attempts": "Too many sign-in attempts: try again in {seconds} s.",
        "csrf_refused": "Form refused: it did not carry this session's security token. Reload the page and try again.",
        # lobby
        "games": "Games",
        "players_range": "{min}–{max} players",
        "new_table": "New table",
        "players": "Players",
        "mode": "Mode",
        "mode_live": "Live",
        "mode_async": "Play-by-web (async)",
        "spectator_chat": "Spectators may read and write the chat",
        "private_table": "Private: only people with the invite link find the table",
        "clock": "Clock",
        "clock_timed": "Timed table",
        "clock_live": "Live: minutes each, plus seconds per move",
        "clock_async": "Play-by-web: days to start, days added per move, at most",
        "create_table": "Create table",
        "open_tables": "Open tables",
        "no_open_tables": "No tables are waiting for players.",
        "in_play_tables": "Matches in play",
        "no_in_play_tables": "Nobody is playing right now.",
        "watch": "Watch",
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
        "resigned": "resigned",
        "out_of_time": "out of time",
        "skip_turn": "Let a bot answer this once",
        "hand_to_bot": "Hand the seat to a bot",
        "reclaim_seat": "Reclaim my seat from the bot",
        "on_vacation": "on vacation until {until}",
        "invite": "Invite link",
        "copy": "Copy",
        "take_seat": "Take this seat",
        "join_table": "Join this table",
        "add_bot": "Add bot",
        "kick": "Free seat",
        "start": "Start the match",
        "start_hint": "Every seat must be filled (players or bots) before the host starts.",
        "waiting_for_host": "Waiting for the host to start.",
        "waiting_on": "Waiting on: {seats}",
        "abandon": "Abandon this table",
        "abandon_confirm": "Abandon the table for everyone? It cannot be reopened.",
        "abandoned_note": "The host abandoned this table.",
        "engine_warning": ("A rules update plays this match differently from move {seq} on (rules engine {engine}). "
                           "The match is left exactly as it was played; ask the server's operator what to do."),
        "board": "Board",
        "zoom_hint": "Drag to pan, wheel or pinch to zoom, double-click to reset.",
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
        "undo": "Undo my last move",
        "resign": "Resign…",
        "resign_confirm": "Resign this match? With two seats the other side wins; otherwise a bot takes your seat.",
        "resign_yes": "Yes, resign",
        "cancel": "Cancel",
        "table_life": "Table",
        "log": "Log",
        "log_empty": "Nothing has happened yet.",
        "chat": "Chat",
        "chat_empty": "No messages yet.",
        "chat_players_only": "Only the players chat at this table.",
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
        # history and replays
        "history": "History",
        "show_history": "Step through the match",
        "hide_history": "Close history",
        "history_at": "After move {seq} of {last}",
        "history_seat": "Seen from",
        "public_view": "public view",
        "first": "First",
        "prev": "Previous",
        "next": "Next",
        "last": "Last",
        "export": "Export the match (JSON)",
        "verify_title": "Check a replay",
        "verify_hint": "Upload an exported match: the server replays it and checks every recorded state.",
        "verify_file": "Export file",
        "verify": "Check",
        "verify_ok": "Replay matches: all {actions} moves reproduce the recorded states.",
        "verify_diverges": "Replay diverges at move {seq}.",
        "verify_bad_file": "export: the file is not a Warroom export (JSON) ({detail})",
        "verify_sign_in": "Sign in to check a replay.",
        "verify_too_large": "export: the file is over {size}",
        # settings: turn notifications and vacations
        "settings": "Settings",
        "settings_sign_in": "Sign in to change your settings.",
        "notify_title": "Turn notifications",
        "notify_hint": ("When a play-by-web match waits on you and you are not looking at it, you are told here. "
                        "Leave a field empty to turn that channel off."),
        "notify_email": "Email",
        "notify_webhook": "Webhook URL",
        "notify_webhook_hint": "Discord or Slack compatible",
        "notify_digest": "Email digest every (hours)",
        "notify_digest_hint": "empty: one email per turn; 1–168: at most one email every so many hours",
        "save": "Save",
        "notify_saved": "Notification settings saved.",
        "notify_channels": "Notifications go to: {channels}",
        "notify_off": "Notifications are off: no channel is set.",
        "notify_test": "Send a test message",
        "notify_test_queued": "Test message queued for: {channels}. It goes out within a few seconds.",
        "notify_test_none": "No notification channel is set: save an email or a webhook URL first.",
        "webhook_not_public": "webhook_url: {reason}; webhooks go to public hosts only",
        "webhook_address_is": "{address} is {kind}",
        "webhook_address_embeds": "{address} is an IPv6 form of {embedded}, {kind}",
        "webhook_host_resolves": "{host} resolves to {address}, {kind}",
        "webhook_host_resolves_embedded": "{host} resolves to {address}, an IPv6 form of {embedded}, {kind}",
        "address_kind_unspecified": "an unspecified address",
        "address_kind_loopback": "a loopback address",
        "address_kind_link_local": "a link-local address",
        "address_kind_multicast": "a multicast address",
        "address_kind_shared": "a shared (carrier-grade NAT) address",
        "address_kind_private": "a private address",
        "address_kind_reserved": "a reserved or special-purpose address",
        "sessions_title": "Signed-in devices",
        "sessions_hint": ("Signed in somewhere you no longer use, or lost a device? This signs out every "
                          "browser and device, this one too."),
        "logout_everywhere": "Log out everywhere",
        "logged_out_everywhere": "Signed out everywhere: every session of your account has ended.",
        "guest_register_title": "Keep this guest",
        "guest_register_hint": ("Register to keep your seats and matches: this guest becomes your account, "
                                "under the name you choose."),
        "channel_email": "email",
        "channel_webhook": "webhook",
        "vacation_title": "Vacation",
        "vacation_hint": ("On vacation, your clocks at every timed table stand still. The days come out of a yearly "
                          "allowance; coming back early charges only the days begun."),
        "vacation_allowance": "Allowance for {year} (days)",
        "vacation_used": "Days used",
        "vacation_left": "Days left",
        "vacation_now": "You are on vacation until {until}.",
        "vacation_end": "End my vacation now",
        "vacation_days": "Days",
        "vacation_start": "Start a vacation",
        "vacation_none_left": "No vacation days are left this year.",
        "vacation_started": "Vacation started: your clocks are paused until {until}.",
        "vacation_ended": "Vacation ended: your clocks run again.",
    },
    "pl": {
        "brand": "Warroom",
        "tagline": "Grajcie razem w strategiczne gry planszowe o II wojnie światowej: na żywo lub korespondencyjnie.",
        "signed_in_as": "Zalogowano jako {name}",
        "guest_suffix": "(gość)",
        "logout": "Wyloguj",
        "lobby": "Poczekalnia",
        "language": "Język",
        "moves_waiting": "Twój ruch: {count}",
        "moves_waiting_title": "Partie czekające na Ciebie",
        "play_as_guest": "Graj jako gość",
        "nickname": "Pseudonim",
        "play": "Graj",
        "register": "Rejestracja",
        "log_in": "Zaloguj",
        "name": "Nazwa",
        "password": "Hasło",
        "password_hint": "co najmniej 8 znaków",
        "create_account": "Załóż konto",
        "sign_in_to_join": "Zaloguj się, aby zająć miejsce przy tym stole.",
        "sign_in_first": "Najpierw się zaloguj.",
        "bad_name": "Pseudonim: 1–40 znaków, bez cudzysłowów i nawiasów ostrych, nie może zaczynać się spacją.",
        "bad_password": "Hasło: co najmniej 8 znaków.",
        "name_invisible": "Nazwa: {code} to znak niewidoczny lub sterujący; nazwa nie może go zawierać.",
        "name_marks": "Nazwa: za dużo znaków łączących (akcentów nałożonych na jedną literę).",
        "name_reserved": ("Nazwa: „{name}” należy do zarejestrowanego gracza (lub wygląda tak samo). Zaloguj "
                          "się albo wybierz inną."),
        "name_taken": ("Nazwa: „{name}” jest już zarejestrowana (lub wygląda jak zarejestrowana). Zaloguj się "
                       "albo wybierz inną."),
        "password_common": "Hasło: to jedno z najczęściej używanych haseł. Wybierz inne.",
        "password_has_name": "Hasło: nie może być Twoją nazwą ani jej zawierać.",
        "old_password_wrong": "Obecne hasło: to nie jest Twoje hasło.",
        "too_many_attempts": "Za dużo prób logowania: spróbuj ponownie za {seconds} s.",
        "csrf_refused": "Formularz odrzucony: brak tokenu bezpieczeństwa tej sesji. Odśwież stronę i spróbuj ponownie.",
        "games": "Gry",
        "players_range": "{min}–{max} graczy",
        "new_table": "Nowy stół",
        "players": "Gracze",
        "mode": "Tryb",
        "mode_live": "Na żywo",
        "mode_async": "Korespondencyjnie (asynchronicznie)",
        "spectator_chat": "Widzowie mogą czytać czat i pisać na nim",
        "private_table": "Prywatny: stół znajdą tylko osoby z linkiem zaproszenia",
        "clock": "Zegar",
        "clock_timed": "Gra na czas",
        "clock_live": "Na żywo: minut na gracza, plus sekund za ruch",
        "clock_async": "Korespondencyjnie: dni na start, dni dodawane za ruch, najwyżej",
        "create_table": "Utwórz stół",
        "open_tables": "Wolne stoły",
        "no_open_tables": "Żaden stół nie czeka na graczy.",
        "in_play_tables": "Trwające partie",
        "no_in_play_tables": "Nikt teraz nie gra.",
        "watch": "Oglądaj",
        "your_matches": "Twoje partie",
        "no_matches": "Jeszcze w nic nie grasz.",
        "join": "Dołącz",
        "open": "Otwórz",
        "your_move": "twój ruch",
        "seated_of": "zajęte miejsca: {seated}/{players}",
        "status_open": "czeka na graczy",
        "status_active": "w toku",
        "status_finished": "zakończona",
        "status_abandoned": "porzucona",
        "table": "Stół",
        "seats": "Miejsca",
        "seat": "Miejsce",
        "player": "Gracz",
        "empty_seat": "wolne",
        "bot": "bot ({name})",
        "you": "ty",
        "waiting": "ruch",
        "resigned": "poddał(a) się",
        "out_of_time": "czas minął",
        "skip_turn": "Niech bot odpowie ten jeden raz",
        "hand_to_bot": "Oddaj miejsce botowi",
        "reclaim_seat": "Odbierz botowi moje miejsce",
        "on_vacation": "na urlopie do {until}",
        "invite": "Link z zaproszeniem",
        "copy": "Kopiuj",
        "take_seat": "Zajmij to miejsce",
        "join_table": "Dołącz do stołu",
        "add_bot": "Dodaj bota",
        "kick": "Zwolnij miejsce",
        "start": "Rozpocznij partię",
        "start_hint": "Przed startem wszystkie miejsca muszą być zajęte (przez graczy lub boty).",
        "waiting_for_host": "Czekamy, aż gospodarz rozpocznie partię.",
        "waiting_on": "Czekamy na: {seats}",
        "abandon": "Porzuć ten stół",
        "abandon_confirm": "Porzucić stół dla wszystkich? Nie da się go ponownie otworzyć.",
        "abandoned_note": "Gospodarz porzucił ten stół.",
        "engine_warning": ("Po aktualizacji zasad ten mecz przebiega inaczej od ruchu {seq} (silnik zasad {engine}). "
                           "Mecz pozostaje dokładnie taki, jak został rozegrany; zapytaj administratora serwera, "
                           "co dalej."),
        "board": "Plansza",
        "zoom_hint": "Przeciągnij, aby przesunąć; kółko lub dwa palce, aby powiększyć; dwuklik przywraca widok.",
        "your_hand": "Twoja ręka",
        "empty_hand": "Nie masz kart na ręce.",
        "private_info": "Widzisz to tylko ty",
        "public_info": "Stół",
        "others": "Gracze",
        "decisions": "Twoje decyzje",
        "nothing_to_decide": "W tej chwili nie masz nic do zdecydowania.",
        "spectating": "Oglądasz tę partię.",
        "pick_between": "Wybierz {min}–{max}",
        "confirm": "Zatwierdź",
        "undo": "Cofnij mój ostatni ruch",
        "resign": "Poddaj się…",
        "resign_confirm": ("Poddać tę partię? Przy dwóch miejscach wygrywa druga strona; "
                           "w przeciwnym razie twoje miejsce przejmie bot."),
        "resign_yes": "Tak, poddaję się",
        "cancel": "Anuluj",
        "table_life": "Stół",
        "log": "Dziennik",
        "log_empty": "Jeszcze nic się nie wydarzyło.",
        "chat": "Czat",
        "chat_empty": "Brak wiadomości.",
        "chat_players_only": "Przy tym stole piszą tylko gracze.",
        "say": "Wyślij",
        "chat_placeholder": "Napisz coś…",
        "stale": "Gra poszła naprzód, gdy się zastanawiałeś ({detail}). Oto obecna sytuacja.",
        "done": "Gotowe.",
        "game_over": "Koniec gry",
        "not_found": "Nie ma takiego stołu.",
        "back_to_lobby": "Wróć do poczekalni",
        "live_lost": "Utracono połączenie — łączę ponownie…",
        "yes": "tak",
        "no": "nie",
        "history": "Historia",
        "show_history": "Przeglądaj partię ruch po ruchu",
        "hide_history": "Zamknij historię",
        "history_at": "Po ruchu {seq} z {last}",
        "history_seat": "Z perspektywy",
        "public_view": "widok publiczny",
        "first": "Początek",
        "prev": "Wstecz",
        "next": "Dalej",
        "last": "Koniec",
        "export": "Eksportuj partię (JSON)",
        "verify_title": "Sprawdź zapis partii",
        "verify_hint": "Wyślij wyeksportowaną partię: serwer odtworzy ją i sprawdzi każdy zapisany stan.",
        "verify_file": "Plik eksportu",
        "verify": "Sprawdź",
        "verify_ok": "Zapis się zgadza: wszystkie ruchy ({actions}) odtwarzają zapisane stany.",
        "verify_diverges": "Odtworzenie rozchodzi się przy ruchu {seq}.",
        "verify_bad_file": "export: plik nie jest eksportem Warroom (JSON) ({detail})",
        "verify_sign_in": "Zaloguj się, aby sprawdzić zapis partii.",
        "verify_too_large": "export: plik jest większy niż {size}",
        "settings": "Ustawienia",
        "settings_sign_in": "Zaloguj się, aby zmienić ustawienia.",
        "notify_title": "Powiadomienia o ruchu",
        "notify_hint": ("Gdy partia korespondencyjna czeka na Ciebie, a Ty na nią nie patrzysz, dostaniesz "
                        "powiadomienie tutaj. Zostaw pole puste, aby wyłączyć ten kanał."),
        "notify_email": "E-mail",
        "notify_webhook": "Adres webhooka",
        "notify_webhook_hint": "zgodny z Discordem lub Slackiem",
        "notify_digest": "Zbiorczy e-mail co (godzin)",
        "notify_digest_hint": "puste: jeden e-mail na każdy ruch; 1–168: najwyżej jeden e-mail co tyle godzin",
        "save": "Zapisz",
        "notify_saved": "Zapisano ustawienia powiadomień.",
        "notify_channels": "Powiadomienia trafiają na: {channels}",
        "notify_off": "Powiadomienia są wyłączone: nie ustawiono żadnego kanału.",
        "notify_test": "Wyślij wiadomość testową",
        "notify_test_queued": "Wiadomość testowa czeka na wysłanie: {channels}. Wyjdzie w ciągu kilku sekund.",
        "notify_test_none": "Nie ustawiono żadnego kanału powiadomień: najpierw zapisz e-mail lub adres webhooka.",
        "webhook_not_public": "webhook_url: {reason}; webhooki trafiają tylko do publicznych hostów",
        "webhook_address_is": "{address} to {kind}",
        "webhook_address_embeds": "{address} to zapis IPv6 adresu {embedded}: {kind}",
        "webhook_host_resolves": "{host} wskazuje na {address}: {kind}",
        "webhook_host_resolves_embedded": "{host} wskazuje na {address}, zapis IPv6 adresu {embedded}: {kind}",
        "address_kind_unspecified": "adres nieokreślony",
        "address_kind_loopback": "adres pętli zwrotnej (loopback)",
        "address_kind_link_local": "adres lokalny łącza (link-local)",
        "address_kind_multicast": "adres grupowy (multicast)",
        "address_kind_shared": "adres współdzielony (NAT operatora, CGNAT)",
        "address_kind_private": "adres prywatny",
        "address_kind_reserved": "adres zarezerwowany lub specjalnego przeznaczenia",
        "sessions_title": "Zalogowane urządzenia",
        "sessions_hint": ("Jesteś zalogowany na urządzeniu, którego już nie używasz, albo zgubiłeś telefon? "
                          "To wyloguje Cię ze wszystkich przeglądarek i urządzeń, także z tego."),
        "logout_everywhere": "Wyloguj wszędzie",
        "logged_out_everywhere": "Wylogowano wszędzie: wszystkie sesje Twojego konta zostały zakończone.",
        "guest_register_title": "Zachowaj to konto gościa",
        "guest_register_hint": ("Zarejestruj się, aby zachować swoje miejsca i partie: ten gość stanie się "
                                "Twoim kontem, pod wybraną nazwą."),
        "channel_email": "e-mail",
        "channel_webhook": "webhook",
        "vacation_title": "Urlop",
        "vacation_hint": ("Podczas urlopu Twoje zegary przy wszystkich stołach na czas stoją. Dni urlopu pochodzą "
                          "z rocznego limitu; wcześniejszy powrót zużywa tylko rozpoczęte dni."),
        "vacation_allowance": "Limit na {year} (dni)",
        "vacation_used": "Wykorzystane dni",
        "vacation_left": "Pozostałe dni",
        "vacation_now": "Jesteś na urlopie do {until}.",
        "vacation_end": "Zakończ urlop teraz",
        "vacation_days": "Liczba dni",
        "vacation_start": "Rozpocznij urlop",
        "vacation_none_left": "W tym roku nie zostały Ci już żadne dni urlopu.",
        "vacation_started": "Urlop rozpoczęty: Twoje zegary stoją do {until}.",
        "vacation_ended": "Urlop zakończony: Twoje zegary znów biegną.",
    },
}

LANG_NAMES = {"en": "EN", "pl": "PL"}


def current_lang() -> str:
    return _current.get()


def use_lang(lang: str | None) -> str:
    """Serve the rest of this request (or socket render) in ``lang``; returns the language used."""
    chosen = lang if lang in LANGS else DEFAULT_LANG
    _current.set(chosen)
    return chosen


def t(key: str, lang: str | None = None, **params: Any) -> str:
    table = CATALOGUE.get(lang or _current.get()) or CATALOGUE[DEFAULT_LANG]
    text = table.get(key) or CATALOGUE[DEFAULT_LANG].get(key) or key
    return text.format(**params) if params else text


def negotiate(accept_language: str | None) -> str:
    """The best of our languages for an Accept-Language header (q-values honoured)."""
    best, best_q = DEFAULT_LANG, 0.0
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        primary = tag.strip().lower().split("-")[0]
        q -= position * 1e-6  # equal weights: the earlier language wins
        if primary in LANGS and q > best_q:
            best, best_q = primary, q
    return best


def choose_lang(session_lang: Any, user_locale: str | None, accept_language: str | None) -> str:
    """The switch remembered in the session, then the account's choice, then the browser's."""
    for lang in (session_lang, user_locale):
        if lang in LANGS:
            return str(lang)
    return negotiate(accept_language)


# --------------------------------------------------------------------------- game terms
@functools.cache
def game_terms(game_id: str) -> dict[str, dict[str, str]]:
    """A game's term catalogue ({lang: {term: name}}), empty when the game ships none."""
    if not re.fullmatch(r"[a-z0-9_]+", game_id or ""):
        return {}
    path = os.path.join(GAMES_DIR, game_id, "i18n.yaml")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as handle:
        data = yaml.safe_load(handle) or {}
    return {lang: {str(k): str(v) for k, v in (data.get(lang) or {}).items()} for lang in LANGS}


def term(game_id: str, text: Any, lang: str | None = None) -> str:
    """A game term in the current language: exact matches only, anything else unchanged."""
    value = str(text)
    terms = game_terms(game_id)
    return terms.get(lang or _current.get(), {}).get(value, value)


@functools.cache
def _term_pattern(game_id: str, lang: str) -> re.Pattern[str] | None:
    # only multi-letter English names are replaced inside text (ids like "uk" never appear there)
    names = sorted((k for k in game_terms(game_id).get(lang, {}) if " " in k or k[:1].isupper()),
                   key=len, reverse=True)
    if not names:
        return None
    return re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in names) + r")(?!\w)")


def terms_in(game_id: str, text: Any, lang: str | None = None) -> str:
    """Every known term inside a longer text (a seat label such as "Player 1: Germany, Italy")."""
    value = str(text)
    lang = lang or _current.get()
    if lang == DEFAULT_LANG:
        return value
    pattern = _term_pattern(game_id, lang)
    if pattern is None:
        return value
    names = game_terms(game_id)[lang]
    return pattern.sub(lambda m: names[m.group(1)], value)
