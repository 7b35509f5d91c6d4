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
                    settings: dict | None = None, create_key: str | None = None) -> str:
        """A new room in the lobby; its code is six digits, read aloud as the apps' are (more digits
        only once six-digit codes keep colliding). With ``create_key``, a second request of the same
        host with the same key makes nothing and answers with the first one's room."""
        if create_key is not None:
            found = self.room_by_create_key(host["id"], create_key)
            if found is not None:
                return found
        now = time.time()
        for attempt in range(40):
            code = room_code(6 + attempt // 8)
            try:
                with self._write() as conn:
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

    def take_seat(self, code: str, seat: int, player: dict, seats: list[dict], lease: str | None = None) -> None:
        """Seat a player: the room's seats and the history index in one transaction."""
        with self._write(lease) as conn:
            conn.execute(update(rooms).where(rooms.c.code == code).values(seats=json.dumps(seats)))
            created = conn.execute(select(rooms.c.created).where(rooms.c.code == code)).scalar_one()
            conn.execute(insert(room_players).values(room=code, player=player["id"], seat=seat, created=created))

    def take_bench(self, code: str, player: dict, settings: dict, lease: str | None = None) -> None:
        """A four-person room's fourth player: the bench (in the room's settings) and the history
        index (seat 3) in one transaction."""
        with self._write(lease) as conn:
            conn.execute(update(rooms).where(rooms.c.code == code).values(settings=json.dumps(settings)))
            created = conn.execute(select(rooms.c.created).where(rooms.c.code == code)).scalar_one()
            conn.execute(insert(room_players).values(room=code, player=player["id"], seat=3, created=created))

    # games -------------------------------------------------------------------------------

    def start_hand(self, room: str, hand_index: int, lines: list[str], lease: str | None = None) -> int:
        """Store a new hand's first lines (its start record); returns its id for ``append``. A hand
        stored before under the same number (never in play: a failed deal) is replaced."""
        with self._write(lease) as conn:
            old = conn.execute(select(games.c.id).where(games.c.room == room, games.c.hand_index == hand_index)).first()
            if old is not None:
                conn.execute(game_lines.delete().where(game_lines.c.game == old[0]))
                conn.execute(games.delete().where(games.c.id == old[0]))
            game_id = conn.execute(insert(games).values(room=room, hand_index=hand_index, log="", finished=False,
                                                        totals=None, updated=time.time())).inserted_primary_key[0]
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
            played: dict[str, dict] = {c: {} for c in codes}
            if codes:
                for room, hand, totals in conn.execute(select(games.c.room, games.c.hand_index, games.c.totals).where(
                        games.c.room.in_(codes), games.c.finished.is_(True))):
                    played[room][hand] = json.loads(totals) if totals else []
        out = []
        for r in rows:
            seats = json.loads(r["seats"])
            names = [s.get("name") for s in seats]
            four = json.loads(r["settings"] or "{}").get("four")
            if four is not None:  # four friends: each person's points over the hands they played
                from majiang.server.sitout import person, person_totals

                keys = [person(s, i) for i, s in enumerate(seats)]
                if four.get("bench"):
                    keys.append(four["bench"]["player"])
                    names.append(four["bench"]["name"])
                by = person_totals(four.get("lineups") or [], played[r["code"]])
                totals = [by.get(k, 0) for k in keys]
                seat = keys.index(player_id) if player_id in keys else r["seat"]
            else:
                totals = [0] * len(seats)
                for t in played[r["code"]].values():
                    for i, v in enumerate(t or []):
                        totals[i] += v
                seat = r["seat"]
            out.append({"room": r["code"], "variant": r["variant"], "status": r["status"], "seat": seat,
                        "hands": len(played[r["code"]]), "match_hands": r["hands"], "totals": totals,
                        "names": names, "created": r["created"]})
        return out


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
