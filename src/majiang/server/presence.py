"""Who is at the table: the open connections, and who is gone since when. (托管 and missed timers
are the room's state: ``room.py``.)"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

CHAT_GAP = 2.0  # seconds between two messages of one seat; sooner ones are dropped without a word



@dataclass(eq=False)
class Connection:
    """One websocket: what it may see (its seat, or ``None`` for a spectator) and what it was sent."""

    send: Any  # async callable taking a message (a dict) or a snapshot's text (a str)
    seat: int | None
    player: str | None
    last_sent: str = ""  # the last snapshot sent, to send each seat a change once, never a repeat
    kick: Any = None  # a callable that closes the socket (its table moved to another worker)
    patches: bool = False  # after the first snapshot, send only what changed (the browser client)
    last_data: dict | None = None  # the last snapshot as this client holds it (patches apply to it)

    def __hash__(self) -> int:
        return id(self)


class Presence:
    def __init__(self, n: int, human: Callable[[int], bool]) -> None:
        self.n = n
        self.human = human
        self.connections: list[Connection] = []
        self.absent_since: dict[int, float] = {}
        self.chat_at = [-CHAT_GAP] * n  # monotonic second of each seat's last quick message

    def seats_present(self) -> frozenset[int]:
        return frozenset(c.seat for c in self.connections if c.seat is not None)

    def present(self, seat: int) -> bool:
        return any(c.seat == seat for c in self.connections)

    def humans(self) -> list[int]:
        return [s for s in range(self.n) if self.human(s)]

    @property
    def paused(self) -> bool:
        """No seated human is connected: bots wait rather than play a table nobody is at."""
        # one pass over the connections: the driver asks this each time it looks at the table
        connected = {c.seat for c in self.connections}
        seated_human = False
        for s in range(self.n):
            if self.human(s):
                if s in connected:
                    return False
                seated_human = True
        return seated_human

    def arrive(self, conn: Connection) -> None:
        self.connections.append(conn)
        if conn.seat is not None:
            self.absent_since.pop(conn.seat, None)

    def leave(self, conn: Connection) -> None:
        if conn in self.connections:
            self.connections.remove(conn)
        if conn.seat is not None and not self.present(conn.seat):
            self.absent_since[conn.seat] = time.time()

    def drop(self, conn: Connection) -> None:
        """A dead socket (its send failed)."""
        if conn in self.connections:
            self.connections.remove(conn)

    def reseat(self) -> None:
        """New players in some seats: who is away is counted from now for each seat's player."""
        for i in range(self.n):
            if self.human(i) and not self.present(i):
                self.absent_since.setdefault(i, time.time())
            else:
                self.absent_since.pop(i, None)
