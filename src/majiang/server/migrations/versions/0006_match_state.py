"""The live match's own state beside its room: who is in 托管, who said 准备, the pending start, the
dissolve vote and the rematch offer (JSON), so a restart resumes them as it resumes the deal.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("match_state", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("rooms", "match_state")
