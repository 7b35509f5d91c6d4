"""The seat ledger: who sat in each seat of a hand (a person, a bot, a person in 托管), stored with
the hand's start, so totals, 战绩, summaries and replays name the people who played that hand.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("lineup", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("games", "lineup")
