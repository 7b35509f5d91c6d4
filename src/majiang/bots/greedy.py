"""``greedy``: wins when it can, otherwise keeps the best shanten (ties: the most useful tiles);
claims a pong or kong only when it does not slow the hand; picks the void suit with the fewest
tiles, passes three of its weakest suit, declares 亮倒 whenever ready."""

from __future__ import annotations

import random

from majiang.bots.base import SeatView, after_kong, exchange_pick, isolation, void_pick
from majiang.core.hand import Meld
from majiang.engine import Action


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: dict, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if "win" in types:
            return next(a for a in legal if a.type == "win")
        view = SeatView(obs)
        if "exchange" in types:
            return exchange_pick(view.counts, legal)
        if "void" in types:
            return void_pick(view.counts)
        if view.phase in ("claim", "rob"):
            return self._claim_decision(view, legal)
        return self._turn(view, legal)

    def _claim_decision(self, view: "SeatView", legal: list[Action]) -> Action:
        return self._claim(view, legal)

    def _turn(self, view: "SeatView", legal: list[Action]) -> Action:
        counts = view.counts
        current = None
        for a in legal:
            if a.type in ("concealed_kong", "added_kong"):
                if current is None:
                    current = view.shanten(counts)
                after, melds = after_kong(view, a)
                if view.shanten(after, melds) <= current:
                    return a
        discards = [a for a in legal if a.type == "discard"]
        declares = {a.tile: a for a in legal if a.type == "declare"}
        best = self._best_discard(view, discards)
        return declares.get(best.tile, best)

    def _best_discard(self, view: SeatView, discards: list[Action]) -> Action:
        counts = view.counts
        scored = []
        for a in discards:
            k = a.tile
            counts[k] -= 1
            s = view.shanten(counts)
            counts[k] += 1
            scored.append((s, isolation(counts, k), self.rng.random(), a))
        scored.sort(key=lambda x: x[:3])
        return scored[0][3]

    def _claim(self, view: SeatView, legal: list[Action]) -> Action:
        pass_action = next((a for a in legal if a.type == "pass"), legal[0])
        t = view.last_discard
        counts = view.counts
        before = view.shanten(counts)
        for a in legal:
            if a.type == "kong":
                after = list(counts)
                after[t] -= 3
                if view.shanten(after, view.melds + [Meld.kong(t)]) <= before:
                    return a
        for a in legal:
            if a.type == "pong":
                after = list(counts)
                after[t] -= 2
                if view.shanten(after, view.melds + [Meld.pong(t)]) < before:
                    return a
        return pass_action
