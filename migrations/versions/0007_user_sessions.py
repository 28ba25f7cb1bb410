"""server-side sign-in sessions; registered names reserve their look-alike skeleton

Revision ID: 0007
Revises: 0006

Cookies signed before this revision name no session, so everybody signs in once more.
Existing accounts get their name's skeleton; where two old accounts' names read the same,
the older keeps it (the newer stays usable, but does not reserve its name against guests).
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "user_sessions",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.text("now()"), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id_hash"),
    )
    op.create_index("ix_user_sessions_user", "user_sessions", ["user_id"], unique=False)
    op.add_column("users", sa.Column("name_skeleton", sa.String(length=160), nullable=True))
    backfill_skeletons()
    op.create_unique_constraint("users_name_skeleton_key", "users", ["name_skeleton"])


def backfill_skeletons() -> None:
    from app.sessions.names import skeleton  # the same folding the app applies from now on

    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, name FROM users WHERE login IS NOT NULL ORDER BY id")).all()
    taken: set[str] = set()
    for user_id, name in rows:
        key = skeleton(name)
        if key in taken:
            continue
        taken.add(key)
        conn.execute(sa.text("UPDATE users SET name_skeleton = :key WHERE id = :id"), {"key": key, "id": user_id})


def downgrade() -> None:
    op.drop_constraint("users_name_skeleton_key", "users", type_="unique")
    op.drop_column("users", "name_skeleton")
    op.drop_index("ix_user_sessions_user", table_name="user_sessions")
    op.drop_table("user_sessions")
