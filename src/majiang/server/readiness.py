"""准备: the ready check before the first hand (the host asked to start) and between hands.

A seat is ready when its player said so, when it is a bot's, or when it is in 托管 with the page
open (unless every human is away); never for a player who is not connected (the ready timer deals
without them). A table whose humans are all in 托管 or away waits between hands for one of them.
"""

from __future__ import annotations

from majiang.server.presence import Presence


class ReadyCheck:
    def __init__(self, n: int, presence: Presence) -> None:
        self.n = n
        self.presence = presence
        self.ready = [False] * n  # 准备 for the next hand
        self.start_asked: float | None = None  # when the host asked to deal the first hand (its timer)

    def reset(self) -> None:
        self.ready = [False] * self.n

    def waiting_for(self, host: int | None) -> list[int]:
        """Seated humans, the host aside (starting is the host's 准备), not yet ready in the lobby."""
        return [s for s in range(self.n) if self.presence.human(s) and s != host and not self.ready[s]]

    def all_away(self) -> bool:
        """Every seated human is in 托管 or gone and none has said 准备: bots alone would play the
        match out while nobody watches, so the next hand waits for one of them."""
        p = self.presence
        humans = p.humans()
        return bool(humans) and all((p.auto[s] or not p.present(s)) and not self.ready[s] for s in humans)

    def is_ready(self, seat: int) -> bool:
        p = self.presence
        return self.ready[seat] or not p.human(seat) or (p.auto[seat] and p.present(seat) and not self.all_away())

    def everyone_ready(self) -> bool:
        return all(self.is_ready(s) for s in range(self.n))

    def to_json(self) -> dict:
        return {"ready": list(self.ready), "start_asked": self.start_asked}

    def load(self, data: dict, same_hand: bool) -> None:
        """Stored 准备 counts only for the hand it was said after; the pending start always."""
        ready = data.get("ready")
        if same_hand and isinstance(ready, list) and len(ready) == self.n:
            self.ready = [bool(v) for v in ready]
        asked = data.get("start_asked")
        self.start_asked = float(asked) if isinstance(asked, (int, float)) else None
