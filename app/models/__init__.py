"""The database tables (SQLAlchemy 2 typed ORM). Schema changes go through Alembic."""

from app.models.accounts import UserSession
from app.models.clocks import MatchClock, MatchPace, Vacation  # noqa: F401 (registers the tables)
from app.models.notifications import MatchPresence, NotificationPrefs, OutboxMessage  # noqa: F401
from app.models.tables import Action, Base, ChatMessage, Match, MatchSeat, Snapshot, User, started

__all__ = ["Action", "Base", "ChatMessage", "Match", "MatchSeat", "Snapshot", "User", "UserSession", "started"]
