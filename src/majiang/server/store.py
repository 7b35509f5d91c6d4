"""Persistence: players, rooms and every game's event log, on SQLite (default) or PostgreSQL.

Schema changes are numbered migrations applied at start-up (``schema_version`` records the last
one), so an old database file upgrades in place.

Every write is one transaction; a write that fails raises ``StoreError`` and leaves the database as
it was, so the caller can refuse the action that needed it (nothing is acknowledged unstored).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.exc import SQLAlchemyError

from majiang.core.errors import MajiangError

metadata = MetaData()

schema_version = Table("schema_version", metadata, Column("version", Integer, nullable=False))
players = Table(
    "players", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(40), nullable=False),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created", Float, nullable=False),
)
rooms = Table(
    "rooms", metadata,
    Column("code", String(16), primary_key=True),
    Column("variant", String(16), nullable=False),
    Column("rules", Text, nullable=False),  # rules JSON (preset + overrides resolved)
    Column("stake", Integer, nullable=False, default=1),
    Column("hands", Integer, nullable=False),
    Column("host", String(32), nullable=False, index=True),
    Column("status", String(16), nullable=False, index=True),  # lobby, playing, finished
    Column("seats", Text, nullable=False),  # JSON list: {"player": id|null, "name": str, "bot": level|null}
    # Unused since format 2: every hand is dealt from its own fresh seed, stored in its log only.
    Column("seed", String(64), nullable=False),
    Column("created", Float, nullable=False),
    Column("settings", Text, nullable=True),  # table settings JSON: decision timers
)
# One row per seated human: the index behind a player's history (战绩), a page at a time.
room_players = Table(
    "room_players", metadata,
    Column("room", String(16), primary_key=True),
    Column("player", String(32), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("created", Float, nullable=False),
    Index("ix_room_players_player_created", "player", "created"),
)
games = Table(
    "games", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("room", String(16), nullable=False, index=True),
    Column("hand_index", Integer, nullable=False),
    Column("log", Text, nullable=False),  # JSON lines: the hand's start record and events
    Column("finished", Boolean, nullable=False, default=False),
    Column("totals", Text, nullable=True),
    Column("updated", Float, nullable=False),
)


def _add_settings_and_room_players(conn) -> None:
    cols = {c["name"] for c in inspect(conn).get_columns("rooms")}
    if "settings" not in cols:
        conn.execute(text("ALTER TABLE rooms ADD COLUMN settings TEXT"))
    metadata.create_all(conn)  # room_players and the new indexes
    have = {(r[0], r[1]) for r in conn.execute(select(room_players.c.room, room_players.c.player))}
    for code, seats, created in conn.execute(select(rooms.c.code, rooms.c.seats, rooms.c.created)).all():
        for i, s in enumerate(json.loads(seats)):
            if s.get("player") and (code, s["player"]) not in have:
                conn.execute(insert(room_players).values(room=code, player=s["player"], seat=i, created=created))


# Each migration takes the database from version i to i + 1.
MIGRATIONS: list = [
    lambda conn: metadata.create_all(conn),
    _add_settings_and_room_players,
]


class StoreError(MajiangError):
    """The database refused or could not take a write; nothing was stored."""


def normalise_url(url: str) -> str:
    """``postgresql://…`` means the psycopg 3 driver this project installs (``majiang[postgres]``).

    >>> normalise_url("postgresql://u@h/db"), normalise_url("sqlite:///x.db")
    ('postgresql+psycopg://u@h/db', 'sqlite:///x.db')
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _room_row(row) -> dict:
    d = dict(row)
    d["rules"] = json.loads(d["rules"])
    d["seats"] = json.loads(d["seats"])
    d["settings"] = json.loads(d["settings"]) if d.get("settings") else {}
    return d


class Store:
    def __init__(self, url: str) -> None:
        url = normalise_url(url)
        kwargs: dict[str, Any] = {"future": True, "pool_pre_ping": True}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 5}
        self.engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _sqlite_pragmas(dbapi_conn, _record):  # WAL: readers do not wait for the writer
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()
        self.migrate()

    def _write(self):
        """A transaction whose failure is a ``StoreError`` (the caller refuses what needed it)."""
        return _Write(self.engine)

    def migrate(self) -> int:
        with self.engine.begin() as conn:
            version = 0
            if self.engine.dialect.has_table(conn, "schema_version"):
                row = conn.execute(select(schema_version.c.version)).first()
                version = row[0] if row else 0
            for i in range(version, len(MIGRATIONS)):
                MIGRATIONS[i](conn)
            conn.execute(text("DELETE FROM schema_version"))
            conn.execute(insert(schema_version).values(version=len(MIGRATIONS)))
        return len(MIGRATIONS)

    # players -----------------------------------------------------------------------------

    def create_player(self, name: str) -> tuple[str, str]:
        pid = secrets.token_hex(8)
        token = secrets.token_urlsafe(24)
        with self._write() as conn:
            conn.execute(insert(players).values(id=pid, name=name, token_hash=hash_token(token), created=time.time()))
        return pid, token

    def rename_player(self, pid: str, name: str) -> None:
        with self._write() as conn:
            conn.execute(update(players).where(players.c.id == pid).values(name=name))

    def player_by_token(self, token: str | None) -> dict | None:
        if not token or len(token) > 128:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.token_hash == hash_token(token))).mappings().first()
        return dict(row) if row else None

    # rooms -------------------------------------------------------------------------------

    def create_room(self, variant: str, rules: dict, stake: int, hands: int, host: dict, seats: list[dict],
                    settings: dict | None = None) -> str:
        code = "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8))
        now = time.time()
        with self._write() as conn:
            conn.execute(insert(rooms).values(code=code, variant=variant, rules=json.dumps(rules), stake=stake,
                                              hands=hands, host=host["id"], status="lobby", seats=json.dumps(seats),
                                              seed="-", created=now, settings=json.dumps(settings or {})))
            seat = next((i for i, s in enumerate(seats) if s.get("player") == host["id"]), 0)  # a rematch keeps seats
            conn.execute(insert(room_players).values(room=code, player=host["id"], seat=seat, created=now))
        return code

    def open_rooms_hosted(self, player_id: str, since: float = 0.0) -> tuple[int, int]:
        """(rooms of this host not yet finished, rooms it created since ``since``)."""
        with self.engine.connect() as conn:
            unfinished = conn.execute(select(func.count()).select_from(rooms).where(
                rooms.c.host == player_id, rooms.c.status != "finished")).scalar_one()
            recent = conn.execute(select(func.count()).select_from(rooms).where(
                rooms.c.host == player_id, rooms.c.created >= since)).scalar_one()
        return unfinished, recent

    def room(self, code: str) -> dict | None:
        if not isinstance(code, str) or len(code) > 16:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(rooms).where(rooms.c.code == code)).mappings().first()
        return _room_row(row) if row else None

    def update_room(self, code: str, **values) -> None:
        if "seats" in values:
            values["seats"] = json.dumps(values["seats"])
        with self._write() as conn:
            conn.execute(update(rooms).where(rooms.c.code == code).values(**values))

    def take_seat(self, code: str, seat: int, player: dict, seats: list[dict]) -> None:
        """Seat a player: the room's seats and the history index in one transaction."""
        with self._write() as conn:
            conn.execute(update(rooms).where(rooms.c.code == code).values(seats=json.dumps(seats)))
            created = conn.execute(select(rooms.c.created).where(rooms.c.code == code)).scalar_one()
            conn.execute(insert(room_players).values(room=code, player=player["id"], seat=seat, created=created))

    # games -------------------------------------------------------------------------------

    def save_game_text(self, room: str, hand_index: int, log: str, finished: bool,
                       totals: list[int] | None, room_status: str | None = None) -> None:
        """Store one hand's log; with ``room_status``, the room's status in the same transaction."""
        with self._write() as conn:
            existing = conn.execute(select(games.c.id).where(games.c.room == room,
                                                             games.c.hand_index == hand_index)).first()
            values = dict(log=log, finished=finished, totals=json.dumps(totals) if totals is not None else None,
                          updated=time.time())
            if existing:
                conn.execute(update(games).where(games.c.id == existing[0]).values(**values))
            else:
                conn.execute(insert(games).values(room=room, hand_index=hand_index, **values))
            if room_status is not None:
                conn.execute(update(rooms).where(rooms.c.code == room).values(status=room_status))

    def games_of(self, room: str, finished_only: bool = False) -> list[dict]:
        query = select(games).where(games.c.room == room)
        if finished_only:
            query = query.where(games.c.finished.is_(True))
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(games.c.hand_index)).mappings()
            out = []
            for r in rows:
                d = dict(r)
                d["records"] = [json.loads(x) for x in d.pop("log").splitlines() if x]
                d["totals"] = json.loads(d["totals"]) if d["totals"] else None
                out.append(d)
        return out

    def history(self, player_id: str, before: float | None = None, limit: int = 20) -> list[dict]:
        """A page of the player's matches, newest first (indexed: one query for the rooms, one for
        their hands' totals); ``before`` is the ``created`` of the last row of the previous page."""
        cond = room_players.c.player == player_id
        if before is not None:
            cond = and_(cond, room_players.c.created < before)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rooms.c.code, rooms.c.variant, rooms.c.status, rooms.c.seats, rooms.c.created,
                       rooms.c.hands, room_players.c.seat)
                .select_from(room_players.join(rooms, rooms.c.code == room_players.c.room))
                .where(cond).order_by(room_players.c.created.desc()).limit(limit)).mappings().all()
            codes = [r["code"] for r in rows]
            played: dict[str, list] = {c: [] for c in codes}
            if codes:
                for room, totals in conn.execute(select(games.c.room, games.c.totals).where(
                        games.c.room.in_(codes), games.c.finished.is_(True))):
                    played[room].append(json.loads(totals) if totals else None)
        out = []
        for r in rows:
            seats = json.loads(r["seats"])
            totals = [0] * len(seats)
            for t in played[r["code"]]:
                for i, v in enumerate(t or []):
                    totals[i] += v
            out.append({"room": r["code"], "variant": r["variant"], "status": r["status"], "seat": r["seat"],
                        "hands": len(played[r["code"]]), "match_hands": r["hands"], "totals": totals,
                        "names": [s.get("name") for s in seats], "created": r["created"]})
        return out


class _Write:
    def __init__(self, engine) -> None:
        self.engine = engine
        self.ctx = None

    def __enter__(self):
        try:
            self.ctx = self.engine.begin()
            return self.ctx.__enter__()
        except (SQLAlchemyError, OSError) as exc:
            raise StoreError(f"the database is unavailable ({type(exc).__name__})") from exc

    def __exit__(self, kind, exc, tb):
        try:
            self.ctx.__exit__(kind, exc, tb)  # commits, or rolls back on an exception
        except (SQLAlchemyError, OSError) as failed:
            raise StoreError(f"the database could not store this ({type(failed).__name__})") from failed
        if isinstance(exc, (SQLAlchemyError, OSError)):
            raise StoreError(f"the database could not store this ({type(exc).__name__})") from exc
        return False
