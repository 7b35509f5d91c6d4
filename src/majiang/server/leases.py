"""Table leases (many workers on one database): which worker drives each live table.

A write made for a table checks its lease row in the same transaction (``_fence``), so a worker that
lost its lease can never store an action. Taking and renewing leases never waits on a lease row
another transaction holds (``FOR UPDATE SKIP LOCKED`` on PostgreSQL), and renewals have their own
connection there, so neither the journal nor slow queries hold them up.
"""

from __future__ import annotations

from sqlalchemy import and_, bindparam, create_engine, select, text

from majiang.server.db import LOCK_TIMEOUT, STATEMENT_TIMEOUT, LeaseLost, table_leases


class LeaseStore:
    """Mixed into ``Store`` (which has ``engine``, ``url``, ``worker``, ``lease_seconds``, ``_write``)."""

    def _leases_engine(self):
        """The lease renewals' own connection on PostgreSQL: a renewal never waits for a connection
        that slow queries (or the journal) hold. SQLite has one writer anyway: the shared engine."""
        if self.engine.dialect.name != "postgresql":
            return self.engine
        if self._lease_engine is None:
            self._lease_engine = create_engine(self.url, future=True, pool_pre_ping=True, pool_size=1,
                                               max_overflow=0, pool_timeout=STATEMENT_TIMEOUT)
        return self._lease_engine

    def _now(self) -> str:
        """The database's clock in epoch seconds, as SQL: every worker compares leases on one clock."""
        if self.engine.dialect.name == "postgresql":
            return "CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS DOUBLE PRECISION)"
        return "((julianday('now') - 2440587.5) * 86400.0)"

    def _skip_locked(self) -> str:
        """``FOR UPDATE SKIP LOCKED`` on PostgreSQL: a lease row another transaction holds (a worker's
        journal in the middle of a write, perhaps stalled) is passed over, never waited for. (SQLite
        locks the whole file; its busy timeout bounds the wait.)"""
        return " FOR UPDATE SKIP LOCKED" if self.engine.dialect.name == "postgresql" else ""

    def take_lease(self, code: str, seconds: float) -> tuple[bool, str | None]:
        """Take the table ``code`` for this worker if nobody holds it, its holder's lease expired, or it
        is already ours; else ask the holder to hand it over. Returns (taken, the holder). A lease row
        locked by another transaction is not waited for: not taken (the caller tries again)."""
        assert self.worker is not None
        now = self._now()
        with self._write() as conn:
            if self._skip_locked():
                free = conn.execute(text(f"SELECT code FROM table_leases WHERE code = :c{self._skip_locked()}"),
                                    {"c": code}).first()
                if free is None:
                    holder = conn.execute(text("SELECT worker FROM table_leases WHERE code = :c"),
                                          {"c": code}).first()
                    if holder is not None:  # locked: its holder is writing (or stalled there)
                        return False, holder[0]
            taken = conn.execute(text(
                f"UPDATE table_leases SET worker = :w, expires = {now} + :t, wanted = NULL "
                f"WHERE code = :c AND (worker = :w OR expires < {now})"),
                {"w": self.worker, "t": seconds, "c": code}).rowcount
            if taken:
                return True, self.worker
            holder = conn.execute(text("SELECT worker FROM table_leases WHERE code = :c"), {"c": code}).first()
            if holder is None:
                conn.execute(text(f"INSERT INTO table_leases (code, worker, expires) VALUES (:c, :w, {now} + :t)"),
                             {"w": self.worker, "t": seconds, "c": code})
                return True, self.worker  # two at once: one insert fails (a StoreError), the caller retries
            conn.execute(text("UPDATE table_leases SET wanted = :w WHERE code = :c AND worker <> :w"),
                         {"w": self.worker, "c": code})
            return False, holder[0]

    def renew_leases(self, codes: list[str], seconds: float) -> dict[str, str | None]:
        """Extend this worker's leases on ``codes``; returns the ones it still holds, each with the
        worker that asks for it (None: nobody). A code missing from the answer was taken over, or its
        lease ran out while its row was locked (a stalled write): the worker steps down from it.
        Locked rows are passed over, not waited for (this worker's own journal extends a row it
        writes)."""
        assert self.worker is not None
        if not codes:
            return {}
        now = self._now()
        with self._write(engine=self._leases_engine()) as conn:
            conn.execute(text(f"UPDATE table_leases SET expires = {now} + :t WHERE code IN "
                              "(SELECT code FROM table_leases WHERE worker = :w AND code IN :codes"
                              f"{self._skip_locked()})")
                         .bindparams(bindparam("codes", expanding=True)),
                         {"t": seconds, "w": self.worker, "codes": list(codes)})
            rows = conn.execute(text(f"SELECT code, wanted FROM table_leases WHERE worker = :w AND code IN :codes "
                                     f"AND expires > {now}").bindparams(bindparam("codes", expanding=True)),
                                {"w": self.worker, "codes": list(codes)}).all()
        return {code: wanted for code, wanted in rows}

    def release_leases(self, codes: list[str] | None = None) -> None:
        """Give up this worker's leases (all of them with None), so another worker takes them at once."""
        if self.worker is None:
            return
        cond = table_leases.c.worker == self.worker
        if codes is not None:
            cond = and_(cond, table_leases.c.code.in_(codes))
        with self._write() as conn:
            conn.execute(table_leases.delete().where(cond))

    def _bounds_sql(self) -> str:
        """The timeouts of one write transaction on PostgreSQL (see ``LOCK_TIMEOUT``)."""
        idle = max(1.0, self.lease_seconds)
        # set_config(…, true) is SET LOCAL: the three in one round trip, ended with the transaction
        return (f"SELECT set_config('lock_timeout', '{int(LOCK_TIMEOUT * 1000)}ms', true), "
                f"set_config('statement_timeout', '{int(STATEMENT_TIMEOUT * 1000)}ms', true), "
                f"set_config('idle_in_transaction_session_timeout', '{int(idle * 1000)}ms', true)")

    def lease_of(self, code: str) -> dict | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(table_leases).where(table_leases.c.code == code)).mappings().first()
        return dict(row) if row else None

    def _fence(self, conn, code: str) -> None:
        row = conn.execute(select(table_leases.c.worker).where(table_leases.c.code == code)
                           .with_for_update()).first()
        if row is None or row[0] != self.worker:
            raise LeaseLost(f"table {code} is driven by another worker now")
        conn.execute(text(f"UPDATE table_leases SET expires = {self._now()} + :t WHERE code = :c"),
                     {"t": self.lease_seconds, "c": code})
