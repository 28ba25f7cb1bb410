"""A table's name, shown in the lobby instead of its id ("Ala's game" by default)

Revision ID: 0012
Revises: 0011
"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("name", sa.String(length=60), nullable=True))


def downgrade() -> None:
    op.drop_column("matches", "name")
