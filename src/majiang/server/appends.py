"""The journal's writes: many hands' new log lines in one transaction (``append``), with each
hand's end and the room's change that came with them, all stored or none.

A write for a table checks its lease in the same transaction when many workers share the database;
a server alone on its SQLite file has no lease to check and writes on the pool's DBAPI connection.
"""

from __future__ import annotations

import json
import time

from sqlalchemy import bindparam, select, text
from sqlalchemy.exc import SQLAlchemyError

from majiang.server.db import Append, LeaseBusy, LeaseLost, StoreError, table_leases


class AppendStore:
    """Mixed into ``Store`` (which has ``engine``, ``worker``, ``lease_seconds``, ``_write``, ``_now``)."""

    def append(self, batch: list[Append]) -> list[StoreError | None]:
        """Store many hands' new lines in one transaction (the journal's batches). Returns, per item,
        None (stored), ``LeaseLost`` (this worker no longer drives that table: nothing of it stored)
        or, unless every item ``waits``, ``LeaseBusy`` (another transaction holds its lease row: not
        stored, not waited for, so one stalled table does not hold up the others in it); a failure
        of the whole transaction raises ``StoreError`` and stores nothing."""
        if self.worker is None and self.engine.dialect.name == "sqlite":
            return self._append_alone(batch)
        outcome: list[StoreError | None] = [None] * len(batch)
        with self._write() as conn:
            leased = {a.lease for a in batch if a.lease is not None and self.worker is not None}
            if leased:  # one fence for the batch: the lease rows held until the commit
                query = (select(table_leases.c.code, table_leases.c.worker)
                         .where(table_leases.c.code.in_(sorted(leased))))
                skip = not all(a.waits for a in batch) and self.engine.dialect.name == "postgresql"
                rows = conn.execute(query.with_for_update(skip_locked=skip)).all()
                mine = sorted(code for code, worker in rows if worker == self.worker)
                busy = leased - {code for code, _ in rows} if skip else set()
                if busy:  # skipped: locked by another transaction (or gone: the item alone finds which)
                    for i, a in enumerate(batch):
                        if a.lease in busy:
                            outcome[i] = LeaseBusy(f"table {a.lease}: its lease row is held by another transaction")
                if mine:
                    conn.execute(text(f"UPDATE table_leases SET expires = {self._now()} + :t WHERE code IN :codes")
                                 .bindparams(bindparam("codes", expanding=True)),
                                 {"t": self.lease_seconds, "codes": mine})
                for i, a in enumerate(batch):
                    if a.lease in leased and a.lease not in mine and outcome[i] is None:
                        outcome[i] = LeaseLost(f"table {a.lease} is driven by another worker now")
            mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
            self._store_lines(conn.exec_driver_sql, [a for a, out in zip(batch, outcome) if out is None], mark)
        return outcome

    def _append_alone(self, batch: list[Append]) -> list[StoreError | None]:
        """A server alone on its SQLite file (no leases to check): the batch in one transaction on
        the pool's own DBAPI connection, without SQLAlchemy's work per transaction and statement.
        That work was half the journal thread's CPU per batch, all of it holding the GIL the event
        loop waits for; what is stored, and the all-or-nothing of it, are the same."""
        try:
            raw = self.engine.raw_connection()
        except (SQLAlchemyError, OSError) as exc:
            raise StoreError(f"the database is unavailable ({type(exc).__name__})") from exc
        try:
            cursor = raw.cursor()
            try:
                self._store_lines(cursor.executemany, batch, "?")
                raw.commit()
            except BaseException:
                raw.rollback()
                raise
            finally:
                cursor.close()
        except (SQLAlchemyError, OSError, self.engine.dialect.dbapi.Error) as exc:
            raise StoreError(f"the database could not store this ({type(exc).__name__})") from exc
        finally:
            raw.close()  # back to the pool
        return [None] * len(batch)

    @staticmethod
    def _store_lines(run, stored: list[Append], mark: str) -> None:
        """The items' lines, and each hand's end and room change, as the driver's own statements:
        ``run(sql, rows)`` executes one for each row (``Connection.exec_driver_sql``, or a DBAPI
        cursor's ``executemany``). The hottest write: no per-row work of SQLAlchemy's."""
        rows = [(a.game, a.first + k, x) for a in stored for k, x in enumerate(a.lines)]
        if rows:
            run(f"INSERT INTO game_lines (game, n, line) VALUES ({mark}, {mark}, {mark})", rows)
        now = time.time()
        for a in stored:
            if a.finished:
                totals = json.dumps(list(a.totals)) if a.totals is not None else None
                run(f"UPDATE games SET finished = {mark}, totals = {mark}, updated = {mark} WHERE id = {mark}",
                    [(True, totals, now, a.game)])
            room = {"status": a.room_status} if a.room_status is not None else {}
            if a.match_state is not None:
                room["match_state"] = a.match_state
            if room:
                columns = ", ".join(f"{column} = {mark}" for column in room)
                run(f"UPDATE rooms SET {columns} WHERE code = {mark}", [(*room.values(), a.room)])
