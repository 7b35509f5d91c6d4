"""Who is at the table: the open connections, who is gone since when, and 托管 (auto play).

托管 is for a player who is really gone: it takes the seat after ``MISSES_BEFORE_AUTO`` missed
decisions in a row or a lost connection, and ends at once on any action, tap or reconnect. A seat
whose 托管 ends while a claim window nobody was shown is open keeps it until that window closes
(``ending``): it answers the window its player never saw.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from majiang.server.clock import MISSES_BEFORE_AUTO


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
        self.auto = [False] * n  # 托管: a bot decides for this human seat until it acts again
        self.missed = [0] * n  # decisions in a row this seat's timer ran out on
        self.ending: set[int] = set()  # 托管 asked off during a held window: off once it closes

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

    def end_auto(self, seat: int, holding: bool) -> bool:
        """The player is back (an action, a tap, a reconnect): 托管 ends, now or once the held window
        closes. Returns whether anything changed now."""
        if holding and self.auto[seat]:
            self.ending.add(seat)
            return False
        changed = self.auto[seat] or self.missed[seat] != 0
        self.auto[seat], self.missed[seat] = False, 0
        return changed

    def window_closed(self) -> None:
        """The held window closed: the 托管 asked off meanwhile ends now."""
        for s in self.ending:
            self.auto[s], self.missed[s] = False, 0
        self.ending.clear()

    def missed_timer(self, seat: int) -> None:
        """One missed timer plays that decision safely; 托管 after ``MISSES_BEFORE_AUTO`` in a row."""
        self.missed[seat] += 1
        if self.missed[seat] >= MISSES_BEFORE_AUTO:
            self.auto[seat] = True

    def reseat(self, changed: list[int]) -> None:
        """New players in these seats: 托管 and missed timers were the last player's."""
        for i in changed:
            self.auto[i], self.missed[i] = False, 0
        for i in range(self.n):
            if self.human(i) and not self.present(i):
                self.absent_since.setdefault(i, time.time())
            else:
                self.absent_since.pop(i, None)

    def to_json(self) -> dict:
        return {"auto": list(self.auto), "missed": list(self.missed)}

    def load(self, data: dict) -> None:
        for key in ("auto", "missed"):
            values = data.get(key)
            if isinstance(values, list) and len(values) == self.n:
                getattr(self, key)[:] = [bool(v) if key == "auto" else int(v) for v in values]
