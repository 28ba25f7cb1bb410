"""UI preferences: a user's language, and whether a table lets spectators chat

Revision ID: 0005
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("locale", sa.String(length=8), nullable=True))
    op.add_column("matches", sa.Column("spectator_chat", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("matches", "spectator_chat")
    op.drop_column("users", "locale")
