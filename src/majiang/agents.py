"""Agents: they see one seat's observation and the legal actions, and return one of them.

``random``  a uniformly random legal action.
``greedy``  wins when it can, otherwise keeps the best shanten (ties: the most useful tiles);
            claims a pong or kong only when it does not slow the hand; picks the void suit with
            the fewest tiles and passes three of its weakest suit.
"""

from __future__ import annotations

import random
from typing import Protocol

from .analysis import closed_shanten_function, shanten_counts
from .engine import Action, Game
from .tiles import Tile


class Agent(Protocol):
    name: str

    def act(self, game: Game, seat: int, legal: list[Action]) -> Action: ...


class RandomAgent:
    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, game: Game, seat: int, legal: list[Action]) -> Action:
        return self.rng.choice(legal)


def _shanten_of(game: Game, seat: int, counts) -> int:
    melds = game.melds[seat]
    sets = 4 - len(melds)
    caps = None
    if melds:
        caps = [4] * 30
        for m in melds:
            caps[m.tile] -= m.size
    suits = "".join(sorted({m.tile.suit for m in melds})) if game.play.name == "sichuan" else ""
    return shanten_counts(counts, game.variant, sets, game.void[seat], caps,
                          seven_pairs=not melds, meld_suits=suits)


def _isolation(counts, k: int) -> int:
    """Lower is more useful: neighbours and copies make a tile worth keeping."""
    score = counts[k] * 3
    if k < 27:
        r = k % 9
        for d, w in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
            if 0 <= r + d <= 8:
                score += w * min(counts[k + d], 1)
        if r in (0, 8):
            score -= 1
    return score


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def act(self, game: Game, seat: int, legal: list[Action]) -> Action:
        types = {a.type for a in legal}
        if "win" in types:
            return next(a for a in legal if a.type == "win")
        if "exchange" in types:
            return self._exchange(game, seat, legal)
        if "void" in types:
            h = game.hands[seat]
            counts = {s: sum(h["mps".index(s) * 9:"mps".index(s) * 9 + 9]) for s in "mps"}
            suit = min("mps", key=lambda s: (counts[s], s))
            return Action("void", suit=suit)
        counts = list(game.hands[seat])
        if game.phase == "claim":
            return self._claim(game, seat, legal, counts)
        # own turn: kongs that keep shanten, else the best discard (or 亮倒 with it)
        current = None
        for a in legal:
            if a.type in ("concealed_kong", "added_kong"):
                if current is None:
                    current = self._turn_shanten(game, seat, counts)
                after = list(counts)
                after[a.tile] -= 4 if a.type == "concealed_kong" else 1
                if self._shanten_after_kong(game, seat, after, a) <= current:
                    return a
        discards = [a for a in legal if a.type == "discard"]
        declares = {a.tile: a for a in legal if a.type == "declare"}
        best = self._best_discard(game, seat, counts, discards)
        if best.tile in declares:
            return declares[best.tile]
        return best

    def _turn_shanten(self, game, seat, counts) -> int:
        return _shanten_of(game, seat, counts)  # a 3n+2 hand's shanten is that of its best discard

    def _shanten_after_kong(self, game, seat, after, action) -> int:
        from .hand import Meld
        melds = list(game.melds[seat])
        saved = game.melds[seat]
        if action.type == "concealed_kong":
            melds.append(Meld.concealed_kong(action.tile))
        else:
            melds = [Meld.kong(m.tile, added=True) if m.tile == action.tile else m for m in melds]
        game.melds[seat] = melds
        try:
            return _shanten_of(game, seat, after)  # 3n+1 after the kong, before the replacement
        finally:
            game.melds[seat] = saved

    def _best_discard(self, game, seat, counts, discards: list[Action]) -> Action:
        scored = []
        for a in discards:
            k = a.tile
            counts[k] -= 1
            s = _shanten_of(game, seat, counts)
            counts[k] += 1
            scored.append((s, _isolation(counts, k), self.rng.random(), a))
        scored.sort(key=lambda x: x[:3])
        return scored[0][3]

    def _claim(self, game, seat, legal, counts) -> Action:
        pass_action = next((a for a in legal if a.type == "pass"), legal[0])
        t = game.last_discard[1]
        before = _shanten_of(game, seat, counts)  # 3n+1
        for a in legal:
            if a.type == "kong":
                after = list(counts)
                after[t] -= 3
                from .hand import Meld
                saved = game.melds[seat]
                game.melds[seat] = list(saved) + [Meld.kong(t)]
                try:
                    s = _shanten_of(game, seat, after)
                finally:
                    game.melds[seat] = saved
                if s <= before:
                    return a
        for a in legal:
            if a.type == "pong":
                after = list(counts)
                after[t] -= 2
                from .hand import Meld
                saved = game.melds[seat]
                game.melds[seat] = list(saved) + [Meld.pong(t)]
                try:
                    s = _shanten_of(game, seat, after)  # 3n+2: the best discard after the pong
                finally:
                    game.melds[seat] = saved
                if s < before:
                    return a
        return pass_action

    def _exchange(self, game, seat, legal) -> Action:
        h = game.hands[seat]
        counts = {s: sum(h["mps".index(s) * 9:"mps".index(s) * 9 + 9]) for s in "mps"}
        suit = min((s for s in "mps" if counts[s] >= 3), key=lambda s: (counts[s], s))
        options = [a for a in legal if a.tiles[0].suit == suit]
        return min(options, key=lambda a: sum(_isolation(h, t) for t in a.tiles))


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int = 0) -> Agent:
    try:
        return AGENTS[name](seed)
    except KeyError:
        from .errors import MajiangError
        raise MajiangError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})") from None


def play_hand(game: Game, agents: list, check=None) -> Game:
    """Run a hand to the end, asking each pending seat's agent in seat order."""
    while not game.over:
        seats = game.pending_seats()
        seat = seats[0]
        legal = game.legal_actions(seat)
        action = agents[seat].act(game, seat, legal)
        game.apply(seat, action)
        if check is not None:
            check(game)
    return game


__all__ = ["Agent", "RandomAgent", "GreedyAgent", "make_agent", "play_hand", "closed_shanten_function", "Tile"]
