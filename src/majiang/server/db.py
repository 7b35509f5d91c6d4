"""The database's tables (one ``metadata``: the Alembic revisions' target), the item the journal
stores, and the errors every part of the store raises."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import Boolean, Column, Float, Index, Integer, MetaData, String, Table, Text

from majiang.core.errors import MajiangError
from majiang.server.errors import InfrastructureError

metadata = MetaData()

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
    Column("create_key", String(40), nullable=True),  # the client's key for this creation (a double tap)
    # the live match's own state (托管, 准备, the pending start, the dissolve vote, the rematch offer): JSON
    Column("match_state", Text, nullable=True),
    Index("ix_rooms_host_create_key", "host", "create_key", unique=True),
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
    Column("log", Text, nullable=False),  # empty since revision 0004: the lines are in game_lines
    Column("finished", Boolean, nullable=False, default=False),
    Column("totals", Text, nullable=True),
    Column("updated", Float, nullable=False),  # when the hand was dealt, then when it ended
    # the seat ledger (``lineups``): who sat in each seat of this hand, JSON; null before revision 0007
    Column("lineup", Text, nullable=True),
)
# A hand's log, one row per JSON line (its start record, then its events): storing an action
# appends its new lines, whatever the length of the hand so far.
game_lines = Table(
    "game_lines", metadata,
    Column("game", Integer, primary_key=True),  # games.id
    Column("n", Integer, primary_key=True),  # the line's place in the log, from 0
    Column("line", Text, nullable=False),
)

# 复盘: a finished hand's review of one seat, computed once (``server/reviews.py``) and served from here
# after that; a hand never changes once finished, so neither does its review (revision 0008)
hand_reviews = Table(
    "hand_reviews", metadata,
    Column("game", Integer, primary_key=True),  # games.id
    Column("seat", Integer, primary_key=True),
    Column("review", Text, nullable=False),  # JSON: ``HandReview.to_json`` with each decision's frame
    Column("budget", Integer, nullable=False),  # samples a decision it was computed with
    Column("created", Float, nullable=False),
)


def room_code(digits: int = 6) -> str:
    """A room code of ``digits`` decimal digits, from the OS's randomness (docs/SECURITY.md says why
    six digits with the join limits are enough).

    >>> len(room_code()), room_code().isdigit()
    (6, True)
    """
    return "".join(secrets.choice("0123456789") for _ in range(digits))


@dataclass(frozen=True)
class Append:
    """New lines of one hand's log (``first`` is the place of the first of them), and, when the hand
    ended with them, its totals (and the room's new status when the match ended too)."""

    room: str
    game: int  # games.id, from ``start_hand``
    first: int
    lines: tuple[str, ...]
    finished: bool = False
    totals: tuple[int, ...] | None = None
    room_status: str | None = None
    lease: str | None = None  # the room whose lease this worker must hold (many workers)
    match_state: str | None = None  # the match's state (JSON) to store with these lines (or alone)
    waits: bool = False  # wait for its lease row if another transaction holds it (else: ``LeaseBusy``)


LEASE_SECONDS = 10.0  # a table whose worker stops renewing is taken over this long after its last renewal
# PostgreSQL bounds on every write transaction (seconds): no worker waits without end on a row that a
# stalled worker holds, and the session of a worker stalled inside a transaction is ended (its locks
# freed) after its lease time, so the table can be taken over.
LOCK_TIMEOUT = 2.0
STATEMENT_TIMEOUT = 5.0
table_leases = Table(
    "table_leases", metadata,
    Column("code", String(16), primary_key=True),
    Column("worker", String(64), nullable=False, index=True),
    Column("expires", Float, nullable=False),  # the database's clock, epoch seconds
    Column("wanted", String(64), nullable=True),  # another worker asks for the table (a handover)
)


class StoreError(InfrastructureError):
    """The database refused or could not take a write; nothing was stored."""

    code = "store.unavailable"


class HostLimit(MajiangError):
    """A host already has as many unfinished rooms, or made as many this hour, as one may: counted in
    the transaction that would insert the room, so simultaneous creates cannot pass it."""

    def __init__(self, unfinished: int, recent: int) -> None:
        super().__init__(f"this host has {unfinished} unfinished rooms and made {recent} this hour")
        self.unfinished, self.recent = unfinished, recent


class LeaseLost(StoreError):
    """This worker no longer owns the table it wrote for (another worker took it over); nothing stored."""


class LeaseBusy(StoreError):
    """Another transaction holds this table's lease row (a renewal, or a stalled session): the item
    was not stored and is written again on its own (``Journal``)."""


class SchemaError(InfrastructureError):
    """The database is not at the schema revision this code needs."""

    code = "store.unavailable"
