"""Append-only hand logs: one row per log line (``game_lines``), so storing an action writes its
new lines only, instead of rewriting the hand's whole log at every action (quadratic over a hand).
Existing logs move into the new table; ``games.log`` stays, empty, for older readers.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_lines",
        sa.Column("game", sa.Integer, primary_key=True),  # games.id
        sa.Column("n", sa.Integer, primary_key=True),  # the line's place in the hand's log, from 0
        sa.Column("line", sa.Text, nullable=False),  # one JSON record
    )
    bind = op.get_bind()
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("log", sa.Text))
    lines = sa.table("game_lines", sa.column("game", sa.Integer), sa.column("n", sa.Integer),
                     sa.column("line", sa.Text))
    for game_id, log in bind.execute(sa.select(games.c.id, games.c.log).where(games.c.log != "")).all():
        rows = [{"game": game_id, "n": n, "line": line} for n, line in enumerate(x for x in log.splitlines() if x)]
        if rows:
            bind.execute(sa.insert(lines), rows)
        bind.execute(sa.update(games).where(games.c.id == game_id).values(log=""))


def downgrade() -> None:
    bind = op.get_bind()
    games = sa.table("games", sa.column("id", sa.Integer), sa.column("log", sa.Text))
    lines = sa.table("game_lines", sa.column("game", sa.Integer), sa.column("n", sa.Integer),
                     sa.column("line", sa.Text))
    logs: dict[int, list[str]] = {}
    for game_id, _n, line in bind.execute(sa.select(lines.c.game, lines.c.n, lines.c.line)
                                          .order_by(lines.c.game, lines.c.n)).all():
        logs.setdefault(game_id, []).append(line)
    for game_id, rows in logs.items():
        bind.execute(sa.update(games).where(games.c.id == game_id).values(log="\n".join(rows)))
    op.drop_table("game_lines")
