"""``greedy`` (or ``careful``) decided in one native library call, for the web server's event loop.

``GreedyAgent`` in Python takes about 0.2 ms a decision (a shanten per discard) and needs the seat's
observation; the native engine makes the same choice in microseconds from the game's position.
``NativeGreedyAgent.act_in_game`` reads the live ``Game`` only to hand the native engine what
``GreedyAgent`` would read from the seat's observation (its own hand and melds, its void, the
declared waits everyone sees, how many tiles are left): the choice is the one
``GreedyAgent(key)`` would make from that observation, ``key`` drawn from the agent's own
generator for each decision (``tests/test_native_greedy.py`` checks this decision for decision).
Where a position cannot hold the moment (换三张, 定缺, a robbable kong) or the native engine is not
built, the Python agent decides with the same key.
"""

from __future__ import annotations

import random
from typing import Callable

from majiang.bots.base import native_engine
from majiang.bots.greedy import CarefulAgent, GreedyAgent
from majiang.engine import Action
from majiang.engine.position import position_of

POLICIES = {"greedy": GreedyAgent, "careful": CarefulAgent}


class NativeGreedyAgent:
    name = "greedy"
    needs_observation = False  # it decides from the game (act_in_game), not from an observation

    def __init__(self, seed: int = 0, policy: str = "greedy") -> None:
        if policy not in POLICIES:
            raise ValueError(f"policy must be {' or '.join(POLICIES)}, not {policy!r}")
        self.rng = random.Random(seed)
        self.policy = policy
        self.native = native_engine()
        self.fallbacks = 0  # decisions the Python agent made (for tests)

    def act_in_game(self, game, seat: int, legal: list[Action]) -> Action:
        return self.prepare(game, seat, legal)()

    def prepare(self, game, seat: int, legal: list[Action]) -> Callable[[], Action]:
        """``act_in_game`` in two halves: this one reads the game (on the thread that changes it),
        the one it returns decides from what was read (on any thread, while the game moves on)."""
        return self.plan(game, seat, legal)[0]

    def plan(self, game, seat: int, legal: list[Action]) -> tuple[Callable[[], Action], bool]:
        """``prepare``'s decision, and whether it is bounded and cheap: a win, or one native library
        call (tens of microseconds, no search). False: the Python agent decides (换三张, 定缺, a
        robbable kong, no native engine), a shanten per discard."""
        key = self.rng.getrandbits(32)
        win = next((a for a in legal if a.type == "win"), None)
        if win is not None:  # greedy always wins; the engine's win rules (漏胡, …) are the game's
            return (lambda: win), True
        position = position_of(game) if self.native is not None else None
        observation = game.observation(seat) if position is None else None
        rules = game.rules

        def decide() -> Action:
            if position is not None:
                from majiang.native import spec

                try:
                    index = self.native.policy_act(rules, position, seat, key, self.policy)
                except RuntimeError:
                    index = None
                if index is not None:
                    for a in legal:
                        if spec.action_index(a) == index:
                            return a
            self.fallbacks += 1
            return POLICIES[self.policy](key).act(observation if observation is not None
                                                  else game.observation(seat), legal)

        return decide, position is not None


def available() -> bool:
    """Whether the native engine is built and loads (else ``NativeGreedyAgent`` is the Python agent)."""
    return native_engine() is not None
