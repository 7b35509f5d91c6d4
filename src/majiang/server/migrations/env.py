"""Alembic's environment for majiang's schema (run by ``majiang.server.migrate``, or by the
``alembic`` command with ``-x url=...`` and ``script_location`` pointing here)."""

from alembic import context
from sqlalchemy import create_engine

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # the alembic command line: a URL of its own
        url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
        with create_engine(url).connect() as conn:
            context.configure(connection=conn, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
            conn.commit()
        return
    context.configure(connection=connection, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("majiang's migrations run against a database (no offline SQL)")
run()
