"""Persistence: players, rooms and every game's event log, on SQLite (default) or PostgreSQL.

Schema changes are numbered migrations applied at start-up (``schema_version`` records the last
one), so an old database file upgrades in place.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from typing import Any

from sqlalchemy import (Boolean, Column, Float, Integer, MetaData, String, Table, Text, create_engine, event,
                        insert, select, text, update)

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
    Column("host", String(32), nullable=False),
    Column("status", String(16), nullable=False),  # lobby, playing, finished
    Column("seats", Text, nullable=False),  # JSON list: {"player": id|null, "name": str, "bot": level|null}
    Column("seed", String(64), nullable=False),
    Column("created", Float, nullable=False),
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

# Each migration takes the database from version i to i + 1.
MIGRATIONS: list = [
    lambda conn: metadata.create_all(conn),
]


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


class Store:
    def __init__(self, url: str) -> None:
        url = normalise_url(url)
        kwargs: dict[str, Any] = {"future": True}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _sqlite_pragmas(dbapi_conn, _record):  # WAL: readers do not wait for the writer
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()
        self.migrate()

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
        with self.engine.begin() as conn:
            conn.execute(insert(players).values(id=pid, name=name, token_hash=hash_token(token), created=time.time()))
        return pid, token

    def player_by_token(self, token: str | None) -> dict | None:
        if not token:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(players).where(players.c.token_hash == hash_token(token))).mappings().first()
        return dict(row) if row else None

    # rooms -------------------------------------------------------------------------------

    def create_room(self, variant: str, rules: dict, stake: int, hands: int, host: dict, seats: list[dict]) -> str:
        code = "".join(secrets.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(8))
        with self.engine.begin() as conn:
            conn.execute(insert(rooms).values(code=code, variant=variant, rules=json.dumps(rules), stake=stake,
                                              hands=hands, host=host["id"], status="lobby", seats=json.dumps(seats),
                                              seed=secrets.token_hex(16), created=time.time()))
        return code

    def room(self, code: str) -> dict | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(rooms).where(rooms.c.code == code)).mappings().first()
        if not row:
            return None
        d = dict(row)
        d["rules"] = json.loads(d["rules"])
        d["seats"] = json.loads(d["seats"])
        return d

    def update_room(self, code: str, **values) -> None:
        if "seats" in values:
            values["seats"] = json.dumps(values["seats"])
        with self.engine.begin() as conn:
            conn.execute(update(rooms).where(rooms.c.code == code).values(**values))

    def rooms_with_status(self, status: str) -> list[dict]:
        with self.engine.connect() as conn:
            codes = [r[0] for r in conn.execute(select(rooms.c.code).where(rooms.c.status == status))]
        return [self.room(c) for c in codes]

    # games -------------------------------------------------------------------------------

    def save_game(self, room: str, hand_index: int, records: list[dict], finished: bool,
                  totals: list[int] | None) -> None:
        log = "\n".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records)
        self.save_game_text(room, hand_index, log, finished, totals)

    def save_game_text(self, room: str, hand_index: int, log: str, finished: bool,
                       totals: list[int] | None) -> None:
        with self.engine.begin() as conn:
            existing = conn.execute(select(games.c.id).where(games.c.room == room,
                                                             games.c.hand_index == hand_index)).first()
            values = dict(log=log, finished=finished, totals=json.dumps(totals) if totals is not None else None,
                          updated=time.time())
            if existing:
                conn.execute(update(games).where(games.c.id == existing[0]).values(**values))
            else:
                conn.execute(insert(games).values(room=room, hand_index=hand_index, **values))

    def games_of(self, room: str) -> list[dict]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(games).where(games.c.room == room).order_by(games.c.hand_index)).mappings()
            out = []
            for r in rows:
                d = dict(r)
                d["records"] = [json.loads(x) for x in d.pop("log").splitlines() if x]
                d["totals"] = json.loads(d["totals"]) if d["totals"] else None
                out.append(d)
        return out

    def history(self, player_id: str) -> list[dict]:
        out = []
        with self.engine.connect() as conn:
            codes = [r[0] for r in conn.execute(select(rooms.c.code))]
        for code in codes:
            room = self.room(code)
            seats = [s.get("player") for s in room["seats"]]
            if player_id in seats:
                hands = self.games_of(code)
                totals = [0] * len(seats)
                for h in hands:
                    for i, v in enumerate(h["totals"] or []):
                        totals[i] += v
                out.append({"room": code, "variant": room["variant"], "status": room["status"],
                            "seat": seats.index(player_id), "hands": len(hands), "totals": totals,
                            "created": room["created"]})
        return sorted(out, key=lambda r: -r["created"])
