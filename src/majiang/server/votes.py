"""The match's two questions to its players: 解散 (a vote to end the match) and 再来一局 (a rematch).

解散: a seated player asks; the match ends when every seated human agrees, any refusal cancels the
vote, and it lapses after ``DISSOLVE_SECONDS``; one seat starts at most one vote per
``DISSOLVE_GAP``. The rematch offer is the room the first player to ask opened to play again.
Both are plain state (``to_json``/``load``): the table stores them and a restart resumes them.
"""

from __future__ import annotations

import time
from typing import Callable

from majiang.server.errors import Refusal

DISSOLVE_SECONDS = 60.0  # a 解散 vote lapses after this
DISSOLVE_GAP = 30.0  # one seat starts at most one vote in this many seconds


class DissolveVote:
    def __init__(self, n: int, human: Callable[[int], bool]) -> None:
        self.n = n
        self.human = human
        self.open: dict | None = None  # {"by": seat, "votes": {seat: True}, "until": wall-clock second}
        self.started = [-DISSOLVE_GAP] * n  # monotonic second each seat last started one

    def current(self, now: float | None = None) -> dict | None:
        """The open vote, None when there is none or it lapsed."""
        now = time.time() if now is None else now
        if self.open is not None and now >= self.open["until"]:
            self.open = None
        return self.open

    def view(self) -> dict | None:
        d = self.current()
        if d is None:
            return None
        return {"by": d["by"], "votes": [d["votes"].get(s) if self.human(s) else None for s in range(self.n)],
                "deadline": int(d["until"] * 1000)}

    def cast(self, seat: int, agree: bool) -> bool:
        """A seat's vote (or request); returns whether every seated human agrees now (the match
        ends: the caller stores that, then calls ``carried``). ``MajiangError``: nothing changed."""
        if self.current() is None:
            if not agree:
                raise Refusal("dissolve.no_vote")
            if time.monotonic() - self.started[seat] < DISSOLVE_GAP:
                raise Refusal("dissolve.too_soon")
            self.started[seat] = time.monotonic()
            self.open = {"by": seat, "votes": {}, "until": time.time() + DISSOLVE_SECONDS}
        if not agree:
            self.open = None
            return False
        self.open["votes"][seat] = True
        return all(self.open["votes"].get(s) for s in range(self.n) if self.human(s))

    def carried(self) -> None:
        self.open = None

    def to_json(self) -> dict | None:
        d = self.current()
        return None if d is None else {"by": d["by"], "votes": sorted(d["votes"]), "until": d["until"]}

    def load(self, data: dict | None) -> None:
        if not isinstance(data, dict):
            self.open = None
            return
        self.open = {"by": int(data["by"]), "votes": {int(s): True for s in data.get("votes", [])},
                     "until": float(data["until"])}
        self.current()  # lapsed while the server was away


def rematch_from_json(data) -> dict | None:
    """The stored offer: {"code": the new room, "by": the seat that opened it}."""
    if isinstance(data, dict) and isinstance(data.get("code"), str) and isinstance(data.get("by"), int):
        return {"code": data["code"], "by": data["by"]}
    return None
