"""merge the notification, clock and UI-preference branches

Revision ID: 0006
Revises: 0003, 0004, 0005
"""

revision = "0006"
down_revision = ("0003", "0004", "0005")
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
