"""The UI language an account last signed in with: notifications speak it until the account
chooses a language of its own (users.locale)

Revision ID: 0010
Revises: 0009
"""
import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("last_lang", sa.String(length=8), nullable=True))


def downgrade() -> None:
    op.drop_column("users", "last_lang")
