"""Engine versions: every action and snapshot records the rules engine that wrote it, and a
match whose log no longer replays under the current engine carries a flag for its players

Revision ID: 0009
Revises: 0008
"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # nullable: rows written before this revision do not know their engine
    op.add_column("actions", sa.Column("engine_version", sa.String(length=40), nullable=True))
    op.add_column("snapshots", sa.Column("engine_version", sa.String(length=40), nullable=True))
    op.add_column("matches", sa.Column("replay_diverged_at", sa.Integer(), nullable=True))
    op.add_column("matches", sa.Column("replay_engine", sa.String(length=40), nullable=True))


def downgrade() -> None:
    op.drop_column("matches", "replay_engine")
    op.drop_column("matches", "replay_diverged_at")
    op.drop_column("snapshots", "engine_version")
    op.drop_column("actions", "engine_version")
