"""``greedy``: wins when it can, otherwise keeps the best shanten (ties: the most useful tiles)
among the discards that do not deal into a revealed hand (``majiang.engine.safety``: none of a
shown wait while another discard is legal); claims a pong or kong only when it does not slow the
hand; picks the void suit with the fewest tiles, passes three of its weakest suit, declares 亮倒
whenever ready."""

from __future__ import annotations

import random

from majiang.bots.base import SeatView, after_kong, exchange_pick, isolation, void_pick
from majiang.core.hand import Meld
from majiang.engine import Action
from majiang.engine.safety import unsafe_tiles


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
        # a shown wait sorts last whatever its shanten: safety first (the native engine's order too)
        forbidden = unsafe_tiles(view.obs)
        counts = view.counts
        scored = []
        for a in discards:
            k = a.tile
            assert k is not None
            counts[k] -= 1
            s = view.shanten(counts)
            counts[k] += 1
            scored.append((k in forbidden, s, isolation(counts, k), self.rng.random(), a))
        scored.sort(key=lambda x: x[:4])
        return scored[0][4]

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


def revealed_waits(view: SeatView) -> set[int]:
    """The kinds another seat still in the hand has shown it wins on (亮倒's and 跳舞's waits;
    唱歌 shows only that the hand is ready): ``majiang.engine.safety.unsafe_tiles`` as kinds."""
    return {int(t) for t in unsafe_tiles(view.obs)}


class CarefulAgent(GreedyAgent):
    """``greedy`` for ``expert``'s rollouts (the native engine plays it decision for decision):
    its discards are greedy's (never a revealed wait while another discard is legal), and in
    Sichuan it pongs when the pong costs no shanten with more than eight tiles left (a kong to
    come: 根 and kong money), as ``strong`` does. Its random draws are greedy's, one per legal
    discard."""

    name = "careful"

    def _claim(self, view: SeatView, legal: list[Action]) -> Action:
        choice = super()._claim(view, legal)
        if choice.type != "pass" or not view.has.blood_battle or view.tiles_left <= 8:
            return choice
        pong = next((a for a in legal if a.type == "pong"), None)
        if pong is not None:
            t = view.last_discard
            assert t is not None
            after = list(view.counts)
            after[t] -= 2
            if view.shanten(after, view.melds + [Meld.pong(t)]) <= view.shanten(view.counts):
                return pong
        return choice
