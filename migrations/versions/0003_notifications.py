"""turn notifications: preferences, outbox, match presence

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notification_prefs",
        sa.Column("user_id", sa.BigInteger(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("webhook_url", sa.String(length=2000), nullable=True),
        sa.Column("digest_hours", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
    )
    op.create_table(
        "notification_outbox",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=True),
        sa.Column("dedupe_key", sa.String(length=200), nullable=False, unique=True),
        sa.Column("user_id", sa.BigInteger(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("channel", sa.String(length=12), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("match_id", sa.String(length=16), sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=True),
        sa.Column("seat", sa.String(length=40), nullable=True),
        sa.Column("turn_seq", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("detail", postgresql.JSONB(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
    )
    op.create_index("ix_outbox_pending", "notification_outbox", ["due_at"],
                    postgresql_where=sa.text("status = 'pending'"))
    op.create_index("ix_outbox_user_channel", "notification_outbox", ["user_id", "channel", "sent_at"])
    op.create_table(
        "match_presence",
        sa.Column("user_id", sa.BigInteger(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("match_id", sa.String(length=16), sa.ForeignKey("matches.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("worker_id", sa.String(length=80), primary_key=True),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("match_presence")
    op.drop_index("ix_outbox_user_channel", table_name="notification_outbox")
    op.drop_index("ix_outbox_pending", table_name="notification_outbox")
    op.drop_table("notification_outbox")
    op.drop_table("notification_prefs")
