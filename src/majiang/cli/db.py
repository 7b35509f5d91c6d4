"""``majiang db``: the web game's database schema (Alembic revisions shipped in the package)."""

from __future__ import annotations

import json

from majiang.core.errors import MajiangError


def _engine(args):
    try:
        from sqlalchemy import create_engine

        from majiang.server.app import default_db_url
        from majiang.server.db_url import check_url
    except ImportError as exc:
        raise MajiangError(f"the database needs the web extra: pip install 'majiang[web]' ({exc.name} missing)") \
            from None
    url = args.db or default_db_url()
    return url, create_engine(check_url(url))


def _opened(url: str, step):
    """``step()``, its database errors (unreachable, refused, not a database) worded as one line."""
    from sqlalchemy.exc import SQLAlchemyError

    from majiang.server.db_url import open_error

    try:
        return step()
    except SQLAlchemyError as exc:
        raise open_error(url, exc) from None


def cmd_upgrade(args) -> int:
    from majiang.server import migrate

    url, engine = _engine(args)
    try:
        before, after = _opened(url, lambda: migrate.upgrade(engine))
    finally:
        engine.dispose()
    if args.json:
        print(json.dumps({"database": url.split("@")[-1], "before": before, "after": after}))
    elif before == after:
        print(f"majiang: the database is at the newest schema revision ({after})")
    else:
        print(f"majiang: database schema upgraded from {before or 'empty'} to {after}")
    return 0


def cmd_current(args) -> int:
    from majiang.server import migrate

    url, engine = _engine(args)
    try:
        ok, found = _opened(url, lambda: migrate.is_current(engine))
    finally:
        engine.dispose()
    if args.json:
        print(json.dumps({"revision": found, "head": migrate.head(), "current": ok}))
    else:
        print(f"majiang: schema revision {found or 'none (empty)'}; newest {migrate.head()}"
              + ("" if ok else ": run majiang db upgrade"))
    return 0 if ok else 1


def register(sub) -> None:
    p = sub.add_parser("db", help="the web game's database: upgrade its schema (a deploy step)",
                       description="Schema changes are Alembic revisions shipped with majiang. Run "
                       "'majiang db upgrade --db URL' once per deploy before starting the workers; an SQLite "
                       "file (the default) is also upgraded by 'majiang serve' itself.")
    dsub = p.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    for name, func, text in (("upgrade", cmd_upgrade, "take the database to the newest schema revision"),
                             ("current", cmd_current, "show the database's revision (exit 1 if behind)")):
        q = dsub.add_parser(name, help=text, description=text)
        q.add_argument("--db", metavar="URL", help="SQLAlchemy database URL (default: ~/.majiang/majiang.sqlite3)")
        q.add_argument("--json", action="store_true", help="one JSON line")
        q.set_defaults(func=func)
