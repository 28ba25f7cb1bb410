"""Turn notifications for play-by-web: email (or the server log) and webhooks.

Importing the package registers the turn hook, which writes an outbox row per
channel when a seat of an async match begins to wait; ``start`` runs the worker
that sends them, one per process, claiming rows safely against the others.

Presence policy: a player who has had the match open at any moment between their
turn beginning and the message falling due (WARROOM_NOTIFY_DELAY_SECONDS later)
has seen it, so nothing is sent for that turn, even if they leave without moving;
their next turn is told as usual. The delay also keeps a quick run of decisions from
turning into a burst of messages: only a turn still waiting when it falls due is told.

Digest: with ``digest_hours`` N a player gets at most one turn email every N hours;
turns arriving inside the window wait and go out together at its end (one line per
match still waiting). Webhooks are chat pings and always go out per turn.

Environment: WARROOM_SMTP_HOST/_PORT/_USER/_PASSWORD/_FROM/_STARTTLS (no host: emails
are written to the server log), WARROOM_PUBLIC_URL (links; default http://HOST:PORT),
WARROOM_NOTIFY_POLL_SECONDS, WARROOM_NOTIFY_DELAY_SECONDS, WARROOM_PRESENCE_SECONDS,
WARROOM_NOTIFY_RETRY_SECONDS, WARROOM_NOTIFY_MAX_ATTEMPTS, WARROOM_NOTIFY_CONCURRENCY
(deliveries in flight at once), WARROOM_NOTIFY_CONNECT_TIMEOUT / WARROOM_NOTIFY_TIMEOUT (seconds
to connect / for a whole webhook delivery), WARROOM_WEBHOOK_ALLOW_PRIVATE (webhooks to
loopback/private addresses, refused by default, at saving and at sending: see webhooks.py),
WARROOM_CLOCK_SHIFT_FILE (tests: seconds added to the clock).
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.notifications import hook
from app.notifications.worker import Notifier
from app.sessions.live import Hub


def start(sessions: async_sessionmaker, hub: Hub) -> Notifier:
    return Notifier(sessions, hub, hook.settings()).start()
