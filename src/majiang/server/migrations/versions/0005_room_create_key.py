"""Idempotent room creation: the key a client sends with "create room" (a double tap sends the same
key twice), unique per host, so the second request answers with the room the first one made.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("create_key", sa.String(40), nullable=True))
    op.create_index("ix_rooms_host_create_key", "rooms", ["host", "create_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_rooms_host_create_key", "rooms")
    op.drop_column("rooms", "create_key")
