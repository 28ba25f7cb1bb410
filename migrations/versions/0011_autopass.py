"""Auto-pass per match seat (issue 9): how the seat wants reaction windows answered, and the
round its "pass everything this round" runs to

Revision ID: 0011
Revises: 0010
"""
import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("match_seats", sa.Column("autopass", sa.String(length=8), nullable=False, server_default="idle"))
    op.add_column("match_seats", sa.Column("autopass_round", sa.String(length=40), nullable=True))


def downgrade() -> None:
    op.drop_column("match_seats", "autopass_round")
    op.drop_column("match_seats", "autopass")
