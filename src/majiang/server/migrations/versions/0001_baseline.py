"""Baseline: players, rooms and games as the first numbered migration made them.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("stake", sa.Integer, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("host", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("hand_index", sa.Integer, nullable=False),
        sa.Column("log", sa.Text, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False),
        sa.Column("totals", sa.Text, nullable=True),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_games_room", "games", ["room"])


def downgrade() -> None:
    op.drop_table("games")
    op.drop_table("rooms")
    op.drop_table("players")
