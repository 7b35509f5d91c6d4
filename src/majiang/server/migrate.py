"""Schema changes by Alembic: the revisions live in ``majiang/server/migrations/versions``.

``upgrade`` takes a database to the newest revision. A database made by the old numbered migrations
(a ``schema_version`` table, no ``alembic_version``) is stamped with the revision its number matches
(1 -> ``0001``, 2 -> ``0002``) and upgraded from there, so existing ``~/.majiang`` files keep working.
On PostgreSQL the upgrade holds an advisory lock, so two deploy steps started at once take turns.

``majiang db upgrade`` runs it once per deploy; ``majiang serve`` upgrades an SQLite file by itself
(the default, one process) and otherwise only checks that the database is at the newest revision.
"""

from __future__ import annotations

import functools
import os

from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "migrations")
LOCK_KEY = 0x6D616A69  # pg_advisory_xact_lock key of schema upgrades ("maji")


def _config(connection: Connection | None = None):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", SCRIPTS)
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@functools.lru_cache(maxsize=1)
def head() -> str:
    """The newest revision this code knows."""
    from alembic.script import ScriptDirectory

    found = ScriptDirectory.from_config(_config()).get_current_head()
    assert found is not None
    return found


def current(conn: Connection) -> str | None:
    """The database's revision; ``"old:N"`` for one made by the old numbered migrations; None: empty."""
    tables = set(inspect(conn).get_table_names())
    if "alembic_version" in tables:
        row = conn.execute(text("SELECT version_num FROM alembic_version")).first()
        if row is not None:
            return row[0]
    if "schema_version" in tables:
        row = conn.execute(text("SELECT version FROM schema_version")).first()
        return f"old:{row[0] if row else 0}"
    return None


def upgrade(engine: Engine) -> tuple[str | None, str]:
    """Take the database to the newest revision; returns (revision before, revision after)."""
    from alembic import command

    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK_KEY})
        before = current(conn)
        if before == head():
            return before, before
        cfg = _config(conn)
        if before is not None and before.startswith("old:"):
            number = int(before[4:])
            if number > 0:
                command.stamp(cfg, f"{number:04d}")
            conn.execute(text("DROP TABLE schema_version"))
        command.upgrade(cfg, "head")
        return before, current(conn) or ""


def is_current(engine: Engine) -> tuple[bool, str | None]:
    with engine.connect() as conn:
        found = current(conn)
    return found == head(), found
