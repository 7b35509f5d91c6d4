"""``strong``'s defence: how dangerous each discard is (revealed waits, void suits, late-game
threats)."""

from __future__ import annotations

from majiang.bots.base import SeatView
from majiang.core.tiles import ALL_TILES, Tile
from majiang.engine.safety import unsafe_tiles


class Defence:

    def _danger(self, view: SeatView, unseen: list[int]) -> tuple[list[float], set[int]]:
        """A rough weight that discarding each kind deals into someone, and the kinds that surely
        do (a revealed 亮倒/跳舞 wait)."""
        danger = [0.0] * 30
        forbidden: set[int] = {int(t) for t in unsafe_tiles(view.obs)}  # the one notion of a sure deal-in
        late = max(0.0, 1.0 - view.tiles_left / 40.0)
        for p in view.opponents():
            if (p.get("revealed") or {}).get("waits"):
                continue  # its waits are known: forbidden above, no guess needed
            threat = 0.15 + 0.25 * len(p["melds"]) + 0.6 * late + (0.8 if p["declared"] else 0.0)
            their_discards = {Tile.parse(t) for t in p["discards"]}
            for k in range(30):
                if view.has.void_suit and p["void"] and ALL_TILES[k].suit == p["void"]:
                    continue  # they cannot win on their void suit
                if k in their_discards:
                    w = 0.2  # players rarely wait on what they threw away
                elif unseen[k] == 0:
                    w = 0.0
                else:
                    r = k % 9 + 1 if k < 27 else 0
                    w = 0.6 if (k >= 27 or r in (1, 9)) else (0.8 if r in (2, 8) else 1.0)
                    if unseen[k] == 1:
                        w *= 0.5
                danger[k] += threat * w
        return danger, forbidden
