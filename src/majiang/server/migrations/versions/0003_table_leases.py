"""Table leases: which worker drives each live table (many workers on one database); and the rooms
indexes that an in-place upgrade by the old numbered migrations did not add.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    have = {ix["name"] for ix in sa.inspect(op.get_bind()).get_indexes("rooms")}
    for name, column in (("ix_rooms_host", "host"), ("ix_rooms_status", "status")):
        if name not in have:
            op.create_index(name, "rooms", [column])
    op.create_table(
        "table_leases",
        sa.Column("code", sa.String(16), primary_key=True),  # the room
        sa.Column("worker", sa.String(64), nullable=False),  # who drives its table
        sa.Column("expires", sa.Float, nullable=False),  # database clock, epoch seconds
        sa.Column("wanted", sa.String(64), nullable=True),  # another worker asks for it (a handover)
    )
    op.create_index("ix_table_leases_worker", "table_leases", ["worker"])


def downgrade() -> None:
    op.drop_table("table_leases")
