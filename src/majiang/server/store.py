"""Persistence: players, rooms and every game's event log, on SQLite (default) or PostgreSQL.

Schema changes are Alembic revisions (``server/migrate.py``, ``server/migrations/``): ``majiang db
upgrade`` applies them once per deploy; an SQLite file (the default) is upgraded when it is opened,
an old one (the numbered ``schema_version`` of earlier releases) in place.

Many workers on one database: each live table is driven by the one worker whose row in
``table_leases`` names it (see ``take_lease``); a write made for a table checks that row in the same
transaction (``lease=code``), so a worker that lost its lease can never store an action.

Every write is one transaction; a write that fails raises ``StoreError`` and leaves the database as
it was, so the caller can refuse the action that needed it (nothing is acknowledged unstored).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from typing import Any

from sqlalchemy import and_, create_engine, event, func, insert, select, update
from sqlalchemy.exc import SQLAlchemyError

from majiang.server import migrate
from majiang.server.appends import AppendStore
from majiang.server.db import (  # noqa: F401 - the schema and errors, named from here as before
    LEASE_SECONDS,
    LOCK_TIMEOUT,
    STATEMENT_TIMEOUT,
    Append,
    HostLimit,
    LeaseBusy,
    LeaseLost,
    SchemaError,
    StoreError,
    game_lines,
    games,
    metadata,
    players,
    room_code,
    room_players,
    rooms,
    table_leases,
)
from majiang.server.db_url import normalise_url
from majiang.server.leases import LeaseStore


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _room_row(row) -> dict:
    d = dict(row)
    d["rules"] = json.loads(d["rules"])
    d["seats"] = json.loads(d["seats"])
    d["settings"] = json.loads(d["settings"]) if d.get("settings") else {}
    return d


class Store(LeaseStore, AppendStore):
    """``upgrade``: take the schema to the newest revision on opening (None: only an SQLite file; a
    shared database is upgraded by ``majiang db upgrade`` and only checked here). ``worker``: this
    worker's id when many share the database (leases are then checked on every table write)."""

    def __init__(self, url: str, upgrade: bool | None = None, worker: str | None = None) -> None:
        url = normalise_url(url)
        self.url = url
        self.worker = worker
        self.lease_seconds = LEASE_SECONDS
        self._lease_engine = None
        self._creating = threading.Lock()  # one room created at a time by this process (the host limit)
        kwargs: dict[str, Any] = {"future": True, "pool_pre_ping": True, "pool_timeout": STATEMENT_TIMEOUT}
        if url.startswith("sqlite"):
            # a file's connection does not go stale as a server's can: no ping before each use.
            # LIFO: the journal gets back the connection it last wrote with, whose page cache is
            # still good (FIFO handed it one another connection's write had made stale: it re-read
            # pages from the file at every commit)
            kwargs.update(connect_args={"check_same_thread": False, "timeout": 5}, pool_pre_ping=False,
                          pool_use_lifo=True)
        self.engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _sqlite_pragmas(dbapi_conn, _record):  # WAL: readers do not wait for the writer
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                # FULL: a commit is on the disk before the action is acknowledged, even if the OS
                # crashes (NORMAL could lose the last commits then; a commit costs one more fsync)
                cur.execute("PRAGMA synchronous=FULL")
                cur.close()
        if upgrade is None:
            upgrade = url.startswith("sqlite")
        if upgrade:
            self.migrate()
        else:
            ok, found = migrate.is_current(self.engine)
            if not ok:
                raise SchemaError(f"the database is at schema revision {found or 'none (empty)'}, this server "
                                  f"needs {migrate.head()}: run majiang db upgrade --db URL first")

    def close(self) -> None:
        """Close the pooled connections (the store stays usable: a later call opens new ones)."""
        for engine in (self.engine, self._lease_engine):
            if engine is not None:
                engine.dispose()

    def _write(self, lease: str | None = None, engine=None):
        """A transaction whose failure is a ``StoreError`` (the caller refuses what needed it). With
        ``lease`` (a room code) and a worker id, the transaction first checks, holding the row, that
        this worker still owns that table (``LeaseLost`` otherwise) and extends the lease."""
        return _Write(self, lease if self.worker else None, engine)

    def migrate(self) -> tuple[str | None, str]:
        """Upgrade the schema to the newest revision (returns the revisions before and after)."""
        return migrate.upgrade(self.engine)

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
                    settings: dict | None = None, create_key: str | None = None,
                    limits: tuple[int, int] | None = None) -> str:
        """A new room in the lobby; its code is six digits, read aloud as the apps' are (more digits
        only once six-digit codes keep colliding). With ``create_key``, a second request of the same
        host with the same key makes nothing and answers with the first one's room. ``limits``
        (unfinished rooms, rooms an hour): counted in the transaction that inserts, holding the
        host's row on PostgreSQL (and one create at a time in this process), so that simultaneous
        creates cannot pass them (``HostLimit``)."""
        if create_key is not None:
            found = self.room_by_create_key(host["id"], create_key)
            if found is not None:
                return found
        now = time.time()
        for attempt in range(40):
            code = room_code(6 + attempt // 8)
            try:
                with self._creating, self._write() as conn:
                    if limits is not None:
                        self._check_host(conn, host["id"], now, limits)
                    conn.execute(insert(rooms).values(code=code, variant=variant, rules=json.dumps(rules), stake=stake,
                                                      hands=hands, host=host["id"], status="lobby",
                                                      seats=json.dumps(seats), seed="-", created=now,
                                                      settings=json.dumps(settings or {}), create_key=create_key))
                    seat = next((i for i, s in enumerate(seats) if s.get("player") == host["id"]), 0)
                    conn.execute(insert(room_players).values(room=code, player=host["id"], seat=seat, created=now))
                return code
            except StoreError:
                if create_key is not None:  # the same key stored meanwhile (two requests at once)
                    found = self.room_by_create_key(host["id"], create_key)
                    if found is not None:
                        return found
                if self.room(code) is None:
                    raise  # not a taken code: the database itself failed
        raise StoreError("no free room code")

    def _check_host(self, conn, host_id: str, now: float, limits: tuple[int, int]) -> None:
        if conn.dialect.name == "postgresql":  # other workers' creates for this host wait for this one
            conn.execute(select(players.c.id).where(players.c.id == host_id).with_for_update())
        unfinished = conn.execute(select(func.count()).select_from(rooms).where(
            rooms.c.host == host_id, rooms.c.status != "finished")).scalar_one()
        recent = conn.execute(select(func.count()).select_from(rooms).where(
            rooms.c.host == host_id, rooms.c.created >= now - 3600)).scalar_one()
        if unfinished >= limits[0] or recent >= limits[1]:
            raise HostLimit(unfinished, recent)

    def room_by_create_key(self, host_id: str, create_key: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(select(rooms.c.code).where(rooms.c.host == host_id,
                                                           rooms.c.create_key == create_key)).scalar_one_or_none()

    def seated_rooms(self, player_id: str, limit: int = 5) -> list[dict]:
        """The unfinished rooms this player has a seat in, newest first (the lobby's 回到牌桌)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rooms.c.code, rooms.c.variant, rooms.c.status, rooms.c.seats, rooms.c.hands,
                       rooms.c.settings, room_players.c.seat)
                .select_from(room_players.join(rooms, rooms.c.code == room_players.c.room))
                .where(room_players.c.player == player_id, rooms.c.status != "finished")
                .order_by(room_players.c.created.desc()).limit(limit)).mappings().all()
        out = []
        for r in rows:
            seats = json.loads(r["seats"])
            mine = seats[r["seat"]] if r["seat"] < len(seats) else {}
            bench = (json.loads(r["settings"] or "{}").get("four") or {}).get("bench") or {}
            if player_id in (mine.get("player"), (mine.get("next") or {}).get("player"), bench.get("player")):
                out.append({"room": r["code"], "variant": r["variant"], "status": r["status"], "seat": r["seat"],
                            "hands": r["hands"], "names": [s.get("name") for s in seats]})
        return out

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

    def update_room(self, code: str, lease: str | None = None, **values) -> None:
        if "seats" in values:
            values["seats"] = json.dumps(values["seats"])
        with self._write(lease) as conn:
            conn.execute(update(rooms).where(rooms.c.code == code).values(**values))

    def take_seat(self, code: str, seat: int, player: dict, seats: list[dict], lease: str | None = None,
                  settings: dict | None = None) -> None:
        """Seat a player (a seat, a seat from the next hand, or with ``settings`` a four-person room's
        bench, seat 3): the room's seats, its settings and the history index in one transaction."""
        values = {"seats": json.dumps(seats)} | ({"settings": json.dumps(settings)} if settings is not None else {})
        with self._write(lease) as conn:
            conn.execute(update(rooms).where(rooms.c.code == code).values(**values))
            created = conn.execute(select(rooms.c.created).where(rooms.c.code == code)).scalar_one()
            conn.execute(insert(room_players).values(room=code, player=player["id"], seat=seat, created=created))

    # games -------------------------------------------------------------------------------

    def start_hand(self, room: str, hand_index: int, lines: list[str], lease: str | None = None,
                   lineup: dict | None = None, room_values: dict | None = None) -> int:
        """Store a new hand's first lines (its start record) and its lineup (who sits where: the
        seat ledger), with what the deal changes in the room (``room_values``: its seats, a
        four-person room's bench, its status and match state), all in one transaction; returns the
        hand's id for ``append``. A hand stored before under the same number (never in play: a
        failed deal) is replaced."""
        values = dict(room_values or {})
        for key in ("seats", "settings"):
            if key in values and not isinstance(values[key], str):
                values[key] = json.dumps(values[key])
        with self._write(lease) as conn:
            if values:
                conn.execute(update(rooms).where(rooms.c.code == room).values(**values))
            old = conn.execute(select(games.c.id).where(games.c.room == room, games.c.hand_index == hand_index)).first()
            if old is not None:
                conn.execute(game_lines.delete().where(game_lines.c.game == old[0]))
                conn.execute(games.delete().where(games.c.id == old[0]))
            game_id = conn.execute(insert(games).values(
                room=room, hand_index=hand_index, log="", finished=False, totals=None, updated=time.time(),
                lineup=json.dumps(lineup) if lineup is not None else None)).inserted_primary_key[0]
            if lines:
                conn.execute(insert(game_lines), [{"game": game_id, "n": n, "line": x} for n, x in enumerate(lines)])
        return int(game_id)

    def games_of(self, room: str, finished_only: bool = False) -> list[dict]:
        """The room's hands in order, each with ``records`` (its log) and ``id`` (for ``append``)."""
        query = select(games).where(games.c.room == room)
        if finished_only:
            query = query.where(games.c.finished.is_(True))
        with self.engine.connect() as conn:
            out = []
            for r in conn.execute(query.order_by(games.c.hand_index)).mappings():
                d = dict(r)
                d["records"] = [json.loads(x) for x in d.pop("log").splitlines() if x]  # before revision 0004
                d["totals"] = json.loads(d["totals"]) if d["totals"] else None
                d["lineup"] = json.loads(d["lineup"]) if d.get("lineup") else None
                out.append(d)
            by_id = {d["id"]: d for d in out}
            if by_id:
                for game_id, line in conn.execute(select(game_lines.c.game, game_lines.c.line)
                                                  .where(game_lines.c.game.in_(list(by_id)))
                                                  .order_by(game_lines.c.game, game_lines.c.n)):
                    by_id[game_id]["records"].append(json.loads(line))
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
                       rooms.c.hands, rooms.c.settings, room_players.c.seat)
                .select_from(room_players.join(rooms, rooms.c.code == room_players.c.room))
                .where(cond).order_by(room_players.c.created.desc()).limit(limit)).mappings().all()
            codes = [r["code"] for r in rows]
            played: dict[str, list[dict]] = {c: [] for c in codes}
            if codes:
                for room, hand, totals, lineup in conn.execute(
                        select(games.c.room, games.c.hand_index, games.c.totals, games.c.lineup).where(
                            games.c.room.in_(codes), games.c.finished.is_(True)).order_by(games.c.hand_index)):
                    played[room].append({"hand_index": hand, "totals": json.loads(totals) if totals else [],
                                         "lineup": json.loads(lineup) if lineup else None})
        from majiang.server.seating import match_record

        return [{"room": r["code"], "variant": r["variant"], "status": r["status"], "hands": len(played[r["code"]]),
                 "match_hands": r["hands"], "created": r["created"],
                 **match_record({"seats": json.loads(r["seats"]), "settings": json.loads(r["settings"] or "{}")},
                                played[r["code"]], player_id, r["seat"])}
                for r in rows]


class _Write:
    def __init__(self, store: Store, lease: str | None = None, engine=None) -> None:
        self.store = store
        self.lease = lease
        self.engine = engine or store.engine
        self.ctx = None

    def __enter__(self):
        try:
            self.ctx = self.engine.begin()
            conn = self.ctx.__enter__()
        except (SQLAlchemyError, OSError) as exc:
            raise StoreError(f"the database is unavailable ({type(exc).__name__})") from exc
        if self.store.engine.dialect.name == "postgresql":
            try:
                conn.exec_driver_sql(self.store._bounds_sql())
            except BaseException as exc:
                self.__exit__(type(exc), exc, exc.__traceback__)
                raise
        if self.lease is not None:
            try:
                self.store._fence(conn, self.lease)
            except BaseException as exc:
                self.__exit__(type(exc), exc, exc.__traceback__)
                raise
        return conn

    def __exit__(self, kind, exc, tb):
        try:
            self.ctx.__exit__(kind, exc, tb)  # commits, or rolls back on an exception
        except (SQLAlchemyError, OSError) as failed:
            raise StoreError(f"the database could not store this ({type(failed).__name__})") from failed
        if isinstance(exc, (SQLAlchemyError, OSError)):
            raise StoreError(f"the database could not store this ({type(exc).__name__})") from exc
        return False
