"""pace and clocks: table pace, per-seat clocks, vacations

Revision ID: 0004
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_paces",
        sa.Column("match_id", sa.String(length=16), sa.ForeignKey("matches.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("initial_ms", sa.BigInteger(), nullable=False),
        sa.Column("credit_ms", sa.BigInteger(), nullable=False),
        sa.Column("cap_ms", sa.BigInteger(), nullable=True),
    )
    op.create_table(
        "match_clocks",
        sa.Column("match_id", sa.String(length=16), sa.ForeignKey("matches.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seat", sa.String(length=40), primary_key=True),
        sa.Column("remaining_ms", sa.BigInteger(), nullable=False),
        sa.Column("running_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("timed_out", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("handed_over", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("started_seq", sa.Integer(), nullable=True),
        sa.Column("stopped_seq", sa.Integer(), nullable=True),
        sa.Column("stopped_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_charge_ms", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("last_credit_ms", sa.BigInteger(), nullable=False, server_default="0"),
    )
    op.create_table(
        "vacations",
        sa.Column("id", sa.BigInteger(), autoincrement=True, primary_key=True),
        sa.Column("user_id", sa.BigInteger(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("days", sa.Integer(), nullable=False),
    )
    op.create_index("ix_vacations_user", "vacations", ["user_id", "year"])


def downgrade() -> None:
    op.drop_index("ix_vacations_user", table_name="vacations")
    op.drop_table("vacations")
    op.drop_table("match_clocks")
    op.drop_table("match_paces")
