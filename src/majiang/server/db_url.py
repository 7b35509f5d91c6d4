"""Database URLs: which ones the store opens (SQLite and PostgreSQL, the driver installed), and how
one is shown to people (no password) and named in a one-line error."""

from __future__ import annotations

from majiang.server.db import StoreError


def normalise_url(url: str) -> str:
    """``postgresql://…`` means the psycopg 3 driver this project installs (``majiang[postgres]``).

    >>> normalise_url("postgresql://u@h/db"), normalise_url("sqlite:///x.db")
    ('postgresql+psycopg://u@h/db', 'sqlite:///x.db')
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def check_url(url: str) -> str:
    """``url`` normalised, or a ``StoreError`` saying in one line why no store can be opened there:
    not a database URL, a database other than SQLite and PostgreSQL, a driver that is not installed,
    an SQLite file in a folder that does not exist. (A server that cannot be reached is met on
    opening: ``open_error`` words that.)"""
    import importlib.util
    import os

    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(normalise_url(url))
    except ArgumentError:
        raise StoreError(f"--db {url_for_humans(url)!r} is not a database URL (sqlite:///FILE or "
                         "postgresql://user:pass@host/db)") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        folder = os.path.dirname(os.path.abspath(parsed.database)) if parsed.database else ""
        if folder and not os.path.isdir(folder):
            raise StoreError(f"--db: no folder {folder} for the SQLite file")
    elif backend == "postgresql":
        if importlib.util.find_spec("psycopg") is None:
            raise StoreError("PostgreSQL needs its driver: pip install 'majiang[postgres]'")
    else:
        raise StoreError(f"--db: majiang keeps its games in SQLite or PostgreSQL, not {backend}")
    return normalise_url(url)


def url_for_humans(url: str) -> str:
    """A URL without its password (printed, logged)."""
    head, at, rest = url.rpartition("@")
    if not at:
        return url
    scheme, sep, user = head.partition("://")
    return f"{scheme}{sep}{user.split(':')[0]}@{rest}"


def open_error(url: str, exc: Exception) -> StoreError:
    """A database error met on opening as one line naming the database (no password)."""
    cause = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return StoreError(f"cannot open the database {url_for_humans(url)}: {cause[0] if cause else type(exc).__name__}")
