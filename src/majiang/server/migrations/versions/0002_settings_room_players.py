"""Room settings (decision timers) and room_players, the index behind a player's history.

Revision ID: 0002
Revises: 0001
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("settings", sa.Text, nullable=True))
    op.create_index("ix_rooms_host", "rooms", ["host"])
    op.create_index("ix_rooms_status", "rooms", ["status"])
    room_players = op.create_table(
        "room_players",
        sa.Column("room", sa.String(16), primary_key=True),
        sa.Column("player", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_room_players_player_created", "room_players", ["player", "created"])
    conn = op.get_bind()
    rows = []
    for code, seats, created in conn.execute(sa.text("SELECT code, seats, created FROM rooms")).all():
        seen = set()
        for i, s in enumerate(json.loads(seats)):
            if s.get("player") and s["player"] not in seen:
                seen.add(s["player"])
                rows.append({"room": code, "player": s["player"], "seat": i, "created": created})
    if rows:
        op.bulk_insert(room_players, rows)


def downgrade() -> None:
    op.drop_table("room_players")
    op.drop_index("ix_rooms_status", "rooms")
    op.drop_index("ix_rooms_host", "rooms")
    op.drop_column("rooms", "settings")
