"""state hash per action, resignations, finish time

Revision ID: 0002
Revises: 0001
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("actions", sa.Column("state_hash", sa.String(length=64), nullable=True))
    op.add_column("match_seats", sa.Column("resigned", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("matches", sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.drop_column("matches", "finished_at")
    op.drop_column("match_seats", "resigned")
    op.drop_column("actions", "state_hash")
